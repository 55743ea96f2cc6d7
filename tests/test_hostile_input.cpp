// Hostile input: values megabytes long (of --cases, of other options, of a config file's keys) are refused with one
// short line, lists with it; a config file swapped for a FIFO while runs read it never makes a run wait for a writer;
// a study's --out folder named like an option (found by bsde_fuzz) gets its plots.
// The long values run in a child process (a crash there is reported, not suffered), with a time limit.

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../src/cli.h"
#include "cli_support.h"

using bsde::test::file_contents;
using bsde::test::joined;
using bsde::test::one_line;
using bsde::test::ScratchDir;
using bsde::test::shown;

namespace {

// What a run in a child process did: its exit code, or the signal that ended it, or that it ran past its time.
struct ChildRun {
    int code = -1, signal = 0;
    bool timed_out = false;
    std::string out, err;
};

// bsde::run_cli(args) in a forked child, killed after `seconds`, in the folder `where` (else this process's); its out
// and err through files in scratch.
ChildRun run_in_child(const std::vector<std::string>& args, const ScratchDir& scratch, double seconds = 30,
                      const std::string& where = "") {
    const std::string out_file = scratch.path("child.out"), err_file = scratch.path("child.err");
    const pid_t child = ::fork();
    BOOST_REQUIRE_MESSAGE(child >= 0, "fork failed");
    if (child == 0) {
        // a fault ends the child as it would end bsde: not through Boost.Test's handlers, which would go on testing
        for (const int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::signal(fault, SIG_DFL);
        if (!where.empty() && ::chdir(where.c_str()) != 0) ::_exit(99);
        std::ostringstream out, err;
        const int code = bsde::run_cli(args, out, err);
        std::ofstream(out_file, std::ios::binary) << out.str();
        std::ofstream(err_file, std::ios::binary) << err.str();
        ::_exit(code);
    }
    ChildRun r;
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (::waitpid(child, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(child, SIGKILL);
            ::waitpid(child, &status, 0);
            r.timed_out = true;
            break;
        }
        ::usleep(2000);
    }
    if (!r.timed_out && WIFEXITED(status)) r.code = WEXITSTATUS(status);
    if (!r.timed_out && WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    r.out = file_contents(out_file);
    r.err = file_contents(err_file);
    std::remove(out_file.c_str());
    std::remove(err_file.c_str());
    return r;
}

// The longest error line a refused value may give: its option, the value's first 60 characters, its length and why.
constexpr std::size_t short_line = 400;

// args refused with exit code 2 and one line "bsde: error: " of at most short_line characters that contains
// `expected`, nothing on out.
void check_refused_in_one_short_line(const std::string& what, const std::vector<std::string>& args,
                                     const std::string& expected, const ScratchDir& scratch, double seconds = 30) {
    const ChildRun r = run_in_child(args, scratch, seconds);
    const std::string shown_err = shown(r.err.substr(0, 300)) + (r.err.size() > 300 ? "..." : "");
    BOOST_TEST_MESSAGE(what << ": expected exit code 2, got " << r.code << (r.signal ? " (signal " : "")
                            << (r.signal ? std::to_string(r.signal) + ")" : "") << (r.timed_out ? " (timed out)" : "")
                            << "; err of " << r.err.size() << " bytes: " << shown_err);
    BOOST_CHECK_MESSAGE(r.code == 2 && !r.timed_out && r.signal == 0,
                        what << ": expected exit code 2, got " << r.code << ", signal " << r.signal
                             << (r.timed_out ? ", timed out" : ""));
    BOOST_CHECK_MESSAGE(one_line(r.err, "bsde: error: ") && r.err.size() <= short_line,
                        what << ": expected one line 'bsde: error: ...' of at most " << short_line
                             << " characters, got " << r.err.size() << ": " << shown_err);
    BOOST_CHECK_MESSAGE(r.err.find(expected) != std::string::npos,
                        what << ": expected the message to contain '" << shown(expected) << "', got " << shown_err);
    BOOST_CHECK_MESSAGE(r.out.empty(), what << ": expected nothing on out, got " << r.out.size() << " bytes");
}

// How a value of n characters c starts in a message: its first 60 characters, then its length.
std::string quoted_start(std::size_t n, char c) {
    return "'" + std::string(60, c) + "...' (" + std::to_string(n) + " characters)";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hostile_input)

BOOST_AUTO_TEST_CASE(a_long_cases_value_is_refused_in_one_short_line) {
    BOOST_TEST_MESSAGE("bsde bench --cases of 27000 and 1000000 letters: over the 4096 characters a value may have; "
                       "a case name of 4000 letters then -k3-n8, under it: neither a problem nor PROBLEM-kK-nN. Each "
                       "exit code 2, one line quoting the value's start and its length");
    ScratchDir scratch("hostile_input");
    for (const std::size_t n : {std::size_t(27000), std::size_t(1000000)})
        check_refused_in_one_short_line("bench --cases of " + std::to_string(n) + " letters",
                                        {"bench", "--cases", std::string(n, 'a')},
                                        "--cases " + quoted_start(n, 'a') + ": longer than 4096 characters", scratch);
    const std::string name = std::string(4000, 'a') + "-k3-n8";
    check_refused_in_one_short_line("bench --cases of a 4006-character case name", {"bench", "--cases", name},
                                    quoted_start(name.size(), 'a') + " is neither a problem", scratch);
}

BOOST_AUTO_TEST_CASE(long_values_of_other_options_are_refused_in_one_short_line) {
    BOOST_TEST_MESSAGE("values of 1000000 characters for --N, --T, --problem, --spots, --output, a problem's --sigma, "
                       "study's --K and --backends, as --NAME VALUE and --NAME=VALUE; an unknown option of as many; "
                       "values of 300 characters (under the limit) that are wrong. Each exit code 2, one short line");
    ScratchDir scratch("hostile_input");
    const std::size_t n = 1000000;
    const std::string digits(n, '1'), letters(n, 'a');
    const std::string too_long = ": longer than 4096 characters";
    const struct {
        std::vector<std::string> args;
        std::string expected;
    } rows[]{
        {{"solve", "--N", digits}, "--N " + quoted_start(n, '1') + too_long},
        {{"solve", "--T=" + digits}, "--T " + quoted_start(n, '1') + too_long},
        {{"solve", "--problem", letters}, "--problem " + quoted_start(n, 'a') + too_long},
        {{"solve", "--problem", "ex3", "--spots", digits}, "--spots " + quoted_start(n, '1') + too_long},
        {{"solve", "--output", letters}, "--output " + quoted_start(n, 'a') + too_long},
        {{"solve", "--problem", "ex3", "--sigma", digits}, "--sigma " + quoted_start(n, '1') + too_long},
        {{"study", "--K", digits}, "--K " + quoted_start(n, '1') + too_long},
        {{"study", "--backends", letters}, "--backends " + quoted_start(n, 'a') + too_long},
        {{"solve", "--" + letters}, "argument '--" + std::string(58, 'a') + "...' (1000002 characters)" + too_long},
        {{"solve", "--N", std::string(300, '1')}, "--N " + quoted_start(300, '1') + ": out of range"},
        {{"solve", "--T", std::string(300, 'x')}, "--T " + quoted_start(300, 'x') + ": a finite number expected"},
        {{"solve", "--problem", std::string(300, 'x')}, "--problem " + quoted_start(300, 'x') + ": no such problem"},
        {{"study", "--N", std::string(300, ',')}, "--N " + quoted_start(300, ',') + ": '' is neither"},
        {{"solve", "--" + std::string(300, 'x')}, "unrecognised option '--" + std::string(58, 'x') + "...'"},
    };
    for (const auto& row : rows)
        check_refused_in_one_short_line(joined({row.args.front(), row.args[1].substr(0, 20) + "..."}), row.args,
                                        row.expected, scratch);
}

BOOST_AUTO_TEST_CASE(a_list_is_refused_before_it_expands_beyond_its_bound) {
    BOOST_TEST_MESSAGE("bsde study --K with a range that ends at 2147483647 (INT_MAX), and with 200 ranges of 99999 "
                       "values each (3373 characters): refused within 5 s, the first as K = 2147483600 is out of "
                       "[1, 32], the second as more than 100000 values in all");
    ScratchDir scratch("hostile_input");
    check_refused_in_one_short_line("study --K 2147483600-2147483647", {"study", "--K", "2147483600-2147483647"},
                                    "--K 2147483600: must be in [1, 32]", scratch, 5);
    std::string ranges;
    for (long long i = 0; i < 200; ++i)
        ranges += (i ? "," : "") + std::to_string(i * 100000 + 1) + "-" + std::to_string(i * 100000 + 99999);
    check_refused_in_one_short_line("study --K with 200 ranges", {"study", "--K", ranges},
                                    "(3373 characters): the list holds more than 100000 values", scratch, 5);
}

BOOST_AUTO_TEST_CASE(a_long_config_value_is_refused_in_one_short_line) {
    BOOST_TEST_MESSAGE("config files (under their 1 MiB) with a value of 1000000 characters, a key of as many and a "
                       "line of as many without '=': exit code 2, one short line naming the line");
    ScratchDir scratch("hostile_input");
    const std::size_t n = 1000000;
    const struct {
        std::string text, expected;
    } rows[]{
        {"N = 16\nproblem = " + std::string(n, 'a') + "\n", "line 2: problem = " + quoted_start(n, 'a') +
                                                                 ": longer than 4096 characters"},
        {"K = 3\r\ncases = " + std::string(n, 'a'), "line 2: cases = " + quoted_start(n, 'a')},
        {std::string(n, 'N') + " = 3\n", "line 1: unknown key " + quoted_start(n, 'N')},
        {std::string(n, '.') + " = 3\n", "line 1: " + quoted_start(n, '.') + " is not an option name"},
        {std::string(n, '1') + "\n", "line 1: " + quoted_start(n, '1') + " is not a key = value line"},
    };
    for (const auto& row : rows) {
        const std::string config = scratch.write("long.ini", row.text);
        check_refused_in_one_short_line("grid --config with " + shown(row.text.substr(0, 12)) + "...",
                                        {"grid", "--config", config}, row.expected, scratch);
    }
}

BOOST_AUTO_TEST_CASE(an_out_folder_named_like_an_option_gets_its_plots) {
    BOOST_TEST_MESSAGE("bsde study --out -1 (found by bsde_fuzz), run in the scratch folder: exit code 0, the folder "
                       "-1 holds study.csv and, where gnuplot is installed, y_error.png; stderr holds bsde's lines "
                       "only (no shell's message: cd took -1 for an option)");
    ScratchDir scratch("hostile_input");
    const ChildRun r = run_in_child({"study", "--problem", "ex1", "--K", "1", "--N", "8", "--backends", "serial",
                                     "--out", "-1"},
                                    scratch, 60, scratch.path(""));
    bool only_bsde_lines = true;
    std::istringstream lines(r.err);
    for (std::string line; std::getline(lines, line);)
        only_bsde_lines = only_bsde_lines && line.rfind("bsde: ", 0) == 0;
    const bool gnuplot_missing = r.err.find("gnuplot not found") != std::string::npos;
    BOOST_TEST_MESSAGE("exit code " << r.code << ", err '" << shown(r.err) << "'");
    BOOST_CHECK_MESSAGE(r.code == 0, "expected exit code 0, got " << r.code);
    BOOST_CHECK_MESSAGE(only_bsde_lines, "expected only 'bsde: ...' lines on err, got '" << shown(r.err) << "'");
    BOOST_CHECK_MESSAGE(bsde::test::exists(scratch.path("-1/study.csv")), "expected -1/study.csv");
    BOOST_CHECK_MESSAGE(gnuplot_missing || bsde::test::exists(scratch.path("-1/y_error.png")),
                        "gnuplot is installed: expected -1/y_error.png");
}

BOOST_AUTO_TEST_CASE(a_config_swapped_for_a_fifo_never_waits) {
    BOOST_TEST_MESSAGE("while a thread swaps the config file's name between a regular file (N = 64) and a FIFO, 2000 "
                       "runs of bsde grid --config read it: each reads the file (exit code 0) or refuses the FIFO "
                       "(exit code 2, one line: not a regular file), none waits for a writer on the FIFO (a watchdog "
                       "writes to it, as a second name of it, after 2 s)");
    ScratchDir scratch("hostile_input");
    const std::string config = scratch.path("run.ini"), regular = scratch.write("regular.ini", "N = 64\n"),
                      fifo = scratch.path("fifo.ini"), next = scratch.path("next.ini");
    BOOST_REQUIRE_MESSAGE(::mkfifo(fifo.c_str(), 0600) == 0, "cannot make the FIFO " << fifo);
    BOOST_REQUIRE(::link(regular.c_str(), config.c_str()) == 0);
    std::atomic<bool> done{false};
    std::atomic<int> runs_started{0}, released{0};
    // config becomes the FIFO, then the file, and so on: a second name made and renamed over it, atomically
    std::thread swapper([&] {
        for (bool to_fifo = true; !done; to_fifo = !to_fifo) {
            ::unlink(next.c_str());
            if (::link((to_fifo ? fifo : regular).c_str(), next.c_str()) == 0) ::rename(next.c_str(), config.c_str());
        }
    });
    // a run that opened the FIFO waits for a writer: after 2 s it gets one, so that the test ends
    std::thread watchdog([&] {
        int seen = -1;
        auto since = std::chrono::steady_clock::now();
        while (!done) {
            ::usleep(20000);
            if (runs_started != seen) {
                seen = runs_started;
                since = std::chrono::steady_clock::now();
            } else if (std::chrono::steady_clock::now() - since > std::chrono::seconds(2)) {
                const int writer = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);  // fails without a reader
                if (writer >= 0) {
                    ++released;
                    static_cast<void>(::write(writer, "N = 64\n", 7));
                    ::close(writer);
                }
                since = std::chrono::steady_clock::now();
            }
        }
    });
    int read = 0, refused = 0, other = 0;
    std::string other_example;
    const auto started = std::chrono::steady_clock::now();
    for (int run = 0; run < 2000 && released == 0; ++run) {
        ++runs_started;
        const bsde::test::CliResult r = bsde::test::run({"grid", "--config", config});
        if (r.code == 0 && r.out.find("M  = 2048\n") != std::string::npos) ++read;
        else if (r.code == 2 && one_line(r.err, "bsde: error: --config '" + config + "': not a regular file"))
            ++refused;
        else if (++other == 1)
            other_example = "exit code " + std::to_string(r.code) + ", err '" + shown(r.err) + "'";
    }
    done = true;
    swapper.join();
    watchdog.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    BOOST_TEST_MESSAGE("runs: " << read << " read the file, " << refused << " refused the FIFO, " << other
                                << " other, " << released << " waited for a writer; " << seconds << " s");
    BOOST_CHECK_MESSAGE(released == 0, released << " run(s) opened the FIFO and waited for a writer");
    BOOST_CHECK_MESSAGE(other == 0, other << " run(s) ended otherwise, the first: " << other_example);
    BOOST_CHECK_MESSAGE(read > 0 && refused > 0, "expected both outcomes among the runs: the swap did not happen");
}

BOOST_AUTO_TEST_SUITE_END()
