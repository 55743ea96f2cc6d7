// Human-readable reports and CSV output of the bsde commands.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "../algorithms/scheme/settings.h"
#include "../algorithms/scheme/stability.h"
#include "../problems/registry.h"
#include "estimate.h"
#include "output_files.h"
#include "options.h"
#include "result_checks.h"

namespace bsde {

void print_coefficients(std::ostream& out, int K);
// The grid with the stability estimate, how R came about (Invocation::domain; empty: not said), and the refusal of
// the problem's checks of it (problem_grid_checks.h), else the spots' (Invocation::spots_refusal), if any.
void print_grid(std::ostream& out, const Invocation& invocation, const ProblemInfo& problem);
void print_problems(std::ostream& out);
// What the solve did to the terminal data, as the reports say it: "smoothing kreiss4 (of the kinked terminal data)" or
// "no smoothing (smooth terminal data)".
std::string smoothing_description(bool terminal_kinked, Smoothing smoothing);
// The error estimate of a solve as its report gives it: made (or not available), or not asked for.
struct SolveEstimate {
    EstimatePlan plan;        // whether it is made, from which solves, at what cost (plan_estimate)
    double run_seconds = 0;   // the run's solve, as the front end timed it
    ErrorEstimate estimate;
};
// files: the files written, "FILE, ..." (empty: none).
void print_solve_report(std::ostream& out, const Invocation& invocation, const SolveResult& result,
                        const StabilityEstimate& stability, const SolveEstimate& estimate, const SlopeCheck& slope,
                        const std::string& files);

// `spots`: per asset, the range of the column in_spots (Invocation::spots); the options' rows need it.
void write_solution_csv(std::ostream& out, const SolveResult& result, const std::vector<SpotRange>& spots);

// Whether grid point i's spots (result.state, at t = 0) lie in the range, one per asset; false without them.
bool in_spots(const SolveResult& result, std::size_t i, const std::vector<SpotRange>& spots);

// The largest errors over the grid points whose spots lie in the range, and the largest exact price there (the scale of
// the price's error).
struct SpotErrors {
    int points = 0;
    double price = 0, largest_price = 0, delta = 0;  // delta: the largest over the assets
};
SpotErrors spot_errors(const SolveResult& result, const std::vector<SpotRange>& spots);

}  // namespace bsde
