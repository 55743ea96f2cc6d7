// The Hamilton-Jacobi-Bellman equation of a linear-quadratic control problem, in d = 1 and 2 (E, Han, Jentzen,
// "Deep learning-based numerical methods for high-dimensional parabolic PDEs and BSDEs" (2017)):
//   u_t + Laplacian_x u - lambda |grad_x u|^2 = 0,   u(T, x) = ln((1 + |x|^2) / 2),
// solved by Cole-Hopf: psi = e^(-lambda u) solves psi_t + Laplacian_x psi = 0, the heat equation of X = x + sqrt(2) W, so
//   u(t, x) = -1/lambda ln E[exp(-lambda u(T, x + sqrt(2) W_(T-t)))].
//
// Convention. Our forward process is W (generator 1/2 Laplacian_w), so the problem lives in w = x / sqrt(2): with
// y(t, w) = u(t, sqrt(2) w), grad_w y = sqrt(2) grad_x u and Laplacian_w y = 2 Laplacian_x u, and the PDE reads
//   y_t + 1/2 Laplacian_w y - lambda/2 |grad_w y|^2 = 0,
// i.e. -dy = f dt - z dW with
//   f(t, w, y, z) = -lambda/2 |z|^2,   g(w) = ln((1 + 2 |w|^2) / 2) = ln(1/2 + |w|^2),   z = grad_w y.
// lambda is the PDE's (the control cost's). Our z = sqrt(2) grad_x u is the DeepBSDE code's Z = sigma^T grad_x u with
// sigma = sqrt(2) (Han, Jentzen, E 2018, whose f is -lambda |Z|^2 / 2 too); written in grad_x u, the driver is
// -lambda |grad_x u|^2 (a factor 2 that the factor sqrt(2) of the gradient takes back: |Z|^2 = 2 |grad_x u|^2).
//
// Exact solution. With tau = T - t and xi ~ N(0, I_d), e^(-lambda g) = (2 / (1 + 2 |w + sqrt(tau) xi|^2))^lambda, and
// (1 + q)^(-lambda) = 1/Gamma(lambda) int_0^inf s^(lambda-1) e^(-s (1 + q)) ds turns the Gaussian expectation into one
// of a Gaussian, E[e^(-2 s (w_k + sqrt(tau) xi_k)^2)] = (1 + 4 s tau)^(-1/2) e^(-2 s w_k^2 / (1 + 4 s tau)):
//   psi = E[e^(-lambda g)] = 2^lambda / Gamma(lambda) int_0^inf s^(lambda-1) e^(-s) F(s) ds,
//   F(s) = (1 + 4 s tau)^(-d/2) exp(-2 s |w|^2 / (1 + 4 s tau)),
//   y = -1/lambda ln psi,   z = grad_w y = 4 w J / (lambda I),   I = int s^(lambda-1) e^(-s) F ds,
//   J = int s^(lambda-1) e^(-s) F s / (1 + 4 s tau) ds (F differentiated under the integral).
// With s = e^v both integrands are analytic and bounded in the strip |Im v| < pi/2 (1 + 4 tau s has its zero at
// Im v = pi, Re(s) >= 0 keeps F's exponent's real part <= 0 and e^(-s) bounded) and decay double-exponentially as
// v -> +inf, exponentially (e^(lambda v)) as v -> -inf: the trapezoidal rule in v of step h errs by about
// e^(-2 pi a / h) for a < pi/2 (h = 1/8, a = 1.2: e^(-60)). Its range: e^(lambda v - e^v) is below e^(-40) of its
// peak beyond s = lambda + 45 + 10 sqrt(lambda); and I >= (1 + 2 |w|^2)^(-lambda) / (e lambda (1 + 4 tau)) (the part
// s <= 1 / (1 + 2 |w|^2)) while the part v < v_0 is below e^(lambda v_0) / lambda, so v_0 = -ln(1 + 2 |w|^2) -
// 42 / lambda leaves out at most e (1 + 4 tau) e^(-42) of I. (About 400 nodes for lambda = 1, 10 (1 + 4/lambda)
// in general; tests/test_nonlinear_benchmarks.cpp checks the sums against composite Gauss-Legendre in xi.)
#pragma once
#include <cmath>

#include "../algorithms/core/point.h"
#include "problem_support.h"

namespace bsde {

template <int d>
struct HjbNames;
template <>
struct HjbNames<1> {
    static constexpr const char* name = "hjb-1d";
    static constexpr const char* alias = "hjb1";
    static constexpr const char* description =
        "HJB u_t + u_xx - lambda u_x^2 = 0, g = ln((1 + x^2)/2), x = sqrt(2) w: f = -lambda z^2 / 2, Cole-Hopf";
};
template <>
struct HjbNames<2> {
    static constexpr const char* name = "hjb-2d";
    static constexpr const char* alias = "hjb2";
    static constexpr const char* description =
        "HJB (2D) u_t + Laplacian u - lambda |grad u|^2 = 0, g = ln((1 + |x|^2)/2), x = sqrt(2) w: f = -lambda |z|^2 / 2";
};

// The least lambda: the exact solution's sum takes about 42 / (lambda h) = 336 / lambda nodes a point, over 3000 below
// 0.1. (check_grid bounds it from above, with R.)
constexpr double hjb_least_lambda = 0.1;
// The sums' terms are at most 1 and at least about (1 + 2 |w|^2)^(-lambda): beyond e^(-600) (ln DBL_MIN = -708) they
// underflow, and the exact y with them.
constexpr double hjb_least_log_sum = -600.0;

template <int d>
struct hjb_bsde {
    using Names = HjbNames<d>;
    using P = Point<d>;
    static constexpr const char* name = Names::name;
    static constexpr const char* alias = Names::alias;
    static constexpr const char* description = Names::description;
    static constexpr int dimension = d;
    static constexpr bool has_exact_solution = true;
    static constexpr double default_T = 1.0, default_R = PaperGrid<d>::R;
    static constexpr int default_L = PaperGrid<d>::L;

    static std::vector<ParameterInfo> parameters() {
        return {{"lambda", "the control cost: u_t + Laplacian u - lambda |grad u|^2 = 0", 1.0}};
    }

    double T, lambda;
    double log_scale;  // y = log_scale - ln(I') / lambda, I' = I e^(lambda - lambda ln lambda) (see exact_sums)

    hjb_bsde(double terminal_time, const ProblemParameters& given)
        : T(terminal_time), lambda(parameter_value<hjb_bsde>(given, "lambda")) {
        check_parameter_names<hjb_bsde>(given);
        if (!(lambda >= hjb_least_lambda))
            throw InputError("--lambda " + format_number(lambda) + ": must be >= " + format_number(hjb_least_lambda) +
                             " (the exact solution's sum takes about 340 / lambda nodes a point)");
        // -1/lambda ln(2^lambda / Gamma(lambda)) and the peak's factor e^(lambda ln lambda - lambda) taken out of I
        log_scale = -std::log(2.0) + (std::lgamma(lambda) - lambda * std::log(lambda) + lambda) / lambda;
    }

    // The exact solution's sums must stay normal doubles over the domain [-R, R]^d (|w|^2 <= d R^2).
    void check_grid(const SchemeSettings& settings, double) const {
        const double smallest = -lambda * std::log(1.0 + 2.0 * d * settings.R * settings.R);
        if (!(smallest >= hjb_least_log_sum))
            throw InputError("--lambda " + format_number(lambda) + " with R = " + format_number(settings.R) +
                             ": the exact solution's sums, about (1 + 2 |w|^2)^(-lambda) at the domain's corners, "
                             "underflow (e^(" + format_number(smallest, "%.4g") + ")); lower --lambda or --R");
    }

    __host__ __device__ static double squared_norm(P w) {
        double sum = 0.0;
        for (int k = 0; k < d; ++k) sum += component(w, k) * component(w, k);
        return sum;
    }

    __host__ __device__ double terminal_y(P w) const { return log(0.5 + squared_norm(w)); }
    __host__ __device__ P terminal_z(P w) const {
        const double scale = 2.0 / (0.5 + squared_norm(w));
        P z{};
        for (int k = 0; k < d; ++k) component(z, k) = scale * component(w, k);
        return z;
    }
    __host__ __device__ double driver(double, P, double, P z) const { return -0.5 * lambda * squared_norm(z); }

    // I' and J' (I and J times e^(lambda - lambda ln lambda)) at tau > 0 and |w|^2 = q: the trapezoidal rule in v
    // above, each term e^(lambda (v - ln lambda) - (e^v - lambda)) <= 1.
    struct Sums {
        double I, J;
    };
    __host__ __device__ Sums exact_sums(double tau, double q) const {
        const double h = 0.125;
        const double first = -log(1.0 + 2.0 * q) - 42.0 / lambda, last = log(lambda + 45.0 + 10.0 * sqrt(lambda));
        const double log_lambda = log(lambda);
        Sums sums{0.0, 0.0};
        const int nodes = static_cast<int>(ceil((last - first) / h));
        for (int m = 0; m <= nodes; ++m) {
            const double v = first + m * h, s = exp(v), spread = 1.0 + 4.0 * s * tau;
            const double term = exp(lambda * (v - log_lambda) - (s - lambda) - 2.0 * s * q / spread) *
                                pow(spread, -0.5 * d);
            sums.I += term;
            sums.J += term * s / spread;
        }
        sums.I *= h;
        sums.J *= h;
        return sums;
    }

    __host__ __device__ double exact_y(double t, P w) const {
        const double tau = T - t;
        if (tau <= 0.0) return terminal_y(w);
        return log_scale - log(exact_sums(tau, squared_norm(w)).I) / lambda;
    }
    __host__ __device__ P exact_z(double t, P w) const {
        const double tau = T - t;
        if (tau <= 0.0) return terminal_z(w);
        const Sums sums = exact_sums(tau, squared_norm(w));
        const double scale = 4.0 * sums.J / (lambda * sums.I);
        P z{};
        for (int k = 0; k < d; ++k) component(z, k) = scale * component(w, k);
        return z;
    }
};

using hjb_1d = hjb_bsde<1>;
using hjb_2d = hjb_bsde<2>;

}  // namespace bsde
