// Bergman's differential rates (bergman_option.h) on two assets: the call spread on the larger of two correlated
// geometric Brownian motions (correlated_assets.h),
//   g = (M_T - strike1)^+ - 2 (M_T - strike2)^+,   M = max(S^1, S^2)   (S1 = S2 = 100, strikes 120 and 150,
//   mu1 = mu2 = 0.06, sigma1 = sigma2 = 0.2, rho = 0, R_l = 0.04, R_b = 0.06, T = 0.5),
// hedged by a portfolio that lends at R_l and borrows at R_b >= R_l.
//
// The driver. The hedge holds the amounts pi = (pi_1, pi_2) of money in the two assets, dS_k = S_k (mu_k dt + (A dW)_k),
// and y - 1 . pi in the bank: lent at R_l where positive, borrowed at R_b where negative. With
// R_l (y - 1 . pi)^+ - R_b (1 . pi - y)^+ = R_l (y - 1 . pi) - (R_b - R_l) (1 . pi - y)^+ the wealth moves by
//   dy = (R_l (y - 1 . pi) + mu . pi - (R_b - R_l) (1 . pi - y)^+) dt + pi^T A dW,
// which is -dy = f dt - z dW with the row vector z = pi^T A, i.e. pi = A^-T z^T (for a price V(t, S), z = A^T (S * dV/dS)
// and pi = S * dV/dS, the delta hedge), and
//   f(t, w, y, z) = -(R_l y + (mu - R_l 1) . pi - (R_b - R_l) (1 . pi - y)^+),   pi = A^-T z^T.
// (mu - R_l 1) . pi = lambda_l . z, lambda_l = A^-1 (mu - R_l 1): with R_b = R_l = r this is the exchange option's
// driver, and the price is the European E[e^(-r T) g] under the pricing measure, S_k = S_k0 exp((r - s_k^2 / 2) T +
// (A W_T)_k) (tests/test_nonlinear_benchmarks.cpp integrates it over the distribution of M_T). Otherwise there is no
// closed form.
//
// The payoff is kinked where S^1_T = S^2_T with M_T above strike1 (g' moves from one asset to the other), a straight
// line of W-space, which terminal_kink() names (as the exchange option's: the sweep smooths the terminal values across
// it and reads the terminal layer with its kink-line rule); and where M_T = strike1 and M_T = strike2, each the edges
// {S^1 = strike, S^2 <= strike} and {S^2 = strike, S^1 <= strike} of a square in S, two half-lines meeting at a corner
// in W-space, which a 2D problem's single KinkLine cannot name: those are neither smoothed nor read by a rule of their
// own, and y_0 does not converge at the scheme's order (docs/scheme.md, "The nonlinear benchmarks").
#pragma once
#include <cmath>
#include <string>

#include "../algorithms/core/point.h"
#include "../algorithms/scheme/terminal_smoothing.h"
#include "bergman_option.h"
#include "correlated_assets.h"
#include "option_checks.h"
#include "problem_support.h"

namespace bsde {

struct bergman_2d : CorrelatedAssets {
    static constexpr const char* name = "bergman-2d";
    static constexpr const char* alias = "rates2";
    static constexpr const char* description =
        "call spread on the larger of two correlated GBMs, borrowing rate Rb > lending rate Rl (2D): no closed form";
    static constexpr int dimension = 2;
    static constexpr bool has_exact_solution = false;
    static constexpr double default_T = 0.5, default_R = 4.5;
    static constexpr int default_L = 8;

    static std::vector<ParameterInfo> parameters() {
        return {{"S1", "initial price of asset 1", 100.0},
                {"S2", "initial price of asset 2", 100.0},
                {"strike1", "the long call's strike (payoff (S - strike1)^+ - 2 (S - strike2)^+)", 120.0},
                {"strike2", "the two short calls' strike, above strike1", 150.0},
                {"Rl", "lending rate", 0.04},
                {"Rb", "borrowing rate, >= Rl", 0.06},
                {"mu1", "drift of asset 1", 0.06},
                {"mu2", "drift of asset 2", 0.06},
                {"sigma1", "volatility of asset 1", 0.2},
                {"sigma2", "volatility of asset 2", 0.2},
                {"rho", "correlation of the assets, in (-1, 1)", 0.0}};
    }

    double T, strike1, strike2, Rl, Rb;
    double sigma_tilde;  // CorrelatedAssets::spread_volatility
    // -df/dz where the hedge lends, lambda_l = A^-1 (mu - R_l 1), and where it borrows, lambda_b = A^-1 (mu - R_b 1).
    Vec2 lambda_l, lambda_b;

    bergman_2d(double terminal_time, const ProblemParameters& p)
        : CorrelatedAssets(parameter_value<bergman_2d>(p, "S1"), parameter_value<bergman_2d>(p, "S2"),
                           parameter_value<bergman_2d>(p, "mu1"), parameter_value<bergman_2d>(p, "mu2"),
                           parameter_value<bergman_2d>(p, "sigma1"), parameter_value<bergman_2d>(p, "sigma2"),
                           parameter_value<bergman_2d>(p, "rho")),
          T(terminal_time), strike1(parameter_value<bergman_2d>(p, "strike1")),
          strike2(parameter_value<bergman_2d>(p, "strike2")), Rl(parameter_value<bergman_2d>(p, "Rl")),
          Rb(parameter_value<bergman_2d>(p, "Rb")) {
        check_parameter_names<bergman_2d>(p);
        check_assets();
        check_positive({{"strike1", strike1}, {"strike2", strike2}});
        check_rates({{"Rl", Rl}, {"Rb", Rb}, {"mu1", mu1}, {"mu2", mu2}});
        check_differential_rates(Rl, Rb);
        check_spread_strikes(strike1, strike2);
        lambda_l = a_inverse(mu1 - Rl, mu2 - Rl);
        lambda_b = a_inverse(mu1 - Rb, mu2 - Rb);
        sigma_tilde = spread_volatility();
    }

    // df/dz for the stability analysis (problem_support.h): -lambda_l or -lambda_b, the larger in size.
    Vec2 driver_z_gradient() const {
        const auto size = [](Vec2 v) { return v[0] * v[0] + v[1] * v[1]; };
        const Vec2 larger = size(lambda_l) >= size(lambda_b) ? lambda_l : lambda_b;
        return Vec2{{-larger[0], -larger[1]}};
    }

    // S1 and S2 over the square (correlated_assets.h), and the price, which falls like 2 strike2 - strike1 - S_k where
    // an asset is above strike2: along w_1 like S1 ~ e^(a11 w_1), along w_2 like S2 ~ e^(a22 w_2), resolved by the
    // domain, the grid and the rule (option_checks.h). There the hedge is short the asset and lends (1 . pi - y =
    // strike1 - 2 strike2 < 0 at T), so the lending rate's df/dz = -lambda_l moves its weight.
    void check_grid(const SchemeSettings& settings, double dx) const {
        check_asset_ranges(T, settings.R, dx);
        check_price_growth({"--sigma1", "w_1", a11, -lambda_l[0]}, settings, dx);
        check_price_growth({"--sigma2", "w_2", a22, -lambda_l[1]}, settings, dx);
    }

    // S^1_T = S^2_T (the header), and what moves it (the sweep's message when it lies outside the grid's inner half).
    static constexpr const char* kink_advice = equal_prices_advice;
    __host__ __device__ KinkLine terminal_kink() const { return equal_prices_line(T, sigma_tilde); }

    __host__ __device__ double terminal_y(Vec2 w) const {
        const Vec2 S = state(T, w);
        const double M = fmax(S[0], S[1]);
        return fmax(M - strike1, 0.0) - 2.0 * fmax(M - strike2, 0.0);
    }
    // g'(M) grad_w M, grad_w S_k = A^T (S_k e_k); where S^1 = S^2 the mean of the two sides.
    __host__ __device__ Vec2 terminal_z(Vec2 w) const {
        const Vec2 S = state(T, w);
        const double M = fmax(S[0], S[1]);
        const double slope = (M > strike1 ? 1.0 : 0.0) - (M > strike2 ? 2.0 : 0.0);
        const double share1 = S[0] > S[1] ? 1.0 : S[0] < S[1] ? 0.0 : 0.5;
        return gradient_from(share1 * slope * S[0], (1.0 - share1) * slope * S[1]);
    }
    __host__ __device__ double driver(double, Vec2, double y, Vec2 z) const {
        const Vec2 pi = amounts(z);
        return -(Rl * y + (mu1 - Rl) * pi[0] + (mu2 - Rl) * pi[1] - (Rb - Rl) * fmax(pi[0] + pi[1] - y, 0.0));
    }
};

}  // namespace bsde
