// The bsde command line and INI configuration (Boost.Program_options): one set of option names
// shared by both; the command line wins over the file.
#pragma once
#include <string>
#include <vector>

#include "../algorithms/backend.h"
#include "../algorithms/solver.h"

namespace bsde {

struct Invocation {
    std::string command;  // solve, study, bench, coefficients, grid, problems; empty with --help or --version alone
    bool help = false;
    bool version = false;
    std::string problem;
    SchemeSettings settings;
    Backend backend = Backend::omp;
    bool backend_given = false;
    std::string output;   // CSV of the solution at t = 0 (solve)
    // study: the K and N lists (ascending), the backends (empty: every one present), the output
    // folder (empty: stdout only) and the time that leaves a backend out of larger cases (0: never)
    std::vector<int> Ks, Ns;
    std::vector<Backend> backends;
    std::string out;
    double max_seconds = 0;
    // bench: the --cases list as given (empty: the default cases); it also takes backends (empty: the fastest
    // available) and out. bench and study: the timed solves per case and backend (bench's default; study's is 1)
    std::string cases;
    int repeats = 5;
};

// Parses and validates args (without the program name). Throws InputError with a one-line message.
Invocation parse_invocation(const std::vector<std::string>& args);

std::string help_text();

}  // namespace bsde
