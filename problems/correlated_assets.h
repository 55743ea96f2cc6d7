// Two correlated geometric Brownian motions in W-space (W a standard 2D Brownian motion, correlation through A): the
// forward process of the 2D options (exchange_option.h, bergman_2d.h).
//   A = [[s1, 0], [rho s2, s2 sqrt(1 - rho^2)]]   (A A^T = [[s1^2, rho s1 s2], [rho s1 s2, s2^2]])
//   S_k(t, w) = S_k0 exp((mu_k - s_k^2 / 2) t + (A w)_k),   k = 1, 2
// A price V(t, S) has z = grad_w V(t, S(t, w)) = A^T (S * dV/dS) (componentwise product), so S * dV/dS = A^-T z: the
// amounts held in each asset by the hedge.
#pragma once
#include <cmath>
#include <string>

#include "../algorithms/core/point.h"
#include "../algorithms/scheme/terminal_smoothing.h"
#include "option_checks.h"
#include "problem_support.h"

namespace bsde {

struct CorrelatedAssets {
    double S1, S2, mu1, mu2, sigma1, sigma2, rho;
    // A = [[a11, 0], [a21, a22]]; drift_k = mu_k - s_k^2 / 2.
    double a11, a21, a22, drift1, drift2;

    // The parameters as given; the problem checks them (S1, S2, sigma1, sigma2 > 0, rho in (-1, 1): check_assets).
    CorrelatedAssets(double S1_, double S2_, double mu1_, double mu2_, double sigma1_, double sigma2_, double rho_)
        : S1(S1_), S2(S2_), mu1(mu1_), mu2(mu2_), sigma1(sigma1_), sigma2(sigma2_), rho(rho_), a11(sigma1),
          a21(rho * sigma2), a22(sigma2 * std::sqrt(1.0 - rho * rho)), drift1(mu1 - 0.5 * sigma1 * sigma1),
          drift2(mu2 - 0.5 * sigma2 * sigma2) {}

    void check_assets() const {
        check_positive({{"S1", S1}, {"S2", S2}, {"sigma1", sigma1}, {"sigma2", sigma2}});
        if (!(rho > -1.0 && rho < 1.0)) throw InputError("--rho " + format_number(rho) + ": must lie in (-1, 1)");
    }

    // The two prices (S^1, S^2) at (t, w).
    __host__ __device__ Vec2 state(double t, Vec2 w) const {
        return Vec2{{S1 * exp(drift1 * t + a11 * w[0]), S2 * exp(drift2 * t + a21 * w[0] + a22 * w[1])}};
    }
    // A^-T z: S * dV/dS from z = A^T (S * dV/dS) (A^T upper triangular).
    __host__ __device__ Vec2 amounts(Vec2 z) const {
        const double g2 = z[1] / a22, g1 = (z[0] - a21 * g2) / a11;
        return Vec2{{g1, g2}};
    }
    // (dV/dS1, dV/dS2) from z.
    __host__ __device__ Vec2 value_gradient(double t, Vec2 w, Vec2 z) const {
        const Vec2 S = state(t, w), g = amounts(z);
        return Vec2{{g[0] / S[0], g[1] / S[1]}};
    }
    // A^T (x1, x2): the W-gradient from S * dV/dS = (x1, x2).
    __host__ __device__ Vec2 gradient_from(double x1, double x2) const {
        return Vec2{{a11 * x1 + a21 * x2, a22 * x2}};
    }
    // A^-1 (x1, x2) (A lower triangular): the market price of risk A^-1 (mu - r 1), and w from log-prices.
    Vec2 a_inverse(double x1, double x2) const {
        const double v1 = x1 / a11, v2 = (x2 - a21 * v1) / a22;
        return Vec2{{v1, v2}};
    }

    // sigma~ = |row 1 of A - row 2| = sqrt(s1^2 + s2^2 - 2 rho s1 s2), the volatility of ln(S^1 / S^2).
    double spread_volatility() const {
        return std::sqrt(sigma1 * sigma1 + sigma2 * sigma2 - 2.0 * rho * sigma1 * sigma2);
    }
    // The line of W-space where S^1_T = S^2_T, (a11 - a21) w_1 - a22 w_2 = ln(S2/S1) - (drift1 - drift2) T: the unit
    // normal n = (a11 - a21, -a22) / sigma~ and the offset c = (ln(S2/S1) - (drift1 - drift2) T) / sigma~ (sigma~ =
    // spread_volatility()); not ln(S2 / S1), which may underflow.
    __host__ __device__ KinkLine equal_prices_line(double T, double sigma_tilde) const {
        return KinkLine{Vec2{{(a11 - a21) / sigma_tilde, -a22 / sigma_tilde}},
                        (log(S2) - log(S1) - (drift1 - drift2) * T) / sigma_tilde};
    }
    // What moves the line (the kink_advice of a payoff kinked along it).
    static constexpr const char* equal_prices_advice =
        "its offset is (ln(S2 / S1) - (mu1 - mu2 - (sigma1^2 - sigma2^2) / 2) T) / sigma, sigma^2 = sigma1^2 + "
        "sigma2^2 - 2 rho sigma1 sigma2; change --S1, --S2, the drifts or the volatilities";

    // S1 and S2 over the square, where a . w reaches a11 R and (|a21| + a22) R (option_checks.h).
    void check_asset_ranges(double T, double R, double dx) const {
        check_asset_range({"S1", "--S1", "--sigma1", "--mu1 " + format_number(mu1) + ", --sigma1 " + format_number(sigma1),
                           S1, drift1, a11, sigma1},
                          T, R, dx);
        check_asset_range({"S2", "--S2", "--sigma2",
                           "--mu2 " + format_number(mu2) + ", --sigma2 " + format_number(sigma2) + ", --rho " +
                               format_number(rho),
                           S2, drift2, std::fabs(a21) + a22, sigma2},
                          T, R, dx);
    }
};

}  // namespace bsde
