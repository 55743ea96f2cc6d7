// The Allen-Cahn equation with a travelling-wave solution, in d = 1 and 2 (the nonlinearity of E, Han, Jentzen,
// "Deep learning-based numerical methods for high-dimensional parabolic PDEs and BSDEs" (2017), with terminal data
// of a closed-form solution instead of theirs):
//   f(t, w, y, z) = y - y^3,   g(w) = y(T, w),
//   y = 1 / (1 + e^(-s)) = 1/2 + 1/2 tanh(s / 2),   s = (w_1 + ... + w_d) / sqrt(d) - 3/2 t,   z = y (1 - y) a,
// a = (1, ..., 1) / sqrt(d) the unit vector along which the front moves.
//
// Derivation. The scheme solves -dy = f dt - z dW with X = W, so y_t = u(t, W_t) with
//   u_t + 1/2 Laplacian u + f(t, w, u, grad u) = 0.
// Try a front u = phi(a . w + c t), |a| = 1, phi = 1/2 + 1/2 tanh(k xi): phi' = 2 k phi (1 - phi) and
// phi'' = 4 k^2 phi (1 - phi) (1 - 2 phi), so with f = u - u^3 = u (1 - u) (1 + u) the PDE divided by phi (1 - phi) is
//   2 c k + 2 k^2 (1 - 2 phi) + 1 + phi = 0   for every phi:
// phi's coefficient gives 4 k^2 = 1, the constant 2 c k + 2 k^2 + 1 = 0; k = 1/2, c = -3/2 (k = -1/2, c = 3/2 is
// the same front with a -> -a). The front u = 1/2 + 1/2 tanh(a . w / 2 - 3 t / 4) travels towards +a as t falls.
// E, Han and Jentzen write the PDE as u_t + Laplacian u + u - u^3 = 0 in x = sqrt(2) w (X = x_0 + sqrt(2) W); in w
// that is the PDE above, so their fronts in x are ours with w = x / sqrt(2). (tests/test_nonlinear_benchmarks.cpp
// checks the PDE residual by finite differences.)
#pragma once
#include <cmath>

#include "../algorithms/core/point.h"
#include "problem_support.h"

namespace bsde {

template <int d>
struct AllenCahnNames;
template <>
struct AllenCahnNames<1> {
    static constexpr const char* name = "allen-cahn-1d";
    static constexpr const char* alias = "ac1";
    static constexpr const char* description = "Allen-Cahn: f = y - y^3, travelling front y = 1/(1 + e^(3t/2 - w))";
};
template <>
struct AllenCahnNames<2> {
    static constexpr const char* name = "allen-cahn-2d";
    static constexpr const char* alias = "ac2";
    static constexpr const char* description =
        "Allen-Cahn (2D): f = y - y^3, travelling front y = 1/(1 + e^(3t/2 - (w_1 + w_2)/sqrt 2))";
};

template <int d>
struct allen_cahn_bsde {
    using Names = AllenCahnNames<d>;
    using P = Point<d>;
    static constexpr const char* name = Names::name;
    static constexpr const char* alias = Names::alias;
    static constexpr const char* description = Names::description;
    static constexpr int dimension = d;
    static constexpr bool has_exact_solution = true;
    static constexpr double default_T = 1.0, default_R = PaperGrid<d>::R;
    static constexpr int default_L = PaperGrid<d>::L;

    double T;

    allen_cahn_bsde(double terminal_time, const ProblemParameters& given) : T(terminal_time) {
        check_parameter_names<allen_cahn_bsde>(given);
    }

    // a . w, a = (1, ..., 1) / sqrt(d)
    __host__ __device__ static double along_front(P w) {
        double sum = 0.0;
        for (int k = 0; k < d; ++k) sum += component(w, k);
        return sum / sqrt(double(d));
    }
    __host__ __device__ double exact_y(double t, P w) const {
        return 1.0 / (1.0 + exp(1.5 * t - along_front(w)));  // = 1/2 + 1/2 tanh(s / 2), without overflow
    }
    __host__ __device__ P exact_z(double t, P w) const {
        const double y = exact_y(t, w);
        P z{};
        for (int k = 0; k < d; ++k) component(z, k) = y * (1.0 - y) / sqrt(double(d));
        return z;
    }
    __host__ __device__ double terminal_y(P w) const { return exact_y(T, w); }
    __host__ __device__ P terminal_z(P w) const { return exact_z(T, w); }
    __host__ __device__ double driver(double, P, double y, P) const { return y - y * y * y; }
};

using allen_cahn_1d = allen_cahn_bsde<1>;
using allen_cahn_2d = allen_cahn_bsde<2>;

}  // namespace bsde
