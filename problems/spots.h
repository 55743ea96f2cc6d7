// The spots a user prices (--spots) and the domain they need. An option's price at a spot S is y(0, w) at the w with
// S(0, w) = S, so a range of spots is a range of w at t = 0 (a box per asset; for the exchange option through A^-1), and
// the price there reads the solution up to where its weight at T lies from there: the domain must hold that weight,
// or the nodes beyond R, which take the boundary's values, cost the price part of itself.
#pragma once
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "../algorithms/core/errors.h"

namespace bsde {

// The spots of one asset at t = 0, [low, high] with 0 < low <= high.
struct SpotRange {
    double low, high;
};

// "[50, 200]", per asset joined by " x ".
inline std::string describe_spots(const std::vector<SpotRange>& spots) {
    std::string text;
    for (const SpotRange& range : spots)
        text += (text.empty() ? "[" : " x [") + format_number(range.low, "%.6g") + ", " +
                format_number(range.high, "%.6g") + "]";
    return text;
}

// The standard deviations sqrt(T) beyond the spots' w-range that the domain holds: the truncation then costs the
// prices over the range about 1 - Phi(6) = 1e-9 of the payoff's range there, at or below the scheme's own error at
// fine settings (bs-call sigma = 0.05, T = 3, spots [50, 200], K = 3, N = 256: the largest price error over them 4.4e-7,
// 1.5e-8, 2.5e-9 at 5.2, 5.8, 6.05 deviations, 1.1e-9 with any R beyond; bs-put alike; exchange rho = 0.9 at K = 2,
// N = 16 was at its scheme's error from 4).
constexpr double spot_margin_deviations = 6.0;

// One axis of w: the interval [low, high] that covers the spots at t = 0, and where the prices' weight at T lies from
// a point w of it, at w + shift with standard deviation sqrt(T) (the shift is the price's growth and the driver's z
// term, (g + c) T, along a growing axis, c T along a bounded one: option_checks.h).
struct SpotAxis {
    std::string name;  // "w", "w_1"
    double low, high, shift;
    // The least R that holds the weight from every point of [low, high] to spot_margin_deviations.
    double least_R(double T) const {
        return std::fmax(std::fabs(low + shift), std::fabs(high + shift)) + spot_margin_deviations * std::sqrt(T);
    }
};

// What the spots need of the domain: the least R over the axes.
struct SpotDomain {
    std::vector<SpotRange> spots;  // per asset
    std::vector<SpotAxis> axes;    // per axis of w
    double T = 0;
    // The axis that needs the largest R.
    const SpotAxis& widest() const {
        std::size_t k = 0;
        for (std::size_t j = 1; j < axes.size(); ++j)
            if (axes[j].least_R(T) > axes[k].least_R(T)) k = j;
        return axes[k];
    }
    double least_R() const { return widest().least_R(T); }
    // The least R as the messages print it, and as a run chosen by it takes it: 3 digits, rounded up.
    double least_R_printed() const { return std::strtod(format_at_least(least_R()).c_str(), nullptr); }
    // "the spots [50, 200] need R >= 24.5: at t = 0 they lie within w in [-13.9, 13.9]; from there their prices'
    // weight at T moves by 0.15, and the domain must hold 6 sqrt(T) = 10.4 beyond that for its truncation to cost them
    // less than the scheme's error"
    std::string need() const {
        const SpotAxis& axis = widest();
        return "the spots " + describe_spots(spots) + " need R >= " + format_at_least(least_R()) +
               ": at t = 0 they lie within " + axis.name + " in [" + format_number(axis.low, "%.3g") + ", " +
               format_number(axis.high, "%.3g") + "]; from there their prices' weight at T moves by " +
               format_number(axis.shift + 0.0, "%.3g") +  // not -0
               ", and the domain must hold " + format_number(spot_margin_deviations, "%g") +
               " sqrt(T) = " + format_number(spot_margin_deviations * std::sqrt(T), "%.3g") +
               " beyond that for its truncation to cost them less than the scheme's error";
    }
};

// The spots of an asset whose initial price is S0: `given` where there is one, else the default, 0.5 to 2 times S0.
// Their logarithms relative to S0, ln S - ln S0 (not ln(S / S0), which may underflow; the default's exactly -+ln 2,
// where 0.5 S0 may underflow), into `low`, `high`.
inline SpotRange asset_spots(const std::vector<SpotRange>& given, std::size_t asset, double S0, double& low,
                             double& high) {
    if (given.empty()) {
        low = -std::log(2.0);
        high = std::log(2.0);
        return {0.5 * S0, 2.0 * S0};
    }
    const SpotRange range = given[given.size() == 1 ? 0 : asset];
    low = std::log(range.low) - std::log(S0);
    high = std::log(range.high) - std::log(S0);
    return range;
}

}  // namespace bsde
