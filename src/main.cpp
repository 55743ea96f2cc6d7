#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <exception>
#include <iostream>

#include "cli.h"
#include "output_files.h"

namespace {

// The last safety net: an exception that escapes where none may (a CUDA free failing in a destructor
// after a device fault, say) ends the program with one error line and exit code 4, not a core dump, having removed
// the run's temporary files, which no destructor removes on this way out.
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
    bsde::remove_own_paths();
    std::cerr << "bsde: error: " << what << " (terminated)" << std::endl;
    std::_Exit(4);
}

// Whether the command runs: an exit() meanwhile comes from a library that gave up inside it (libgomp that cannot create
// its threads, under an address-space limit, calls exit(1) after a line of its own on stderr).
std::atomic<bool> running{false};

// Such an exit ends the program with exit code 4 (a library failure) and one error line after the library's, having
// removed the run's temporary files, which no destructor removes on this way out either.
void exit_from_a_library() {
    if (!running.load()) return;
    bsde::remove_own_paths();
    static const char message[] = "bsde: error: a library ended the run (its message above)\n";
    if (::write(2, message, sizeof message - 1) < 0) {
    }
    std::_Exit(4);
}

}  // namespace

int main(int argc, char** argv) {
    bsde::prepare_process_for_output();  // before any file is opened
    std::set_terminate(terminate_with_message);
    std::atexit(exit_from_a_library);
    running.store(true);
    const int code = bsde::run_cli(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
    running.store(false);
    return code;
}
