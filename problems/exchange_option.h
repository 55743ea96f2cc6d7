// The paper's Example 5: the zero-strike spread (exchange) option on two correlated geometric Brownian
// motions with dividend yields delta_k (0 in the paper), as an FBSDE in W-space (W a standard 2D Brownian motion,
// correlation through A; correlated_assets.h):
//   A = [[s1, 0], [rho s2, s2 sqrt(1 - rho^2)]]   (A A^T = [[s1^2, rho s1 s2], [rho s1 s2, s2^2]])
//   S_k(t, w) = S_k0 exp((mu_k - s_k^2 / 2) t + (A w)_k),   k = 1, 2
//   f(t, w, y, z) = -(r y + z A^-1 (mu - r + delta)),   g(w) = (S_T^1 - S_T^2)^+,   z a row vector.
// Exact solution (Margrabe, with dividend yields), tau = T - t:
//   V = S1 e^(-delta1 tau) N(d_1) - S2 e^(-delta2 tau) N(d_2),
//   d_{1,2} = (ln(S1 / S2) + (delta2 - delta1 +- sigma~^2 / 2) tau) / (sigma~ sqrt(tau)),
//   sigma~^2 = s1^2 + s2^2 - 2 rho s1 s2;   dV/dS1 = e^(-delta1 tau) N(d_1), dV/dS2 = -e^(-delta2 tau) N(d_2);
//   z = grad_w V(t, S(t, w)) = A^T (S * dV/dS) (componentwise product).
//
// Sign of f. With -dy = f dt - z dW, u(t, w) = V(t, S(t, w)) must satisfy u_t + 1/2 Laplacian_w u + f = 0.
// By Ito, u_t + 1/2 Laplacian_w u = V_t + sum_k mu_k S_k V_k + 1/2 sum_kl (A A^T)_kl S_k S_l V_kl, and the
// pricing PDE V_t + sum_k (r - delta_k) S_k V_k + 1/2 sum_kl (A A^T)_kl S_k S_l V_kl - r V = 0 turns this into
// r V + sum_k (mu_k - r + delta_k) S_k V_k = r y + (A^-T z^T) . (mu - r + delta) = r y + z A^-1 (mu - r + delta);
// so f = -(r y + z A^-1 (mu - r + delta)). (The paper's equation (36) prints +z dW: the misprint of scheme.md's
// errata.) The scheme's own value r does not enter V (Margrabe's price is free of r); it enters f and, with mu, S.
//
// The payoff is kinked where S_T^1 = S_T^2, i.e. on the line (a11 - a21) w_1 - a22 w_2 = ln(S2/S1) -
// (drift1 - drift2) T of W-space (drift_k = mu_k - s_k^2/2), which is not parallel to a grid axis unless
// s1 = rho s2. |(a11 - a21, -a22)| = sigma~, so terminal_kink() gives the unit normal
// n = (a11 - a21, -a22) / sigma~ and the offset c = (ln(S2/S1) - (drift1 - drift2) T) / sigma~ (the line's
// signed distance from w = 0); y and z are smooth on either side, z jumps across it by A^T (S1, -S2).
//
// exchange_option_of<Kind> takes its name and the default dividend yield of asset 1 from Kind: the European option
// (ex5, below) and the American one (american_option.h).
#pragma once
#include <cmath>
#include <string>

#include "../algorithms/core/point.h"
#include "../algorithms/scheme/terminal_smoothing.h"
#include "correlated_assets.h"
#include "option_checks.h"
#include "problem_support.h"
#include "spots.h"

namespace bsde {

struct EuropeanExchange {
    static constexpr const char* name = "exchange";
    static constexpr const char* alias = "ex5";
    static constexpr const char* description =
        "paper's Example 5 (2D): zero-strike spread (exchange) option on two correlated GBMs, Margrabe";
    static constexpr double default_delta1 = 0.0;
};

template <class Kind>
struct exchange_option_of : CorrelatedAssets {
    static constexpr const char* name = Kind::name;
    static constexpr const char* alias = Kind::alias;
    static constexpr const char* description = Kind::description;
    static constexpr int dimension = 2;
    static constexpr bool has_exact_solution = true;
    static constexpr double default_T = 1.0, default_R = 8.0;
    static constexpr int default_L = 8;

    static std::vector<ParameterInfo> parameters() {
        return {{"S1", "initial price of asset 1", 100.0},
                {"S2", "initial price of asset 2", 100.0},
                {"r", "interest rate", 0.05},
                drift_parameter("mu1", "drift of asset 1 (the price does not depend on it)", "r - delta1"),
                drift_parameter("mu2", "drift of asset 2 (the price does not depend on it)", "r - delta2"),
                {"delta1", "dividend yield of asset 1", Kind::default_delta1},
                {"delta2", "dividend yield of asset 2", 0.0},
                {"sigma1", "volatility of asset 1", 0.25},
                {"sigma2", "volatility of asset 2", 0.3},
                {"rho", "correlation of the assets, in (-1, 1)", 0.0}};
    }

    // The parameters (S1, S2, mu1, mu2, sigma1, sigma2, rho and A: CorrelatedAssets). The paper's Example 5 takes
    // mu1 = mu2 = 0.1 (data/table11_ex5.ini) and no dividends; the default drifts, r - delta_k, remove the driver's
    // z term.
    double T, r, delta1, delta2;
    // Precomputed: lambda = A^-1 (mu - r + delta) (the market price of risk); sigma_tilde of Margrabe's formula.
    double lambda1, lambda2, sigma_tilde;

    static double value(const ProblemParameters& p, const char* parameter) {
        return parameter_value<exchange_option_of>(p, parameter);
    }

    exchange_option_of(double terminal_time, const ProblemParameters& p)
        : CorrelatedAssets(value(p, "S1"), value(p, "S2"),
                           drift_value<exchange_option_of>(p, "mu1", value(p, "r") - value(p, "delta1")),
                           drift_value<exchange_option_of>(p, "mu2", value(p, "r") - value(p, "delta2")),
                           value(p, "sigma1"), value(p, "sigma2"), value(p, "rho")),
          T(terminal_time), r(value(p, "r")), delta1(value(p, "delta1")), delta2(value(p, "delta2")) {
        check_parameter_names<exchange_option_of>(p);
        check_assets();
        check_dividend_yields({{"delta1", delta1}, {"delta2", delta2}});  // before the drifts they default
        check_rates({{"r", r}, {"mu1", mu1}, {"mu2", mu2}});
        const Vec2 lambda = a_inverse(mu1 - (r - delta1), mu2 - (r - delta2));  // A lambda = mu - r + delta
        lambda1 = lambda[0];
        lambda2 = lambda[1];
        sigma_tilde = spread_volatility();
    }

    // The parameters against the run's grid, before the sweep allocates (option_checks.h): S1 and S2 over the square,
    // where a . w reaches a11 R and (|a21| + a22) R, and the price, growing like S1 ~ e^(a11 w_1) along w_1, resolved by
    // the domain, the grid and the rule, and bounded along w_2 (y <= S1), by the domain.
    void check_grid(const SchemeSettings& settings, double dx) const {
        check_asset_ranges(T, settings.R, dx);
        check_price_growth({"--sigma1", "w_1", a11, -lambda1}, settings, dx);
        check_domain_holds_bounded_price("w_2", -lambda2, driver_z_advice, settings);
    }

    // The domain the spots need (spots.h): at t = 0, ln S_k - ln S_k0 = (A w)_k, so the box of spots is the
    // parallelogram A^-1 (box of log-spots) in w, held by the w-box of its corners; from there the price's weight at T
    // moves by (a11 + c_1) T along w_1, where the price grows like S1, and by c_2 T along w_2, where it is bounded (c =
    // -lambda the driver's df/dz, as in check_grid). `spots`: one range for both assets, one per asset, or none for
    // the default.
    SpotDomain spot_domain(const std::vector<SpotRange>& spots) const {
        double x1_low = 0, x1_high = 0, x2_low = 0, x2_high = 0;
        const SpotRange first = asset_spots(spots, 0, S1, x1_low, x1_high);
        const SpotRange second = asset_spots(spots, 1, S2, x2_low, x2_high);
        SpotAxis w1{"w_1", INFINITY, -INFINITY, (a11 - lambda1) * T}, w2{"w_2", INFINITY, -INFINITY, -lambda2 * T};
        for (const double x1 : {x1_low, x1_high})
            for (const double x2 : {x2_low, x2_high}) {
                const Vec2 v = a_inverse(x1, x2);  // A v = x
                w1.low = std::fmin(w1.low, v[0]);
                w1.high = std::fmax(w1.high, v[0]);
                w2.low = std::fmin(w2.low, v[1]);
                w2.high = std::fmax(w2.high, v[1]);
            }
        return {{first, second}, {w1, w2}, T};
    }

    // Where the payoff has its kink at T: S_T^1 = S_T^2, the line {w : n . w = c} of the header; and what moves it
    // (the sweep's message when it lies outside the grid's inner half).
    // What removes the driver's z term, df/dz = -lambda, lambda = A^-1 (mu - r + delta) (the stability refusal's
    // remedy).
    static constexpr const char* driver_z_advice =
        "--mu1 and --mu2 equal to r - delta1 and r - delta2 make it 0 and leave the price as it is";
    static constexpr const char* kink_advice = equal_prices_advice;
    __host__ __device__ KinkLine terminal_kink() const { return equal_prices_line(T, sigma_tilde); }

    // The payoff of exercise at (t, w), (S1 - S2)^+ with S = S(t, w), and its gradient in w, A^T (S1, -S2) where it is
    // positive: the terminal data, and the American option's obstacle (american_option.h).
    __host__ __device__ double payoff(double t, Vec2 w) const {
        const Vec2 S = state(t, w);
        return S[0] > S[1] ? S[0] - S[1] : 0.0;
    }
    __host__ __device__ Vec2 payoff_gradient(double t, Vec2 w) const {
        const Vec2 S = state(t, w);
        return S[0] > S[1] ? gradient_from(S[0], -S[1]) : Vec2{{0.0, 0.0}};
    }
    __host__ __device__ double terminal_y(Vec2 w) const { return payoff(T, w); }
    __host__ __device__ Vec2 terminal_z(Vec2 w) const { return payoff_gradient(T, w); }
    // f = -(r y + lambda . z), affine (affine_driver.h). Its df/dz = -lambda is large where |rho| -> 1 or a sigma -> 0
    // (unless mu - r + delta lies along A's columns), which the stability analysis then finds unstable (stability.h).
    __host__ __device__ AffineDriver<2> driver_at(double) const { return {0.0, -r, Vec2{{-lambda1, -lambda2}}}; }
    __host__ __device__ double driver(double t, Vec2 w, double y, Vec2 z) const { return driver_at(t)(w, y, z); }

    __host__ __device__ static double normal_cdf(double x) { return 0.5 * erfc(-x * 0.70710678118654752440); }

    __host__ __device__ double exact_y(double t, Vec2 w) const {
        const double tau = T - t;
        if (tau <= 0.0) return terminal_y(w);
        const Vec2 S = state(t, w);
        const double d1 = d_1(S, tau), d2 = d1 - sigma_tilde * sqrt(tau);
        return S[0] * exp(-delta1 * tau) * normal_cdf(d1) - S[1] * exp(-delta2 * tau) * normal_cdf(d2);
    }
    __host__ __device__ Vec2 exact_z(double t, Vec2 w) const {
        const double tau = T - t;
        if (tau <= 0.0) return terminal_z(w);
        const Vec2 S = state(t, w);
        const double d1 = d_1(S, tau), d2 = d1 - sigma_tilde * sqrt(tau);
        return gradient_from(S[0] * exp(-delta1 * tau) * normal_cdf(d1), -S[1] * exp(-delta2 * tau) * normal_cdf(d2));
    }

private:
    __host__ __device__ double d_1(Vec2 S, double tau) const {
        return (log(S[0] / S[1]) + (delta2 - delta1 + 0.5 * sigma_tilde * sigma_tilde) * tau) / (sigma_tilde * sqrt(tau));
    }
};

using exchange_option = exchange_option_of<EuropeanExchange>;

}  // namespace bsde
