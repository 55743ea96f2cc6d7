// Example 4 in three dimensions: a linear 3D BSDE whose solution is the sine of w_1 + w_2 + w_3 + t.
//   f(t, w, y, z) = 3/2 y - (z_1 + z_2 + z_3) / 3,   g(w) = sin(w_1 + w_2 + w_3 + T)
//   y = sin s,   z = (cos s, cos s, cos s),   s = w_1 + w_2 + w_3 + t
//
// The driver. The scheme solves -dy = f dt - z dW, so y_t = u(t, W_t) with
//   u_t + 1/2 (u_w1w1 + u_w2w2 + u_w3w3) + f(t, w, u, grad u) = 0   (sine_sum_bsde.h).
// With u = sin s: u_t = cos s and 1/2 Laplacian u = 1/2 (-3 sin s), so f must equal 3/2 sin s - cos s along the
// solution. An affine f = b y + c . z gives b sin s + (c_1 + c_2 + c_3) cos s there, and sin s, cos s are independent
// functions of s: b = 3/2, and c may be any point of the plane c_1 + c_2 + c_3 = -1 (the family of drivers with this
// solution). The symmetric c = (-1/3, -1/3, -1/3) is the point of that plane nearest 0, in the Euclidean norm and in
// the largest component alike, so it has the smallest |c|: 1/3 per component against ex4's 1/2, |c| = 1/sqrt(3)
// against ex4's 1/sqrt(2); the scheme's stability falls with |c| sqrt(dt) (stability.h). It is ex4's form in d
// dimensions, f = d/2 y - (z_1 + ... + z_d) / d, which gives ex4's y - (z_1 + z_2) / 2 at d = 2.
//
// Defaults: T = 1 and R = 8 as ex4 (|y| <= 1, nothing grows towards the domain's ends). L = 8 as ex4: the tensor rule
// of a function of w_1 + w_2 + w_3 factors, E[e^(i (x_1 + x_2 + x_3))] = prod_k E[e^(i x_k)], so each axis has ex4's
// one-dimensional quadrature error and the 3D error is 3/2 times the 2D one; more nodes would cost (L'/8)^3 each point
// for nothing the solution needs.
#pragma once
#include <cmath>

#include "../algorithms/core/point.h"
#include "problem_support.h"

namespace bsde {

struct sine_sum_3d_bsde {
    static constexpr const char* name = "sine-sum-3d";
    static constexpr const char* alias = "ex4-3d";
    static constexpr const char* description =
        "Example 4 in 3D: f = 3/2 y - (z_1 + z_2 + z_3)/3, y = sin(w_1 + w_2 + w_3 + t)";
    static constexpr int dimension = 3;
    static constexpr bool has_exact_solution = true;
    static constexpr double default_T = 1.0, default_R = 8.0;
    static constexpr int default_L = 8;

    double T;

    sine_sum_3d_bsde(double terminal_time, const ProblemParameters& given) : T(terminal_time) {
        check_parameter_names<sine_sum_3d_bsde>(given);
    }

    __host__ __device__ double exact_y(double t, Vec3 w) const { return sin(w[0] + w[1] + w[2] + t); }
    __host__ __device__ Vec3 exact_z(double t, Vec3 w) const {
        const double c = cos(w[0] + w[1] + w[2] + t);
        return Vec3{{c, c, c}};
    }
    __host__ __device__ double terminal_y(Vec3 w) const { return exact_y(T, w); }
    __host__ __device__ Vec3 terminal_z(Vec3 w) const { return exact_z(T, w); }
    // f = 3/2 y - (z_1 + z_2 + z_3) / 3, affine (affine_driver.h)
    __host__ __device__ AffineDriver<3> driver_at(double) const {
        return {0.0, 1.5, Vec3{{-1.0 / 3.0, -1.0 / 3.0, -1.0 / 3.0}}};
    }
    __host__ __device__ double driver(double t, Vec3 w, double y, Vec3 z) const { return driver_at(t)(w, y, z); }
};

}  // namespace bsde
