// What a run needs before it starts, and what it says while it runs: no CUDA library for a CPU-only run (the cuda
// backend is a library opened on first use, algorithms/backends/cuda_entry.h), a warning before a long run whichever
// part makes it long (algorithms/scheme/run_time.h), and progress lines in a log (src/progress.h).
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "../algorithms/core/errors.h"
#include "../algorithms/scheme/grid.h"
#include "../algorithms/scheme/run_time.h"
#include "../algorithms/scheme/settings.h"
#include "../src/progress.h"
#include "cli_support.h"

using bsde::test::bsde_binary;
using bsde::test::CliResult;
using bsde::test::file_contents;
using bsde::test::joined;
using bsde::test::run;
using bsde::test::ScopedEnv;
using bsde::test::ScratchDir;
using bsde::test::shown;

namespace {

struct ChildRun {
    int status = 0;  // as waitpid gives it
    std::string out, err;
};

// The bsde binary run with args in a child process whose address space is limited to `bytes` (RLIMIT_AS, which
// `ulimit -v` sets), its stdout and stderr kept in files of the scratch folder.
ChildRun run_with_address_space_limit(const std::vector<std::string>& args, rlim_t bytes, const ScratchDir& scratch) {
    const std::string binary = bsde_binary(), out = scratch.path("out"), err = scratch.path("err");
    std::vector<std::string> words{binary};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(&word[0]);
    argv.push_back(nullptr);
    const pid_t child = ::fork();
    BOOST_REQUIRE_MESSAGE(child >= 0, "fork failed");
    if (child == 0) {  // only async-signal-safe calls until exec
        const int out_file = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int err_file = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const rlimit limit{bytes, bytes};
        if (out_file < 0 || err_file < 0 || ::dup2(out_file, STDOUT_FILENO) < 0 ||
            ::dup2(err_file, STDERR_FILENO) < 0 || ::setrlimit(RLIMIT_AS, &limit) != 0)
            ::_exit(126);
        ::execv(binary.c_str(), argv.data());
        ::_exit(127);
    }
    ChildRun run;
    ::waitpid(child, &run.status, 0);
    run.out = file_contents(out);
    run.err = file_contents(err);
    return run;
}

// The size of the largest file called libcusparse.so* in folder, or 0 where there is none.
double largest_cusparse_library(const std::string& folder) {
    double largest = 0;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error))
        if (entry.path().filename().string().rfind("libcusparse.so", 0) == 0)
            largest = std::max(largest, static_cast<double>(std::filesystem::file_size(entry.path(), error)));
    return largest;
}

// sum over the fine steps j = 1..fine of min(j, K): the layers a start-up pass reads.
double pass_reads(int fine, int K) {
    double reads = 0;
    for (int j = 1; j <= fine; ++j) reads += std::min(j, K);
    return reads;
}

// With the multistep start-up, whose fine steps the counts below take (bsde resolves --startup auto before it counts;
// the Feynman-Kac start-up of bs-call's default has none).
bsde::SchemeSettings settings_of(int K, int N, double T) {
    bsde::SchemeSettings s;
    s.Ky = s.Kz = K;
    s.N = N;
    s.T = T;
    s.startup = bsde::Startup::multistep;
    return s;
}

std::string percent(double part, double total) { return bsde::format_number(100 * part / total, "%.0f") + " %"; }

void check_contains(const std::string& what, const std::string& text, const std::string& part) {
    BOOST_CHECK_MESSAGE(text.find(part) != std::string::npos,
                        what << ": expected '" << part << "' in '" << shown(text) << "'");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(run_loading)

BOOST_AUTO_TEST_CASE(a_cpu_run_starts_under_an_address_space_limit_below_cudas) {
    const rlim_t limit = 64 << 20;
    BOOST_TEST_MESSAGE("bsde in a child under an address-space limit of 64 MiB (ulimit -v 65536): a serial solve of "
                       "ex1, K = 2, N = 16 (its binary some 4 MiB, the C++ runtime a few, its arrays 0.25 MiB) runs, "
                       "`bsde problems` runs, bad input exits 2 with its line, and --backend cuda exits 4 with the "
                       "loader's reason: the CUDA libraries (cuSPARSE alone maps more than 64 MiB) are opened only "
                       "for cuda, never crash the run before main (exit code 127 from the loader, as when bsde was "
                       "linked with them)");
    const double cusparse = largest_cusparse_library("/usr/local/cuda/lib64");
    if (cusparse > 0)
        BOOST_CHECK_MESSAGE(cusparse > limit, "libcusparse in /usr/local/cuda/lib64 has " << cusparse
                                                  << " bytes, no more than the limit " << limit << ": the limit "
                                                  << "does not show whether a CPU-only run maps it");
    ScratchDir scratch("run_loading");
    const ChildRun solve =
        run_with_address_space_limit({"solve", "--problem", "ex1", "--K", "2", "--N", "16", "--backend", "serial"},
                                     limit, scratch);
    BOOST_CHECK_MESSAGE(WIFEXITED(solve.status) && WEXITSTATUS(solve.status) == 0 &&
                            solve.out.find("problem   logistic") != std::string::npos,
                        "serial solve: expected exit code 0 and the report, got status " << solve.status << ", err '"
                                                                                       << shown(solve.err) << "'");
    const ChildRun problems = run_with_address_space_limit({"problems"}, limit, scratch);
    BOOST_CHECK_MESSAGE(WIFEXITED(problems.status) && WEXITSTATUS(problems.status) == 0 &&
                            problems.out.find("logistic") != std::string::npos,
                        "bsde problems: expected exit code 0 and the list, got status "
                            << problems.status << ", err '" << shown(problems.err) << "'");
    const struct {
        std::vector<std::string> args;
        int code;
        std::string message;
    } failures[]{{{"solve", "--problem", "ex1", "--K", "0"}, 2, "bsde: error: --K 0"},
                 {{"solve", "--problem", "ex1", "--N", "16", "--backend", "cuda"}, 4, "bsde: error: --backend cuda: "}};
    for (const auto& [args, code, message] : failures) {
        const ChildRun r = run_with_address_space_limit(args, limit, scratch);
        BOOST_CHECK_MESSAGE(WIFEXITED(r.status) && WEXITSTATUS(r.status) == code &&
                                bsde::test::one_line(r.err, message),
                            joined(args) << ": expected exit code " << code << " and one line '" << message
                                         << "...', got status " << r.status << " and '" << shown(r.err) << "'");
    }
}

BOOST_AUTO_TEST_CASE(a_long_run_is_warned_of_whichever_part_dominates) {
    BOOST_TEST_MESSAGE("the estimate from the node evaluations counted here, at 3e7 a second on 1 core: ex2 "
                       "K = 3, N = 16, T = 1e-4 (start-up), ex3 K = 2, N = 16, T = 0.33, --grid-order 8 (the kinked "
                       "rule) and ex2 K = 6, N = 1024 (main steps) warned of, each naming its part and the option "
                       "that lowers it; ex2 K = 3, N = 256 on 1 core and ex2 K = 6, N = 1024 on the GPU not");
    const bsde::RunPace core = bsde::host_pace(1, false);
    BOOST_CHECK_EQUAL(core.nodes_per_second, 3e7);
    const double L = 32;
    {  // ex2, K = 3, N = 16, T = 1e-4: dx = dt = T / N (Q = 3), M = 2 ceil(16 / dt); S = 3 ceil(ceil(3 sqrt(N / T) / 16)
       // / 3) = 75 fine steps a step, its passes on the start-up's grid of 2 M intervals (1D)
        bsde::SchemeSettings s = settings_of(3, 16, 1e-4);
        const double dt = 1e-4 / 16, M = 2 * std::ceil(16 / dt);
        BOOST_REQUIRE_EQUAL(M, 5120000);
        const int S = 75;
        const double startup = (2 * M + 1) * L * (pass_reads(2 * S, 3) + pass_reads(4 * S, 3));
        const double main = (M + 1) * L * (16 - 3 + 1) * 3;
        const double total = startup + main;
        const std::string warning = bsde::long_run_warning(s, 1, false, core);
        char evaluations[64];
        std::snprintf(evaluations, sizeof evaluations, "(%.1e node evaluations", total);
        for (const std::string& part :
             {"this run may take up to about " + bsde::format_duration(total / 3e7) + " on 1 core",
              std::string(evaluations),
              percent(startup, total) + " of them in the start-up's 450 fine steps (2 steps of 75 and of 150 substeps",
              std::string("--startup-substeps sets fewer substeps"), std::string("--startup-refine 1")})
            check_contains("ex2 T = 1e-4", warning, part);
    }
    {  // ex3 (bs-call's paper setting), --grid-order 8: M = 2 ceil(16 / dt^(9/4)), the rule's 107090 nodes a point at
       // the first main step dwarf the L = 32 of every other read
        bsde::SchemeSettings s = settings_of(2, 16, 0.33);
        s.grid_order = 8;
        s.terminal_kinked = true;
        const std::string warning = bsde::long_run_warning(s, 1, false, core);
        for (const char* part : {"of them in the kinked terminal layer's rule", "107090 nodes a grid point",
                                 "a lower --grid-order (dx = dt^((Q+1)/4), Q = 8 here"})
            check_contains("ex3 --grid-order 8", warning, part);
    }
    {  // ex2 K = 6, N = 1024: M = 32768, S = 6 on the start-up's grid of 2 M, 6114 main reads against 510 of the
       // start-up, 7.5e9 evaluations
        const bsde::SchemeSettings s = settings_of(6, 1024, 1.0);
        const double main = 32769 * L * 1019 * 6, startup = 65537 * L * (pass_reads(30, 6) + pass_reads(60, 6));
        const std::string warning = bsde::long_run_warning(s, 1, false, core);
        const std::string parts[]{"this run may take up to about " + bsde::format_duration((main + startup) / 3e7),
                                  percent(main, main + startup) + " of them in the 1019 main steps on 32769 points",
                                  "a smaller --N takes fewer steps"};
        for (const std::string& part : parts)
            check_contains("ex2 K = 6, N = 1024", warning, part);
        const std::string on_gpu = bsde::long_run_warning(s, 1, false, bsde::gpu_pace());
        BOOST_CHECK_MESSAGE(on_gpu.empty(), "on the GPU (7.5e9 / 2e10 a second): got '" << on_gpu << "'");
    }
    // ex2 K = 3, N = 256: M = 8192, S = 3, 254 3 reads of 8193 L nodes and 48 of 16385, 2.3e8 evaluations: 8 s
    const std::string short_run = bsde::long_run_warning(settings_of(3, 256, 1.0), 1, false, core);
    BOOST_CHECK_MESSAGE(short_run.empty(), "ex2 K = 3, N = 256: got '" << short_run << "'");
}

BOOST_AUTO_TEST_CASE(a_2d_runs_work_counts_the_separable_pass_by_its_sums) {
    BOOST_TEST_MESSAGE("ex4's grid at K = 3, N = 32 (M = 512, L = 8): a main layer read is 2 (M+1)^2 L^2 node "
                       "evaluations of the 1D kind in the fused pass, L ((M+1)(M+3) + (M+1)^2) in the separable one");
    bsde::SchemeSettings s = settings_of(3, 32, 1.0);
    s.L = 8;
    s.R = 8;
    const double M = 512, reads = (32 - 3 + 1) * 3;
    BOOST_REQUIRE_EQUAL(bsde::space_intervals(3, 3, 32, 1.0, 8), M);
    const double fused = 2 * (M + 1) * (M + 1) * 64 * reads;
    const double separable = 8 * ((M + 1) * (M + 3) + (M + 1) * (M + 1)) * reads;
    const std::pair<bool, double> cases[]{{false, fused}, {true, separable}};
    for (const auto& [separable_pass, expected] : cases) {
        const double got = bsde::run_work(s, 2, separable_pass).main;
        BOOST_CHECK_MESSAGE(std::fabs(got - expected) <= 1e-12 * expected,
                            (separable_pass ? "separable" : "fused") << ": expected " << expected << ", got " << got
                                                                     << ", error " << std::fabs(got - expected));
    }
}

BOOST_AUTO_TEST_CASE(a_run_silent_for_minutes_before_is_warned_of) {
    BOOST_TEST_MESSAGE("bsde solve bs-call K = 3, N = 32, T = 0.01, --startup multistep --startup-substeps 3 on serial "
                       "(minutes on one core: M = 102400, the kinked layer's rule 8330 nodes a point at its first main "
                       "step and in the start-up's, most of 1e10 evaluations; "
                       "no warning "
                       "before) writes one warning line naming the kinked rule before it starts; here its allocation "
                       "then fails at once (BSDE_TEST_FAIL_ALLOCATION, 1e12 bytes free: BSDE_TEST_FREE_BYTES)");
    ScopedEnv fail("BSDE_TEST_FAIL_ALLOCATION", "1");
    ScopedEnv enough_memory("BSDE_TEST_FREE_BYTES", "1000000000000");
    const std::vector<std::string> args{"solve", "--problem", "bs-call", "--K", "3", "--N", "32", "--T", "0.01",
                                        "--startup", "multistep", "--startup-substeps", "3", "--backend", "serial"};
    const CliResult r = run(args);
    const std::size_t end_of_first = r.err.find('\n');
    const std::string first = r.err.substr(0, end_of_first + 1), rest = r.err.substr(end_of_first + 1);
    BOOST_CHECK_MESSAGE(r.code == 4, joined(args) << ": expected exit code 4, got " << r.code);
    BOOST_CHECK_MESSAGE(end_of_first != std::string::npos &&
                            first.rfind("bsde: warning: this run may take up to about ", 0) == 0 &&
                            first.find("of them in the kinked terminal layer's rule") != std::string::npos,
                        "expected a first line 'bsde: warning: this run may take up to about ...' naming the kinked "
                        "rule, got '" << shown(first) << "'");
    BOOST_CHECK_MESSAGE(bsde::test::one_line(rest, "bsde: error: allocating "),
                        "expected then one line 'bsde: error: allocating ...', got '" << shown(rest) << "'");
}

BOOST_AUTO_TEST_CASE(progress_off_a_terminal_is_a_line_now_and_then) {
    BOOST_TEST_MESSAGE("stderr a file, not a terminal: a progress of 0.05 s lines writes 'bsde: progress: LABEL: step "
                       "8/100, about ... left (... so far)' lines while the solve runs (0.3 s here: 3 or more), a "
                       "warning printed meanwhile stands on a line of its own, and clear() ends the lines");
    ScratchDir scratch("run_loading");
    const int file = ::open(scratch.path("stderr").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int saved_stderr = ::dup(STDERR_FILENO);
    BOOST_REQUIRE(file >= 0 && saved_stderr >= 0 && ::dup2(file, STDERR_FILENO) == STDERR_FILENO);
    std::ostringstream err;
    std::streambuf* const cerr_buffer = std::cerr.rdbuf(err.rdbuf());
    std::string after_clear;
    {
        bsde::ProgressLine progress(true, 0.05);
        const bsde::ProgressCallback report = progress.for_solve("solve case");
        report(8, 100);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        progress.print(std::cerr, "bsde: warning: a warning");
        progress.clear();
        after_clear = err.str();
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
    }
    const std::string written = err.str();
    std::cerr.rdbuf(cerr_buffer);
    ::dup2(saved_stderr, STDERR_FILENO);
    ::close(saved_stderr);
    ::close(file);
    std::istringstream lines(written);
    int progress_lines = 0;
    for (std::string line; std::getline(lines, line);) {
        if (line == "bsde: warning: a warning") continue;
        const std::string end = " so far)";
        const bool progress_line = line.rfind("bsde: progress: solve case: step 8/100, about ", 0) == 0 &&
                                   line.size() > end.size() &&
                                   line.compare(line.size() - end.size(), end.size(), end) == 0;
        progress_lines += progress_line;
        BOOST_CHECK_MESSAGE(progress_line, "expected a progress line or the warning, got '" << shown(line) << "'");
    }
    BOOST_CHECK_MESSAGE(progress_lines >= 3, "expected 3 or more progress lines in 0.3 s, got " << progress_lines);
    BOOST_CHECK_MESSAGE(written.find("bsde: warning: a warning\n") != std::string::npos,
                        "expected the warning on a line of its own in '" << shown(written) << "'");
    BOOST_CHECK_MESSAGE(written == after_clear, "expected no line after clear(), got '"
                                                    << shown(written.substr(after_clear.size())) << "'");
}

BOOST_AUTO_TEST_SUITE_END()
