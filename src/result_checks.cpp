#include "result_checks.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../algorithms/core/errors.h"
#include "report.h"

namespace bsde {
namespace {

// The grid of a result: M + 1 points per axis, point p = i_1 (M+1) + i_2 in 2D, (i_1 (M+1) + i_2)(M+1) + i_3 in 3D.
struct GridAxes {
    int d;
    std::size_t points, per_axis;
    std::size_t stride(int k) const {  // (M+1)^(d-1-k)
        std::size_t s = 1;
        for (int later = k + 1; later < d; ++later) s *= per_axis;
        return s;
    }
    std::size_t index(std::size_t p, int k) const { return p / stride(k) % per_axis; }
    // whether the difference's stencil, two points either side along every axis, lies in the grid
    bool stencil_fits(std::size_t p) const {
        for (int k = 0; k < d; ++k)
            if (index(p, k) < 2 || index(p, k) + 2 >= per_axis) return false;
        return true;
    }
};

GridAxes axes_of(const SolveResult& r) {
    return {r.dimension, r.y.size(), static_cast<std::size_t>(r.M) + 1};
}

// "w = 0.0204", "w = (0.5, -0.25)"
std::string point_text(const std::vector<double>& w) {
    std::string text = w.size() == 1 ? "w = " : "w = (";
    for (std::size_t k = 0; k < w.size(); ++k) text += (k ? ", " : "") + format_number(w[k] + 0.0, "%.3g");  // not -0
    return text + (w.size() == 1 ? "" : ")");
}

std::string z_name(int dimension) { return dimension == 1 ? "z" : "z_k"; }
std::string slope_name(int dimension) { return dimension == 1 ? "dy/dw" : "dy/dw_k"; }

}  // namespace

void fail_if_strict(const std::string& warning, bool strict) {
    if (strict && !warning.empty()) throw NumericalError(warning + "; --strict makes it an error");
}

SlopeRegion slope_region(const SolveResult& r, const std::vector<SpotRange>& spots) {
    const GridAxes grid = axes_of(r);
    SlopeRegion region;
    if (grid.points < 5 || r.M < 4) return region;
    const double R = -r.w[0];
    const bool by_spots = r.has_state && !spots.empty();
    region.name = by_spots ? "the spots " + describe_spots(spots) : "|w| <= R/2 = " + format_number(R / 2, "%.4g");
    const auto inner = [&](std::size_t p) {
        for (int k = 0; k < grid.d; ++k)
            if (std::fabs(r.w[k * grid.points + p]) > 0.5 * R * (1 + 1e-12)) return false;
        return true;
    };
    const std::size_t centre = grid.points / 2;  // w = 0
    for (std::size_t p = 0; p < grid.points; ++p)
        if (grid.stencil_fits(p) && (p == centre || (by_spots ? in_spots(r, p, spots) : inner(p))))
            region.points.push_back(p);
    return region;
}

SlopeCheck check_slope(const SolveResult& r, const SlopeRegion& region) {
    const GridAxes grid = axes_of(r);
    SlopeCheck check;
    check.region = region.name;
    check.where.assign(grid.d, 0.0);
    for (const std::size_t p : region.points) {
        ++check.points;
        for (int k = 0; k < grid.d; ++k) {
            const std::size_t s = grid.stride(k), column = k * grid.points;
            const double dx = (r.w[column + grid.points - 1] - r.w[column]) / r.M;
            const double slope = (-r.y[p + 2 * s] + 8 * r.y[p + s] - 8 * r.y[p - s] + r.y[p - 2 * s]) / (12 * dx);
            const double difference = std::fabs(r.z[column + p] - slope);
            check.largest_slope = std::max(check.largest_slope, std::fabs(slope));
            // a non-finite difference is the largest
            if (!(difference <= check.largest_difference)) {
                check.largest_difference = difference;
                check.axis = k;
                for (int j = 0; j < grid.d; ++j) check.where[j] = r.w[j * grid.points + p];
            }
        }
    }
    check.ratio = check.largest_difference == 0 ? 0.0
                  : check.largest_slope > 0     ? check.largest_difference / check.largest_slope
                                                : std::numeric_limits<double>::infinity();
    return check;
}

std::string describe(const SlopeCheck& c, int dimension) {
    if (c.points == 0) return "not made: the grid has no point of the region with two neighbours either side";
    return "|" + z_name(dimension) + " - " + slope_name(dimension) + "| <= " + format_number(c.ratio, "%.2g") +
           " of max |" + slope_name(dimension) + "| = " + format_number(c.largest_slope, "%.4g") + " over " + c.region +
           " (" + std::to_string(c.points) + (c.points == 1 ? " grid point" : " grid points") +
           "; 4th-order differences of y)";
}

std::string slope_warning(const SlopeCheck& c, int dimension) {
    if (c.points == 0 || c.ratio <= slope_check_limit) return "";  // a NaN ratio warns
    const std::string z = dimension == 1 ? "z" : "z_" + std::to_string(c.axis + 1);
    const std::string slope = dimension == 1 ? "dy/dw" : "dy/dw_" + std::to_string(c.axis + 1);
    return z + " disagrees with the slope of y, which it must equal: |" + z + " - " + slope + "| = " +
           format_number(c.largest_difference, "%.3g") + " at " + point_text(c.where) + ", " +
           format_number(c.ratio, "%.3g") + " times the largest |" + slope_name(dimension) + "| (" +
           format_number(c.largest_slope, "%.3g") + ") over " + c.region + ", above the limit " +
           format_number(slope_check_limit) + ": the run is unresolved or wrong; try a finer grid (a larger --N) or a "
           "lower --K";
}

double least_reach_R(const SchemeSettings& s) {
    const double shift = std::max(std::fabs(s.driver_z_gradient[0]), std::fabs(s.driver_z_gradient[1])) * s.T;
    return shift + reach_deviations * std::sqrt(s.T);
}

std::string domain_reach_warning(const SchemeSettings& s, const ProblemInfo& problem) {
    if (problem.spot_domain) return "";  // the spots' own check (problems/spots.h)
    const double least = least_reach_R(s);
    if (s.R >= least) return "";
    const double shift = least - reach_deviations * std::sqrt(s.T);
    return "--R " + format_number(s.R) + " with --T " + format_number(s.T) + ": y_0 at w = 0 reads the solution up to " +
           "where its weight at T lies, " +
           (shift > 0 ? "at |w| = |df/dz| T = " + format_number(shift, "%.3g") + " (the driver's z term) " : "") +
           "with standard deviation sqrt(T) = " + format_number(std::sqrt(s.T), "%.3g") + ", and the domain holds " +
           format_number((s.R - shift) / std::sqrt(s.T), "%.3g") + " of them, fewer than the " +
           format_number(reach_deviations, "%g") + " that keep its truncation below the scheme's error; raise --R to " +
           format_at_least(least) + " or more";
}

}  // namespace bsde
