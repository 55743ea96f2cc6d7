// Faults and bad input: every bad command line or config file exits 2 with one line
// "bsde: error: ..." naming what is wrong; a fuzz of the parser; a run larger than the free memory
// (named with the largest N that fits); a failing allocation (exit 4); Picard that does not converge
// (a warning, or exit 3 with --strict); a non-finite value (exit 3); --backend cuda without a device (exit 4);
// --gpus G: its values, its backends and the GPUs of this machine; the place a context records for a Thrust failure's
// message.
// The memory and allocation cases use the test hooks BSDE_TEST_FREE_BYTES and BSDE_TEST_FAIL_ALLOCATION
// (docs/cli.md, "Errors and exit codes").

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <typeinfo>
#include <vector>

#include <omp.h>
#include <thrust/fill.h>

#include "../algorithms/sweep/backward_sweep.h"
#include "../algorithms/core/errors.h"
#include "../algorithms/backends/host_system.h"
#include "../src/cli.h"
#include "../src/options.h"
#include "cli_support.h"
#include "test_support.h"

using bsde::test::BadInput;
using bsde::test::check_bad_input;
using bsde::test::check_failure;
using bsde::test::CliResult;
using bsde::test::joined;
using bsde::test::listed;
using bsde::test::one_line;
using bsde::test::run;
using bsde::test::ScopedEnv;
using bsde::test::ScratchDir;
using bsde::test::shown;


BOOST_AUTO_TEST_SUITE(faults)

BOOST_AUTO_TEST_CASE(bad_command_lines_and_config_files) {
    BOOST_TEST_MESSAGE("bad command lines and INI files: each exits with its code and one 'bsde: error:' line "
                       "naming the option, file and line, value or step; nothing on out");
    ScratchDir scratch("faults");
    const auto ini = [&scratch](const std::string& name, const std::string& text) {
        return scratch.write(name, text);
    };
    const std::string folder = scratch.directory("a_folder");
    std::string big(2 << 20, '#');
    big[1000] = '\n';

    const std::vector<BadInput> rows{
        // values out of range or not numbers, printed as given
        {{"solve", "--T", "nan"}, 2, "--T 'nan': a finite number expected"},
        {{"solve", "--R", "inf"}, 2, "--R 'inf': a finite number expected"},
        {{"solve", "--picard-tol", "-1e-3"}, 2, "--picard-tol -0.001: must be a finite number >= 0"},
        {{"solve", "--picard-tol", "nan"}, 2, "--picard-tol 'nan': a finite number expected"},
        {{"solve", "--picard", "0"}, 2, "--picard 0: must be in [1, 100000]"},
        {{"solve", "--picard", "1000001"}, 2, "--picard 1000001"},
        {{"solve", "--grid-order", "9"}, 2, "--grid-order 9"},
        {{"solve", "--startup-substeps", "-1"}, 2, "--startup-substeps -1"},
        {{"solve", "--startup-substeps", "100000000"}, 2, "--startup-substeps 100000000: must be in [0, 10000]"},
        {{"solve", "--K", "1", "--startup-substeps", "4"}, 2, "--startup-substeps: only for K >= 2"},
        {{"solve", "--problem", "bs-call", "--r", "-50"}, 2, "--r -50: must lie in [-1, 1]"},
        {{"solve", "--problem", "ex5", "--mu2", "2", "--backend", "serial"}, 2, "--mu2 2: must lie in [-1, 1]"},
        {{"solve", "--N", "16", "--T", "1e308"}, 2, "at least 4 are needed; raise --R or --N, or lower --T"},
        {{"solve", "--K", "40"}, 2, "--K 40: must be in [1, 32]"},
        {{"solve", "--Ky", "33"}, 2, "--Ky 33: must be in [1, 32]"},
        {{"study", "--K", "1-40"}, 2, "--K 33: must be in [1, 32]"},
        {{"solve", "--K", "1-3"}, 2, "--K '1-3': one integer expected"},
        {{"solve", "--N", "-5"}, 2, "--N -5: must be >= K + 1"},
        {{"solve", "--N", "99999999999"}, 2, "--N '99999999999': out of range (at most 2147483647)"},
        {{"solve", "--N", "-99999999999"}, 2, "--N '-99999999999': out of range (at least -2147483648)"},
        {{"solve", "--N", "abc"}, 2, "--N 'abc': one integer expected"},
        {{"study", "--N", "2-200000"}, 2, "--N '2-200000': the range '2-200000' holds more than 100000 values"},
        {{"study", "--max-seconds", "inf"}, 2, "--max-seconds 'inf': a finite number expected"},
        {{"study", "--out", ""}, 2, "--out '': an empty folder name"},
        {{"solve", "--L", "2.5"}, 2, "--L '2.5': an integer expected"},
        {{"solve", "--L", "99999999999"}, 2, "--L '99999999999': out of range (at most 2147483647)"},
        {{"solve", "--T", "0x10"}, 2, "--T '0x10': a finite number expected"},
        {{"solve", "--T", "1e-400"}, 2, "--T '1e-400': rounds to 0, below the smallest positive double (4.9e-324)"},
        {{"solve", "--problem", "ex3", "--delta", "-1e-330"}, 2, "--delta '-1e-330': rounds to 0"},
        // blanks around a number, integer or real, refused alike
        {{"solve", "--T", " 1"}, 2, "--T ' 1': blanks around the value"},
        {{"solve", "--K", " 3"}, 2, "--K ' 3': blanks around the value"},
        {{"solve", "--L", "8 "}, 2, "--L '8 ': blanks around the value"},
        {{"solve", "--problem", "ex3", "--S0", " 90"}, 2, "--S0 ' 90': blanks around the value"},
        {{"study", "--N", "8,16 "}, 2, "--N '8,16 ': blanks around the value"},
        {{"study", "--backends", " omp"}, 2, "--backends ' omp': blanks around the value"},
        {{"bench", "--cases", "ex1-k1-n8 "}, 2, "--cases 'ex1-k1-n8 ': blanks around the value"},
        {{"solve", "--N", "16", "--Ky", "32", "--Kz", "1"}, 2, "--N 16: must be >= K + 1 = 33 (K = max(Ky, Kz))"},
        // 16 M^2 bicubic coefficients a function at M = 2 ceil(R / dt) = 16384 (R = 8, T = 1, N = 1024, q = 3)
        {{"solve", "--problem", "ex4", "--interp", "bicubic", "--N", "1024"}, 2,
         "a function of a layer holds 4294967296 interpolation data, more than the sweep's 32-bit indices reach "
         "(2^31 - 1); lower --N or --R, or take --interp spline"},
        {{"solve", "--N", "5", "--N", "6"}, 2, "'--N' cannot be specified more than once"},
        {{"solve", "--strict", "--strict"}, 2, "option '--strict' cannot be specified more than once"},
        {{"solve", "--pro", "ex1", "--N", "16"}, 2, "unrecognised option '--pro'"},  // whole names only
        {{"solve", "--strict=yes"}, 2, "--strict"},
        {{"solve", "--problem", "bs-call", "--r", "nan"}, 2, "--r 'nan': a finite number expected"},
        {{"solve", "--problem", "bs-call", "--sigma", "inf"}, 2, "--sigma 'inf': a finite number expected"},
        {{"solve", "--problem", "bs-call", "--S0", "0.0001"}, 2,
         "kink at w = 69.1270527898214 lies outside [-R/2, R/2] = [-8, 8]"},
        // the problem's checks before the stability analysis: this sigma is also unstable at N = 16, and its refusal
        // would advise an N that the problem refuses all the same: the price's weight at T lies at w = (sigma + c) T,
        // c = -(mu - r + delta) / sigma = -60 with the paper's mu = 0.05, beyond R whatever N (and the kink at
        // w = -16.5 beyond R / 2)
        {{"solve", "--problem", "ex3", "--K", "2", "--N", "16", "--sigma", "0.001", "--mu", "0.05", "--R", "16"}, 2,
         "its weight at T lies at w = -19.8 "},
        {{"study", "--problem", "ex3", "--K", "2", "--N", "16", "--sigma", "0.001", "--mu", "0.05"}, 2,
         "its weight at T lies at w = -19.8 "},
        {{"solve", "--problem", "ex5", "--rho", "1", "--backend", "serial"}, 2, "--rho 1: must lie in (-1, 1)"},
        {{"solve", "--problem", "ex1", "--S1", "100", "--backend", "serial"}, 2, "--S1: not a parameter of problem"},
        // the paper's drifts (the defaults make df/dz 0) and R (the spots would ask for an infinite one)
        {{"solve", "--problem", "ex5", "--K", "2", "--N", "8", "--sigma2", "1e-320", "--mu1", "0.1", "--mu2", "0.1",
          "--R", "8", "--backend", "serial"}, 2,
         "make its driver's gradient in z, df/dz = (-0.2, -inf), infinite"},  // -lambda_1 = -(mu1 - r) / sigma1
        {{"solve", "--problem", "ex3", "--sigma", "1e-320", "--mu", "0.05", "--R", "16", "--backend", "serial"}, 2,
         "the problem's parameters (--mu 0.05, --sigma 9.99988867182683e-321) make its driver's gradient in z, df/dz = "
         "-inf, infinite"},  // 1e-320 as the nearest subnormal prints; one component in 1D
        {{"study", "--max-seconds", "-1"}, 2, "--max-seconds -1"},
        // grids too large for the sweep's indices, or too small for a spline
        {{"solve", "--N", "2000000000"}, 2,
         // S = 3 ceil(ceil(3 sqrt(2e9) / 16) / 3) = 8388 at the default K = 3
         "--N 2000000000, --T 1: the start-up's automatic substeps per step in its finer pass, 2 S with S the least "
         "multiple of Ky at least ceil(3 sqrt(N / T) / 16), about 16776"},
        {{"solve", "--N", "8", "--T", "1e-300"}, 2, "make more than 2^31 - 1 fine steps; raise --T, lower --N"},
        {{"solve", "--N", "300000", "--startup-substeps", "10000"}, 2,
         "--N 300000 with --startup-substeps 10000: more than 2^31 - 1 fine steps in the start-up"},
        {{"grid", "--N", "8", "--T", "1e-310"}, 2, "the space grid would have more than 1e308 intervals"},
        {{"grid", "--N", "2000000000"}, 2, "--N 2000000000, --R 16, --T 1: the space grid would have about"},
        {{"solve", "--N", "2000000000", "--startup", "exact"}, 2, "the space grid would have about"},
        {{"solve", "--problem", "ex5", "--N", "4096", "--backend", "serial"}, 2, "32-bit indices"},  // (M+1)^2 = 4.3e9
        {{"grid", "--R", "0.001", "--N", "16"}, 2, "at least 4 are needed"},
        // combinations
        {{"solve", "--startup", "exact", "--startup-substeps", "4"}, 2, "--startup-substeps: only for --startup multistep"},
        {{"solve", "--problem", "ex1", "--interp", "bicubic"}, 2,
         "--interp bicubic: only for 2D problems (1D problems take spline or hermite)"},
        {{"solve", "--problem", "ex4", "--interp", "hermite"}, 2,
         "--interp hermite: only for 1D problems (2D problems take spline or bicubic)"},
        // a 3D problem takes the tensor spline alone
        {{"solve", "--problem", "ex4-3d", "--interp", "bicubic"}, 2,
         "--interp bicubic: only for 2D problems (3D problems take spline)"},
        {{"solve", "--problem", "basket3", "--interp", "hermite"}, 2,
         "--interp hermite: only for 1D problems (3D problems take spline)"},
        {{"solve", "--problem", "ex1", "--interp", "hermite", "--spline", "natural"}, 2,
         "--spline: only for --interp spline (the hermite interpolation has no end condition)"},
        {{"solve", "--problem", "ex2", "--interp", "hermite", "--spline-solve", "inverse-band"}, 2,
         "--spline-solve: only for the spline interpolations (--interp spline); --interp hermite computes no spline "
         "moments"},
        {{"solve", "--problem", "ex5", "--spline", "natural"}, 2, "--spline: only for 1D problems"},
        {{"solve", "--problem", "ex4", "--interp", "bicubic", "--spline-solve", "inverse-band"}, 2,
         "--spline-solve: only for the spline interpolations (--interp spline); --interp bicubic computes no spline "
         "moments"},
        {{"solve", "--problem", "ex4", "--spline-solve", "foo"}, 2, "--spline-solve 'foo': allowed values are auto"},
        // options a command that solves nothing does not take
        {{"grid", "--output", "x.csv"}, 2,
         "--output: not for bsde grid, which takes --problem, --K, --Ky, --Kz, --N, --T, --R, --L, --grid-order, "
         "--interp, --spots and the problem's parameters"},
        {{"grid", "--picard", "5"}, 2, "--picard: not for bsde grid"},
        {{"grid", "--allow-unstable"}, 2, "--allow-unstable: not for bsde grid"},
        {{"coefficients", "--backend", "omp"}, 2, "--backend: not for bsde coefficients, which takes --K"},
        {{"coefficients", "--Ky", "5"}, 2, "--Ky: not for bsde coefficients"},
        {{"coefficients", "--problem", "nonsense"}, 2, "--problem: not for bsde coefficients"},
        {{"problems", "--strict"}, 2, "--strict: not for bsde problems, which takes no options"},
        {{"problems", "--N", "2"}, 2, "--N: not for bsde problems"},
        // settings the stability analysis finds unstable (algorithms/scheme/stability.h)
        {{"solve", "--problem", "ex2", "--K", "6", "--N", "2048"}, 2,
         "--K 6, --N 2048, --L 32: the scheme is unstable on this grid: grid modes of wavelength about"},
        {{"solve", "--N", "64", "extra"}, 2, "unexpected argument 'extra'"},
        {{"solve", "--K", "3", "4"}, 2, "unexpected argument '4'"},
        // names with control characters stay on one line
        {{"solve", "--problem", "ex1\nsecond line"}, 2, "--problem 'ex1\\x0Asecond line'"},
        // output paths, checked before the solve (N = 100000 would take minutes)
        {{"solve", "--output", ""}, 2, "--output '': an empty file name"},
        {{"solve", "--output", folder}, 2, "--output '" + folder + "': is a directory"},
        {{"solve", "--problem", "ex1", "--N", "100000", "--backend", "serial", "--output", "/nonexistent_dir/y.csv"},
         2,
         "--output '/nonexistent_dir/y.csv': cannot write there"},
        // config files: reading
        {{"grid", "--config", folder}, 2, "--config '" + folder + "': is a directory"},
        {{"grid", "--config", "/nonexistent/x.ini"}, 2, "--config '/nonexistent/x.ini': cannot open the file"},
        {{"grid", "--config", ini("big.ini", big)}, 2, "larger than 1 MiB"},
        {{"grid", "--config", "/dev/zero"}, 2, "--config '/dev/zero': not a regular file"},
        {{"problems", "--config", ini("empty.ini", "")}, 2, "--config: not for bsde problems, which takes no options"},
        // config files: syntax, with the line
        {{"grid", "--config", ini("unknown.ini", "K = 3\nfoo = 1\n")}, 2, "unknown.ini' line 2: unknown key 'foo'"},
        {{"grid", "--config", ini("twice.ini", "N = 64\n\nN = 128\n")}, 2, "twice.ini' line 3: 'N' is set twice (first on line 1)"},
        {{"grid", "--config", ini("no_equals.ini", "K = 3\nN 64\n")}, 2, "no_equals.ini' line 2: 'N 64' is not a key = value line"},
        {{"grid", "--config", ini("truncated.ini", "K = 3\nN = 64\nT")}, 2, "truncated.ini' line 3: 'T' is not a key = value line"},
        {{"grid", "--config", ini("no_value.ini", "K = 3\nN =\n")}, 2, "no_value.ini' line 2: no value for 'N'"},
        {{"grid", "--config", ini("no_key.ini", " = 3\n")}, 2, "no_key.ini' line 1: no key before '='"},
        {{"grid", "--config", ini("control.ini", "K = 2\x01\n")}, 2, "control.ini' line 1: control character 0x01 at column 6"},
        {{"grid", "--config", ini("nul.ini", std::string("N = 64\nK = 3\0\n", 14))}, 2, "nul.ini' line 2: control character 0x00"},
        {{"grid", "--config", ini("cr.ini", "K = 3\rN = 64\n")}, 2, "cr.ini' line 1: control character 0x0D"},
        {{"grid", "--config", ini("comment.ini", "K = 3\n# a comment \x02\n")}, 2,
         "comment.ini' line 2: control character 0x02"},  // in a comment too (docs/cli.md: a tab alone is a blank)
        {{"grid", "--config", ini("binary.ini", "problem = \xff\xfe\n")}, 2, "binary.ini' line 1: byte 0xFF outside a comment"},
        {{"grid", "--config", ini("section.ini", "[scheme]\nK = 3\n")}, 2, "section.ini' line 1: '[scheme]': sections are not used"},
        {{"grid", "--config", ini("dashes.ini", "--N = 64\n")}, 2, "dashes.ini' line 1: '--N' is not an option name"},
        {{"grid", "--config", ini("nested.ini", "config = other.ini\n")}, 2, "nested.ini' line 1: unknown key 'config' (it is for the command line only)"},
        {{"grid", "--config", ini("version.ini", "version = 1\n")}, 2, "version.ini' line 1: unknown key 'version' (it is for the command line only)"},
        {{"grid", "--config", ini("type.ini", "K = 3\nT = x\n")}, 2, "type.ini' line 2: --T 'x': a finite number expected"},
        {{"solve", "--config", ini("bool.ini", "strict = maybe\n")}, 2,
         "bool.ini' line 1: strict = maybe: true or false expected (or yes/no, on/off, 1/0)"},
        // config files: values the validation rejects, with the line where the file set them
        {{"grid", "--config", ini("range.ini", "N = 64\nK = 2\nR = 0\n")}, 2, "range.ini' line 3: --R 0: must be a finite number > 0"},
        {{"solve", "--config", ini("dimension.ini", "problem = ex1\ninterp = bicubic\n")}, 2, "dimension.ini' line 2: --interp bicubic: only for 2D problems"},
        {{"solve", "--config", ini("solve.ini", "problem = ex4\ninterp = bicubic\nspline-solve = tridiagonal\n")}, 2,
         "solve.ini' line 3: --spline-solve: only for the spline interpolations"},
        {{"solve", "--config", ini("solve_value.ini", "spline-solve = thomas\n")}, 2,
         "solve_value.ini' line 1: --spline-solve 'thomas': allowed values are auto, tridiagonal, inverse-band"},
        {{"grid", "--config", ini("list.ini", "N = 128,256\n")}, 2, "list.ini' line 1: --N '128,256': one integer expected"},
        // a refusal naming several options the file set gets each of their lines; one the command line set, none
        // T = 0.01: at T = 1 the domain would refuse it first (the price's weight at w_2 = c_2 T = 745)
        {{"solve", "--config", ini("unstable.ini", "problem = ex5\nK = 2\nN = 16\nL = 8\nrho = 0.999999999\nT = 0.01\n"
                                                   "mu1 = 0.1\nmu2 = 0.1\nR = 8\n")}, 2,
         "unstable.ini' lines 2, 3, 4: --K 2, --N 16, --L 8: the scheme is unstable on this grid"},
        {{"solve", "--config",
          ini("unstable_K.ini",
              "problem = ex5\nK = 2\nN = 16\nL = 8\nrho = 0.999999999\nT = 0.01\nmu1 = 0.1\nmu2 = 0.1\nR = 8\n"),
          "--K", "2"}, 2, "unstable_K.ini' lines 3, 4: --K 2, --N 16, --L 8: the scheme is unstable on this grid"},
        {{"solve", "--config", ini("kink.ini", "problem = ex3\nR = 4\nstrike = 200\n")}, 2,
         "kink.ini' lines 2, 3: the terminal data's kink at w = 3.51523590279972"},
        // --K names the file's Ky and Kz too; an option named only in the advice gets no line where the subject names
        // one (--allow-unstable); a value may hold quotes
        {{"solve", "--config", ini("orders.ini", "Ky = 6\nKz = 6\nN = 256\nL = 2\n")}, 2,
         "orders.ini' lines 1, 2, 3, 4: --K 6, --N 256, --L 2: the scheme is unstable on this grid"},
        {{"solve", "--config", ini("advice.ini", "allow-unstable = false\n"), "--K", "6", "--N", "256", "--L", "2"}, 2,
         "error: --K 6, --N 256, --L 2: the scheme is unstable on this grid"},
        {{"solve", "--config", ini("quote.ini", "N = 16\noutput = /nonexistent_dir/x'--N'.csv\n")}, 2,
         "quote.ini' line 2: --output '/nonexistent_dir/x'--N'.csv': cannot write there"},
        // errors found after the parse, at the output file's opening; a name in quotes is no option ("--N.csv")
        {{"solve", "--config", ini("output.ini", "N = 16\noutput = /nonexistent_dir/y--N.csv\n")}, 2,
         "output.ini' line 2: --output '/nonexistent_dir/y--N.csv': cannot write there"},
        {{"solve", "--problem", "ex3", "--config", ini("parameter.ini", "# ex3\n\nS0 = -5\n")}, 2,
         "parameter.ini' line 3: --S0 -5: must be > 0"},
        {{"solve", "--problem", "ex2", "--config", ini("foreign.ini", "S0 = 90\n")}, 2,
         "foreign.ini' line 1: --S0: not a parameter of problem log-sine"},
        // config files: values the command line overrides are checked all the same
        {{"solve", "--K", "4", "--config", ini("hidden.ini", "N = 64\nK = abc\n")}, 2,
         "hidden.ini' line 2: --K 'abc': one integer expected"},
        {{"solve", "--L", "16", "--config", ini("hidden_integer.ini", "L = 16.5\n")}, 2,
         "hidden_integer.ini' line 1: --L '16.5': an integer expected"},
        {{"solve", "--problem", "ex1", "--config", ini("hidden_name.ini", "problem = nosuch\n")}, 2,
         "hidden_name.ini' line 1: --problem 'nosuch': no such problem"},
        {{"solve", "--startup", "exact", "--config", ini("hidden_method.ini", "startup = bogus\n")}, 2,
         "hidden_method.ini' line 1: --startup 'bogus'"},
        {{"solve", "--problem", "ex3", "--sigma", "0.2", "--config", ini("hidden_number.ini", "sigma = nan\n")}, 2,
         "hidden_number.ini' line 1: --sigma 'nan': a finite number expected"},
    };
    BOOST_CHECK_GE(rows.size(), 30u);
    for (const BadInput& row : rows) check_bad_input(row);
}

BOOST_AUTO_TEST_CASE(study_and_bench_keep_the_type_of_a_cases_error) {
    BOOST_TEST_MESSAGE("with 1 MB free (BSDE_TEST_FREE_BYTES) ex1 K = 3, N = 256, N on line 3 of --config, is refused "
                       "alike by solve, by study's case on serial and by its warm-up on omp: exit code 2, the file's "
                       "line, then the case; the context study and bench give a case's error keeps its type, message "
                       "and exit code, for each type");
    ScratchDir scratch("faults");
    const std::string ini = scratch.write("memory.ini", "problem = ex1\nK = 3\nN = 256\n");
    const std::string line_3 = "--config '" + ini + "' line 3: ";
    {
        ScopedEnv free_memory("BSDE_TEST_FREE_BYTES", "1000000");
        for (const BadInput& row : std::vector<BadInput>{
                 {{"solve", "--config", ini, "--backend", "serial"}, 2, line_3 + "the run needs "},
                 {{"study", "--config", ini, "--backends", "serial"}, 2, line_3 + "K = 3, N = 256 on serial: the run needs "},
                 {{"study", "--config", ini, "--backends", "omp"}, 2, line_3 + "warm-up on omp: the run needs "}})
            check_bad_input(row);
    }
    // bench's options (--cases, --backends, --repeats, --out) are named by no solve's refusal: the context alone
    const auto check_kept = [](const auto& error) {  // thrown as its own type, not as an Error
        try {
            bsde::in_context("ex1-k3-n8 on serial: ", [&] { throw error; });
            BOOST_ERROR(typeid(error).name() << ": nothing thrown");
        } catch (const bsde::Error& e) {
            const std::string expected = std::string("ex1-k3-n8 on serial: ") + error.what();
            BOOST_CHECK_MESSAGE(typeid(e) == typeid(error) && e.what() == expected && e.exit_code() == error.exit_code(),
                                "expected " << typeid(error).name() << " '" << expected << "', exit code "
                                            << error.exit_code() << ", got " << typeid(e).name() << " '" << e.what()
                                            << "', exit code " << e.exit_code());
        }
    };
    check_kept(bsde::InputError("--N 256: too large"));
    check_kept(bsde::NumericalError("non-finite y"));
    check_kept(bsde::DeviceError("no device"));
    check_kept(bsde::DefinitionError("two problems called alike"));
    check_kept(bsde::Error("another failure", 7));
}

BOOST_AUTO_TEST_CASE(config_fifo_is_refused_without_waiting_for_a_writer) {
    BOOST_TEST_MESSAGE("--config FIFO: exit code 2, one line saying it is not a regular file, without opening it "
                       "(which waits for a writer)");
    ScratchDir scratch("faults");
    const std::string fifo = scratch.path("fifo.ini");
    BOOST_REQUIRE_MESSAGE(::mkfifo(fifo.c_str(), 0600) == 0, "cannot make the FIFO " << fifo);
    // A writer that would feed a bsde that opened the FIFO ("N = 8": a good file, so that reading it is no error);
    // released after the run by a reader of our own, so that the test ends either way.
    std::thread writer([&fifo] {
        const int descriptor = ::open(fifo.c_str(), O_WRONLY);  // waits for a reader
        if (descriptor < 0) return;
        const ssize_t written = ::write(descriptor, "N = 8\n", 6);
        static_cast<void>(written);  // the reader may be our own, gone already
        ::close(descriptor);
    });
    const CliResult r = run({"grid", "--config", fifo});
    const int release = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    writer.join();
    ::close(release);
    check_failure({{"grid", "--config", fifo}, 2, "--config '" + fifo + "': not a regular file"}, r);
}

BOOST_AUTO_TEST_CASE(config_files_that_are_fine) {
    BOOST_TEST_MESSAGE("CRLF line ends, a byte-order mark, comments (# ; and after a value, UTF-8 inside), blank lines "
                       "and a last line without newline are read; a value the command line overrides is still checked");
    ScratchDir scratch("faults");
    const std::string fine = scratch.write("fine.ini", "\xEF\xBB\xBF# grid \xC3\xA9\xC3\xA9\r\n; another comment\r\n\r\n"
                                                       "  K = 3   # the order\r\nN\t=\t128");
    const CliResult r = run({"grid", "--config", fine});
    BOOST_CHECK_MESSAGE(r.code == 0 && r.out.find("M  = 4096\n") != std::string::npos && r.err.empty(),
                        "grid --config fine.ini: code " << r.code << ", out '" << r.out << "', err '" << shown(r.err) << "'");
    const CliResult wins = run({"grid", "--config", fine, "--N", "256"});
    BOOST_CHECK_MESSAGE(wins.code == 0 && wins.out.find("M  = 8192\n") != std::string::npos,
                        "the command line wins: code " << wins.code << ", out '" << wins.out << "'");
    const std::string bad_but_overridden = scratch.write("overridden.ini", "T = abc\n");
    check_bad_input({{"grid", "--config", bad_but_overridden, "--T", "1"}, 2, "overridden.ini' line 1: --T 'abc': a finite number expected"});
    const std::string empty = scratch.write("empty.ini", "");
    const CliResult e = run({"grid", "--config", empty});
    BOOST_CHECK_MESSAGE(e.code == 0, "an empty config file: code " << e.code << " (" << shown(e.err) << ")");
}

BOOST_AUTO_TEST_CASE(parser_fuzz, *boost::unit_test::timeout(300)) {
    BOOST_TEST_MESSAGE("3000 mutated INI files and random command lines: the parser returns or throws InputError "
                       "(exit code 2, one line), never anything else, never a hang; no solve is run");
    ScratchDir scratch("faults");
    std::mt19937 random(20240817);
    const auto pick = [&random](const auto& list) { return list[random() % list.size()]; };
    const std::vector<std::string> corpus{
        "problem = ex1\nK = 2\nN = 16\n",
        "# Table 5\nproblem = ex2\nK = 1-6\nN = 128,256,512,1024\nT = 1\nR = 16\nL = 32\npicard = 30\n",
        "problem = ex5\nK = 1-3\nN = 8,16\nR = 8\nL = 8\ninterp = spline\nrho = 0.2\n",
        "problem = bs-call\nS0 = 100\nstrike = 100\nsigma = 0.2\nr = 0.03\nsmoothing = kreiss2\nspline = natural\n",
        "K = 3\r\nN = 64\r\npicard-tol = 1e-12\r\nstrict = true\r\nstartup = exact\r\n",
    };
    const std::vector<std::string> lines{
        "foo = 1", "[section]", "N", "= 3", "K = -1", "T = nan", "N = 1e9", "strict = true", "config = x.ini",
        "L = 1000", "picard-tol = -0", "rho = 0.5", "interp = bicubic", "spline-solve = inverse-band", "K = 1-6", "N = 2147483647", "R = 1e300",
        "problem = nope", "backend = cuda", "output = /nonexistent/x.csv", "grid-order = 3", "startup-substeps = 4",
        "max-seconds = 1", "out = /tmp", "backends = omp,serial", "cases = ex1-k1-n8", "repeats = 0", "K = 3 # c",
        "; comment", "  ", "N = 64\x01", "\xff\xfe", "K=", "==", "K = 3 = 4", "sigma = 0", "S0 = -1"};
    const std::vector<std::string> commands{"solve", "study", "grid", "coefficients", "problems", "bench"};
    const std::vector<std::string> options{"--problem", "--K", "--Ky", "--Kz", "--N", "--T", "--R", "--L", "--picard",
                                           "--picard-tol", "--strict", "--startup", "--startup-substeps", "--grid-order",
                                           "--smoothing", "--S0", "--strike", "--r", "--mu", "--delta", "--sigma",
                                           "--S1", "--rho", "--spline", "--interp", "--spline-solve", "--backend", "--output",
                                           "--backends", "--out", "--max-seconds", "--cases", "--repeats", "--spots",
                                           "--foo",
                                           "-K", "--", "-"};
    const std::vector<std::string> values{"0", "1", "-1", "3", "16", "64", "2.5", "1e308", "1e-320", "nan", "inf",
                                          "-inf", "abc", "", "1-6", "1,2", "6-1", "1-", ",", "ex1", "ex2", "ex4", "ex5",
                                          "auto", "tridiagonal", "inverse-band",
                                          "bs-call", "omp", "serial", "cuda", "exact", "kreiss2", "bicubic", "natural",
                                          "\x01", "\xc3\xbc", "99999999999", "--N", "0x10", " 3", "3 ", "+4",
                                          "2147483647", "-2147483648", "ex2-k3-n256", "/nonexistent/o.csv", "50:200",
                                          "200:50", "1:2,3:4"};

    const auto mutate = [&](std::string text) {
        const int mutations = 1 + random() % 3;
        for (int m = 0; m < mutations; ++m) {
            const std::size_t at = text.empty() ? 0 : random() % (text.size() + 1);
            switch (random() % 8) {
                case 0: if (!text.empty()) text[std::min(at, text.size() - 1)] = static_cast<char>(random() % 256); break;
                case 1: text.insert(at, 1, static_cast<char>(random() % 256)); break;
                case 2: if (at < text.size()) text.erase(at, 1 + random() % 8); break;
                case 3: text = text.substr(0, at); break;  // truncated
                case 4: text.insert(text.find('\n', at) == std::string::npos ? text.size() : text.find('\n', at) + 1,
                                    pick(lines) + "\n"); break;
                case 5: {  // a line repeated
                    const std::size_t start = text.rfind('\n', at == 0 ? 0 : at - 1);
                    const std::size_t begin = start == std::string::npos ? 0 : start + 1;
                    const std::size_t end = text.find('\n', begin);
                    text += text.substr(begin, end == std::string::npos ? std::string::npos : end - begin + 1);
                    break;
                }
                case 6: text.insert(at, pick(values)); break;
                default: text.insert(at, "="); break;
            }
        }
        return text;
    };

    const std::string config = scratch.path("fuzz.ini");
    int parsed = 0, rejected = 0;
    const auto started = std::chrono::steady_clock::now();
    for (int round = 0; round < 3000; ++round) {
        std::vector<std::string> args{pick(commands)};
        if (round % 2 == 0) {
            std::ofstream(config, std::ios::binary | std::ios::trunc) << mutate(pick(corpus));
            args.insert(args.end(), {"--config", config});
            if (random() % 4 == 0) args.insert(args.end(), {pick(options), pick(values)});
        } else {
            if (random() % 10 == 0) args[0] = pick(values);
            const int count = random() % 7;
            for (int k = 0; k < count; ++k) {
                args.push_back(pick(options));
                if (random() % 6 != 0) args.push_back(random() % 8 == 0 ? mutate(pick(values)) : pick(values));
            }
        }
        std::string input = joined(args);
        if (round % 2 == 0) {
            std::ifstream file(config, std::ios::binary);
            input += " with " + shown(std::string(std::istreambuf_iterator<char>(file), {}));
        }
        // Parse only: a solve never runs. A rejected input is fed to the whole CLI, which rejects it the same
        // way before anything runs, to check the exit code and the one-line message.
        try {
            bsde::parse_invocation(args);
            ++parsed;
        } catch (const bsde::InputError&) {
            ++rejected;
            const CliResult r = run(args);
            if (r.code != 2 || !one_line(r.err, "bsde: error: ") || !r.out.empty())
                BOOST_ERROR(input << ": expected exit code 2 and one error line, got " << r.code << ", err '"
                                  << shown(r.err) << "', out '" << shown(r.out) << "'");
        } catch (const std::exception& e) {
            BOOST_ERROR(input << ": parse_invocation threw something other than InputError: " << shown(e.what()));
        } catch (...) {
            BOOST_ERROR(input << ": parse_invocation threw a non-std exception");
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    BOOST_TEST_MESSAGE(parsed << " inputs parsed, " << rejected << " rejected, in " << seconds << " s");
    BOOST_CHECK_GT(rejected, 1000);
    BOOST_CHECK_GT(parsed, 50);
}

BOOST_AUTO_TEST_CASE(run_larger_than_free_memory_names_the_largest_N) {
    BOOST_TEST_MESSAGE("with 1 MB free (BSDE_TEST_FREE_BYTES), ex1 K = 3 N = 256 stops before starting (exit 2) naming "
                       "both amounts and the largest N that fits; that N runs, the next one does not");
    ScopedEnv free_memory("BSDE_TEST_FREE_BYTES", "1000000");
    const std::vector<std::string> base{"solve", "--problem", "ex1", "--K", "3", "--backend", "serial", "--N"};
    auto with_N = [&base](int N) {
        std::vector<std::string> args(base);
        args.push_back(std::to_string(N));
        return args;
    };
    const CliResult r = run(with_N(256));
    BOOST_TEST_MESSAGE("message: " << r.err);
    BOOST_CHECK_EQUAL(r.code, 2);
    BOOST_CHECK(one_line(r.err, "bsde: error: the run needs "));
    BOOST_CHECK(r.err.find(" MiB of memory on serial") != std::string::npos);
    BOOST_CHECK(r.err.find(" MiB are free (N = 256, M = 8192, d = 1, K = 3)") != std::string::npos);
    const std::string key = "the largest N that fits is ";
    const std::size_t at = r.err.find(key);
    BOOST_REQUIRE_MESSAGE(at != std::string::npos, "no '" << key << "' in '" << r.err << "'");
    const int largest = std::stoi(r.err.substr(at + key.size()));
    BOOST_CHECK(largest > 4 && largest < 256);
    const CliResult fits = run(with_N(largest));
    BOOST_CHECK_MESSAGE(fits.code == 0, "N = " << largest << ": expected exit code 0, got " << fits.code << " ("
                                               << fits.err << ")");
    const CliResult next = run(with_N(largest + 1));
    BOOST_CHECK_MESSAGE(next.code == 2 && next.err.find(key + std::to_string(largest)) != std::string::npos,
                        "N = " << largest + 1 << ": expected exit code 2 naming N = " << largest << ", got " << next.code
                               << " (" << next.err << ")");

    // 2D: the same check before anything is allocated but the fitter
    check_bad_input({{"solve", "--problem", "ex5", "--K", "2", "--N", "64", "--backend", "serial"}, 2,
                     "the largest N that fits is "});
    {
        ScopedEnv nothing_free("BSDE_TEST_FREE_BYTES", "1000");
        check_bad_input({with_N(16), 2, "not even N = K + 1 = 4 fits"});
        // a run whose long start-up would be warned of is refused first, with the one error line
        check_bad_input(
            {{"solve", "--T", "1e-4", "--N", "16", "--backend", "serial"}, 2, "not even N = K + 1 = 4 fits"});
    }
}

BOOST_AUTO_TEST_CASE(failing_allocation_exits_4_with_the_amount) {
    BOOST_TEST_MESSAGE("an allocation that fails although the estimate fitted (BSDE_TEST_FAIL_ALLOCATION) is a "
                       "DeviceError, exit code 4, naming the amount; no output file is left");
    ScratchDir scratch("faults");
    const std::string csv = scratch.path("never.csv");
    ScopedEnv fail("BSDE_TEST_FAIL_ALLOCATION", "1");
    check_bad_input({{"solve", "--problem", "ex1", "--K", "3", "--N", "64", "--backend", "omp", "--output", csv}, 4,
                     "allocating "});
    const CliResult r = run({"solve", "--problem", "ex2", "--K", "2", "--N", "32", "--backend", "serial"});
    BOOST_TEST_MESSAGE("message: " << r.err);
    BOOST_CHECK(r.err.find(" MiB for the solver's arrays failed (std::bad_alloc; N = 32, M = ") != std::string::npos);
    BOOST_CHECK(r.err.find("lower --N or --K") != std::string::npos);
    BOOST_CHECK_MESSAGE(scratch.names().empty(), "expected no file left, got " << listed(scratch.names()));
    bsde::SchemeSettings s;
    s.N = 16;
    try {
        bsde::backend_ops(bsde::Backend::serial).solve("ex1", s);
        BOOST_ERROR("expected a DeviceError");
    } catch (const bsde::DeviceError& e) {
        BOOST_CHECK_EQUAL(e.exit_code(), 4);
    }
}

BOOST_AUTO_TEST_CASE(picard_not_converging_is_a_warning_or_with_strict_an_error) {
    BOOST_TEST_MESSAGE("ex2 with one Picard iteration: a 'bsde: warning:' line naming the step and the largest "
                       "remaining change, and the report says so; with --strict (or strict = true) exit code 3 and no "
                       "output file; a converged run prints nothing on err");
    ScratchDir scratch("faults");
    const std::vector<std::string> one{"solve", "--problem", "ex2", "--K", "2", "--N", "16", "--backend", "serial",
                                       "--picard", "1"};
    const CliResult warned = run(one);
    BOOST_TEST_MESSAGE("warning: " << warned.err);
    BOOST_CHECK_EQUAL(warned.code, 0);
    BOOST_CHECK(one_line(warned.err, "bsde: warning: Picard did not converge in step 1 of "));
    BOOST_CHECK(warned.err.find("largest remaining change") != std::string::npos);
    BOOST_CHECK(warned.err.find("(--picard 1)") != std::string::npos);
    BOOST_CHECK(warned.out.find("NOT CONVERGED in ") != std::string::npos);

    const std::string csv = scratch.path("strict.csv");
    std::vector<std::string> strict(one);
    strict.insert(strict.end(), {"--strict", "--output", csv});
    check_bad_input({strict, 3, "Picard did not converge in step 1 of "});
    BOOST_CHECK_MESSAGE(scratch.names().empty(), "expected no file left, got " << listed(scratch.names()));
    const std::string ini = scratch.write("strict.ini", "strict = true\npicard = 1\n");
    check_bad_input({{"solve", "--problem", "ex2", "--K", "2", "--N", "16", "--backend", "serial", "--config", ini}, 3,
                     "(--strict)"});

    const CliResult converged = run({"solve", "--problem", "ex2", "--K", "2", "--N", "16", "--backend", "serial", "--strict"});
    BOOST_CHECK_MESSAGE(converged.code == 0 && converged.err.empty(),
                        "the default Picard settings converge: code " << converged.code << ", err '" << converged.err << "'");

    // The sweep's own report, without the CLI.
    bsde::SchemeSettings s;
    s.Ky = s.Kz = 2;
    s.N = 16;
    s.picard_iterations = 1;
    const bsde::SolveResult r = bsde::backend_ops(bsde::Backend::omp).solve("ex2", s);
    BOOST_CHECK_GT(r.picard_unconverged_steps, 0);
    BOOST_CHECK(r.picard_warning.find("Picard did not converge") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(step_statuses_agree_on_every_backend) {
    BOOST_TEST_MESSAGE("with 2 Picard iterations every step ends above the tolerance: the report from the step "
                       "statuses counts every step ((K-1) S + (K-1) 2S + N - K + 1: the start-up's two passes, then the main steps) as not converged, 2 iterations at most, on every "
                       "backend, in 1D (statuses reduced 32 steps at a time) and in 2D (every step); the largest "
                       "remaining change agrees between backends to 1e-6");
    for (const std::string problem : {"ex2", "ex4"}) {
        bsde::SchemeSettings s;
        s.Ky = s.Kz = 3;
        s.N = 16;
        s.picard_iterations = 2;
        if (problem == "ex4") {
            s.L = 8;
            s.R = 4;
        }
        double reference_change = -1.0;
        for (bsde::Backend b : bsde::test::available_backends()) {
            const bsde::SolveResult r = bsde::backend_ops(b).solve(problem, s);
            const std::string what = problem + " on " + bsde::to_string(b);
            const int steps = (s.K() - 1) * r.startup_substeps + (s.K() - 1) * 2 * r.startup_substeps + s.N - s.K() + 1;
            BOOST_CHECK_MESSAGE(r.picard_unconverged_steps == steps, what << ": expected " << steps
                                                                          << " steps not converged, got "
                                                                          << r.picard_unconverged_steps);
            BOOST_CHECK_MESSAGE(r.picard_most_iterations == 2, what << ": expected at most 2 iterations, got "
                                                                    << r.picard_most_iterations);
            if (reference_change < 0) reference_change = r.picard_largest_change;
            bsde::test::check_close(what + ": largest remaining change", reference_change, r.picard_largest_change, 1e-6);
        }
    }
}

BOOST_AUTO_TEST_CASE(a_non_finite_value_stops_the_run) {
    BOOST_TEST_MESSAGE("a NaN driver (K = 2, N = 8) stops the sweep with a NumericalError (exit code 3) naming the step "
                       "and grid index, with t and w as %g, not 0.500000");
    bsde::SchemeSettings s;
    s.Ky = s.Kz = 2;
    s.N = 8;
    bsde::HostContext<bsde::SerialSystem> context;
    bsde::BackwardSweep<bsde::test::nan_driver, bsde::CubicSpline1D, bsde::HostContext<bsde::SerialSystem>> sweep(context,
                                                                                                     bsde::test::nan_driver{}, s);
    try {
        sweep.run();
        BOOST_ERROR("expected a NumericalError");
    } catch (const bsde::NumericalError& e) {
        const std::string message = e.what();
        BOOST_TEST_MESSAGE("message: " << message);
        BOOST_CHECK_EQUAL(e.exit_code(), 3);
        for (const std::string expected : {"non-finite y or z in step ", "grid index"})
            BOOST_CHECK_MESSAGE(message.find(expected) != std::string::npos,
                                "expected the message to contain '" << expected << "', got '" << message << "'");
        BOOST_CHECK_MESSAGE(message.find("00000") == std::string::npos, "a number printed as std::to_string: " << message);
    }
}

BOOST_AUTO_TEST_CASE(thrust_calls_record_their_callers_place) {
    BOOST_TEST_MESSAGE("a context records the file and line of each Thrust call made through its policy() or "
                       "copy_to_host(), the place a Thrust failure's message names (thrust_calls.h)");
    bsde::HostContext<bsde::SerialSystem> context;
    BOOST_CHECK_MESSAGE(context.last_site().empty(), "expected no place before any call, got " << context.last_site());
    bsde::HostContext<bsde::SerialSystem>::vector<double> values(3, 1.0);
    const int fill_line = __LINE__ + 1;
    thrust::fill(context.policy(), values.begin(), values.end(), 2.0);
    const std::string fill_site = std::string(__FILE__) + ":" + std::to_string(fill_line);
    BOOST_CHECK_MESSAGE(context.last_site() == fill_site, "after thrust::fill: expected " << fill_site << ", got "
                                                                                          << context.last_site());
    std::vector<double> copied(3, 0.0);
    const int copy_line = __LINE__ + 1;
    context.copy_to_host(values.begin(), values.end(), copied.begin());
    const std::string copy_site = std::string(__FILE__) + ":" + std::to_string(copy_line);
    BOOST_CHECK_MESSAGE(context.last_site() == copy_site, "after copy_to_host: expected " << copy_site << ", got "
                                                                                         << context.last_site());
    BOOST_CHECK_MESSAGE(copied == std::vector<double>(3, 2.0), "copy_to_host: expected 2 2 2, got "
                                                                   << copied[0] << " " << copied[1] << " " << copied[2]);
}

BOOST_AUTO_TEST_CASE(omp_with_more_threads_than_it_runs_is_refused) {
    const int processors = omp_get_num_procs(), most = 8 * processors, before = omp_get_max_threads();
    BOOST_TEST_MESSAGE("omp asked for " << most + 1 << " threads (OMP_NUM_THREADS, here omp_set_num_threads), more "
                       "than 8 for each of the " << processors << " processors: exit code 2 and one line naming the "
                       "setting, for solve, study and bench alike; at " << most << " threads a solve runs");
    struct RestoredThreads {  // whatever the checks do
        int threads;
        ~RestoredThreads() { omp_set_num_threads(threads); }
    } restored{before};
    omp_set_num_threads(most + 1);
    const std::string refusal = "OMP_NUM_THREADS: " + std::to_string(most + 1) + " threads for omp, more than 8 for "
                                "each of this machine's " + std::to_string(processors) + " processors; set at most " +
                                std::to_string(most);
    const std::vector<std::string> tiny{"--problem", "ex1", "--K", "1", "--N", "8"};
    for (std::vector<std::string> args : {std::vector<std::string>{"solve", "--backend", "omp"},
                                          std::vector<std::string>{"study", "--backends", "omp"},
                                          std::vector<std::string>{"bench", "--backends", "omp", "--cases",
                                                                   "ex1-k1-n8"}}) {
        if (args[0] != "bench") args.insert(args.end(), tiny.begin(), tiny.end());
        check_bad_input({args, 2, refusal});
    }
    omp_set_num_threads(most);
    const CliResult fine = run({"solve", "--problem", "ex1", "--K", "1", "--N", "8", "--backend", "omp"});
    BOOST_CHECK_MESSAGE(fine.code == 0, "at " << most << " threads: expected exit code 0, got " << fine.code << " ("
                                              << shown(fine.err) << ")");
}

BOOST_AUTO_TEST_CASE(cuda_without_a_device_exits_4) {
    if (bsde::backend_available(bsde::Backend::cuda)) {
        BOOST_TEST_MESSAGE("skipped: this machine has a CUDA device");
        return;
    }
    BOOST_TEST_MESSAGE("solve's --backend cuda without a device: exit code 4 and the reason ("
                       << bsde::cuda_unavailable_reason() << ")");
    check_bad_input({{"solve", "--problem", "ex1", "--N", "16", "--backend", "cuda"}, 4, "--backend cuda: "});
}

BOOST_AUTO_TEST_CASE(gpus_values_and_backends_are_checked) {
    BOOST_TEST_MESSAGE("--gpus G: not a positive integer (0, -1, abc, 1.5, 65), G > 1 with omp or serial (--backend, "
                       "--backends, bench's --backends), --gpus for a command that does not take it: exit code 2 and "
                       "one line, before any solve; the config file's key gpus alike, and gpus = 1 runs");
    ScratchDir scratch("faults");
    const std::string zero = scratch.write("gpus_zero.ini", "K = 1\ngpus = 0\n");
    const std::string one = scratch.write("gpus_one.ini", "gpus = 1\n");
    const std::vector<BadInput> rows{
        {{"solve", "--gpus", "0"}, 2, "--gpus 0: must be a positive integer"},
        {{"solve", "--gpus", "-1"}, 2, "--gpus -1: must be a positive integer"},
        {{"solve", "--gpus", "abc"}, 2, "--gpus 'abc': an integer expected"},
        {{"solve", "--gpus", "1.5"}, 2, "--gpus '1.5': an integer expected"},
        {{"solve", "--gpus", "65"}, 2, "--gpus 65: at most 64 (the GPUs of one host)"},
        {{"solve", "--gpus", "2", "--backend", "omp"}, 2,
         "--gpus 2: several GPUs run the cuda backend; --backend omp runs on one host"},
        {{"solve", "--backend", "serial", "--gpus", "4"}, 2,
         "--gpus 4: several GPUs run the cuda backend; --backend serial runs on one host"},
        {{"study", "--gpus", "2", "--backends", "serial,cuda"}, 2,
         "--gpus 2: several GPUs run the cuda backend; --backends serial,cuda takes serial, which runs on one host"},
        {{"study", "--gpus", "0"}, 2, "--gpus 0: must be a positive integer"},
        {{"bench", "--cases", "ex4-k3-n32:gpus=2", "--backends", "omp"}, 2,
         "--cases 'ex4-k3-n32:gpus=2': several GPUs run the cuda backend; --backends omp runs on one host"},
        {{"bench", "--cases", "ex4-k3-n32:gpus=0"}, 2, "--cases 'ex4-k3-n32:gpus=0': gpus 0: must be a positive integer"},
        {{"bench", "--cases", "ex4-k3-n32:gpus=x"}, 2, "--cases 'ex4-k3-n32:gpus=x': gpus 'x': an integer expected"},
        {{"bench", "--cases", "surface-exchange:gpus=2"}, 2,
         "--cases 'surface-exchange:gpus=2': gpus is not for the surface cases (as bsde surface takes no --gpus)"},
        {{"bench", "--gpus", "2"}, 2, "--gpus: not for bsde bench"},
        {{"grid", "--gpus", "2"}, 2, "--gpus: not for bsde grid"},
        {{"surface", "--problem", "bs-call", "--strike", "90,110", "--gpus", "2"}, 2,
         "--gpus: only for bsde solve and bsde study (bsde bench: the cases' key gpus)"},
        {{"solve", "--config", zero}, 2, "gpus_zero.ini' line 2: --gpus 0: must be a positive integer"},
    };
    for (const BadInput& row : rows) check_bad_input(row);
    const CliResult r = run({"solve", "--config", one, "--problem", "ex1", "--K", "1", "--N", "8", "--backend", "serial"});
    BOOST_CHECK_MESSAGE(r.code == 0, "gpus = 1 in a config file: expected exit code 0, got " << r.code << " ("
                                                                                            << shown(r.err) << ")");
}

BOOST_AUTO_TEST_CASE(gpus_beyond_this_machines_are_refused) {
    const int count = bsde::cuda_device_count();
    if (bsde::backend_available(bsde::Backend::cuda)) {
        BOOST_TEST_MESSAGE("--gpus " << count + 1 << " where this machine has " << count << ": exit code 2 naming "
                           "the count, for solve, study and bench alike");
        const std::string G = std::to_string(count + 1);
        const std::string has = "this machine has " + std::to_string(count) + (count == 1 ? " GPU" : " GPUs");
        for (const BadInput& row : std::vector<BadInput>{
                 {{"solve", "--gpus", G, "--backend", "cuda"}, 2, "--gpus " + G + ": " + has},
                 {{"solve", "--gpus", G}, 2, "--gpus " + G + ": " + has},
                 {{"study", "--gpus", G}, 2, "--gpus " + G + ": " + has},
                 {{"bench", "--cases", "ex4-k3-n32:gpus=" + G}, 2, "--cases 'ex4-k3-n32:gpus=" + G + "': " + has}})
            check_bad_input(row);
        return;
    }
    BOOST_TEST_MESSAGE("--gpus 2 without a cuda backend (" << bsde::cuda_unavailable_reason() << "): more GPUs "
                       "than this machine has, exit code 2 for solve, study and bench, one line naming --gpus and the "
                       "reason");
    BOOST_CHECK_EQUAL(count, 0);
    const std::string refusal = "several GPUs run the cuda backend, which does not run here: ";
    for (const BadInput& row : std::vector<BadInput>{
             {{"solve", "--problem", "ex4", "--N", "16", "--gpus", "2", "--backend", "cuda"}, 2, "--gpus 2: " + refusal},
             {{"solve", "--problem", "ex4", "--N", "16", "--gpus", "2"}, 2, "--gpus 2: " + refusal},
             {{"study", "--problem", "ex4", "--N", "16", "--gpus", "2"}, 2, "--gpus 2: " + refusal},
             {{"study", "--problem", "ex4", "--N", "16", "--gpus", "2", "--backends", "cuda"}, 2,
              "--backends cuda: not available"},
             {{"bench", "--cases", "ex4-k3-n32:gpus=2"}, 2, "--cases 'ex4-k3-n32:gpus=2': " + refusal}})
        check_bad_input(row);
}

BOOST_AUTO_TEST_SUITE_END()
