// The paper's Example 4 (from Zhao et al. 2006): a linear 2D BSDE whose solution is the sine of w_1 + w_2 + t.
//   f(t, w, y, z) = y - (z_1 + z_2) / 2,   g(w) = sin(w_1 + w_2 + T)
//   y = sin(w_1 + w_2 + t),   z = (cos(w_1 + w_2 + t), cos(w_1 + w_2 + t))
//
// Sign of f. The scheme solves -dy = f dt - z dW, so y_t = u(t, W_t) with
//   u_t + 1/2 (u_w1w1 + u_w2w2) + f(t, w, u, grad u) = 0.
// With s = w_1 + w_2 + t and u = sin s: u_t = cos s and 1/2 (u_w1w1 + u_w2w2) = 1/2 (-2 sin s) = -sin s, so
// f must be sin s - cos s = u - (u_w1 + u_w2) / 2 = y - (z_1 + z_2) / 2: the paper's f = y - z A with
// A = (1/2, 1/2)^T, as written in its equation (34). (tests/test_problems_2d.cpp checks the PDE residual.)
#pragma once
#include <cmath>

#include "../algorithms/core/point.h"
#include "problem_support.h"

namespace bsde {

struct sine_sum_bsde {
    static constexpr const char* name = "sine-sum";
    static constexpr const char* alias = "ex4";
    static constexpr const char* description =
        "paper's Example 4 (2D): f = y - (z_1 + z_2)/2, y = sin(w_1 + w_2 + t)";
    static constexpr int dimension = 2;
    static constexpr bool has_exact_solution = true;
    static constexpr double default_T = 1.0, default_R = 8.0;
    static constexpr int default_L = 8;

    double T;

    sine_sum_bsde(double terminal_time, const ProblemParameters& given) : T(terminal_time) {
        check_parameter_names<sine_sum_bsde>(given);
    }

    __host__ __device__ double exact_y(double t, Vec2 w) const { return sin(w[0] + w[1] + t); }
    __host__ __device__ Vec2 exact_z(double t, Vec2 w) const {
        const double c = cos(w[0] + w[1] + t);
        return Vec2{{c, c}};
    }
    __host__ __device__ double terminal_y(Vec2 w) const { return exact_y(T, w); }
    __host__ __device__ Vec2 terminal_z(Vec2 w) const { return exact_z(T, w); }
    // f = y - (z_1 + z_2) / 2, affine (affine_driver.h)
    __host__ __device__ AffineDriver<2> driver_at(double) const { return {0.0, 1.0, Vec2{{-0.5, -0.5}}}; }
    __host__ __device__ double driver(double t, Vec2 w, double y, Vec2 z) const { return driver_at(t)(w, y, z); }
};

}  // namespace bsde
