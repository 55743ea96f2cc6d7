// The option problems' checks of their parameters against the run's grid: the sweep calls a problem's
// check_grid(settings, dx) before it allocates (backward_sweep.h), so that a setting whose report would not be
// finite, or would be garbage, is refused (InputError, exit code 2) instead of solved. Each asset of an option is
//   S(t, w) = S0 e^(m t + a . w),   t in [0, T], w in [-R, R]^d,
// and z's part from it is at most |a| S (z = sigma S dV/dS in 1D; A^T (S * dV/dS) in 2D, |row k of A| = sigma_k).
// A call's price grows like e^(g w) along an axis towards the domain's upper end: g = sigma for bs-call (the price
// tends to S e^(-delta tau)), g = sigma1 along w_1 for the exchange option (bounded by S1 = S1_0 e^(drift1 t + sigma1
// w_1)); a put's price is bounded (by the strike). docs/scheme.md, "Admissible parameters", has the measurements.
#pragma once
#include <cfloat>
#include <cmath>
#include <string>

#include "../algorithms/core/errors.h"
#include "../algorithms/quadrature/gauss_hermite.h"
#include "../algorithms/scheme/settings.h"

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

// e^x as the messages print it: "%.3g", or "e^(x)" where e^x underflows to 0 or overflows.
inline std::string exp_text(double x) {
    const double value = std::exp(x);
    return std::isfinite(value) && value > 0 ? format_number(value, "%.3g") : "e^(" + format_number(x, "%.4g") + ")";
}

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
                         exp_text(smallest) + " there, below the smallest normal double (" +
                         format_number(DBL_MIN, "%.3g") + "), so delta = z / (" + named(true) +
                         ") is 0/0 or loses its digits; raise " + asset.price_option + ", or lower " +
                         asset.volatility_option + " or --R");
    const double largest = std::log(asset.S0) + std::fmax(0.0, asset.drift * T) + asset.reach * R +
                           std::fmax(0.0, log_volatility);
    const double headroom = asset_headroom(dx);
    if (!(largest <= std::log(DBL_MAX / headroom)))
        throw InputError(given + "overflows at the domain's upper end: " + named(log_volatility > 0) + " = " +
                         exp_text(largest) + " there, above DBL_MAX / max(1024, 24 / dx^2) = " +
                         format_number(DBL_MAX / headroom, "%.3g") + " at dx = " + format_number(dx, "%.3g") +
                         " (the room the scheme's arithmetic on its values needs: the spline's 6/dx^2 (v_{i-1} - 2 v_i "
                         "+ v_{i+1})); lower " + asset.price_option + ", " +
                         asset.volatility_option + " or --R");
}

// A price growing like e^(g w) along an axis (g > 0) under the run's grid. Three things bound g, each for a reason of
// its own; the domain and the rule each cost a part of the price, allowed up to a tolerance.
struct PriceGrowth {
    std::string option;  // the option that sets g: "--sigma", "--sigma1"
    std::string axis;    // "w", "w_1"
    double rate;         // g
    double driver_z;     // the driver's z coefficient c along the axis: the pricing measure moves W by c t
};

// The part of the price the domain's truncation may cost: a floor that no N lowers, so held to 1e-4, the y_0 errors
// of the paper's coarser rows; the domain must hold the price's weight to 3.719 standard deviations beyond its centre
// (1 - Phi(3.719) = 1e-4).
constexpr double domain_price_loss = 1e-4;
constexpr double held_deviations = 3.719;
// The part the rule's reach may cost: it falls with N and L faster than the time error, and it is the y_0 error's
// size where it dominates; from 1e-3 it reaches O(1) within a third more sigma (ex3 K = 3, L = 32: at N = 16 a loss of
// 1.8e-3 at sigma = 30 and a y_0 error of 1.7e-3 of the price, 3.3 at sigma = 40 and y_0 = 29.7 for 98.7; at N = 8
// 0.14 at sigma = 25, y_0 4 % low).
constexpr double rule_price_loss = 1e-3;

// Where the price's weight at T lies along an axis, at w = centre with standard deviation sqrt(T), and what the domain
// [-R, R] holds of it: held(R) standard deviations beyond the centre, losing about 1 - Phi(held) of the price; the
// least R that holds it to held_deviations, tested as the messages print it (the held deviations computed from R
// round differently and refused an R they had asked for: 4.77 at sigma = 1.051, T = 1, c = 0).
struct PriceWeight {
    double centre, deviation;
    double least_R() const { return std::fabs(centre) + held_deviations * deviation; }
    double held(double R) const { return (R - std::fabs(centre)) / deviation; }
    double loss(double R) const { return 0.5 * std::erfc(held(R) / std::sqrt(2.0)); }
    // "weight at T lies at w = -12.5 with standard deviation sqrt(T) = 2.24, 1.57 of them inside R: truncating the
    // domain there costs"
    std::string where(const std::string& axis, double R) const {
        return "weight at T lies at " + axis + " = " + format_number(centre + 0.0, "%.3g") +  // not -0
               " with standard deviation sqrt(T) = " + format_number(deviation, "%.3g") + ", " +
               format_number(held(R), "%.3g") + " of them inside R: truncating the domain there costs";
    }
};

// The domain, where the price grows. Under the pricing measure W_T ~ N(c T, T) along the axis, and the price weighs
// the payoff's growing part by e^(g W_T): its weight lies at w = (g + c) T with standard deviation sqrt(T), and the nodes
// beyond R take the boundary's value, so the price loses about 1 - Phi(h) of itself, h = (R - |g + c| T) / sqrt(T),
// whatever N (ex3, T = 0.33, R = 16: y_0 errors 1.5e-2 and 0.45 at sigma = 42 and 44, h = 3.7 and 2.6; ex5 with
// sigma1 = 5: 0.09 at N = 64 and 256 with R = 8, h = 3, and 9e-7 at N = 256 with R = 12).
inline void check_domain_holds_price(const PriceGrowth& growth, const SchemeSettings& s) {
    const PriceWeight weight{(growth.rate + growth.driver_z) * s.T, std::sqrt(s.T)};
    if (s.R >= weight.least_R()) return;
    throw InputError(growth.option + " " + format_number(growth.rate) + " with T = " + format_number(s.T) +
                     " and R = " + format_number(s.R) + ": the price grows like e^(" + growth.option.substr(2) + " " +
                     growth.axis + "), so its " + weight.where(growth.axis, s.R) + " " +
                     format_number(weight.loss(s.R), "%.2g") + " of the price (above " +
                     format_number(domain_price_loss) + "); raise --R to " + format_at_least(weight.least_R()) +
                     " or more, lower --T, or change " + growth.option + " (the weight lies at (g + c) T: g = " +
                     growth.option.substr(2) + ", c = " + format_number(growth.driver_z + 0.0, "%.3g") +  // not -0
                     " the driver's z coefficient, which moves with it)");
}

// The domain, where the price is bounded (a put; the exchange option along w_2, y <= S1): its weight lies where W_T
// does under the pricing measure, at w = c T, and the values beyond R, which the nodes there take as the boundary's,
// differ from it by up to the payoff's range (bs-put with mu = 0.25, sigma = 0.1, T = 5, strike 340.4, R = 16: c T =
// -13, h = 1.34, a y_0 error of 5.9e-2 on 211.1 whatever N, 1.0e-3 with the R = 21.4 asked for; ex5 with mu2 = 0.5,
// T = 3, R = 8: c_2 T = -4.5 along w_2, h = 2.02, 2.5e-2 on 26.5 whatever N, 2.2e-4 with R = 11). `advice` says what
// makes c 0 (the problem's driver_z_advice).
inline void check_domain_holds_bounded_price(const std::string& axis, double driver_z, const std::string& advice,
                                             const SchemeSettings& s) {
    const PriceWeight weight{driver_z * s.T, std::sqrt(s.T)};
    if (s.R >= weight.least_R()) return;
    throw InputError("T = " + format_number(s.T) + " and R = " + format_number(s.R) + ": the driver's z coefficient " +
                     "along " + axis + ", c = " + format_number(driver_z + 0.0, "%.3g") + ", moves W by c t under "
                     "the pricing measure, so the price's " + weight.where(axis, s.R) + " up to " +
                     format_number(weight.loss(s.R), "%.2g") + " of the price (above " +
                     format_number(domain_price_loss) + "); raise --R to " + format_at_least(weight.least_R()) +
                     " or more, lower --T, or make c smaller: " + advice);
}

// The interpolation. A layer's values grow by e^(g dx) a cell, and the cubic spline's end effects decay by
// 2 - sqrt(3) a cell: at g dx = ln(2 + sqrt(3)) = 1.317 the spline's moments of the growth times a sawtooth,
// m_i ~ (-e^(g dx))^i, have a pole (m_{i-1} + 4 m_i + m_{i+1} = 0 where 2 cosh(g dx) = 4), and beyond it the errors at
// the domain's upper end grow towards w = 0 (ex3 K = 2, N = 8, L = 32: y_0 = 97.4 at g dx = 1.28, 390 at 1.37 and
// 1e25 at 1.83, exact 98.7; over K = 1..3, N = 4..16, L = 4..32 every run from g dx = 1.45 was garbage, and every one
// up to 1.3 that the rule's check below admits within 9 %, the time error of such steps). The local interpolations
// have no pole, but their fourth-order slopes of e^(g w) are 12 % off there.
inline void check_grid_resolves_growth(const PriceGrowth& growth, const SchemeSettings& s, double dx) {
    const double per_cell = growth.rate * dx;
    if (per_cell < std::log(2.0 + std::sqrt(3.0))) return;
    throw InputError(growth.option + " " + format_number(growth.rate) + " with --K " + std::to_string(s.K()) +
                     " and --N " + std::to_string(s.N) + " (dx = " + format_number(dx, "%.3g") +
                     "): the price grows by e^(" + format_number(per_cell, "%.3g") + ") a grid cell along " +
                     growth.axis + ", faster than the interpolation's errors at the domain's upper end decay towards "
                     "w = 0 (" + growth.option.substr(2) + " dx must stay below ln(2 + sqrt(3)) = 1.317); raise --N "
                     "(dx falls with it) or lower " + growth.option);
}

// The rule's relative error on the growth over a step of variance j dt, b = g sqrt(2 j dt):
//   |pi^(-1/2) sum_l omega_l e^(b a_l) / E[e^(g dW)] - 1|,   E[e^(g dW)] = e^(g^2 j dt / 2) = e^(b^2 / 4).
inline double rule_growth_error(int L, double b) {
    const GaussHermiteRule rule = gauss_hermite(L);
    double sum = 0.0;
    for (std::size_t l = 0; l < rule.nodes.size(); ++l)
        sum += rule.weights[l] * std::exp(b * rule.nodes[l] - 0.25 * b * b);
    return std::fabs(sum / std::sqrt(3.14159265358979323846) - 1.0);
}

// The quadrature. The L-point rule integrates e^(b x) e^(-x^2), whose mass lies at x = b / 2, only while that lies
// well inside its nodes (the largest 2.93 for L = 8, 7.13 for L = 32); every step loses about the rule's error on
// the growth over its widest step, j = K, and the run N times it.
inline void check_rule_integrates_growth(const PriceGrowth& growth, const SchemeSettings& s) {
    const double b = growth.rate * std::sqrt(2.0 * s.K() * s.T / s.N);
    const auto loss = [&](int L) { return s.N * rule_growth_error(L, b); };
    if (loss(s.L) <= rule_price_loss) return;
    int enough = s.L + 1;
    while (enough <= gauss_hermite_max_points && loss(enough) > rule_price_loss) ++enough;
    throw InputError(growth.option + " " + format_number(growth.rate) + " with --K " + std::to_string(s.K()) +
                     ", --N " + std::to_string(s.N) + " and --L " + std::to_string(s.L) + ": the " +
                     std::to_string(s.L) + "-point Gauss-Hermite rule integrates the price's growth over a step of "
                     "variance K dt = " + format_number(s.K() * s.T / s.N, "%.3g") + " to within " +
                     format_number(loss(s.L) / s.N, "%.2g") + ", " + format_number(loss(s.L), "%.2g") + " over the " +
                     std::to_string(s.N) + " steps (above " + format_number(rule_price_loss) +
                     " of the price); " +
                     (enough <= gauss_hermite_max_points ? "--L " + std::to_string(enough) + " (the smallest above it)"
                                                         : std::string("no --L up to 128")) +
                     " keeps it under that, as may a larger --N or a smaller " + growth.option);
}

inline void check_price_growth(const PriceGrowth& growth, const SchemeSettings& s, double dx) {
    check_domain_holds_price(growth, s);
    check_grid_resolves_growth(growth, s, dx);
    check_rule_integrates_growth(growth, s);
}

}  // namespace bsde
