// bsde surface: a batch of parameter sets of one problem (batch_spec.h) in one sweep on one grid
// (BackendOps::solve_batch), each member's y_0 and z_0, for an option its price and Greeks at S0 (member_solution.h),
// with the exact values and errors where the problem has them and the a-posteriori estimate of each member's errors
// (batches at N / 2 and N / 4, estimate.h). Prints the run and a Markdown table; with --out DIR writes surface.csv and
// surface.md there.
#pragma once
#include <ostream>
#include <string>

#include "batch_spec.h"
#include "options.h"

namespace bsde {

// Runs the invocation's batch (Invocation::batch) and reports it; returns the exit code. `command`: the command as
// given, for surface.md's record of the run.
int surface_command(const Invocation& invocation, const std::string& command, std::ostream& out, std::ostream& err);

}  // namespace bsde
