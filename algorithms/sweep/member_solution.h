// A member's answer at t = 0, w = 0 (MemberSolution): y and z at its grid points centre - 2 .. centre + 2 (in 2D along
// the second axis), gathered for every member of a batch in one pass (MemberStencil), and from them, for an option (a
// state map S(t, w) with dV/dS = value_gradient(t, w, z)), the price's Greeks at the spot S(0, 0):
//   delta = dV/dS = value_gradient(0, 0, z_0)                           (per asset in 2D),
//   gamma = d delta / dS = (d delta / dw) / (dS / dw),                   (1D)
//   theta = dV/dt at fixed S = y_t + y_w dw/dt|_S = y_t - z S_t / S_w,   y_t = -1/2 y_ww - f(0, 0, y, z)  (the PDE; 1D),
// with y_ww = dz/dw and d delta / dw by fourth-order central differences over the grid points, and S's derivatives by
// the same differences of the state map itself at a step of 1e-3.
#pragma once
#include "sweep_functors.h"

namespace bsde {

// Entry k of the gathered values: function f = k / (B W) (0: y, 1 + j: z_j) of member b = k % (B W) / W at grid point
// centre + k % W - W / 2.
struct MemberStencil {
    static constexpr int width = 5;  // W
    const double* values;            // a layer's: function f at sweep point g at values[f points + g]
    int points, member_points, centre, members;
    __host__ __device__ double operator()(int k) const {
        const int f = k / (members * width), rest = k % (members * width);
        const int b = rest / width, offset = rest % width - width / 2;
        return values[f * points + b * member_points + centre + offset];
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

// y and z's d components at a member's grid points centre + k - W / 2, k < W.
template <int d>
struct MemberValues {
    double y[MemberStencil::width];
    double z[d][MemberStencil::width];
};

// The member's solution at w = 0 from its values near it, and its Greeks (above) where it has a state map; the exact
// ones from exact_y and exact_z, y_ww and d delta / dw by the differences at a step of 1e-3.
template <class Problem>
MemberSolution member_solution(const Problem& problem, double dx, const MemberValues<Problem::dimension>& near) {
    constexpr int d = Problem::dimension, centre = MemberStencil::width / 2;
    const auto vector_of = [](const Point<d>& p) {
        std::vector<double> v(d);
        for (int k = 0; k < d; ++k) v[k] = component(p, k);
        return v;
    };
    MemberSolution m;
    m.y0 = near.y[centre];
    Point<d> z0{};
    for (int k = 0; k < d; ++k) component(z0, k) = near.z[k][centre];
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
        if constexpr (Problem::has_exact_solution)
            m.delta_exact = vector_of(problem.value_gradient(0.0, origin, problem.exact_z(0.0, origin)));
        if constexpr (d == 1) {
            constexpr double h = 1e-3;
            const double S_w = central_derivative_of([&](double w) { return problem.state(0.0, w); }, h);
            const double S_t = central_derivative_of([&](double t) { return problem.state(t, 0.0); }, h);
            const auto gamma_theta = [&](double y0, double z, double delta_w, double y_ww, double& gamma, double& theta) {
                gamma = delta_w / S_w;
                theta = -0.5 * y_ww - problem.driver(0.0, 0.0, y0, z) - z * S_t / S_w;
            };
            double delta_near[MemberStencil::width];
            for (int k = 0; k < MemberStencil::width; ++k)
                delta_near[k] = problem.value_gradient(0.0, (k - centre) * dx, near.z[0][k]);
            m.has_gamma_theta = true;
            gamma_theta(m.y0, z0, central_derivative(delta_near, dx), central_derivative(near.z[0], dx), m.gamma,
                        m.theta);
            if constexpr (Problem::has_exact_solution) {
                const auto exact_delta = [&](double w) { return problem.value_gradient(0.0, w, problem.exact_z(0.0, w)); };
                const auto exact_z = [&](double w) { return problem.exact_z(0.0, w); };
                gamma_theta(m.y0_exact, m.z0_exact[0], central_derivative_of(exact_delta, h),
                            central_derivative_of(exact_z, h), m.gamma_exact, m.theta_exact);
            }
        }
    }
    return m;
}

}  // namespace bsde
