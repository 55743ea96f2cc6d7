// The option problems' checks of their parameters against the run's grid: the sweep calls a problem's
// check_grid(settings, dx) before it allocates (backward_sweep.h), so that a setting whose report would not be
// finite is refused (InputError, exit code 2) instead of solved. Each asset of an option is
//   S(t, w) = S0 e^(m t + a . w),   t in [0, T], w in [-R, R]^d,
// and z's part from it is at most |a| S (z = sigma S dV/dS in 1D; A^T (S * dV/dS) in 2D, |row k of A| = sigma_k).
#pragma once
#include <cfloat>
#include <cmath>
#include <string>

#include "../algorithms/errors.h"

namespace bsde {

struct AssetRange {
    std::string symbol;             // "S", "S1"
    std::string price_option;       // the option that sets S0: "--S0", "--S1"
    std::string volatility_option;  // the option that sets |a|: "--sigma", "--sigma1"
    std::string other_parameters;   // the others that move it, as given: "--mu 0.05, --sigma 0.2"
    double S0, drift;               // S0 and m
    double reach;                   // the largest a . w over the domain, over R: |a_1| + ... + |a_d|
    double volatility;              // |a|
};

// The room above the values that the scheme's arithmetic on them needs: the spline's right-hand side
// 6/dx^2 (v_{i-1} - 2 v_i + v_{i+1}) reaches 24/dx^2 |v| (z jumps by sigma S at the payoff's kink), the other sums a
// few hundred |v| (the fourth-order differences' 25 v and 48 v at the grid's ends, E[(c . z) dW] with |c| sqrt(dt) up
// to about 2 and nodes up to 15 sqrt(2 K dt)). ex3 with S0 = strike = 7e303 (S up to 1.7e305 with the default sigma
// and R) stopped on a non-finite z in its first step at K = 3, N = 64 (dx = 0.0052: 6/dx^2 sigma strike = 3e308).
inline double asset_headroom(double dx) { return std::fmax(1024.0, 24.0 / (dx * dx)); }

// S and |a| S must be normal doubles at t = 0, where the report reads S and delta = z / (|a| S) (0/0 where S underflows
// to 0, its digits lost where S is subnormal), and at most DBL_MAX / asset_headroom(dx) over [0, T]. Where S(T, w)
// underflows at the lower end (a large sigma's drift -sigma^2 T / 2), the payoff there is 0 or the strike, exactly as
// it would be (ex3 with sigma = 30 converges: y_0 errors 1.4e-3, 3.7e-5, 4.2e-7 at K = 3, N = 64, 256, 1024). In logs,
//   ln S(0, w) >= ln S0 - reach R,   ln S(t, w) <= ln S0 + max(0, m T) + reach R,   ln(|a| S) = ln |a| + ln S.
inline void check_asset_range(const AssetRange& asset, double T, double R, double dx) {
    const std::string given = asset.price_option + " " + format_number(asset.S0) + " with " + asset.other_parameters +
                              ", T = " + format_number(T) + " and R = " + format_number(R) + ": the asset ";
    const double log_volatility = std::log(asset.volatility);
    // the smaller of S and |a| S at the lower end, the larger at the upper end
    const auto named = [&](bool scaled) {
        return (scaled ? asset.volatility_option.substr(2) + " " : std::string()) + asset.symbol;
    };
    const double smallest = std::log(asset.S0) - asset.reach * R + std::fmin(0.0, log_volatility);
    if (!(smallest >= std::log(DBL_MIN)))
        throw InputError(given + "underflows at the domain's lower end at t = 0: " + named(log_volatility < 0) + " = " +
                         format_number(std::exp(smallest), "%.3g") + " there, below the smallest normal double (" +
                         format_number(DBL_MIN, "%.3g") + "), so delta = z / (" + named(true) +
                         ") is 0/0 or loses its digits; raise " + asset.price_option + ", or lower " +
                         asset.volatility_option + " or --R");
    const double largest = std::log(asset.S0) + std::fmax(0.0, asset.drift * T) + asset.reach * R +
                           std::fmax(0.0, log_volatility);
    const double headroom = asset_headroom(dx);
    if (!(largest <= std::log(DBL_MAX / headroom)))
        throw InputError(given + "overflows at the domain's upper end: " + named(log_volatility > 0) + " = " +
                         format_number(std::exp(largest), "%.3g") + " there, above DBL_MAX / max(1024, 24 / dx^2) = " +
                         format_number(DBL_MAX / headroom, "%.3g") + " at dx = " + format_number(dx, "%.3g") +
                         " (the room the scheme's arithmetic on its values needs: the spline's 6/dx^2 (v_{i-1} - 2 v_i "
                         "+ v_{i+1})); lower " + asset.price_option + ", " +
                         asset.volatility_option + " or --R");
}

}  // namespace bsde
