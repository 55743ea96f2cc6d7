// A member's answer at t = 0, w = 0 (MemberSolution): y and z at its grid points centre + k e_m, k = -2..2, along each
// axis m, gathered for every member of a batch in one pass (MemberStencil), and from them, for an option (a state map
// S(t, w) with dV/dS = value_gradient(t, w, z); z = dy/dw), the price's Greeks at the spot S(0, 0):
//   delta_j   = dV/dS_j = value_gradient(0, 0, z_0)_j,
//   gamma_jk  = d delta_j / dS_k = sum_m (d delta_j / dw_m) (J^-1)_mk,   J_km = dS_k / dw_m,
//   theta     = dV/dt at fixed S = y_t + dy/dw . dw/dt|_S = y_t - z . J^-1 S_t,
//   y_t       = -1/2 sum_m d z_m / dw_m - f(0, 0, y, z)   (the PDE),
// with the w-derivatives of delta and z by fourth-order central differences over the grid points, and J and S_t by
// the same differences of the state map itself at a step of 1e-3.
#pragma once
#include <cmath>
#include <utility>
#include <vector>

#include "sweep_functors.h"

namespace bsde {

// Entry k of the gathered values, k = ((f B + b) A + a) W + o: function f (0: y, 1 + j: z_j) of member b at grid point
// centre + (o - W / 2) stride_a, stride_a the step of axis a (A = d axes).
struct MemberStencil {
    static constexpr int width = 5;  // W
    const double* values;            // a layer's: function f at sweep point g at values[f points + g]
    int points, member_points, centre, members, dimension, M;
    __host__ __device__ double operator()(int k) const {
        const int offset = k % width - width / 2, a = k / width % dimension;
        const int b = k / (width * dimension) % members, f = k / (width * dimension * members);
        int stride = 1;  // (M+1)^(d-1-a): the grid's order, the last axis contiguous
        for (int later = a + 1; later < dimension; ++later) stride *= M + 1;
        return values[std::ptrdiff_t(f) * points + std::ptrdiff_t(b) * member_points + centre + offset * stride];
    }
};

// (f_{-2} - 8 f_{-1} + 8 f_1 - f_2) / (12 h), from f at x + k h, k = -2..2: df/dx + O(h^4).
inline double central_derivative(const double (&f)[MemberStencil::width], double h) {
    return (f[0] - 8.0 * f[1] + 8.0 * f[3] - f[4]) / (12.0 * h);
}

// central_derivative of the function `of` at 0, from its values at k h.
template <class Function>
double central_derivative_of(const Function& of, double h) {
    double f[MemberStencil::width];
    for (int k = 0; k < MemberStencil::width; ++k) f[k] = of((k - MemberStencil::width / 2) * h);
    return central_derivative(f, h);
}

// y and z's d components at a member's grid points centre + (k - W / 2) e_m, k < W, along each axis m.
template <int d>
struct MemberValues {
    double y[d][MemberStencil::width];
    double z[d][d][MemberStencil::width];  // z[j][m]: component j along axis m
};

// x e_m: the point at x on axis m.
template <int d>
Point<d> on_axis(int m, double x) {
    Point<d> p{};
    component(p, m) = x;
    return p;
}

// inverse = J^-1 by Gauss-Jordan elimination with partial pivoting (J regular: the state map's Jacobian).
template <int d>
void invert(double (&J)[d][d], double (&inverse)[d][d]) {
    for (int k = 0; k < d; ++k)
        for (int m = 0; m < d; ++m) inverse[k][m] = k == m ? 1.0 : 0.0;
    for (int c = 0; c < d; ++c) {
        int pivot = c;
        for (int k = c + 1; k < d; ++k)
            if (std::fabs(J[k][c]) > std::fabs(J[pivot][c])) pivot = k;
        std::swap(J[c], J[pivot]);
        std::swap(inverse[c], inverse[pivot]);
        const double scale = 1.0 / J[c][c];
        for (int m = 0; m < d; ++m) {
            J[c][m] *= scale;
            inverse[c][m] *= scale;
        }
        for (int k = 0; k < d; ++k) {
            if (k == c) continue;
            const double factor = J[k][c];
            for (int m = 0; m < d; ++m) {
                J[k][m] -= factor * J[c][m];
                inverse[k][m] -= factor * inverse[c][m];
            }
        }
    }
}

// The Greeks of an option from its delta's w-derivatives D_jm = d delta_j / dw_m, z's divergence sum_m dz_m/dw_m, y and
// z at 0 (header): gamma (d x d, row-major) and theta.
template <class Problem>
void option_greeks(const Problem& problem, const double (&D)[Problem::dimension][Problem::dimension], double divergence,
                   double y, const Point<Problem::dimension>& z, std::vector<double>& gamma, double& theta) {
    constexpr int d = Problem::dimension;
    constexpr double h = 1e-3;
    const Point<d> origin{};
    double J[d][d], S_t[d];  // J_km = dS_k / dw_m
    for (int k = 0; k < d; ++k) {
        S_t[k] = central_derivative_of([&](double t) { return component(problem.state(t, origin), k); }, h);
        for (int m = 0; m < d; ++m)
            J[k][m] = central_derivative_of([&](double x) { return component(problem.state(0.0, on_axis<d>(m, x)), k); },
                                            h);
    }
    double inverse[d][d];  // J^-1
    invert(J, inverse);
    gamma.assign(d * d, 0.0);
    for (int j = 0; j < d; ++j)
        for (int k = 0; k < d; ++k)
            for (int m = 0; m < d; ++m) gamma[j * d + k] += D[j][m] * inverse[m][k];
    theta = -0.5 * divergence - problem.driver(0.0, origin, y, z);
    for (int m = 0; m < d; ++m)
        for (int k = 0; k < d; ++k) theta -= component(z, m) * inverse[m][k] * S_t[k];
}

// The member's solution at w = 0 from its values near it, and its Greeks (header) where it has a state map; the exact
// ones from exact_y and exact_z, their w-derivatives by the differences at a step of 1e-3.
template <class Problem>
MemberSolution member_solution(const Problem& problem, double dx, const MemberValues<Problem::dimension>& near) {
    constexpr int d = Problem::dimension, centre = MemberStencil::width / 2;
    const auto vector_of = [](const Point<d>& p) {
        std::vector<double> v(d);
        for (int k = 0; k < d; ++k) v[k] = component(p, k);
        return v;
    };
    MemberSolution m;
    m.y0 = near.y[0][centre];
    Point<d> z0{};
    for (int j = 0; j < d; ++j) component(z0, j) = near.z[j][0][centre];
    m.z0 = vector_of(z0);
    const Point<d> origin{};
    if constexpr (Problem::has_exact_solution) {
        m.has_exact = true;
        m.y0_exact = problem.exact_y(0.0, origin);
        m.z0_exact = vector_of(problem.exact_z(0.0, origin));
    }
    if constexpr (has_state_map<Problem>::value) {
        m.has_greeks = true;
        m.spot = vector_of(problem.state(0.0, origin));
        m.delta = vector_of(problem.value_gradient(0.0, origin, z0));
        double D[d][d], divergence = 0;
        for (int a = 0; a < d; ++a) {
            double delta_near[d][MemberStencil::width];
            for (int k = 0; k < MemberStencil::width; ++k) {
                Point<d> z{};
                for (int j = 0; j < d; ++j) component(z, j) = near.z[j][a][k];
                const Point<d> delta = problem.value_gradient(0.0, on_axis<d>(a, (k - centre) * dx), z);
                for (int j = 0; j < d; ++j) delta_near[j][k] = component(delta, j);
            }
            for (int j = 0; j < d; ++j) D[j][a] = central_derivative(delta_near[j], dx);
            divergence += central_derivative(near.z[a][a], dx);
        }
        option_greeks(problem, D, divergence, m.y0, z0, m.gamma, m.theta);
        if constexpr (Problem::has_exact_solution) {
            constexpr double h = 1e-3;
            m.delta_exact = vector_of(problem.value_gradient(0.0, origin, problem.exact_z(0.0, origin)));
            double exact_D[d][d], exact_divergence = 0;
            for (int a = 0; a < d; ++a) {
                for (int j = 0; j < d; ++j)
                    exact_D[j][a] = central_derivative_of(
                        [&](double x) {
                            const Point<d> w = on_axis<d>(a, x);
                            return component(problem.value_gradient(0.0, w, problem.exact_z(0.0, w)), j);
                        },
                        h);
                exact_divergence +=
                    central_derivative_of([&](double x) { return component(problem.exact_z(0.0, on_axis<d>(a, x)), a); }, h);
            }
            option_greeks(problem, exact_D, exact_divergence, m.y0_exact, problem.exact_z(0.0, origin),
                          m.gamma_exact, m.theta_exact);
        }
    }
    return m;
}

}  // namespace bsde
