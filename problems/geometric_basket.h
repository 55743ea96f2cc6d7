// A call on the geometric average of three correlated geometric Brownian motions with dividend yields delta_k, as an
// FBSDE in W-space (W a standard 3D Brownian motion, correlation through A; exchange_option.h in 2D):
//   Sigma_kl = s_k s_l rho_kl,   A the lower Cholesky factor of Sigma (A A^T = Sigma):
//     a11 = s1,   a21 = rho12 s2,   a22 = s2 sqrt(1 - rho12^2),
//     a31 = rho13 s3,   a32 = s3 (rho23 - rho12 rho13) / sqrt(1 - rho12^2),   a33 = s3 sqrt(q),
//     q = 1 - rho13^2 - (rho23 - rho12 rho13)^2 / (1 - rho12^2) = det(rho) / (1 - rho12^2)
//   S_k(t, w) = S_k0 exp((mu_k - s_k^2 / 2) t + (A w)_k),   k = 1, 2, 3
//   G = (S_1 S_2 S_3)^(1/3),   g(w) = (G_T - K)^+,   f(t, w, y, z) = -(r y + z A^-1 (mu - r + delta)),   z a row vector.
//
// Closed form. Under the pricing measure d ln S_k = (r - delta_k - s_k^2 / 2) dt + (A dB)_k, so
//   d ln G = 1/3 sum_k (r - delta_k - s_k^2 / 2) dt + e . dB,   e = A^T 1 / 3,
// with |e|^2 = 1^T A A^T 1 / 9: G is a geometric Brownian motion of volatility
//   sigma_G^2 = 1/9 sum_kl s_k s_l rho_kl,
// and writing its drift as r - delta_G - sigma_G^2 / 2 gives its yield
//   delta_G = 1/3 sum_k delta_k + 1/6 sum_k s_k^2 - sigma_G^2 / 2   (>= the mean yield: sigma_G^2 <= 1/3 sum s_k^2).
// So V(t, S) is the Black-Scholes call on G of yield delta_G (black_scholes_option.h), tau = T - t:
//   V = G e^(-delta_G tau) N(d_1) - K e^(-r tau) N(d_2),
//   d_{1,2} = (ln(G / K) + (r - delta_G +- sigma_G^2 / 2) tau) / (sigma_G sqrt(tau)),   dV/dG = e^(-delta_G tau) N(d_1).
// In W-space ln G(t, w) = ln G_0 + m_G t + e . w (m_G = 1/3 sum_k (mu_k - s_k^2 / 2)), and S_k dV/dS_k = G dV/dG / 3
// for each k, so z = grad_w V(t, S(t, w)) = A^T (S * dV/dS) = e G dV/dG.
//
// Sign of f: as exchange_option.h's, with sums over three assets. By Ito u(t, w) = V(t, S(t, w)) has
// u_t + 1/2 Laplacian_w u = V_t + sum_k mu_k S_k V_k + 1/2 sum_kl Sigma_kl S_k S_l V_kl, and the pricing PDE turns it
// into r V + sum_k (mu_k - r + delta_k) S_k V_k = r y + z A^-1 (mu - r + delta) = -f.
//
// The kink: G_T = K on the plane e . w = ln K - ln G_0 - m_G T of W-space. |e| = sigma_G, so terminal_kink() gives the
// unit normal n = e / sigma_G and the offset c = (ln K - ln G_0 - m_G T) / sigma_G; the signed distance n . w - c is
// positive in the money (G_T > K), as KinkLine's is for the exchange option (S_T^1 > S_T^2). y and z are smooth on
// either side; z jumps across it by e K.
//
// Not yet here: spot_domain (--spots) and check_grid (the 2D options' checks of the parameters against the grid).
#pragma once
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "../algorithms/core/point.h"
#include "../algorithms/scheme/terminal_smoothing.h"
#include "problem_support.h"

namespace bsde {

struct geometric_basket {
    static constexpr const char* name = "geometric-basket";
    static constexpr const char* alias = "basket3";
    static constexpr const char* description =
        "call on the geometric average of three correlated GBMs with dividends (3D), Black-Scholes on the average";
    static constexpr int dimension = 3;
    static constexpr bool has_exact_solution = true;
    static constexpr double default_T = 1.0, default_R = 8.0;
    static constexpr int default_L = 8;

    static std::vector<ParameterInfo> parameters() {
        return {{"S1", "initial price of asset 1", 100.0},
                {"S2", "initial price of asset 2", 100.0},
                {"S3", "initial price of asset 3", 100.0},
                {"strike", "strike on the geometric average", 100.0},
                {"r", "interest rate", 0.05},
                drift_parameter("mu1", "drift of asset 1 (the price does not depend on it)", "r - delta1"),
                drift_parameter("mu2", "drift of asset 2 (the price does not depend on it)", "r - delta2"),
                drift_parameter("mu3", "drift of asset 3 (the price does not depend on it)", "r - delta3"),
                {"delta1", "dividend yield of asset 1", 0.0},
                {"delta2", "dividend yield of asset 2", 0.0},
                {"delta3", "dividend yield of asset 3", 0.0},
                {"sigma1", "volatility of asset 1", 0.2},
                {"sigma2", "volatility of asset 2", 0.25},
                {"sigma3", "volatility of asset 3", 0.3},
                {"rho12", "correlation of assets 1 and 2, in (-1, 1)", 0.3},
                {"rho13", "correlation of assets 1 and 3, in (-1, 1)", 0.2},
                {"rho23", "correlation of assets 2 and 3, in (-1, 1)", 0.4}};
    }

    // The parameters; the correlation matrix must be positive definite (the constructor's check).
    double T, r, strike, rho12, rho13, rho23;
    Vec3 spot, mu, delta, sigma;
    // Precomputed: A = [[a11, 0, 0], [a21, a22, 0], [a31, a32, a33]]; drift_k = mu_k - s_k^2 / 2; lambda =
    // A^-1 (mu - r + delta), the market price of risk; e = A^T 1 / 3 = grad_w ln G; sigma_G, delta_G, ln G_0 and m_G of
    // the header.
    double a11, a21, a22, a31, a32, a33;
    Vec3 drift, lambda, e;
    double sigma_G, delta_G, log_G0, drift_G;

    static double value(const ProblemParameters& p, const char* parameter) {
        return parameter_value<geometric_basket>(p, parameter);
    }
    static double drift_of(const ProblemParameters& p, const char* parameter, const char* yield) {
        return drift_value<geometric_basket>(p, parameter, value(p, "r") - value(p, yield));
    }

    geometric_basket(double terminal_time, const ProblemParameters& p)
        : T(terminal_time), r(value(p, "r")), strike(value(p, "strike")), rho12(value(p, "rho12")),
          rho13(value(p, "rho13")), rho23(value(p, "rho23")), spot{{value(p, "S1"), value(p, "S2"), value(p, "S3")}},
          mu{{drift_of(p, "mu1", "delta1"), drift_of(p, "mu2", "delta2"), drift_of(p, "mu3", "delta3")}},
          delta{{value(p, "delta1"), value(p, "delta2"), value(p, "delta3")}},
          sigma{{value(p, "sigma1"), value(p, "sigma2"), value(p, "sigma3")}} {
        check_parameter_names<geometric_basket>(p);
        check_positive({{"S1", spot[0]}, {"S2", spot[1]}, {"S3", spot[2]}, {"strike", strike},
                        {"sigma1", sigma[0]}, {"sigma2", sigma[1]}, {"sigma3", sigma[2]}});
        for (const auto& [parameter, rho] : {std::make_pair("rho12", rho12), std::make_pair("rho13", rho13),
                                             std::make_pair("rho23", rho23)})
            if (!(rho > -1.0 && rho < 1.0))
                throw InputError(std::string("--") + parameter + " " + format_number(rho) + ": must lie in (-1, 1)");
        // 1 - rho^2 as (1 - rho)(1 + rho): exact to rounding as rho -> 1
        const double rest12 = (1.0 - rho12) * (1.0 + rho12), rest13 = (1.0 - rho13) * (1.0 + rho13);
        const double cross = rho23 - rho12 * rho13, q = rest13 - cross * cross / rest12;
        // q's terms are O(1): a q within 64 roundings of them is 0 to double precision, and a33 (A^-1) garbage
        if (!(q > 64.0 * DBL_EPSILON))
            throw InputError("--rho12 " + format_number(rho12) + ", --rho13 " + format_number(rho13) + ", --rho23 " +
                             format_number(rho23) + ": the correlation matrix is not positive definite (its determinant "
                             "1 - rho12^2 - rho13^2 - rho23^2 + 2 rho12 rho13 rho23 is " +
                             format_number(rest12 * q, "%.3g") + "; it must exceed 1.4e-14 (1 - rho12^2))");
        check_dividend_yields({{"delta1", delta[0]}, {"delta2", delta[1]}, {"delta3", delta[2]}});
        check_rates({{"r", r}, {"mu1", mu[0]}, {"mu2", mu[1]}, {"mu3", mu[2]}});

        a11 = sigma[0];
        a21 = rho12 * sigma[1];
        a22 = sigma[1] * std::sqrt(rest12);
        a31 = rho13 * sigma[2];
        a32 = sigma[2] * cross / std::sqrt(rest12);
        a33 = sigma[2] * std::sqrt(q);
        for (int k = 0; k < 3; ++k) drift[k] = mu[k] - 0.5 * sigma[k] * sigma[k];
        lambda = a_inverse(Vec3{{mu[0] - (r - delta[0]), mu[1] - (r - delta[1]), mu[2] - (r - delta[2])}});
        e = gradient_from(Vec3{{1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0}});
        double variance = 0.0, mean_delta = 0.0, mean_square = 0.0;
        const double rho[3][3] = {{1.0, rho12, rho13}, {rho12, 1.0, rho23}, {rho13, rho23, 1.0}};
        for (int k = 0; k < 3; ++k) {
            for (int l = 0; l < 3; ++l) variance += sigma[k] * sigma[l] * rho[k][l] / 9.0;
            mean_delta += delta[k] / 3.0;
            mean_square += sigma[k] * sigma[k] / 3.0;
        }
        sigma_G = std::sqrt(variance);
        delta_G = mean_delta + 0.5 * mean_square - 0.5 * variance;
        log_G0 = (std::log(spot[0]) + std::log(spot[1]) + std::log(spot[2])) / 3.0;
        drift_G = (drift[0] + drift[1] + drift[2]) / 3.0;
    }

    // The three prices S(t, w).
    __host__ __device__ Vec3 state(double t, Vec3 w) const {
        const Vec3 x = a_times(w);
        return Vec3{{spot[0] * exp(drift[0] * t + x[0]), spot[1] * exp(drift[1] * t + x[1]),
                     spot[2] * exp(drift[2] * t + x[2])}};
    }
    // (dV/dS_1, dV/dS_2, dV/dS_3) from z = A^T (S * dV/dS).
    __host__ __device__ Vec3 value_gradient(double t, Vec3 w, Vec3 z) const {
        const Vec3 S = state(t, w), amounts = a_transpose_inverse(z);
        return Vec3{{amounts[0] / S[0], amounts[1] / S[1], amounts[2] / S[2]}};
    }
    // ln G(t, w) = ln G_0 + m_G t + e . w.
    __host__ __device__ double log_average(double t, Vec3 w) const {
        return log_G0 + drift_G * t + e[0] * w[0] + e[1] * w[1] + e[2] * w[2];
    }

    // What removes the driver's z term, df/dz = -lambda (the stability refusal's remedy).
    static constexpr const char* driver_z_advice =
        "--mu1, --mu2 and --mu3 equal to r - delta1, r - delta2 and r - delta3 make it 0 and leave the price as it is";
    static constexpr const char* kink_advice =
        "the kink is the plane n . w = (ln(strike) - ln(S1 S2 S3) / 3 - m T) / sigma_G, m the mean of mu_k - "
        "sigma_k^2 / 2, sigma_G^2 the mean of sigma_k sigma_l rho_kl over k, l; change --strike, the spots, the drifts "
        "or the volatilities";
    // Where the payoff has its kink at T: G_T = strike, the plane {w : n . w = c} of the header.
    __host__ __device__ KinkPlane terminal_kink() const {
        return KinkPlane{Vec3{{e[0] / sigma_G, e[1] / sigma_G, e[2] / sigma_G}},
                         (log(strike) - log_G0 - drift_G * T) / sigma_G};
    }

    // The payoff of exercise at (t, w), (G - strike)^+ with G = G(t, w), and its gradient in w, e G where it is positive.
    __host__ __device__ double payoff(double t, Vec3 w) const {
        const double G = exp(log_average(t, w));
        return G > strike ? G - strike : 0.0;
    }
    __host__ __device__ Vec3 payoff_gradient(double t, Vec3 w) const {
        const double G = exp(log_average(t, w));
        return G > strike ? Vec3{{e[0] * G, e[1] * G, e[2] * G}} : Vec3{{0.0, 0.0, 0.0}};
    }
    __host__ __device__ double terminal_y(Vec3 w) const { return payoff(T, w); }
    __host__ __device__ Vec3 terminal_z(Vec3 w) const { return payoff_gradient(T, w); }
    // f = -(r y + lambda . z), affine (affine_driver.h); lambda = 0 at the default drifts.
    __host__ __device__ AffineDriver<3> driver_at(double) const {
        return {0.0, -r, Vec3{{-lambda[0], -lambda[1], -lambda[2]}}};
    }
    __host__ __device__ double driver(double t, Vec3 w, double y, Vec3 z) const { return driver_at(t)(w, y, z); }

    __host__ __device__ static double normal_cdf(double x) { return 0.5 * erfc(-x * 0.70710678118654752440); }

    __host__ __device__ double exact_y(double t, Vec3 w) const {
        const double tau = T - t;
        if (tau <= 0.0) return terminal_y(w);
        const double log_G = log_average(t, w), d1 = d_1(log_G, tau), d2 = d1 - sigma_G * sqrt(tau);
        return exp(log_G - delta_G * tau) * normal_cdf(d1) - strike * exp(-r * tau) * normal_cdf(d2);
    }
    __host__ __device__ Vec3 exact_z(double t, Vec3 w) const {
        const double tau = T - t;
        if (tau <= 0.0) return terminal_z(w);
        const double log_G = log_average(t, w);
        const double G_delta = exp(log_G - delta_G * tau) * normal_cdf(d_1(log_G, tau));  // G dV/dG
        return Vec3{{e[0] * G_delta, e[1] * G_delta, e[2] * G_delta}};
    }

private:
    __host__ __device__ double d_1(double log_G, double tau) const {
        return (log_G - log(strike) + (r - delta_G + 0.5 * sigma_G * sigma_G) * tau) / (sigma_G * sqrt(tau));
    }
    // A w.
    __host__ __device__ Vec3 a_times(Vec3 w) const {
        return Vec3{{a11 * w[0], a21 * w[0] + a22 * w[1], a31 * w[0] + a32 * w[1] + a33 * w[2]}};
    }
    // A^T x: the W-gradient from S * dV/dS = x.
    __host__ __device__ Vec3 gradient_from(Vec3 x) const {
        return Vec3{{a11 * x[0] + a21 * x[1] + a31 * x[2], a22 * x[1] + a32 * x[2], a33 * x[2]}};
    }
    // A^-T z (A^T upper triangular): S * dV/dS from z.
    __host__ __device__ Vec3 a_transpose_inverse(Vec3 z) const {
        const double x3 = z[2] / a33, x2 = (z[1] - a32 * x3) / a22, x1 = (z[0] - a21 * x2 - a31 * x3) / a11;
        return Vec3{{x1, x2, x3}};
    }
    // A^-1 x (A lower triangular).
    Vec3 a_inverse(Vec3 x) const {
        const double v1 = x[0] / a11, v2 = (x[1] - a21 * v1) / a22, v3 = (x[2] - a31 * v1 - a32 * v2) / a33;
        return Vec3{{v1, v2, v3}};
    }
};

}  // namespace bsde
