#include "run_time.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>

#include "../core/errors.h"
#include "expectation_rules.h"
#include "grid.h"

namespace bsde {

RunWork run_work(const SchemeSettings& s, int dimension, bool separable) {
    const int K = s.K(), M = space_intervals(s.Ky, s.Kz, s.N, s.T, s.R, s.grid_order);
    const int substeps = static_cast<int>(startup_substeps(s));
    const int refine = std::max(1, startup_refinement(s, dimension));
    const double L = s.L;
    const auto layer_read = [&](int intervals) {  // one layer read on a grid of `intervals` per axis
        const double side = intervals + 1.0;
        if (dimension == 1) return side * L;
        if (separable && dimension == 3)
            return L * (side * (intervals + 3.0) * (intervals + 3.0) + side * side * (intervals + 3.0) + side * side * side);
        if (separable) return L * (side * (intervals + 3.0) + side * side);
        if (dimension == 3) return node_cost_3d * side * side * side * L * L * L;
        return node_cost_2d * side * side * L * L;
    };
    RunWork work;
    work.main = layer_read(M) * double(main_layer_reads(K, s.N));
    work.startup = layer_read(refine * M) * double(startup_layer_reads(K, substeps));
    if (s.terminal_kinked && dimension == 1) work.kinked = kinked_rule_evaluations(s);
    return work;
}

RunPace host_pace(int threads, bool parallel) {
    const int processors = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    const int cores = std::max(1, std::min(threads, processors));
    std::string faster;
    if (cores < processors)
        faster = parallel ? "OMP_NUM_THREADS = " + std::to_string(threads) + " leaves " +
                                std::to_string(processors - cores) + " of the " + std::to_string(processors) +
                                " processors here idle"
                          : "--backend omp runs on the " + std::to_string(processors) + " processors here";
    return {core_nodes_per_second * cores, threads == 1 ? "1 core" : std::to_string(threads) + " threads", faster};
}

RunPace gpu_pace() { return {gpu_nodes_per_second, "the GPU", ""}; }

namespace {

std::string count(double value) { return format_number(value, "%.0f"); }

// The domain's half-width against the run's spread, where a smaller --R gives fewer points.
std::string smaller_domain(const SchemeSettings& s) {
    return "a smaller --R fewer points (R = " + format_number(s.R) + " is " + count(s.R / std::sqrt(s.T)) +
           " sqrt(T))";
}

std::string startup_part(const SchemeSettings& s, int dimension) {
    const int K = s.K(), M = space_intervals(s.Ky, s.Kz, s.N, s.T, s.R, s.grid_order);
    const int refine = std::max(1, startup_refinement(s, dimension));
    const double S = startup_substeps(s);
    const auto points = [dimension](double intervals) { return std::pow(intervals + 1.0, dimension); };
    const bool automatic = s.startup_substeps == 0;
    return "the start-up's " + count(startup_fine_steps(K, S)) + " fine steps (" + std::to_string(K - 1) +
           " steps of " + count(S) + " and of " + count(2 * S) + " substeps, " +
           (automatic ? "the least multiple of Ky at least " + automatic_substeps_rule(s.terminal_kinked)
                      : std::string("--startup-substeps")) + ") on " + count(points(refine * double(M))) +
           " points" + (refine > 1 ? " (--startup-refine " + std::to_string(refine) + ")" : "") + ", against the " +
           std::to_string(s.N - K + 1) + " main steps on " + count(points(M)) + ": " +
           (automatic ? "--startup-substeps sets fewer substeps (a multiple of Ky keeps the extrapolation's order)"
                      : "fewer --startup-substeps take less") +
           (refine > 1 ? ", --startup-refine 1 a grid " + std::to_string(refine) + " times coarser" : "") + ", " +
           smaller_domain(s);
}

std::string kinked_part(const SchemeSettings& s) {
    const int K = s.K(), M = space_intervals(s.Ky, s.Kz, s.N, s.T, s.R, s.grid_order);
    const double dx = SpaceGrid{M, s.R}.dx(), widest = K * s.T / s.N;  // the first main step's variance, K dt
    const int q = s.grid_order > 0 ? s.grid_order : matched_order(s.Ky, s.Kz);
    return "the kinked terminal layer's rule (5-point Gauss-Legendre on every part of a grid cell over 8.5 standard "
           "deviations of the step), " + count(CellGaussLegendreExpectation{dx}.nodes(widest)) +
           " nodes a grid point at dx = " + format_number(dx, "%.3g") + " and K dt = " + format_number(widest, "%.3g") +
           ": a lower --grid-order (dx = dt^((Q+1)/4), Q = " + std::to_string(q) +
           " here; default min(Ky + 1, Kz, 3)) takes fewer, " + smaller_domain(s);
}

std::string main_part(const SchemeSettings& s, int dimension) {
    const int K = s.K(), M = space_intervals(s.Ky, s.Kz, s.N, s.T, s.R, s.grid_order);
    return "the " + std::to_string(s.N - K + 1) + " main steps on " + count(std::pow(M + 1.0, dimension)) +
           " points with L = " + std::to_string(s.L) + " nodes per axis: a smaller --N takes fewer steps and points, " +
           smaller_domain(s) + ", a smaller --L fewer nodes";
}

}  // namespace

std::string long_run_warning(const SchemeSettings& s, int dimension, bool separable, const RunPace& pace) {
    const RunWork work = run_work(s, dimension, separable);
    const double seconds = work.total() / pace.nodes_per_second;
    if (!(seconds > long_run_seconds)) return "";
    const double largest = std::max({work.startup, work.kinked, work.main});
    const std::string part = largest == work.startup  ? startup_part(s, dimension)
                             : largest == work.kinked ? kinked_part(s)
                                                      : main_part(s, dimension);
    return "this run may take up to about " + format_duration(seconds) + " on " + pace.where + " (" +
           format_number(work.total(), "%.1e") + " node evaluations at a conservative " +
           format_number(pace.nodes_per_second, "%.1e") + " a second); " + count(100 * largest / work.total()) +
           " % of them in " + part + (pace.faster.empty() ? "" : "; " + pace.faster);
}

std::string format_duration(double seconds) {
    char text[32];
    if (!(seconds >= 0)) return "?";
    if (seconds < 9.95) std::snprintf(text, sizeof text, "%.1f s", seconds);
    else if (seconds < 59.5) std::snprintf(text, sizeof text, "%.0f s", seconds);
    else if (seconds < 3600) {
        const long s = std::lround(seconds);
        std::snprintf(text, sizeof text, "%ld min %02ld s", s / 60, s % 60);
    } else {
        const long m = std::lround(seconds / 60);
        std::snprintf(text, sizeof text, "%ld h %02ld min", m / 60, m % 60);
    }
    return text;
}

}  // namespace bsde
