// The test runner: every suite in one Boost.Test module; the last line is "N passed, N failed".
// Boost.Test is compiled into this file (the "included" variant), so the runner has its own main
// and needs no Boost library at run time on the GPU host.
#define BOOST_TEST_NO_MAIN
#define BOOST_TEST_ALTERNATIVE_INIT_API
#include <boost/test/included/unit_test.hpp>
#include <boost/test/results_collector.hpp>

#include <csignal>
#include <iostream>

#include "test_support.h"

namespace {
bool init_tests() { return true; }  // test cases register themselves
}  // namespace

int main(int argc, char* argv[]) {
    namespace ut = boost::unit_test;
    // A test that writes to a FIFO or pipe whose reader, the program under test, has already closed it (a config FIFO
    // that bsde opens, checks and refuses) gets EPIPE, rather than the runner ending by SIGPIPE. The children the tests
    // start take SIGPIPE's disposition from bsde's own main, or reset it where a test needs the default.
    std::signal(SIGPIPE, SIG_IGN);
    std::cout << "backends: " << bsde::available_backends_text()
              << (bsde::backend_available(bsde::Backend::cuda) ? "" : "; the cuda suites are skipped") << std::endl;
    const int status = ut::unit_test_main(&init_tests, argc, argv);
    const ut::test_results& results = ut::results_collector.results(ut::framework::master_test_suite().p_id);
    if (results.p_test_cases_skipped > 0)
        std::cout << results.p_test_cases_skipped << " test cases skipped (filtered out, or they need a CUDA device)\n";
    std::cout << results.p_test_cases_passed << " passed, " << results.p_test_cases_failed << " failed" << std::endl;
    return status;
}
