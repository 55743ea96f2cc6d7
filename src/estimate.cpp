#include "estimate.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "../algorithms/core/errors.h"
#include "../algorithms/scheme/grid.h"

namespace bsde {

EstimateMode parse_estimate_mode(const std::string& text) {
    if (text == "on") return EstimateMode::on;
    if (text == "off") return EstimateMode::off;
    throw InputError("--estimate " + quoted(text) + ": allowed values are on, off");
}

EstimateOrders estimate_orders(const SchemeSettings& s, bool reflected) {
    if (reflected) return {1, 1};
    const int grid = s.grid_order > 0 ? s.grid_order : matched_order(s.Ky, s.Kz);
    return {std::min({s.Ky + 1, 3, grid}), std::min({s.Ky + 1, s.Kz, 3, grid})};
}

SchemeSettings coarse_settings(const SchemeSettings& settings) {
    SchemeSettings coarse = settings;
    coarse.N = coarse_steps(settings.N);
    return coarse;
}

bool estimate_wanted(EstimateMode mode, double cost) {
    return mode == EstimateMode::on || (mode == EstimateMode::automatic && cost <= estimate_cost_limit);
}

EstimatePlan plan_estimate(const SchemeSettings& s, int dimension, EstimateMode mode) {
    const SchemeSettings coarse = coarse_settings(s), coarser = coarse_settings(coarse);
    const double run = node_evaluations(s, dimension), at_coarse = node_evaluations(coarse, dimension) / run;
    const double both = coarser.N >= coarser.K() + 1 ? at_coarse + node_evaluations(coarser, dimension) / run : 0;
    EstimatePlan plan;
    plan.coarse_N = coarse.N;
    plan.cost = at_coarse;
    if (both > 0 && estimate_wanted(mode, both)) {
        plan.coarser_N = coarser.N;
        plan.cost = both;
    }
    plan.wanted = estimate_wanted(mode, plan.cost);
    return plan;
}

std::vector<int> estimate_levels(const EstimatePlan& plan, const SchemeSettings& settings, const ProblemInfo& problem) {
    if (!estimate_unavailable(settings, problem).empty()) return {};
    if (plan.coarser_N == 0 || !estimate_unavailable(coarse_settings(settings), problem).empty()) return {plan.coarse_N};
    return {plan.coarse_N, plan.coarser_N};
}

// |v_N - v_N'| / (r^p - 1), for z the largest over the components.
static void richardson_pair(const PointValues& fine, const PointValues& coarse, EstimateOrders orders, double& y_error,
                            double& z_error) {
    const double ratio = double(fine.N) / coarse.N;
    y_error = std::fabs(fine.y0 - coarse.y0) / (std::pow(ratio, orders.y) - 1);
    z_error = 0;
    for (std::size_t k = 0; k < fine.z0.size() && k < coarse.z0.size(); ++k)
        z_error = std::max(z_error, std::fabs(fine.z0[k] - coarse.z0[k]) / (std::pow(ratio, orders.z) - 1));
}

ErrorEstimate richardson_estimate(const PointValues& run, const PointValues& coarse, EstimateOrders orders,
                                  const PointValues* coarser) {
    ErrorEstimate e;
    e.made = true;
    e.coarse_N = coarse.N;
    e.orders = orders;
    richardson_pair(run, coarse, orders, e.y_error, e.z_error);
    const double ratio = double(run.N) / coarse.N;
    e.y_extrapolated = run.y0 + (run.y0 - coarse.y0) / (std::pow(ratio, orders.y) - 1);
    if (coarser) {
        // the error at N' from the coarser pair, carried to N at order p
        e.coarser_N = coarser->N;
        double y_at_coarse = 0, z_at_coarse = 0;
        richardson_pair(coarse, *coarser, orders, y_at_coarse, z_at_coarse);
        e.y_error = std::max(e.y_error, y_at_coarse / std::pow(ratio, orders.y));
        e.z_error = std::max(e.z_error, z_at_coarse / std::pow(ratio, orders.z));
    }
    return e;
}

std::string estimate_unavailable(const SchemeSettings& settings, const ProblemInfo& problem) {
    const SchemeSettings coarse = coarse_settings(settings);
    const std::string at = "the second solve at N = " + std::to_string(coarse.N);
    if (coarse.N < coarse.K() + 1)
        return at + " would need N >= K + 1 = " + std::to_string(coarse.K() + 1) + " (N >= " +
               std::to_string(2 * (coarse.K() + 1)) + " makes the estimate)";
    try {
        validate_for_problem(coarse, problem);
    } catch (const InputError& e) {
        return at + " is refused: " + e.what();
    }
    return "";
}

// The values at N steps: at hand, or from a solve on ops (timed into seconds, added to at_hand).
static PointValues level_values(const BackendOps& ops, const std::string& problem, const SchemeSettings& settings,
                                int N, const LevelProgress& progress, LevelValues* at_hand, double& seconds) {
    if (at_hand && at_hand->count(N)) return at_hand->at(N);
    SchemeSettings level = settings;
    level.N = N;
    level.progress = progress ? progress(N) : ProgressCallback();
    level.warn_before_run = nullptr;  // the run's warnings were given once
    const auto start = std::chrono::steady_clock::now();
    const SolveResult result = ops.solve(problem, level);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const PointValues values{N, result.y0, result.z0};
    if (at_hand) (*at_hand)[N] = values;
    return values;
}

ErrorEstimate estimate_errors(const BackendOps& ops, const std::string& problem, const SchemeSettings& settings,
                              const EstimatePlan& plan, const PointValues& run, const LevelProgress& progress,
                              LevelValues* at_hand) {
    ErrorEstimate estimate;
    estimate.coarse_N = coarse_steps(settings.N);
    const ProblemInfo& info = find_problem(problem);
    estimate.orders = estimate_orders(settings, info.reflected);
    const std::vector<int> levels = estimate_levels(plan, settings, info);
    if (levels.empty()) {
        estimate.unavailable = estimate_unavailable(settings, info);
        return estimate;
    }
    double seconds = 0;
    std::vector<PointValues> values;
    for (const int N : levels) {
        std::string stopped;
        try {
            values.push_back(level_values(ops, problem, settings, N, progress, at_hand, seconds));
        } catch (const InputError& e) {
            stopped = e.what();
        } catch (const NumericalError& e) {
            stopped = e.what();
        }
        if (stopped.empty()) continue;
        if (!values.empty()) break;  // N'' stopped: the estimate from N' alone
        estimate.unavailable = "the second solve at N = " + std::to_string(N) + " stopped: " + stopped;
        return estimate;
    }
    estimate = richardson_estimate(run, values[0], estimate.orders, values.size() > 1 ? &values[1] : nullptr);
    estimate.seconds = seconds;
    return estimate;
}

std::string estimate_exceeds_value(const ErrorEstimate& e, double y0, const std::vector<double>& z0, double y_scale,
                                   double T) {
    if (!e.made) return "";
    const std::string why = ": the run has no correct digit there, a sign that it is unresolved or wrong (the estimate "
                            "is Richardson's from " + estimate_steps(e) + "; docs/cli.md, Error estimate)";
    const double y_reference = std::max(std::fabs(y0), y_scale);
    if (e.y_error > y_reference)
        return "the estimated error of y_0, " + format_number(e.y_error, "%.3g") + ", exceeds " +
               (std::fabs(y0) >= y_scale ? "|y_0| = " : "the terminal data's mean magnitude ") +
               format_number(y_reference, "%.3g") + why;
    double z_reference = 0;
    for (const double z : z0) z_reference = std::max(z_reference, std::fabs(z));
    if (e.z_error > std::max(z_reference, estimate_rounding_level * y_reference / std::sqrt(T)))
        return "the estimated error of z_0, " + format_number(e.z_error, "%.3g") + ", exceeds " +
               (z0.size() == 1 ? "|z_0| = " : "its largest component's magnitude ") +
               format_number(z_reference, "%.3g") + why;
    return "";
}

static std::string steps_text(int coarse, int coarser) {
    return coarser > 0 ? "solves at N = " + std::to_string(coarse) + " and " + std::to_string(coarser)
                       : "a solve at N = " + std::to_string(coarse);
}

std::string estimate_steps(const EstimatePlan& plan) { return steps_text(plan.coarse_N, plan.coarser_N); }

std::string estimate_steps(const ErrorEstimate& e) { return steps_text(e.coarse_N, e.coarser_N); }

std::string describe(const ErrorEstimate& e, const std::string& cost) {
    if (!e.made) return "not available: " + e.unavailable;
    return "y_0 error ~ " + format_number(e.y_error, "%.1e") + ", z_0 error ~ " + format_number(e.z_error, "%.1e") +
           " (a-posteriori: " + estimate_steps(e) + ", orders " +
           std::to_string(e.orders.y) + "/" + std::to_string(e.orders.z) + (cost.empty() ? "" : "; " + cost) + ")";
}

}  // namespace bsde
