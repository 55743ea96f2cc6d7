// The bsde command line and INI configuration (Boost.Program_options): one set of option names
// shared by both; the command line wins over the file.
#pragma once
#include <string>
#include <vector>

#include "../algorithms/backend.h"
#include "../algorithms/solver.h"

namespace bsde {

struct Invocation {
    std::string command;  // solve, coefficients, grid, problems; empty with --help alone
    bool help = false;
    std::string problem;
    SchemeSettings settings;
    Backend backend = Backend::omp;
    bool backend_given = false;
    std::string output;   // CSV of the solution at t = 0 (solve)
};

// Parses and validates args (without the program name). Throws InputError with a one-line message.
Invocation parse_invocation(const std::vector<std::string>& args);

std::string help_text();

}  // namespace bsde
