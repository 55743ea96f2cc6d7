// The command-line front end: exit codes, one-line error messages, the good paths and the
// all-or-nothing --output file.

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <boost/multiprecision/cpp_int.hpp>

#include "../src/cli.h"
#include "cli_support.h"
#include "test_support.h"

using bsde::test::BadInput;
using bsde::test::check_bad_input;
using bsde::test::check_failure;
using bsde::test::CliResult;
using bsde::test::joined;
using bsde::test::listed;
using bsde::test::run;
using bsde::test::run_with_unflushable_out;
using bsde::test::ScopedEnv;
using bsde::test::ScratchDir;
using bsde::test::shown;

namespace {

// bsde solve --backend serial with the options; requires exit code 0.
CliResult solve_on_serial(const std::vector<std::string>& options) {
    std::vector<std::string> args{"solve", "--backend", "serial"};
    args.insert(args.end(), options.begin(), options.end());
    const CliResult r = run(args);
    BOOST_REQUIRE_MESSAGE(r.code == 0,
                          joined(args) << ": expected exit code 0, got " << r.code << " (" << shown(r.err) << ")");
    return r;
}

// Runs args with stderr a terminal (a pseudo-terminal's far end on descriptor 2), as bsde shows its progress line
// there only, and with err std::cerr, whose output is read back rather than written to the terminal.
CliResult run_on_a_terminal(const std::vector<std::string>& args) {
    const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
    BOOST_REQUIRE_MESSAGE(master >= 0 && ::grantpt(master) == 0 && ::unlockpt(master) == 0,
                          "cannot make a pseudo-terminal");
    const int terminal = ::open(::ptsname(master), O_RDWR | O_NOCTTY);
    BOOST_REQUIRE_MESSAGE(terminal >= 0, "cannot open the pseudo-terminal " << ::ptsname(master));
    const int saved_stderr = ::dup(STDERR_FILENO);
    BOOST_REQUIRE(saved_stderr >= 0 && ::dup2(terminal, STDERR_FILENO) == STDERR_FILENO);
    std::ostringstream out, err;
    std::streambuf* const cerr_buffer = std::cerr.rdbuf(err.rdbuf());
    const int code = bsde::run_cli(args, out, std::cerr);
    std::cerr.rdbuf(cerr_buffer);
    ::dup2(saved_stderr, STDERR_FILENO);
    for (const int descriptor : {saved_stderr, terminal, master}) ::close(descriptor);
    return {code, out.str(), err.str()};
}

std::vector<std::string> lines_of(const std::string& path) {
    std::ifstream file(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(file, line);) lines.push_back(line);
    return lines;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(command_line)

BOOST_AUTO_TEST_CASE(bad_input_exits_2_with_one_line) {
    BOOST_TEST_MESSAGE("each bad input exits 2 with one 'bsde: error:' line naming the problem, nothing on out");
    ScratchDir scratch("cli");
    const std::string unknown_key = scratch.write("unknown_key.ini", "K = 3\nfoo = 1\n");
    const std::string not_numeric = scratch.write("not_numeric.ini", "N = abc\n");
    const std::string bad_range = scratch.write("bad_range.ini", "K = 0\n");
    const std::vector<std::string> tiny{"--problem", "ex1", "--K", "1", "--N", "8", "--backend", "serial"};
    std::vector<std::string> unwritable{"solve"};
    unwritable.insert(unwritable.end(), tiny.begin(), tiny.end());
    unwritable.insert(unwritable.end(), {"--output", "/nonexistent_dir/out.csv"});

    const std::vector<BadInput> rows{
        {{"solve", "--foo", "1"}, 2, "--foo"},
        {{"frobnicate"}, 2, "unknown command 'frobnicate'"},
        {{}, 2, "no command"},
        {{"--K", "3"}, 2, "no command"},
        {{"grid", "--N", "abc"}, 2, "--N"},
        {{"solve", "--T", "x"}, 2, "--T"},
        {{"solve", "--N", "1.5"}, 2, "--N"},
        {{"solve", "--K"}, 2, "--K"},
        {{"grid", "--K", "0"}, 2, "--K 0"},
        {{"coefficients", "--K", "0"}, 2, "--K 0"},
        {{"solve", "--Ky", "0"}, 2, "--Ky 0"},
        {{"solve", "--Kz", "-1"}, 2, "--Kz -1"},
        {{"solve", "--K", "3", "--N", "3"}, 2, "--N 3"},
        {{"solve", "--L", "1"}, 2, "--L 1"},
        {{"solve", "--L", "1000"}, 2, "--L 1000"},
        {{"grid", "--R", "0"}, 2, "--R"},
        {{"solve", "--R", "-1"}, 2, "--R"},
        {{"solve", "--T", "0"}, 2, "--T"},
        {{"solve", "--problem", "nope"}, 2, "--problem 'nope'"},
        {{"solve", "--backend", "tpu"}, 2, "--backend 'tpu'"},
        {{"solve", "--startup", "sometimes"}, 2, "--startup 'sometimes'"},
        {{"solve", "--spline", "clamped"}, 2, "--spline 'clamped'"},
        {{"solve", "--spline-solve", "foo"}, 2,
         "--spline-solve 'foo': allowed values are auto, tridiagonal, inverse-band"},
        {{"solve", "--config", "/nonexistent/x.ini"}, 2, "--config '/nonexistent/x.ini'"},
        {{"solve", "--config", unknown_key}, 2, "foo"},
        {{"solve", "--config", not_numeric}, 2, "abc"},
        {{"grid", "--config", bad_range}, 2, "--K 0"},
        {unwritable, 2, "--output '/nonexistent_dir/out.csv'"},
        {{"solve", "--problem", "bs-call", "--S0", "0"}, 2, "--S0"},
        {{"solve", "--problem", "bs-put", "--strike", "-5"}, 2, "--strike"},
        {{"solve", "--problem", "bs-call", "--sigma", "0"}, 2, "--sigma"},
        {{"solve", "--problem", "bs-call", "--strike", "1e6"}, 2, "change --sigma, --strike, --S0 or --mu, or raise --R"},
        // -(mu - r + delta) / sigma with the paper's mu = 0.05 (the default mu = r - delta makes it 0)
        {{"solve", "--problem", "bs-call", "--sigma", "0.003", "--mu", "0.05", "--R", "16"}, 2,
         "the driver's z term makes it so (df/dz = -20,"},
        {{"solve", "--problem", "bs-call", "--T", "-0.33"}, 2, "--T"},
        {{"solve", "--problem", "bs-digital"}, 2, "--problem 'bs-digital'"},
        {{"solve", "--problem", "ex1", "--sigma", "0.3"}, 2, "--sigma"},
    };
    for (const BadInput& row : rows) check_bad_input(row);
}

BOOST_AUTO_TEST_CASE(bad_input_writes_no_output_file) {
    BOOST_TEST_MESSAGE("a bad-input solve that names --output FILE leaves nothing in FILE's folder, no temporary");
    ScratchDir scratch("cli");
    const std::string csv = scratch.path("bad.csv");
    const std::vector<std::vector<std::string>> runs{
        {"solve", "--problem", "ex1", "--K", "1", "--N", "8", "--backend", "tpu", "--output", csv},
        {"solve", "--problem", "ex1", "--K", "3", "--N", "3", "--backend", "serial", "--output", csv},
        {"solve", "--problem", "nope", "--output", csv},
    };
    for (const std::vector<std::string>& args : runs) {
        const CliResult r = run(args);
        BOOST_CHECK_MESSAGE(r.code == 2, joined(args) << ": expected exit code 2, got " << r.code);
        BOOST_CHECK_MESSAGE(scratch.names().empty(),
                            joined(args) << ": expected nothing in the folder, got " << listed(scratch.names()));
    }
}

BOOST_AUTO_TEST_CASE(failure_to_write_the_output_exits_2) {
    BOOST_TEST_MESSAGE("a command whose output cannot be flushed (as standard output on a full disk) exits 2 with one "
                       "line saying so");
    const std::vector<std::vector<std::string>> runs{
        {"solve", "--problem", "ex1", "--K", "2", "--N", "8", "--backend", "serial"},
        {"study", "--problem", "ex1", "--K", "1", "--N", "8", "--backends", "serial"},  // no plots: no gnuplot note
        {"problems"},
        {"--help"},
    };
    for (const std::vector<std::string>& args : runs)
        check_failure({args, 2, "bsde: error: writing the standard output failed"}, run_with_unflushable_out(args));
}

BOOST_AUTO_TEST_CASE(help_prints_usage) {
    BOOST_TEST_MESSAGE("--help exits 0 and prints the usage on out, nothing on err");
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"--help"}, {"-h"}, {"solve", "--help"}}) {
        const CliResult r = run(args);
        BOOST_CHECK_MESSAGE(r.code == 0,
                            joined(args) << ": expected exit code 0, got " << r.code << " (" << shown(r.err) << ")");
        BOOST_CHECK_MESSAGE(r.out.find("Usage: bsde") != std::string::npos,
                            joined(args) << ": expected 'Usage: bsde' on out, got '" << r.out << "'");
        BOOST_CHECK_MESSAGE(r.err.empty(), joined(args) << ": expected nothing on err, got '" << r.err << "'");
    }
}

BOOST_AUTO_TEST_CASE(version_names_the_build) {
    BOOST_TEST_MESSAGE("--version exits 0 and prints the commit the binary was built from (git describe: hex, maybe "
                       "-dirty, or unknown outside a git checkout) and the backends, nothing on err");
    const std::regex commit("built from commit ([0-9a-f]{7,}(-dirty)?|unknown)\n");
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"--version"}, {"solve", "--version"}}) {
        const CliResult r = run(args);
        BOOST_CHECK_MESSAGE(r.code == 0,
                            joined(args) << ": expected exit code 0, got " << r.code << " (" << shown(r.err) << ")");
        BOOST_CHECK_MESSAGE(std::regex_search(r.out, commit),
                            joined(args) << ": expected 'built from commit <hex>' on out, got '" << r.out << "'");
        BOOST_CHECK_MESSAGE(r.out.find("backends: serial, omp") != std::string::npos,
                            joined(args) << ": expected 'backends: serial, omp' on out, got '" << r.out << "'");
        BOOST_CHECK_MESSAGE(r.err.empty(), joined(args) << ": expected nothing on err, got '" << r.err << "'");
    }
}

// Runs args, expects exit 0, nothing on err and `expected` on out.
void check_prints(const std::vector<std::string>& args, const std::string& expected) {
    const CliResult r = run(args);
    BOOST_CHECK_MESSAGE(r.code == 0,
                        joined(args) << ": expected exit code 0, got " << r.code << " (" << shown(r.err) << ")");
    BOOST_CHECK_MESSAGE(r.out.find(expected) != std::string::npos,
                        joined(args) << ": expected '" << expected << "' on out, got '" << r.out << "'");
    BOOST_CHECK_MESSAGE(r.err.empty(), joined(args) << ": expected nothing on err, got '" << r.err << "'");
}

BOOST_AUTO_TEST_CASE(coefficients_and_grid) {
    BOOST_TEST_MESSAGE("coefficients --K 6 prints 163/448 (Table 2); grid prints the paper's M for K = 3 and K = 1");
    check_prints({"coefficients", "--K", "6"}, "163/448");
    check_prints({"grid", "--K", "3", "--N", "128"}, "M  = 4096\n");
    check_prints({"grid", "--K", "1", "--N", "128"}, "M  = 364\n");
    // --grid-order 2 at N = 128: dx = dt^(3/4), M = 2 ceil(16 * 128^(3/4)) = 1218, the paper's for K = 2 (Table 5)
    check_prints({"grid", "--K", "3", "--N", "128", "--grid-order", "2"}, "(q = 2)\nM  = 1218\n");
    // a grid whose multistep start-up would take more than 2^31 - 1 fine steps (2 S N = 8.5e9 with S = 531, the least
    // multiple of K = 3 at least 3 sqrt(N / T) / 16), which a solve refuses: bsde grid runs no start-up;
    // M = 2 ceil(16 sqrt(8e6)) = 90510
    check_prints({"grid", "--N", "8000000", "--grid-order", "1"}, "N = 8000000, T = 1, R = 16 (q = 1)\nM  = 90510\n");
    // a grid that a solve refuses is shown, not refused (ex2 K = 6, L = 32 at N = 2048; docs/scheme.md, Stability)
    check_prints({"grid", "--problem", "ex2", "--K", "6", "--N", "2048"},
                 "UNSTABLE: bsde solve refuses these settings unless --allow-unstable");
    // the worst mode's wavelength along an axis is at most the grid's M = 128 cells (ex5 K = 2, N = 16, rho near 1 with
    // the paper's drifts: the search lands on theta = 2 pi / 2048 along axis 1, which is not shown as 2048.0 dx)
    check_prints({"grid", "--problem", "ex5", "--K", "2", "--N", "16", "--rho", "0.999999", "--mu1", "0.1", "--mu2",
                  "0.1", "--R", "8"},
                 "grid modes of wavelengths (over the grid's 128 dx, about 12.6 dx) grow by ");
    check_prints({"problems"}, "ex1");
    {  // one row a problem, in columns: alias, name, dimension
        const CliResult r = run({"problems"});
        BOOST_CHECK_MESSAGE(std::regex_search(r.out, std::regex("\nex3-put +bs-put +1D ")),
                            "bsde problems: expected a row 'ex3-put  bs-put  1D' on out, got '" << r.out << "'");
    }
    // each problem's declared parameters with their defaults (the paper's: Example 3 and 5, scheme.md; but the drifts,
    // which the price does not depend on: the values that remove the driver's z term)
    check_prints({"problems"}, "parameters: --S0 100, --strike 100, --r 0.03, --mu (r - delta), --delta 0.04, --sigma "
                               "0.2\n");
    check_prints({"problems"}, "parameters: --S1 100, --S2 100, --r 0.05, --mu1 (r - delta1), --mu2 (r - delta2), "
                               "--delta1 0, --delta2 0, --sigma1 0.25, --sigma2 0.3, --rho 0\n");
    check_prints({"problems"}, "--mu: the price does not depend on it; its default removes the driver's z term");
    check_prints({"problems"},
                 "spots: 0.5 to 2 times each initial price (--spots); R is chosen to hold them, at least 8");
    {  // the default start-up named where it is not the multistep one: the affine drivers without an obstacle
        const CliResult r = run({"problems"});
        const std::regex named("\nex4 +sine-sum +2D [^\n]*\n +start-up: feynman-kac \\(its driver is affine in y and z\\)");
        const std::regex not_named("\nex1 [^\n]*\n +start-up:");
        BOOST_CHECK_MESSAGE(std::regex_search(r.out, named) && !std::regex_search(r.out, not_named),
                            "bsde problems: expected 'start-up: feynman-kac ...' under ex4 and none under ex1, got '"
                                << r.out << "'");
    }
    check_prints({"--help"}, "- delta, which removes the driver's z term)");  // wrapped before
    check_prints({"--help"}, "--r X                  interest rate (ex3, ex3-put, american-put, ");  // wrapped here
    check_prints({"--help"}, "american-call: default 0.03; ex5, american-exchange, \n"
                             "                         basket3: default 0.05)\n");
    check_prints({"--help"}, "--delta1 X             dividend yield of asset 1 (ex5, basket3: default 0; \n");
    check_prints({"--help"}, "--rho X                correlation of the assets, in (-1, 1) (ex5, \n"
                             "                         american-exchange, rates2: default 0)\n");  // three problems' defaults
}

BOOST_AUTO_TEST_CASE(coefficients_are_exact_fractions) {
    BOOST_TEST_MESSAGE("coefficients --K 32: every weight of both tables as a fraction, each row's fractions summing "
                       "exactly to 1 and integrating x exactly (sum j w_j = K/2 for y, 1/2 for z), each fraction equal "
                       "to its printed double to rounding");
    using Rational = boost::multiprecision::cpp_rational;
    const CliResult r = run({"coefficients", "--K", "32"});
    BOOST_REQUIRE_MESSAGE(r.code == 0, "exit code " << r.code << " (" << r.err << ")");
    const std::size_t z_table = r.out.find("gamma^1_{K,j}");
    BOOST_REQUIRE(z_table != std::string::npos);
    static const std::regex row_pattern("  K = ([0-9]+):(.*)"), weight_pattern("  (-?[0-9]+)(/([0-9]+))? = (\\S+)");
    std::istringstream lines(r.out);
    std::size_t rows = 0, at = 0;
    for (std::string line; std::getline(lines, line); at += line.size() + 1) {
        std::smatch row;
        if (!std::regex_match(line, row, row_pattern)) continue;
        ++rows;
        const int K = std::stoi(row[1]);
        const bool y_table = at < z_table;
        const std::string weights = row[2];
        Rational sum = 0, first_moment = 0;
        int j = 0;
        for (std::sregex_iterator w(weights.begin(), weights.end(), weight_pattern), end; w != end; ++w, ++j) {
            const Rational fraction((*w)[3].matched ? Rational((*w)[1].str()) / Rational((*w)[3].str())
                                                    : Rational((*w)[1].str()));
            const double printed = std::stod((*w)[4]);
            BOOST_CHECK_MESSAGE(std::fabs(static_cast<double>(fraction) - printed) <= 4e-16 * std::fabs(printed),
                                line << ": weight " << j << ": the fraction is " << static_cast<double>(fraction)
                                     << ", the double " << printed);
            sum += fraction;
            first_moment += j * fraction;
        }
        BOOST_CHECK_MESSAGE(j == K + 1, line << ": expected " << K + 1 << " fractions, got " << j);
        BOOST_CHECK_MESSAGE(sum == 1, line << ": expected the fractions to sum to 1, got " << sum);
        const Rational expected_moment = y_table ? Rational(K, 2) : Rational(1, 2);
        BOOST_CHECK_MESSAGE(first_moment == expected_moment,
                            line << ": expected sum j w_j = " << expected_moment << ", got " << first_moment);
    }
    BOOST_CHECK_MESSAGE(rows == 64, "expected 32 rows in each table, got " << rows << " rows in all");
}

BOOST_AUTO_TEST_CASE(command_line_wins_over_config) {
    BOOST_TEST_MESSAGE("a config file is read, and the command line wins over it");
    ScratchDir scratch("cli");
    const std::string config = scratch.write("grid.ini", "# grid settings\nN = 128\n");
    check_prints({"grid", "--K", "3", "--config", config}, "M  = 4096\n");
    check_prints({"grid", "--K", "3", "--config", config, "--N", "256"}, "M  = 8192\n");
    check_prints({"grid", "--N", "256", "--K", "3", "--config", config}, "M  = 8192\n");
    // --K sets Ky and Kz: on the command line it wins over the file's Ky and Kz, as the command line's Ky and Kz over
    // the file's K
    const std::string orders = scratch.write("orders.ini", "Ky = 6\nKz = 6\n");
    check_prints({"grid", "--config", orders, "--K", "2", "--N", "64"}, "Ky = 2, Kz = 2, N = 64");
    const std::string order = scratch.write("order.ini", "K = 6\n");
    check_prints({"grid", "--config", order, "--Ky", "2", "--Kz", "2", "--N", "64"}, "Ky = 2, Kz = 2, N = 64");
}

BOOST_AUTO_TEST_CASE(spline_solve_reaches_the_solve) {
    BOOST_TEST_MESSAGE("--spline-solve (command line or config key) reaches the solve, whose report names the moments' "
                       "method; auto is tridiagonal on serial; 1D (ex1) and 2D (ex4, tensor spline)");
    ScratchDir scratch("cli");
    const std::vector<std::string> tiny{"--K", "1", "--N", "8", "--backend", "serial"};
    const auto solve = [&](std::vector<std::string> args) {
        args.insert(args.begin(), "solve");
        args.insert(args.end(), tiny.begin(), tiny.end());
        return args;
    };
    check_prints(solve({"--problem", "ex1", "--spline-solve", "inverse-band"}), "spline not-a-knot (moments: inverse-band)");
    check_prints(solve({"--problem", "ex1"}), "spline not-a-knot (moments: tridiagonal)");
    // R = 6.5: the least that holds y_0's reach at T = 1, |c| T + 6 sqrt(T) with c = -1/2 (result_checks.h)
    check_prints(solve({"--problem", "ex4", "--R", "6.5", "--L", "8", "--spline-solve", "inverse-band"}),
                 "interpolation spline (moments: inverse-band)");
    const std::string config = scratch.write("solve.ini", "problem = ex1\nspline = natural\nspline-solve = inverse-band\n");
    check_prints(solve({"--config", config}), "spline natural (moments: inverse-band)");
    check_prints(solve({"--config", config, "--spline-solve", "tridiagonal"}), "spline natural (moments: tridiagonal)");
}

BOOST_AUTO_TEST_CASE(report_says_whether_the_terminal_data_were_smoothed) {
    BOOST_TEST_MESSAGE("the solve report names the smoothing only for kinked terminal data (bs-call in 1D, ex5 in 2D) "
                       "and says that smooth data (ex1, ex4) are not smoothed");
    const auto solve = [](std::vector<std::string> args) {
        args.insert(args.begin(), "solve");
        for (const char* a : {"--K", "1", "--N", "8", "--backend", "serial"}) args.push_back(a);
        return args;
    };
    check_prints(solve({"--problem", "ex1"}), ", no smoothing (smooth terminal data)\n");
    check_prints(solve({"--problem", "ex1", "--smoothing", "kreiss2"}), ", no smoothing (smooth terminal data)\n");
    check_prints(solve({"--problem", "bs-call"}), ", smoothing kreiss6 (of the kinked terminal data)\n");
    check_prints(solve({"--problem", "bs-call", "--smoothing", "none"}), ", smoothing none (of the kinked terminal data)\n");
    check_prints(solve({"--problem", "ex4", "--R", "6.5", "--L", "8"}), ", no smoothing (smooth terminal data)\n");
    // a small grid: the price at S0 only, T = 0.25 (the spots need R >= 6 sqrt(T) and the drift's 0.06 T)
    check_prints(solve({"--problem", "ex5", "--R", "4", "--L", "8", "--spots", "100:100", "--T", "0.25"}),
                 ", smoothing kreiss6 (of the kinked terminal data)\n");
}

BOOST_AUTO_TEST_CASE(report_names_the_startup_used) {
    BOOST_TEST_MESSAGE("the solve report's startup line: none for K = 1 (with --startup exact too: no layer is set), "
                       "EXACT when the exact solution set the start-up layers, else the multistep start-up's step");
    const auto solve = [](std::vector<std::string> args) {
        args.insert(args.begin(), {"solve", "--problem", "ex1", "--N", "16", "--backend", "serial"});
        return args;
    };
    check_prints(solve({"--K", "1", "--startup", "exact"}), "startup   none needed (K = 1)\n");
    check_prints(solve({"--K", "2", "--startup", "exact"}), "startup   EXACT: layers N-1..N-K+1 were set from the exact");
    // on a grid twice as fine in 1D: M = 256 at N = 16 (solve_writes_csv)
    check_prints(solve({"--K", "2"}), "startup   multistep scheme on dt/2 and dt/4, orders raised step by step, "
                                      "Richardson-extrapolated, on a grid of 2 M = 512 intervals\n");
}

BOOST_AUTO_TEST_CASE(solve_writes_csv) {
    BOOST_TEST_MESSAGE("a tiny serial solve exits 0 and writes the CSV (header w,y,z and M+1 rows), no temporary left");
    ScratchDir scratch("cli");
    const std::string csv = scratch.path("solution.csv");
    const CliResult r = solve_on_serial({"--problem", "ex1", "--K", "2", "--N", "16", "--output", csv});
    BOOST_CHECK_MESSAGE(r.err.empty(), "expected nothing on err, got '" << r.err << "'");
    BOOST_REQUIRE_MESSAGE(scratch.names() == std::vector<std::string>{"solution.csv"},
                          "expected solution.csv alone in the folder, got " << listed(scratch.names()));

    // The paper's grid rule: q = min(Ky + 1, Kz, 3) = 2, dx = dt^((q+1)/4) = (1/16)^(3/4) = 1/8, M = 2 ceil(R / dx)
    // = 256 with ex1's R = 16.
    const int M = 256;
    BOOST_CHECK_MESSAGE(r.out.find(", M = 256,") != std::string::npos,
                        "expected M = 256 in the report, got '" << r.out << "'");

    const std::vector<std::string> lines = lines_of(csv);
    BOOST_REQUIRE_MESSAGE(!lines.empty(), csv << " is empty");
    BOOST_CHECK_MESSAGE(lines.front().compare(0, 5, "w,y,z") == 0,
                        "expected a header starting 'w,y,z', got '" << lines.front() << "'");
    BOOST_CHECK_MESSAGE(lines.size() == static_cast<std::size_t>(M) + 2,
                        "expected " << M + 1 << " data lines (M = " << M << "), got " << lines.size() - 1);
    const auto commas = [](const std::string& s) { return std::count(s.begin(), s.end(), ','); };
    for (std::size_t i = 1; i < lines.size(); ++i)
        BOOST_CHECK_MESSAGE(commas(lines[i]) == commas(lines.front()),
                            "line " << i + 1 << " has a different number of fields than the header: '" << lines[i]
                                    << "'");
    BOOST_CHECK_MESSAGE(r.out.find("output    " + csv) != std::string::npos,
                        "the report does not name the output file: '" << r.out << "'");
}

BOOST_AUTO_TEST_CASE(solve_writes_the_exercise_boundary_beside_the_csv) {
    BOOST_TEST_MESSAGE("am-put with --output DIR/am.csv: am.csv, am.boundary.csv (header t,w_star,S_star,edges, one row "
                       "per layer t_0 = 0 < ... < t_{N-1} < T), am.boundary.gp and, where gnuplot runs, "
                       "am.boundary.png; the report's exercise line and output line name them; without gnuplot one "
                       "note and no PNG; --output /dev/null: one note, no boundary files; bs-put: its CSV alone");
    ScratchDir scratch("cli");
    const std::vector<std::string> am_put{"--problem", "am-put", "--S0", "40", "--strike", "40", "--r", "0.0488",
                                          "--sigma", "0.2", "--T", "0.5", "--R", "10", "--Ky", "1", "--Kz", "2",
                                          "--N", "16"};
    const CliResult r = solve_on_serial(bsde::test::extended(am_put, {"--output", scratch.path("am.csv")}));
    const bool plotted = r.err.find("gnuplot not found") == std::string::npos;
    BOOST_CHECK_MESSAGE(r.err.empty() || !plotted, "expected nothing on err but a missing gnuplot's note, got '"
                                                       << r.err << "'");
    std::vector<std::string> expected{"am.boundary.csv", "am.boundary.gp", "am.csv"};
    if (plotted) expected.insert(expected.begin() + 2, "am.boundary.png");
    BOOST_CHECK_MESSAGE(scratch.names() == expected,
                        "expected " << listed(expected) << ", got " << listed(scratch.names()));

    const std::vector<std::string> lines = lines_of(scratch.path("am.boundary.csv"));
    BOOST_REQUIRE_MESSAGE(lines.size() == 17, "expected a header and 16 rows, got " << lines.size() << " lines");
    BOOST_CHECK_EQUAL(lines.front(), "t,w_star,S_star,edges");
    double previous = -1.0;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        std::vector<std::string> fields;
        std::stringstream row(lines[i]);
        for (std::string field; std::getline(row, field, ',');) fields.push_back(field);
        BOOST_REQUIRE_MESSAGE(fields.size() == 4, "row " << i << ": expected 4 fields, got '" << lines[i] << "'");
        const double t = std::stod(fields[0]), S = std::stod(fields[2]);
        BOOST_CHECK_MESSAGE(i == 1 ? t == 0.0 : t > previous && t < 0.5, "row " << i << ": t = " << t);
        BOOST_CHECK_MESSAGE(S > 20 && S < 40, "row " << i << ": S* = " << S << " expected below the strike");
        previous = t;
    }
    const std::string script = scratch.path("am.boundary.gp");
    const std::vector<std::string> gp = lines_of(script);
    BOOST_CHECK_MESSAGE(std::find(gp.begin(), gp.end(), "set output \"am.boundary.png\"") != gp.end(),
                        script << " does not set the output am.boundary.png");
    BOOST_CHECK_MESSAGE(r.out.find("\nexercise  boundary S* = ") != std::string::npos,
                        "the report has no exercise line: '" << r.out << "'");
    const std::string files = scratch.path("am.csv") + ", " + scratch.path("am.boundary.csv") + ", " + script;
    BOOST_CHECK_MESSAGE(r.out.find("output    " + files) != std::string::npos,
                        "the report does not name the files " << files << ": '" << r.out << "'");

    {
        ScopedEnv missing("BSDE_GNUPLOT", "/nonexistent/gnuplot");
        ScratchDir without("cli");
        const CliResult note = solve_on_serial(bsde::test::extended(am_put, {"--output", without.path("am.csv")}));
        BOOST_CHECK_MESSAGE(bsde::test::one_line(note.err, "bsde: note: plots skipped: gnuplot not found"),
                            "expected one note on err, got '" << note.err << "'");
        BOOST_CHECK_MESSAGE(without.names() == (std::vector<std::string>{"am.boundary.csv", "am.boundary.gp", "am.csv"}),
                            "without gnuplot: got " << listed(without.names()));
    }

    ScratchDir special("cli");
    const CliResult null = solve_on_serial(bsde::test::extended(am_put, {"--output", "/dev/null"}));
    BOOST_CHECK_MESSAGE(bsde::test::one_line(null.err, "bsde: note: the exercise boundary's files are not written"),
                        "--output /dev/null: expected one note, got '" << null.err << "'");
    BOOST_CHECK(!bsde::test::exists("/dev/null.boundary.csv"));

    const CliResult put = solve_on_serial({"--problem", "bs-put", "--K", "2", "--N", "16", "--output",
                                           special.path("put.csv")});
    BOOST_CHECK_MESSAGE(special.names() == std::vector<std::string>{"put.csv"},
                        "bs-put: expected put.csv alone, got " << listed(special.names()));
    BOOST_CHECK_MESSAGE(put.out.find("exercise") == std::string::npos, "bs-put's report has an exercise line");
}

BOOST_AUTO_TEST_CASE(output_leaves_links_fifos_and_other_files_as_they_are) {
    BOOST_TEST_MESSAGE("--output through a symbolic link replaces the link's target and the link stays; a FIFO is "
                       "written directly and stays a FIFO; an existing FILE.partial, file or folder, is left alone; "
                       "no temporary file remains");
    ScratchDir scratch("cli");
    const auto solve_into = [](const std::string& csv) {
        return solve_on_serial({"--problem", "ex1", "--K", "1", "--N", "8", "--output", csv});
    };
    const auto starts_with_header = [](const std::string& text) { return text.compare(0, 6, "w,y,z,") == 0; };

    const std::string target = scratch.write("target.csv", "an older file\n");
    const std::string link = scratch.path("link.csv");
    std::filesystem::create_symlink("target.csv", link);
    solve_into(link);
    BOOST_CHECK_MESSAGE(std::filesystem::is_symlink(link), link << " is no longer a symbolic link");
    const std::vector<std::string> target_lines = lines_of(target);
    BOOST_CHECK_MESSAGE(!target_lines.empty() && starts_with_header(target_lines.front()),
                        "expected the link's target to hold the CSV, got '"
                            << (target_lines.empty() ? "" : target_lines.front()) << "'");

    const std::string unrelated = scratch.write("y.csv.partial", "not bsde's\n");
    solve_into(scratch.path("y.csv"));
    BOOST_CHECK_MESSAGE(lines_of(unrelated) == std::vector<std::string>{"not bsde's"},
                        unrelated << " was overwritten or removed");
    scratch.directory("z.csv.partial");
    solve_into(scratch.path("z.csv"));  // requires exit code 0

    // The reader opens first (without waiting for a writer), so that bsde's open for writing does not block; the CSV
    // of ex1 at K = 1, N = 8 (93 rows) fits in the pipe's buffer.
    const std::string fifo = scratch.path("fifo.csv");
    BOOST_REQUIRE_MESSAGE(::mkfifo(fifo.c_str(), 0600) == 0, "cannot make the FIFO " << fifo);
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    BOOST_REQUIRE_MESSAGE(reader >= 0, "cannot open the FIFO " << fifo << " for reading");
    solve_into(fifo);
    std::string received;
    char buffer[4096];
    for (ssize_t n; (n = ::read(reader, buffer, sizeof buffer)) > 0;) received.append(buffer, n);
    ::close(reader);
    struct stat info;
    BOOST_CHECK_MESSAGE(::lstat(fifo.c_str(), &info) == 0 && S_ISFIFO(info.st_mode), fifo << " is no longer a FIFO");
    BOOST_CHECK_MESSAGE(starts_with_header(received),
                        "expected the CSV through the FIFO, got '" << received.substr(0, 80) << "'");

    const std::vector<std::string> expected{"fifo.csv", "link.csv", "target.csv", "y.csv", "y.csv.partial",
                                            "z.csv",    "z.csv.partial"};
    BOOST_CHECK_MESSAGE(scratch.names() == expected,
                        "expected " << listed(expected) << " in the folder, got " << listed(scratch.names()));
}

BOOST_AUTO_TEST_CASE(output_takes_long_names_and_names_a_folder_without_new_files) {
    BOOST_TEST_MESSAGE("--output with a 250-byte name (legal; the temporary name's suffix would make it 265) is "
                       "written and no temporary file remains; --output /proc/version names what failed: its folder, "
                       "where no file can be created (as root), or the file's permission");
    ScratchDir scratch("cli");
    const std::string name = std::string(246, 'y') + ".csv";
    const CliResult r = solve_on_serial({"--problem", "ex1", "--K", "1", "--N", "8", "--output", scratch.path(name)});
    BOOST_CHECK_MESSAGE(scratch.names() == std::vector<std::string>{name},
                        "expected " << name << " alone in the folder, got " << listed(scratch.names()));
    const CliResult proc = run({"solve", "--problem", "ex1", "--K", "1", "--N", "8", "--output", "/proc/version"});
    const std::string prefix = "bsde: error: --output '/proc/version': cannot write there";
    const bool named = proc.err.find(prefix + ": no file can be created in '/proc' (") == 0 ||
                       proc.err.find(prefix + " (Permission denied)") == 0;
    BOOST_CHECK_MESSAGE(proc.code == 2 && named, "expected exit code 2 and '" << prefix << "' with the folder or the "
                                                 "permission, got " << proc.code << ", '" << proc.err << "'");
}

BOOST_AUTO_TEST_CASE(a_run_stopped_by_a_signal_leaves_nothing_of_its_own) {
    BOOST_TEST_MESSAGE("SIGTERM to a run (in a child process, hours long: ex1, K = 3, N = 20000 on serial) once what it "
                       "writes exists: a solve's temporary --output FILE.partial.XXXXXX, a study's new --out folder and "
                       "its new parent; each is removed and the child ends by the signal. Before, in this process, 40 "
                       "studies whose --out cannot be made: they leave the handler's 32 slots free");
    for (int failed = 0; failed < 40; ++failed)
        BOOST_REQUIRE_EQUAL(run({"study", "--problem", "ex1", "--K", "1", "--N", "8", "--backends", "serial", "--out",
                                 "/proc/no-such-folder/deeper"})
                                .code,
                            2);
    struct Case {
        std::vector<std::string> command;  // the output's path is appended
        std::string output, first_entry;   // the output relative to the scratch folder; the entry it makes there
    };
    const std::vector<std::string> hours_long{"--problem", "ex1", "--K", "3", "--N", "20000"};
    const Case cases[]{{{"solve", "--backend", "serial", "--output"}, "stopped.csv", "stopped.csv.partial."},
                       {{"study", "--backends", "serial", "--out"}, "new/deeper", "new"}};
    for (const Case& c : cases) {
        ScratchDir scratch("cli");
        std::vector<std::string> arguments = c.command;
        arguments.push_back(scratch.path(c.output));
        arguments.insert(arguments.begin() + 1, hours_long.begin(), hours_long.end());
        const pid_t child = ::fork();
        BOOST_REQUIRE_MESSAGE(child >= 0, "fork failed");
        if (child == 0) {
            std::ostringstream out, err;
            ::_exit(bsde::run_cli(arguments, out, err));
        }
        for (int waited = 0; waited < 600 && scratch.names().empty(); ++waited) ::usleep(100000);  // at most 60 s
        const std::vector<std::string> while_running = scratch.names();
        ::kill(child, SIGTERM);
        int status = 0;
        ::waitpid(child, &status, 0);
        BOOST_CHECK_MESSAGE(while_running.size() == 1 && while_running.front().rfind(c.first_entry, 0) == 0,
                            c.command.front() << ": expected " << c.first_entry << "... while the child ran, got "
                                              << listed(while_running));
        BOOST_CHECK_MESSAGE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
                            c.command.front() << ": expected the child to end by SIGTERM, got status " << status);
        BOOST_CHECK_MESSAGE(scratch.names().empty(),
                            c.command.front() << ": expected nothing left, got " << listed(scratch.names()));
    }
}

BOOST_AUTO_TEST_CASE(warning_before_the_run_erases_the_progress_line) {
    BOOST_TEST_MESSAGE("ex2 K = 3, N = 16, T = 1e-4 is warned of before it runs (its time, the start-up.s substeps); the run "
                       "then fails at its allocation (BSDE_TEST_FAIL_ALLOCATION, with 1e12 bytes free: BSDE_TEST_FREE_BYTES), at once. On a terminal the progress "
                       "line is erased before the warning and drawn again after it, and erased before the error; off "
                       "a terminal err holds the two lines alone");
    const std::vector<std::string> args{"solve", "--problem", "ex2", "--K", "3", "--N", "16", "--T", "1e-4",
                                        "--backend", "serial"};
    ScopedEnv fail("BSDE_TEST_FAIL_ALLOCATION", "1");
    ScopedEnv enough_memory("BSDE_TEST_FREE_BYTES", "1000000000000");  // its 5000 MiB fit on any machine
    const std::string warning = "bsde: warning: this run may take up to about ", error = "bsde: error: allocating ";
    const std::string erase = "\r\033[K", progress = erase + "solve ex2 K = 3, N = 16 on serial";
    const struct {
        CliResult r;
        std::string before_warning, before_error;
    } runs[]{{run_on_a_terminal(args), progress + erase, progress + erase}, {run(args), "", ""}};
    for (const auto& [r, before_warning, before_error] : runs) {
        const std::size_t end_of_warning = r.err.find('\n');
        const std::string first = r.err.substr(0, end_of_warning + 1), second = r.err.substr(end_of_warning + 1);
        BOOST_CHECK_MESSAGE(r.code == 4 && r.out.empty(), joined(args) << ": expected exit code 4 and nothing on out, got "
                                                                       << r.code << " and '" << r.out << "'");
        BOOST_CHECK_MESSAGE(end_of_warning != std::string::npos && first.rfind(before_warning + warning, 0) == 0,
                            "expected the first line to be '" << shown(before_warning + warning) << "...', got '"
                                                              << shown(first) << "'");
        BOOST_CHECK_MESSAGE(second.rfind(before_error + error, 0) == 0 && second.find('\n') == second.size() - 1,
                            "expected the rest to be one line '" << shown(before_error + error) << "...', got '"
                                                                 << shown(second) << "'");
    }
}

BOOST_AUTO_TEST_CASE(exchange_option_reports_its_deltas) {
    BOOST_TEST_MESSAGE("ex5, K = 2, N = 8 on serial: the report's delta_1, delta_2 at S = (100, 100) within 2e-3 of "
                       "Margrabe's N(d1), -N(d2) (d1 = -d2 = sigma sqrt(T) / 2, sigma^2 = 0.25^2 + 0.3^2), and the "
                       "CSV's columns of the spots and deltas");
    ScratchDir scratch("cli");
    const std::string csv = scratch.path("exchange.csv");
    const CliResult r = solve_on_serial({"--problem", "ex5", "--K", "2", "--N", "8", "--output", csv});
    const double d1 = 0.5 * std::sqrt(0.25 * 0.25 + 0.3 * 0.3);
    const auto normal_cdf = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
    const std::pair<std::string, double> deltas[]{{"delta_1  ", normal_cdf(d1)}, {"delta_2  ", -normal_cdf(-d1)}};
    for (const auto& [label, expected] : deltas) {
        const std::size_t at = r.out.find("\n" + label);
        BOOST_REQUIRE_MESSAGE(at != std::string::npos, "no '" << label << "' line in the report: '" << r.out << "'");
        const double got = std::stod(r.out.substr(at + 1 + label.size()));
        BOOST_CHECK_MESSAGE(std::fabs(got - expected) <= 2e-3, label << ": expected " << expected << ", got " << got
                                                                     << ", error " << std::fabs(got - expected));
    }
    const std::vector<std::string> lines = lines_of(csv);
    BOOST_REQUIRE_MESSAGE(!lines.empty(), csv << " is empty");
    const std::string columns = ",S1,S2,price,delta1,delta2,price_exact,delta1_exact,delta2_exact,price_error,"
                                "delta1_error,delta2_error,in_spots";
    BOOST_CHECK_MESSAGE(lines.front().size() >= columns.size() &&
                            lines.front().compare(lines.front().size() - columns.size(), columns.size(), columns) == 0,
                        "expected the header to end with '" << columns << "', got '" << lines.front() << "'");
}

BOOST_AUTO_TEST_SUITE_END()
