// General checks that a solve's result is not silently wrong, made without the exact solution, for every problem:
// z against the slope of y (after the solve), and the domain's reach from w = 0 (before it). A run that fails one
// warns (bsde: warning: ...), and with --strict stops with exit code 3 (NumericalError).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "../algorithms/scheme/settings.h"
#include "../problems/registry.h"
#include "../problems/spots.h"

namespace bsde {

// With --strict a warning of a wrong result (not empty) is an error: throws NumericalError naming --strict.
void fail_if_strict(const std::string& warning, bool strict);

// z against the slope of y. The forward process is X_t = W_t's own map, so y_t = u(t, W_t) and z_t = grad_w u(t, W_t)
// for every problem (scheme.md, "The equation"): at t = 0 z must be the slope of y on the grid. Its difference quotient
// of 4th order along axis k, (-y_{i+2} + 8 y_{i+1} - 8 y_{i-1} + y_{i-2}) / (12 dx), differs from it by dx^4 u^(5) / 30
// and the errors of y over dx; z differs by its own error. In a resolved run the two agree to those errors; a run whose
// z oscillates from point to point (a bs-call at sigma = 34, K = 2, N = 32: z = +9e4, -2.7e5, +8.2e5, -2.4e6 at
// successive points where the slope of y is 3.1e3) differs by orders of magnitude.

// The grid points the check covers: those of the region the report covers, whose stencil lies in the grid, and
// w = 0, where y_0 and z_0 are read. `name` says the region as the report gives it.
struct SlopeRegion {
    std::vector<std::size_t> points;
    std::string name;  // "the spots [50, 200]", "|w| <= R/2 = 8"
};
// The options' (spots given: the grid points whose spots lie in them) or the others' |w|_max <= R/2.
SlopeRegion slope_region(const SolveResult& result, const std::vector<SpotRange>& spots);

// The measure: max over the region and the axes of |z_k - D_k y|, over max |D_k y|.
struct SlopeCheck {
    int points = 0;
    double largest_difference = 0;  // max |z_k - D_k y|
    double largest_slope = 0;       // max |D_k y|
    double ratio = 0;               // their ratio; 0 where both are 0, inf where only the slope is
    std::vector<double> where;      // w of the largest difference, d components
    int axis = 0;                   // its axis k (0-based)
    std::string region;             // SlopeRegion::name
};
SlopeCheck check_slope(const SolveResult& result, const SlopeRegion& region);

// The ratio above which z and the slope of y disagree: 1, where z differs from the slope by more than the slope's own
// size and has no correct digit. The ratio follows z's relative error; the good and wrong runs it was measured on are
// in docs/cli.md, "Checks of the result".
constexpr double slope_check_limit = 1.0;

// The report's line after its label: "|z - dy/dw| <= 3.1e-07 of max |dy/dw| = 0.25 over |w| <= R/2 = 8 (2049 grid
// points)".
std::string describe(const SlopeCheck& check, int dimension);

// A warning (empty if none) where the ratio exceeds slope_check_limit: what disagrees, by how much, where, what to do.
std::string slope_warning(const SlopeCheck& check, int dimension);

// The domain's reach from w = 0, for the problems without spots (the options' domain holds their spots:
// problems/spots.h). The nodes beyond R take the boundary's values, so y_0 loses what its weight at T holds beyond R:
// under the driver's measure that weight lies at w = c T per axis (c = df/dz; its largest over [0, T],
// SchemeSettings::driver_z_gradient) with standard deviation sqrt(T), and the domain must hold
// reach_deviations of it beyond that: from 6 standard deviations on, y_0's error is the scheme's own in ex1, ex2 and
// ex4 (docs/cli.md, "Checks of the result", has the measurements).
constexpr double reach_deviations = 6.0;

// The least R that holds the weight: max_k |c_k| T + reach_deviations sqrt(T).
double least_reach_R(const SchemeSettings& settings);

// A warning (empty if none) for a problem without spots whose R is below least_reach_R: the reach and the R needed.
std::string domain_reach_warning(const SchemeSettings& settings, const ProblemInfo& problem);

}  // namespace bsde
