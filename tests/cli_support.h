// Runs the bsde command line in-process for the CLI, fault, study and bench tests.
#pragma once
#include <sstream>
#include <string>
#include <vector>

#include "../src/cli.h"

namespace bsde::test {

struct CliResult {
    int code;
    std::string out, err;
};

inline CliResult run(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    const int code = bsde::run_cli(args, out, err);
    return {code, out.str(), err.str()};
}

}  // namespace bsde::test
