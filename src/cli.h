// The bsde command line as a function, so tests can drive it: returns the process exit code.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace bsde {

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace bsde
