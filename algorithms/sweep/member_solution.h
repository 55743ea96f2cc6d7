// A 1D member's answer at t = 0, w = 0 (MemberSolution): y and z at its grid points centre - 2 .. centre + 2, gathered
// for every member of a batch in one pass (MemberStencil), and from them, for an option (a state map S(t, w) with
// dV/dS = value_gradient(t, w, z)), the price's Greeks at the spot S(0, 0):
//   delta = dV/dS = value_gradient(0, 0, z_0),
//   gamma = d delta / dS = (d delta / dw) / (dS / dw),
//   theta = dV/dt at fixed S = y_t + y_w dw/dt|_S = y_t - z S_t / S_w,   y_t = -1/2 y_ww - f(0, 0, y, z)  (the PDE),
// with y_ww = dz/dw and d delta / dw by fourth-order central differences over the grid points, and S's derivatives by
// the same differences of the state map itself at a step of 1e-3.
#pragma once
#include "sweep_functors.h"

namespace bsde {

// Entry k of the gathered values: function f = k / (B W) (0: y, 1: z) of member b = k % (B W) / W at grid point
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

// The member's solution at w = 0 from y and z at the grid points w = (k - 2) dx, and its Greeks (above) where it has a
// state map; the exact ones from exact_y and exact_z, y_ww and d delta / dw by the differences at a step of 1e-3.
template <class Problem>
MemberSolution member_solution(const Problem& problem, double dx, const double (&y)[MemberStencil::width],
                               const double (&z)[MemberStencil::width]) {
    constexpr int centre = MemberStencil::width / 2;
    MemberSolution m;
    m.y0 = y[centre];
    m.z0 = z[centre];
    if constexpr (Problem::has_exact_solution) {
        m.has_exact = true;
        m.y0_exact = problem.exact_y(0.0, 0.0);
        m.z0_exact = problem.exact_z(0.0, 0.0);
    }
    if constexpr (has_state_map<Problem>::value) {
        constexpr double h = 1e-3;
        const double S_w = central_derivative_of([&](double w) { return problem.state(0.0, w); }, h);
        const double S_t = central_derivative_of([&](double t) { return problem.state(t, 0.0); }, h);
        const auto greeks = [&](double y0, double z0, double delta_w, double y_ww, double& delta, double& gamma,
                                double& theta) {
            delta = problem.value_gradient(0.0, 0.0, z0);
            gamma = delta_w / S_w;
            theta = -0.5 * y_ww - problem.driver(0.0, 0.0, y0, z0) - z0 * S_t / S_w;
        };
        double delta_near[MemberStencil::width];
        for (int k = 0; k < MemberStencil::width; ++k)
            delta_near[k] = problem.value_gradient(0.0, (k - centre) * dx, z[k]);
        m.has_greeks = true;
        m.spot = problem.state(0.0, 0.0);
        greeks(m.y0, m.z0, central_derivative(delta_near, dx), central_derivative(z, dx), m.delta, m.gamma, m.theta);
        if constexpr (Problem::has_exact_solution) {
            const auto exact_delta = [&](double w) { return problem.value_gradient(0.0, w, problem.exact_z(0.0, w)); };
            const auto exact_z = [&](double w) { return problem.exact_z(0.0, w); };
            greeks(m.y0_exact, m.z0_exact, central_derivative_of(exact_delta, h), central_derivative_of(exact_z, h),
                   m.delta_exact, m.gamma_exact, m.theta_exact);
        }
    }
    return m;
}

}  // namespace bsde
