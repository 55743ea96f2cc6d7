// The time a solve will take, estimated before it starts from its work at a conservative pace, and the warning of a
// long one (SchemeSettings::warn_before_run), whichever part of the run makes it long.
#pragma once
#include <string>

#include "settings.h"

namespace bsde {

// The work of a solve in three parts, each counted in node evaluations of the 1D kind (a layer's interpolant, the
// driver and the sums at one quadrature node of one grid point: some 30 flops and an exp).
struct RunWork {
    double startup = 0;  // the start-up's fine steps on its grid of r M intervals (startup_refinement)
    double kinked = 0;   // the rule of a kinked 1D terminal layer (kinked_rule_evaluations)
    double main = 0;     // the main steps, N - K + 1 of them
    double total() const { return startup + kinked + main; }
};

// A 2D node evaluation in 1D ones: the tensor spline's or the bicubic's interpolant takes some 110 flops of the
// node's 125, the 1D spline's 14 of 30, but a 1D node's exp (ex2's driver) costs about as much again.
constexpr double node_cost_2d = 2.0;
// A 3D node: the tensor spline's 64 coefficients and 84 weight products a function against 2D's 16 and 20.
constexpr double node_cost_3d = 4 * node_cost_2d;

// The layer reads of node_evaluations (settings.h) on each part's grid, L^d nodes at each of its points, 2D ones at
// node_cost_2d, 3D ones at node_cost_3d; where the steps run the separable pass (separable_pass.h), a layer read is
// instead its axis sums, L-term sums at (M+1)(M+3) + (M+1)^2 places in 2D, (M+1)(M+3)^2 + (M+1)^2 (M+3) + (M+1)^3 in
// 3D, each one node's worth. Adds the kinked rule's evaluations in 1D
// (settings.terminal_kinked).
RunWork run_work(const SchemeSettings& settings, int dimension, bool separable);

// How fast a backend goes: node evaluations of the 1D kind a second and where the run goes at that pace.
struct RunPace {
    double nodes_per_second = 0;
    std::string where;   // "1 core", "16 threads", "the GPU"
    std::string faster;  // how to run on more of this machine's processors, "" where the run takes them all
};

// One core's pace: the slowest of the problems' on one core (exchange's, whose kinked layer's band in the separable
// pass this count leaves out), the others' two to four times faster, so that the estimate is rather long than short.
constexpr double core_nodes_per_second = 3e7;
// The GPU's: below the slowest of the problems' measured rates (exchange's; docs/results/bench), for the same reason.
constexpr double gpu_nodes_per_second = 2e10;

// core_nodes_per_second on each of `threads`, up to the processors there are; parallel: omp's threads, else serial's.
RunPace host_pace(int threads, bool parallel);
RunPace gpu_pace();

// Runs estimated longer than this are warned of.
constexpr double long_run_seconds = 60;

// The warning (empty if none) of a solve estimated to take more than long_run_seconds at `pace`: its estimated time,
// the part that takes most of it (the start-up, the kinked terminal layer's rule or the main steps), the options
// that lower that part, and pace.faster.
std::string long_run_warning(const SchemeSettings& settings, int dimension, bool separable, const RunPace& pace);

// "0.4 s", "12 s", "3 min 05 s", "2 h 10 min".
std::string format_duration(double seconds);

}  // namespace bsde
