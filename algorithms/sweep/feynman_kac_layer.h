// The start-up layers of a problem with an affine driver, f = a(t) + b(t) y + c(t) . z (affine_driver.h), and no
// obstacle, from the terminal data alone by the Feynman-Kac formula (scheme.md, "Start-up values"): with
// tau = T - t,
//   y(t, w) = e^B E[g(w + C + dW)] + A,   z(t, w) = e^B E[g(w + C + dW) dW] / tau,   dW ~ N(0, tau I),
//   B = int_t^T b,   C = int_t^T c,   A = int_t^T a(s) e^(int_t^s b) ds
// (the weight Gamma_{t,s} = exp(int b + int c . dW - |c|^2 / 2 int 1) of the linear BSDE, and Girsanov's shift
// of W by int c). It is exact in time: each layer N-j is one Gaussian integral of g at variance j dt, with no fine steps
// whose z divides the interpolation's error by a small step.
#pragma once
#include <cmath>

#include "../core/affine_driver.h"
#include "../core/host_device.h"
#include "../core/point.h"
#include "../scheme/expectation_rules.h"
#include "sweep_functors.h"

namespace bsde {

// B, C and A of the formula above for the interval [t, T], by 16-point Gauss-Legendre in s (and in the inner
// integral of b): exact to rounding for coefficients constant in time.
template <int d>
struct AffineFlow {
    double B = 0.0;
    Point<d> C{};
    double A = 0.0;

    template <class Problem>
    static AffineFlow over(const Problem& problem, double t, double T) {
        AffineFlow flow;
        const double half = 0.5 * (T - t);
        for (int q = 0; q < GaussLegendre16::points; ++q) {
            const double s = t + half * (1.0 + GaussLegendre16::node(q)), weight = half * GaussLegendre16::weight(q);
            const AffineDriver<d> f = problem.driver_at(s);
            flow.B += weight * f.b;
            for (int k = 0; k < d; ++k) component(flow.C, k) += weight * component(f.c, k);
            flow.A += weight * f.a * std::exp(integral_of_b(problem, t, s));
        }
        return flow;
    }

private:
    template <class Problem>
    static double integral_of_b(const Problem& problem, double t, double s) {
        const double half = 0.5 * (s - t);
        double sum = 0.0;
        for (int q = 0; q < GaussLegendre16::points; ++q)
            sum += half * GaussLegendre16::weight(q) * problem.driver_at(t + half * (1.0 + GaussLegendre16::node(q))).b;
        return sum;
    }
};

// E[g(x + dW)], E[g(x + dW) dW] and E[|g(x + dW)|] of a problem's terminal data about a point x, over a rule's
// increments dW.
template <class Problem>
struct TerminalMomentsAbout {
    static constexpr int d = Problem::dimension, dimension = d;
    const Problem& problem;
    Point<d> x;
    double y = 0.0, magnitude = 0.0;
    Point<d> y_dw{};
    __host__ __device__ void add(const Point<d>& dW, double omega) {
        const double g = problem.terminal_y(x + dW);
        y += omega * g;
        magnitude += omega * fabs(g);
        for (int k = 0; k < d; ++k) component(y_dw, k) += omega * g * component(dW, k);
    }
};

// The Gaussian integral of the terminal data about x along the line x + u n (1D: n = 1; 2D: n the kink line's normal,
// times Gauss-Hermite along the line, t = (-n_2, n_1); 3D: n the kink plane's normal, times the tensor Gauss-Hermite
// rule along the plane, PlaneTangents): F(u) = g(x + u n) in 1D, sum_l omega_l g(x + u n + v_l t) in
// 2D, sum_lm omega_l omega_m g(x + u n + v_l t_1 + v_m t_2) in 3D, integrated against the N(0, tau) density of u in panels cut at the kinks (the offsets u of g's kinks from x,
// sorted), where F is smooth between them. Over [-8.5 sd, 8.5 sd], then outward a panel at a time while F's
// weight at the edge is above 1e-16 of the magnitude so far: data that grow like e^(sigma u) put their weight about
// sigma tau from x, which at a large sigma sqrt(tau) lies beyond 8.5 sd.
template <class Problem>
struct NormalLineIntegral {
    static constexpr int d = Problem::dimension;
    static constexpr int most_cuts = KinkPoints::capacity;
    static constexpr double reach = 8.5, panel = 17.0 / 3.0;  // in sd
    static constexpr int most_panels_outward = 64;            // on each side
    TerminalMomentsAbout<Problem>& moments;
    Point<d> normal;
    const GaussHermiteExpectation& along;  // 2D, 3D: the nodes v_l = sqrt(2 tau) a_l along the line or plane
    double cuts[most_cuts];
    int count;
    double tau;

    __host__ __device__ void operator()(double u, double omega) const { along_the_kink(u, AddMoments{moments, omega}); }

    // u, the offset of a kink from x, into the sorted cuts.
    __host__ __device__ void add_cut(double u) {
        int at = count++;
        for (; at > 0 && cuts[at - 1] > u; --at) cuts[at] = cuts[at - 1];
        cuts[at] = u;
    }

    __host__ __device__ void integrate() const {
        const double sd = sqrt(tau), width = panel * sd;
        pieces(-reach * sd, reach * sd, width);
        for (int s = 0; s < 2; ++s) {
            const double side = s == 0 ? 1.0 : -1.0;
            double edge = reach * sd;
            for (int p = 0; p < most_panels_outward && edge_weight(side * edge, width) > 1e-16 * moments.magnitude; ++p) {
                const double next = edge + width;
                pieces(side > 0 ? edge : -next, side > 0 ? next : -edge, width);
                edge = next;
            }
        }
    }

private:
    // [lo, hi] cut at the kinks inside, in panels of width <= width (normal_density_panels, 16-point Gauss-Legendre).
    __host__ __device__ void pieces(double lo, double hi, double width) const {
        double from = lo;
        for (int k = 0; k < count; ++k)
            if (cuts[k] > lo && cuts[k] < hi) {
                normal_density_panels<GaussLegendre16>(from, cuts[k], width, tau, *this, SingleLane{});
                from = cuts[k];
            }
        normal_density_panels<GaussLegendre16>(from, hi, width, tau, *this, SingleLane{});
    }
    struct AddMoments {  // the moments of g at x + dW, with weight omega times the node's
        TerminalMomentsAbout<Problem>& moments;
        double omega;
        __host__ __device__ void operator()(const Point<d>& dW, double weight) const { moments.add(dW, omega * weight); }
    };
    struct AddMagnitude {  // F += weight |g(x + dW)|
        const TerminalMomentsAbout<Problem>& moments;
        double& F;
        __host__ __device__ void operator()(const Point<d>& dW, double weight) const {
            F += weight * fabs(moments.problem.terminal_y(moments.x + dW));
        }
    };
    // visit(dW, weight) for the increments u n (+ the nodes along the kink) and their Gauss-Hermite weights along it.
    template <class Visit>
    __host__ __device__ void along_the_kink(double u, const Visit& visit) const {
        if constexpr (d == 1) {
            visit(u, 1.0);
        } else if constexpr (d == 2) {
            const double shift = sqrt(2.0 * tau);
            for (int l = 0; l < along.L; ++l) visit(across_and_along(normal, u, shift * along.nodes[l]), along.weights[l]);
        } else {
            const double shift = sqrt(2.0 * tau);
            const PlaneTangents plane = PlaneTangents::of(normal);
            for (int l = 0; l < along.L; ++l)
                for (int m = 0; m < along.L; ++m)
                    visit(plane.across_and_along(normal, u, shift * along.nodes[l], shift * along.nodes[m]),
                          along.weights[l] * along.weights[m]);
        }
    }
    // |F(u)| p(u) width: about what a panel of that width at u would add to the magnitude.
    __host__ __device__ double edge_weight(double u, double width) const {
        double F = 0.0;
        along_the_kink(u, AddMagnitude{moments, F});
        return F * exp(-0.5 * u * u / tau) / sqrt(2.0 * 3.14159265358979323846 * tau) * width;
    }
};

// Layer t = T - tau at sweep point g (formula above, its member's: Members) from the terminal data g themselves, not
// the grid's smoothed layer: in 1D by NormalLineIntegral cut at g's kink points; in 2D (3D) by NormalLineIntegral across
// g's kink line (plane) where it lies within 8.5 sd, else by the tensor Gauss-Hermite rule. So the layers err by the
// quadrature's error alone.
template <class Problem>
struct FeynmanKacLayer {
    static constexpr int d = Problem::dimension;
    Members<Problem> members;
    const AffineFlow<d>* flows;  // each member's over [T - tau, T]
    LayerView layer;
    GridPoints<d> grid;
    double tau;
    GaussHermiteExpectation along;  // 2D, 3D: Gauss-Hermite along the kink, and the tensor rule away from it

    __host__ __device__ void operator()(int g) const {
        const int member = members.member(g);
        const Problem problem = members.problems[member];
        const AffineFlow<d> flow = flows[member];
        TerminalMomentsAbout<Problem> moments{problem, grid(members.point(g)) + flow.C};
        NormalLineIntegral<Problem> line{moments, unit_normal(problem), along, {}, 0, tau};
        if constexpr (d == 1) {
            if constexpr (has_terminal_kink<Problem>::value) {
                const KinkPoints kinks = kinks_of(problem.terminal_kink());
                for (int k = 0; k < kinks.count; ++k) line.add_cut(kinks.at[k] - moments.x);
            }
            line.integrate();
        } else {
            // away from the kink line (or without one) the tensor Gauss-Hermite rule of the main steps, whose --L the
            // problem's checks size for its data at the larger variance K dt
            double u = INFINITY;
            if constexpr (has_terminal_kink<Problem>::value) u = -problem.terminal_kink().distance(moments.x);
            if (fabs(u) < NormalLineIntegral<Problem>::reach * sqrt(tau)) {
                line.add_cut(u);
                line.integrate();
            } else {
                along(tau, moments);
            }
        }
        const double growth = exp(flow.B);
        Point<d> z{};
        for (int k = 0; k < d; ++k) component(z, k) = growth * component(moments.y_dw, k) / tau;
        store_point(layer, g, growth * moments.y + flow.A, z);
    }

private:
    __host__ __device__ static Point<d> unit_normal(const Problem& problem) {
        if constexpr (has_terminal_kink<Problem>::value && d > 1) {
            return problem.terminal_kink().normal;
        } else {
            Point<d> axis1{};
            component(axis1, 0) = 1.0;
            return axis1;
        }
    }
};

}  // namespace bsde
