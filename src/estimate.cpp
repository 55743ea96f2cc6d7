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

double estimate_cost(const SchemeSettings& s, int dimension) {
    return node_evaluations(coarse_settings(s), dimension) / node_evaluations(s, dimension);
}

bool estimate_wanted(EstimateMode mode, double cost) {
    return mode == EstimateMode::on || (mode == EstimateMode::automatic && cost <= estimate_cost_limit);
}

ErrorEstimate richardson_estimate(const PointValues& run, const PointValues& coarse, EstimateOrders orders) {
    ErrorEstimate e;
    e.made = true;
    e.coarse_N = coarse.N;
    e.orders = orders;
    const double ratio = double(run.N) / coarse.N;
    e.y_error = std::fabs(run.y0 - coarse.y0) / (std::pow(ratio, orders.y) - 1);
    e.y_extrapolated = run.y0 + (run.y0 - coarse.y0) / (std::pow(ratio, orders.y) - 1);
    for (std::size_t k = 0; k < run.z0.size() && k < coarse.z0.size(); ++k)
        e.z_error = std::max(e.z_error, std::fabs(run.z0[k] - coarse.z0[k]) / (std::pow(ratio, orders.z) - 1));
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

ErrorEstimate estimate_errors(const BackendOps& ops, const std::string& problem, const SchemeSettings& settings,
                              const PointValues& run, const ProgressCallback& progress) {
    ErrorEstimate estimate;
    estimate.coarse_N = coarse_steps(settings.N);
    const ProblemInfo& info = find_problem(problem);
    estimate.orders = estimate_orders(settings, info.reflected);
    estimate.unavailable = estimate_unavailable(settings, info);
    if (!estimate.unavailable.empty()) return estimate;
    SchemeSettings coarse = coarse_settings(settings);
    coarse.progress = progress;
    coarse.warn_before_run = nullptr;  // the run's warnings were given once
    const auto start = std::chrono::steady_clock::now();
    SolveResult second;
    try {
        second = ops.solve(problem, coarse);
    } catch (const InputError& e) {
        estimate.unavailable = "the second solve at N = " + std::to_string(coarse.N) + " stopped: " + e.what();
        return estimate;
    } catch (const NumericalError& e) {
        estimate.unavailable = "the second solve at N = " + std::to_string(coarse.N) + " stopped: " + e.what();
        return estimate;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    estimate = richardson_estimate(run, {coarse.N, second.y0, second.z0}, estimate.orders);
    estimate.seconds = seconds;
    return estimate;
}

std::string estimate_exceeds_value(const ErrorEstimate& e, double y0, const std::vector<double>& z0, double y_scale,
                                   double T) {
    if (!e.made) return "";
    const std::string why = ": the run has no correct digit there, a sign that it is unresolved or wrong (the estimate "
                            "is Richardson's from a second solve at N = " + std::to_string(e.coarse_N) +
                            "; docs/cli.md, Error estimate)";
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

std::string describe(const ErrorEstimate& e, const std::string& cost) {
    if (!e.made) return "not available: " + e.unavailable;
    return "y_0 error ~ " + format_number(e.y_error, "%.1e") + ", z_0 error ~ " + format_number(e.z_error, "%.1e") +
           " (a-posteriori: a second solve at N = " + std::to_string(e.coarse_N) + ", orders " +
           std::to_string(e.orders.y) + "/" + std::to_string(e.orders.z) + (cost.empty() ? "" : "; " + cost) + ")";
}

}  // namespace bsde
