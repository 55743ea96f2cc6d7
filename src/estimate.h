// The a-posteriori estimate of the errors of y_0 and z_0 (--estimate; docs/cli.md, "Error estimate"), made without the
// exact solution: Richardson's, from solves at N' = floor(N / 2) and N'' = floor(N' / 2) on their own grids (M follows
// the steps), with r = N / N', r' = N' / N'' and p the order the scheme reaches on its space grid,
//   e ~ max(|v_N - v_N'| / (r^p - 1), |v_N' - v_N''| / ((r'^p - 1) r^p)).
// The second term is the error at N' that the coarser pair gives, carried to N at order p: where the convergence is
// regular both terms agree; where |v_N - v_N'| is small by a cancellation (an error that changes sign or stalls between
// N' and N), the first alone falls far below the error and the second does not. Without N'' (N'' < K + 1, or settings there that a solve refuses) the first term
// alone. It is computed in the front end from the values at w = 0 that any backend returns, so that it is the same on
// every backend to rounding.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "../algorithms/backends/backend.h"
#include "../algorithms/scheme/settings.h"
#include "../problems/registry.h"

namespace bsde {

// --estimate: on, off, or (not given) made where its solves cost at most estimate_cost_limit of the run's.
enum class EstimateMode { automatic, on, off };
EstimateMode parse_estimate_mode(const std::string& text);  // throws InputError

// The most the estimate's solves may cost, as a fraction of the run's, for the estimate to be made by default.
constexpr double estimate_cost_limit = 1.0 / 3;

// The orders p of y and z: the theorems' min(Ky + 1, 4) for y (3 where the driver reads z) and min(Ky + 1, Kz, 3)
// for z, both capped by the space grid's Q (--grid-order, else min(Ky + 1, Kz, 3)): dx = dt^((Q+1)/4) leaves a spline
// error N dx^4 = dt^Q. The problems do not declare whether their driver reads z, so y's cap of 3 holds for all: where
// the order is 4, a p of 3 overestimates by (2^4 - 1) / (2^3 - 1) = 2.1 at most.
// A reflected problem (an obstacle) is solved as the price of N exercise dates, O(dt) from the continuous one: p = 1
// for both (scheme.md, "Reflected BSDEs: American options").
struct EstimateOrders {
    int y = 0, z = 0;
};
EstimateOrders estimate_orders(const SchemeSettings& settings, bool reflected);

// The steps of the solve below one at N: floor(N / 2).
inline int coarse_steps(int N) { return N / 2; }

// The settings of a run with N' = coarse_steps(N) steps.
SchemeSettings coarse_settings(const SchemeSettings& settings);

// Whether the estimate is made: always with --estimate on, never with off, by default where its solves cost at most
// estimate_cost_limit of the run's.
bool estimate_wanted(EstimateMode mode, double cost);

// The estimate's solves, chosen by the settings' cost before any is made: N' and N'' (where N'' >= K + 1) with
// --estimate on; by default both where their cost is at most estimate_cost_limit, else N' alone where its is; none with
// --estimate off. cost: the planned solves' node evaluations over the run's (node_evaluations, settings.h), that of N'
// alone where none is planned.
struct EstimatePlan {
    bool wanted = false;
    int coarse_N = 0, coarser_N = 0;  // N', N'' (0: not planned)
    double cost = 0;
};
EstimatePlan plan_estimate(const SchemeSettings& settings, int dimension, EstimateMode mode);

// The steps of the planned solves that the problem accepts (estimate_unavailable at N' and N''); empty where N' is
// refused.
std::vector<int> estimate_levels(const EstimatePlan& plan, const SchemeSettings& settings, const ProblemInfo& problem);

// A run's values at w = 0, at N steps.
struct PointValues {
    int N = 0;
    double y0 = 0;
    std::vector<double> z0;  // d components
};

struct ErrorEstimate {
    bool made = false;
    std::string unavailable;  // why it could not be made; empty where it was made or not asked for
    int coarse_N = 0;         // N'
    int coarser_N = 0;        // N'', 0 where the estimate is made from N' alone
    EstimateOrders orders;
    double y_error = 0, z_error = 0;  // z: the largest over the components
    double y_extrapolated = 0;        // Richardson's value: y_N + (y_N - y_N') / ((N / N')^p - 1)
    double seconds = 0;               // the solves' made for it (0 where their values were at hand)
};

// The estimate from the run's values and those at N' and, where given, N'' (pure: bsde study takes them from its own
// cases).
ErrorEstimate richardson_estimate(const PointValues& run, const PointValues& coarse, EstimateOrders orders,
                                  const PointValues* coarser = nullptr);

// Why the estimate cannot be made on these settings, or "": N' below K + 1, or settings at N' that a solve refuses
// (validate_for_problem: a grid the problem's checks refuse, an unstable one).
std::string estimate_unavailable(const SchemeSettings& settings, const ProblemInfo& problem);

// Values at hand by their steps (bsde study: its own cases and the solves made for earlier estimates).
using LevelValues = std::map<int, PointValues>;
// The progress of the solve at a level's steps (may return an empty callback).
using LevelProgress = std::function<ProgressCallback(int N)>;

// Makes the estimate of the run (its settings and values) from the plan's levels' values: those in `at_hand` where
// given, the others solved on `ops`, timed, and added to it; where it cannot be made, or the solve at N' stops (bad
// input, a non-finite value), says why; where the one at N'' stops, the estimate is made from N' alone.
ErrorEstimate estimate_errors(const BackendOps& ops, const std::string& problem, const SchemeSettings& settings,
                              const EstimatePlan& plan, const PointValues& run, const LevelProgress& progress,
                              LevelValues* at_hand = nullptr);

// A warning (empty if none) where an estimate exceeds the value it estimates, the sign of a wrong run: the y_0
// estimate above max(|y_0|, s), s the terminal data's mean magnitude E|g(W_T)| (SolveResult::picard_scale: the scale of
// y where y_0 is near 0, as ex4's exact 0), or the z_0 estimate above the larger of its largest |component| and
// estimate_rounding_level max(|y_0|, s) / sqrt(T) (z's rounding where z_0 is 0, as hjb's by symmetry).
constexpr double estimate_rounding_level = 1e-12;
std::string estimate_exceeds_value(const ErrorEstimate& estimate, double y0, const std::vector<double>& z0,
                                   double y_scale, double T);

// The estimate's solves: "solves at N = 128 and 64", or "a solve at N = 128" where N'' is not planned (not made).
std::string estimate_steps(const EstimatePlan& plan);
std::string estimate_steps(const ErrorEstimate& estimate);

// "y_0 error ~ 3.1e-08, z_0 error ~ 2.2e-07 (a-posteriori: solves at N = 128 and 64, orders 3/3; COST)", or
// "not available: WHY".
std::string describe(const ErrorEstimate& estimate, const std::string& cost = "");

}  // namespace bsde
