#include <cstdlib>
#include <exception>
#include <iostream>

#include "cli.h"

namespace {

// The last safety net: an exception that escapes where none may (a CUDA free failing in a destructor
// after a device fault, say) ends the program with one error line and exit code 4, not a core dump.
[[noreturn]] void terminate_with_message() {
    std::string what = "an unexpected failure";
    if (const std::exception_ptr current = std::current_exception()) {
        try {
            std::rethrow_exception(current);
        } catch (const std::exception& e) {
            what = e.what();
        } catch (...) {
        }
    }
    std::cerr << "bsde: error: " << what << " (terminated)" << std::endl;
    std::_Exit(4);
}

}  // namespace

int main(int argc, char** argv) {
    std::set_terminate(terminate_with_message);
    return bsde::run_cli(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
