// The paper's Example 3: a European option under Black-Scholes with dividend yield, as an FBSDE in
// W-space. S = S0 exp((mu - sigma^2/2) t + sigma w), z = sigma S dV/dS,
//   f(t, w, y, z) = -(r y + (mu - r + delta) z / sigma),   g = payoff(S_T).
// Exact solution (scheme.md erratum: -delta in d_1, d_2), tau = T - t:
//   d_{1,2} = (ln(S / K) + (r - delta +- sigma^2 / 2) tau) / (sigma sqrt(tau))
//   call: V = S e^(-delta tau) N(d_1) - K e^(-r tau) N(d_2),      dV/dS = e^(-delta tau) N(d_1)
//   put:  V = K e^(-r tau) N(-d_2) - S e^(-delta tau) N(-d_1),   dV/dS = -e^(-delta tau) N(-d_1)
#pragma once
#include <cmath>
#include <string>

#include "option_checks.h"
#include "problem_support.h"
#include "spots.h"

namespace bsde {

struct CallPayoff {
    static constexpr const char* name = "bs-call";
    static constexpr const char* alias = "ex3";
    static constexpr const char* description = "paper's Example 3: European call, Black-Scholes with dividends";
    static constexpr double sign = 1.0;  // payoff (sign (S - K))^+
};

struct PutPayoff {
    static constexpr const char* name = "bs-put";
    static constexpr const char* alias = "ex3-put";
    static constexpr const char* description = "European put, Black-Scholes with dividends";
    static constexpr double sign = -1.0;
};

template <class Payoff>
struct black_scholes_option {
    static constexpr const char* name = Payoff::name;
    static constexpr const char* alias = Payoff::alias;
    static constexpr const char* description = Payoff::description;
    static constexpr int dimension = 1;
    static constexpr bool has_exact_solution = true;
    static constexpr double default_T = 0.33, default_R = 16.0;
    static constexpr int default_L = 32;

    static std::vector<ParameterInfo> parameters() {
        return {{"S0", "initial stock price", 100.0},
                {"strike", "strike", 100.0},
                {"r", "interest rate", 0.03},
                drift_parameter("mu", "drift of the stock (the price does not depend on it)", "r - delta"),
                {"delta", "dividend yield", 0.04},
                {"sigma", "volatility", 0.2}};
    }

    // The paper's Example 3 takes mu = 0.05 (data/table8_ex3.ini); the default, r - delta, removes the driver's z term.
    double T, S0, strike, r, delta, sigma, mu;

    black_scholes_option(double terminal_time, const ProblemParameters& p)
        : T(terminal_time), S0(parameter_value<black_scholes_option>(p, "S0")),
          strike(parameter_value<black_scholes_option>(p, "strike")), r(parameter_value<black_scholes_option>(p, "r")),
          delta(parameter_value<black_scholes_option>(p, "delta")),
          sigma(parameter_value<black_scholes_option>(p, "sigma")),
          mu(drift_value<black_scholes_option>(p, "mu", r - delta)) {
        check_parameter_names<black_scholes_option>(p);
        check_positive({{"S0", S0}, {"strike", strike}, {"sigma", sigma}});
        check_rates({{"r", r}, {"mu", mu}, {"delta", delta}});
    }

    // The state S(t, w) of the forward process.
    __host__ __device__ double state(double t, double w) const {
        return S0 * exp((mu - 0.5 * sigma * sigma) * t + sigma * w);
    }
    // dV/dS from z = sigma S dV/dS.
    __host__ __device__ double value_gradient(double t, double w, double z) const { return z / (sigma * state(t, w)); }

    // The parameters against the run's grid, before the sweep allocates (option_checks.h): S over the domain, the call's
    // price, growing like e^(sigma w), resolved by the domain, the grid and the rule, and the put's, bounded, by the
    // domain.
    void check_grid(const SchemeSettings& settings, double dx) const {
        check_asset_range({"S", "--S0", "--sigma", "--mu " + format_number(mu) + ", --sigma " + format_number(sigma), S0,
                           mu - 0.5 * sigma * sigma, sigma, sigma},
                          T, settings.R, dx);
        if (Payoff::sign > 0)
            check_price_growth({"--sigma", "w", sigma, driver_at(0.0).c}, settings, dx);
        else
            check_domain_holds_bounded_price("w", driver_at(0.0).c, driver_z_advice, settings);
    }

    // The domain the spots need (spots.h): at t = 0, w = (ln S - ln S0) / sigma, and from there the price's weight at T
    // moves by (sigma + c) T for the call, growing like e^(sigma w), by c T for the put (c the driver's df/dz, as in
    // check_grid). `spots`: one range, or none for the default.
    SpotDomain spot_domain(const std::vector<SpotRange>& spots) const {
        double low = 0, high = 0;
        const SpotRange range = asset_spots(spots, 0, S0, low, high);
        const double shift = ((Payoff::sign > 0 ? sigma : 0.0) + driver_at(0.0).c) * T;
        return {{range}, {{"w", low / sigma, high / sigma, shift}}, T};
    }

    // Where the payoff has its kink at T: S_T = strike; and what moves it (the sweep's message when it lies
    // outside the grid's inner half).
    // What removes the driver's z term, df/dz = -(mu - r + delta) / sigma (the stability refusal's remedy).
    static constexpr const char* driver_z_advice =
        "--mu equal to r - delta makes it 0 and leaves the price as it is";
    static constexpr const char* kink_advice = "the kink is at w = (ln(strike / S0) - (mu - sigma^2 / 2) T) / sigma; "
                                               "change --sigma, --strike, --S0 or --mu";
    // ln strike - ln S0, not ln(strike / S0): the quotient underflows to 0 for a strike of 1e-320 (w = -inf)
    __host__ __device__ double terminal_kink() const {
        return (log(strike) - log(S0) - (mu - 0.5 * sigma * sigma) * T) / sigma;
    }

    // The payoff of exercise at (t, w), (sign (S - K))^+ with S = S(t, w), and its gradient in w, sign sigma S where
    // it is positive (dS/dw = sigma S): the terminal data, and an American option's obstacle (american_option.h).
    __host__ __device__ double payoff(double t, double w) const {
        const double value = Payoff::sign * (state(t, w) - strike);
        return value > 0.0 ? value : 0.0;
    }
    __host__ __device__ double payoff_gradient(double t, double w) const {
        const double S = state(t, w);
        return Payoff::sign * (S - strike) > 0.0 ? Payoff::sign * sigma * S : 0.0;
    }
    __host__ __device__ double terminal_y(double w) const { return payoff(T, w); }
    __host__ __device__ double terminal_z(double w) const { return payoff_gradient(T, w); }
    // f = -(r y + (mu - r + delta) z / sigma), affine (affine_driver.h); mu - (r - delta) is 0 exactly at the default
    __host__ __device__ AffineDriver<1> driver_at(double) const { return {0.0, -r, -(mu - (r - delta)) / sigma}; }
    __host__ __device__ double driver(double t, double w, double y, double z) const { return driver_at(t)(w, y, z); }

    __host__ __device__ static double normal_cdf(double x) { return 0.5 * erfc(-x * 0.70710678118654752440); }

    __host__ __device__ double exact_y(double t, double w) const {
        const double tau = T - t;
        if (tau <= 0.0) return terminal_y(w);
        const double S = state(t, w), s = Payoff::sign;
        const double d1 = d_1(S, tau), d2 = d1 - sigma * sqrt(tau);
        return s * (S * exp(-delta * tau) * normal_cdf(s * d1) - strike * exp(-r * tau) * normal_cdf(s * d2));
    }
    __host__ __device__ double exact_z(double t, double w) const {
        const double tau = T - t;
        if (tau <= 0.0) return terminal_z(w);
        const double S = state(t, w), s = Payoff::sign;
        return sigma * S * s * exp(-delta * tau) * normal_cdf(s * d_1(S, tau));
    }

private:
    __host__ __device__ double d_1(double S, double tau) const {
        return (log(S / strike) + (r - delta + 0.5 * sigma * sigma) * tau) / (sigma * sqrt(tau));
    }
};

using black_scholes_call = black_scholes_option<CallPayoff>;
using black_scholes_put = black_scholes_option<PutPayoff>;

}  // namespace bsde
