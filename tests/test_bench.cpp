// bsde bench: the operation count and the node-evaluation arithmetic from known inputs, the figures and
// the table from a known result, the case syntax, the sweep's phase timing, and a tiny bench end to end
// through the command line (serial and omp; cuda only where a device is present).
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../src/bench.h"
#include "../src/build_info.h"
#include "../src/cli.h"
#include "../src/repeats.h"
#include "../src/study.h"
#include "cli_support.h"
#include "test_support.h"

using namespace bsde;

using bsde::test::CliResult;
using bsde::test::run;
using bsde::test::joined;

namespace {

BenchResult known_result() {
    BenchResult r;
    r.case_name = "ex2-k6-n1024";
    r.problem = "log-sine";
    r.backend = Backend::cuda;
    r.dimension = 1;
    r.K = 6;
    r.N = 1024;
    r.M = 32768;
    r.L = 32;
    r.substeps = 32;
    r.interpolation = "spline";
    r.seconds = {3.0, 1.0, 2.0};
    r.instrumented_seconds = 4.0;
    r.phases.expectation = 2.0;
    r.phases.status = 0.5;
    r.phases.fit = 1.0;
    r.has_exact = true;
    r.y0_error = 1e-7;
    r.z0_error = 2e-7;
    r.storage_bytes = 1048576.0;
    r.cost = node_cost("ex2", 1, InterpolationKind::spline);
    r.ceilings = Fp64Ceilings{30.7e12, 7.4e11, 1.05};  // measured (docs/performance.md, "Ceilings")
    return r;
}

// known_result() on omp: no ceilings, as the bench leaves them on the host backends.
BenchResult known_host_result() {
    BenchResult r = known_result();
    r.backend = Backend::omp;
    r.ceilings = Fp64Ceilings{};
    return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bench)

BOOST_AUTO_TEST_CASE(operation_count_per_node) {
    BOOST_TEST_MESSAGE("flops per node evaluation: 1D spline 23, 2D tensor spline 122, bicubic 110, plus the driver");
    const NodeCost ex2 = node_cost("ex2", 1, InterpolationKind::spline);
    BOOST_CHECK_EQUAL(ex2.rule + ex2.interpolation + ex2.accumulation, 23);
    BOOST_CHECK_EQUAL(ex2.driver, 10);
    BOOST_CHECK_EQUAL(ex2.flops(), 33);
    BOOST_CHECK_EQUAL(ex2.transcendentals, 1);
    BOOST_CHECK_EQUAL(ex2.transcendental_names, "exp");
    BOOST_CHECK(ex2.driver_known && !ex2.kinked_terminal);
    BOOST_CHECK_EQUAL(node_cost("log-sine", 1, InterpolationKind::bicubic).flops(), 33);  // 1D ignores interp
    BOOST_CHECK_EQUAL(node_cost("ex1", 1, InterpolationKind::spline).flops(), 30);
    BOOST_CHECK_EQUAL(node_cost("ex3", 1, InterpolationKind::spline).flops(), 27);
    BOOST_CHECK(node_cost("bs-put", 1, InterpolationKind::spline).kinked_terminal);

    const NodeCost ex5 = node_cost("ex5", 2, InterpolationKind::spline);
    BOOST_CHECK_EQUAL(ex5.rule, 1);  // omega_l omega_m; the cells and weights from the node table
    BOOST_CHECK_EQUAL(ex5.interpolation, 3 * 36);  // 3 functions x 16 coefficients
    BOOST_CHECK_EQUAL(ex5.accumulation, 13);
    BOOST_CHECK_EQUAL(ex5.flops(), 127);
    BOOST_CHECK_EQUAL(ex5.transcendentals, 0);
    BOOST_CHECK(ex5.kinked_terminal);
    BOOST_CHECK_EQUAL(node_cost("ex4", 2, InterpolationKind::spline).flops(), 125);
    // the staged pass: per function an axis-2 sum of 4 staged values (7), and 7 per staged axis-1 sum
    const NodeCost staged = node_cost("ex5", 2, InterpolationKind::spline, 0.25);
    BOOST_CHECK_EQUAL(staged.interpolation, 3 * 7 + 7 * 0.25);
    BOOST_CHECK_EQUAL(staged.flops(), 1 + 21 + 1.75 + 5 + 13);
    BOOST_CHECK_EQUAL(node_cost("ex5", 2, InterpolationKind::bicubic, 0.25).interpolation, 3 * 32);
    BOOST_CHECK_EQUAL(node_cost("ex4", 2, InterpolationKind::bicubic).flops(), 113);
    BOOST_CHECK(!node_cost("no-such-problem", 1, InterpolationKind::spline).driver_known);
}

BOOST_AUTO_TEST_CASE(node_evaluations_from_known_inputs) {
    BOOST_TEST_MESSAGE("steps, layer reads and node evaluations, start-up included");
    // ex2, K = 6, N = 1024, S = 32: the start-up's passes of 5 x 32 and 5 x 64 fine steps, each reading 1, 2, .., 5,
    // 6, 6, .. layers, then 1019 x 6
    BOOST_CHECK_EQUAL(bench_steps(6, 1024, 32), 160 + 320 + 1019);
    BOOST_CHECK_EQUAL(layer_reads(6, 1024, 32), (15 + 6 * 155) + (15 + 6 * 315) + 6 * 1019);
    BOOST_CHECK_EQUAL(node_evaluations(1, 32768, 32, 6, 1024, 32, 1), 32769.0 * 32 * 8964);
    // ex5, K = 6, N = 64, S = 4 (2D: (M+1)^2 points, L^2 nodes)
    BOOST_CHECK_EQUAL(bench_steps(6, 64, 4), 20 + 40 + 59);
    BOOST_CHECK_EQUAL(layer_reads(6, 64, 4), (15 + 6 * 15) + (15 + 6 * 35) + 6 * 59);
    BOOST_CHECK_EQUAL(node_evaluations(2, 1024, 8, 6, 64, 4, 1), 1025.0 * 1025 * 64 * 684);
    // no start-up steps (K = 1, or the exact start-up)
    BOOST_CHECK_EQUAL(bench_steps(1, 16, 0), 16);
    BOOST_CHECK_EQUAL(layer_reads(1, 16, 0), 16);
    BOOST_CHECK_EQUAL(layer_reads(3, 16, 0), 14 * 3);
}

BOOST_AUTO_TEST_CASE(figures_from_a_known_result) {
    BOOST_CHECK_EQUAL(median_of({3.0, 1.0, 2.0}), 2.0);
    BOOST_CHECK_EQUAL(median_of({4.0, 1.0, 2.0, 3.0}), 2.5);
    BOOST_CHECK(std::isnan(median_of({})));

    const BenchFigures f = bench_figures(known_result());
    BOOST_CHECK_EQUAL(f.median, 2.0);
    BOOST_CHECK_EQUAL(f.min, 1.0);
    BOOST_CHECK_EQUAL(f.max, 3.0);
    BOOST_CHECK_EQUAL(f.steps, 1499);
    BOOST_CHECK_EQUAL(f.points, 32769);
    test::check_close("ms per step", 2000.0 / 1499, f.ms_per_step, 1e-14, 1.0);
    test::check_close("pass", 0.5, f.pass, 1e-15);
    test::check_close("status", 0.125, f.status, 1e-15);
    test::check_close("fit", 0.25, f.fit, 1e-15);
    test::check_close("rest", 0.125, f.rest, 1e-15);
    const double evaluations = 32769.0 * 32 * 8964;
    test::check_close("node evaluations", evaluations, f.node_evaluations, 1e-15, evaluations);
    test::check_close("per second", evaluations / 2, f.node_evaluations_per_second, 1e-15, evaluations);
    const double gflops = evaluations * 33 / 2 / 1e9;
    test::check_close("GFLOP/s", gflops, f.gflops, 1e-14, gflops);
    test::check_close("% of ceiling", 100 * gflops / 30700, f.percent_of_ceiling, 1e-14, 1.0);
    // the pass's own time is its 2 s in the instrumented sweep of 4 s (not its half of the 2 s median)
    test::check_close("pass seconds", 2.0, f.pass_seconds, 1e-15);
    test::check_close("pass GFLOP/s", evaluations * 33 / 2.0 / 1e9, f.pass_gflops, 1e-14, gflops);
    // over its floor at 30.7 TFLOP/s and 7.4e11 exp per second
    const double floor = evaluations * (33 / 30.7e12 + 1 / 7.4e11);  // ex2: 33 flops and one exp per node
    test::check_close("pass floor", floor, f.pass_floor, 1e-14, floor);
    test::check_close("pass over floor", 2.0 / floor, f.pass_over_floor, 1e-14, 2.0 / floor);

    // on the host the GPU's ceilings say nothing: no % peak and no pass/floor
    const BenchFigures h = bench_figures(known_host_result());
    BOOST_CHECK_MESSAGE(std::isnan(h.percent_of_ceiling) && std::isnan(h.pass_floor) && std::isnan(h.pass_over_floor),
                        "omp: expected no % peak and no pass/floor, got " << h.percent_of_ceiling << ", "
                                                                           << h.pass_floor << ", " << h.pass_over_floor);
    test::check_close("omp GFLOP/s", gflops, h.gflops, 1e-14, gflops);
}

BOOST_AUTO_TEST_CASE(figures_with_separable_layers) {
    BOOST_TEST_MESSAGE("2D, M = 1024, L = 8, K = 6, N = 64, no start-up, 300 of the 59 x 6 = 354 layer reads by the "
                       "separable pass: its flops per layer, 1025 1027 (34 8 + 18) + 1025^2 (37 8 + 5) = 621,513,875 "
                       "(docs/benchmarking.md, Benchmark), plus the other 54 layers' node evaluations at 43.5 flops");
    BenchResult r = known_result();  // cuda
    r.dimension = 2;
    r.K = 6, r.N = 64, r.M = 1024, r.L = 8, r.substeps = 0;
    r.seconds = {0.2};
    r.instrumented_seconds = 0.2;
    r.phases.expectation = 0.1;
    r.cost = NodeCost{};
    r.cost.interpolation = 43.5;  // flops() = 43.5
    r.separable_layers = 300;
    BOOST_CHECK_EQUAL(separable_layer_flops(2, 1024, 8), 621513875.0);
    const double fused = 54.0 * 1025 * 1025 * 64;
    test::check_close("fused node evaluations", fused, fused_node_evaluations(r), 1e-15, fused);
    const BenchFigures f = bench_figures(r);
    const double flops = fused * 43.5 + 300 * 621513875.0;
    test::check_close("flops", flops, f.flops, 1e-15, flops);
    test::check_close("pass floor", flops / 30.7e12, f.pass_floor, 1e-14, flops / 30.7e12);
    test::check_close("pass GFLOP/s", flops / 0.1 / 1e9, f.pass_gflops, 1e-14, flops / 0.1 / 1e9);
}

BOOST_AUTO_TEST_CASE(table_and_csv) {
    const BenchResult host = known_host_result();
    BenchResult device = known_result();
    device.device_bytes = 3 * 1048576.0;
    device.has_exact = false;
    const Table display = bench_table({host, device}, TableStyle::display);
    BOOST_REQUIRE_EQUAL(display.rows.size(), 2u);
    const std::vector<std::string> header{"case",         "backend", "M",       "points",   "steps",  "median s",
                                          "min s",        "max s",   "ms/step", "pass %",   "status %", "fit %",
                                          "rest %",       "node evals/s", "GFLOP/s", "% peak", "pass GFLOP/s",
                                          "pass/floor",   "y_0 error",    "z_0 error", "device MiB"};
    BOOST_CHECK(display.header == header);
    const auto& row = display.rows[0];
    BOOST_CHECK_EQUAL(row[0], "ex2-k6-n1024");
    BOOST_CHECK_EQUAL(row[1], "omp");
    BOOST_CHECK_EQUAL(row[2], "32768");
    BOOST_CHECK_EQUAL(row[4], "1499");
    BOOST_CHECK_EQUAL(row[5], "2");
    BOOST_CHECK_EQUAL(row[9], "50.0");
    BOOST_CHECK_EQUAL(row[12], "12.5");
    BOOST_CHECK_EQUAL(row[18], "1.000e-07");
    BOOST_CHECK_EQUAL(row[20], "");  // no device memory on the host
    BOOST_CHECK_EQUAL(row[15], "");  // no % peak and no pass/floor on the host: the ceilings are a GPU's
    BOOST_CHECK_EQUAL(row[17], "");
    BOOST_CHECK(!display.rows[1][15].empty() && !display.rows[1][17].empty());
    BOOST_CHECK_EQUAL(display.rows[1][18], "");  // no exact solution: no errors
    BOOST_CHECK_EQUAL(display.rows[1][20], "3.0");

    std::stringstream csv;
    write_csv(csv, bench_table({host, device}, TableStyle::csv));
    const Table back = read_csv(csv);
    BOOST_REQUIRE_EQUAL(back.rows.size(), 2u);
    const auto column = [&](const std::string& name) {
        for (std::size_t j = 0; j < back.header.size(); ++j)
            if (back.header[j] == name) return j;
        BOOST_FAIL("no column " + name);
        return std::size_t(0);
    };
    BOOST_CHECK_EQUAL(back.rows[0][column("seconds")], "3;1;2");
    BOOST_CHECK_EQUAL(std::stod(back.rows[0][column("median_s")]), 2.0);
    BOOST_CHECK_EQUAL(std::stod(back.rows[0][column("flops_per_node")]), 33.0);
    BOOST_CHECK_EQUAL(std::stod(back.rows[0][column("node_evaluations")]), 32769.0 * 32 * 8964);
    BOOST_CHECK_EQUAL(back.rows[1][column("backend")], "cuda");
    BOOST_CHECK_EQUAL(std::stod(back.rows[1][column("ceiling_flops_per_s")]), 30.7e12);
    BOOST_CHECK_EQUAL(std::stod(back.rows[1][column("ceiling_exps_per_s")]), 7.4e11);
    BOOST_CHECK_EQUAL(back.rows[0][column("ceiling_flops_per_s")], "");  // none measured on the host

    const std::string notes = bench_notes({host}, 3);
    BOOST_CHECK_MESSAGE(notes.find("instrumented") != std::string::npos,
                        "expected the host notes to say 'instrumented', got:\n" << notes);
    BOOST_CHECK_MESSAGE(notes.find("ceilings (cuda)") == std::string::npos,  // none measured
                        "expected no 'ceilings (cuda)' in the host notes, got:\n" << notes);
    const std::string device_notes = bench_notes({host, device}, 3);
    const std::string ceilings = "FP64 multiply-add 30.70 TFLOP/s, FP64 exp 7.400e+11 per second; chains of one exp "
                                 "and 32 flops ran at 1.050x the floor";
    BOOST_CHECK_MESSAGE(device_notes.find(ceilings) != std::string::npos,
                        "expected the notes to say '" << ceilings << "', got:\n" << device_notes);
    for (const std::string expected : {"the pass's own time is the sum of its spans",
                                       "33 flops = rule 0 + interpolation 14 + driver 10 + accumulation 9; 1 exp"})
        BOOST_CHECK_MESSAGE(notes.find(expected) != std::string::npos,
                            "expected the host notes to say '" << expected << "', got:\n" << notes);
}

BOOST_AUTO_TEST_CASE(case_syntax) {
    const std::vector<BenchCase> defaults = parse_bench_cases("");
    BOOST_REQUIRE_EQUAL(defaults.size(), 4u);
    BOOST_CHECK_EQUAL(defaults[0].name, "ex2-k6-n1024");
    BOOST_CHECK_EQUAL(defaults[0].problem, "log-sine");
    BOOST_CHECK_EQUAL(defaults[0].settings.K(), 6);
    BOOST_CHECK_EQUAL(defaults[0].settings.N, 1024);
    BOOST_CHECK_EQUAL(defaults[0].settings.L, 32);
    BOOST_CHECK_EQUAL(defaults[1].problem, "exchange");
    BOOST_CHECK_EQUAL(defaults[1].settings.N, 64);
    BOOST_CHECK_EQUAL(defaults[1].settings.L, 8);
    BOOST_CHECK(defaults[1].settings.interpolation == InterpolationKind::spline);
    BOOST_CHECK_EQUAL(defaults[2].name, "ex2-k3-n256");
    BOOST_CHECK_EQUAL(defaults[3].problem, "sine-sum");
    BOOST_CHECK_EQUAL(defaults[3].settings.N, 32);

    const std::vector<BenchCase> custom = parse_bench_cases("ex1:K=2:N=8, ex2-k3-n256:L=16 ,ex4:interp=bicubic:N=16");
    BOOST_REQUIRE_EQUAL(custom.size(), 3u);
    BOOST_CHECK_EQUAL(custom[0].problem, "logistic");
    BOOST_CHECK_EQUAL(custom[0].settings.Ky, 2);
    BOOST_CHECK_EQUAL(custom[0].settings.Kz, 2);
    BOOST_CHECK_EQUAL(custom[0].settings.N, 8);
    BOOST_CHECK_EQUAL(custom[1].name, "ex2-k3-n256:L=16");
    BOOST_CHECK_EQUAL(custom[1].settings.L, 16);
    BOOST_CHECK_EQUAL(custom[1].settings.N, 256);
    BOOST_CHECK(custom[2].settings.interpolation == InterpolationKind::bicubic);
    BOOST_CHECK_EQUAL(custom[2].settings.K(), 3);
    BOOST_CHECK(defaults[1].settings.separable_pass);
    BOOST_CHECK(!parse_bench_cases("ex5-k6-n64:separable=off")[0].settings.separable_pass);
    BOOST_CHECK(parse_bench_cases("ex4:separable=on")[0].settings.separable_pass);
    // bsde solve's other options of the scheme ('_' for '-') and the problem's parameters
    const BenchCase more =
        parse_bench_cases("ex3:K=2:N=16:startup=multistep:startup_substeps=5:picard_tol=1e-12:grid_order=2:sigma=0.3")[0];
    BOOST_CHECK_EQUAL(more.settings.startup_substeps, 5);
    BOOST_CHECK_EQUAL(more.settings.picard_tolerance, 1e-12);
    BOOST_CHECK_EQUAL(more.settings.grid_order, 2);
    BOOST_CHECK_EQUAL(more.settings.problem_parameters.at("sigma"), 0.3);
    // a surface case: its batch, the case's parameter keys in every member, a varied parameter refused as a key
    const BenchCase surface = parse_bench_cases("surface-bs-call:N=16:r=0.05")[0];
    BOOST_REQUIRE_EQUAL(surface.members.size(), 1000u);
    BOOST_CHECK_EQUAL(surface.settings.N, 16);
    for (const ProblemParameters& member : surface.members) {
        BOOST_REQUIRE(member.count("r") && member.count("strike") && member.count("sigma"));
        BOOST_CHECK_EQUAL(member.at("r"), 0.05);
    }
    BOOST_CHECK_EQUAL(surface.members.front().at("strike"), 60.0);
    BOOST_CHECK_EQUAL(surface.members.back().at("sigma"), 0.3);
    BOOST_CHECK_EXCEPTION(parse_bench_cases("surface-bs-call:sigma=0.2"), InputError, [](const InputError& e) {
        return std::string(e.what()).find("sigma is varied by the case surface-bs-call") != std::string::npos;
    });
}

BOOST_AUTO_TEST_CASE(bad_bench_input_exits_2) {
    BOOST_TEST_MESSAGE("bad bench input: one 'bsde: error:' line naming the option, exit 2, nothing on out");
    const std::vector<test::BadInput> rows{
        {{"bench", "--cases", "ex9-k3-n8"}, 2, "--cases 'ex9-k3-n8'"},
        // the form PROBLEM-kK-nN with a number beyond int's range: that number, not the form, is named
        {{"bench", "--cases", "ex2-k3-n99999999999"}, 2,
         "--cases 'ex2-k3-n99999999999': N '99999999999': out of range (at most 2147483647)"},
        {{"bench", "--cases", "ex2-k99999999999-n8"}, 2,
         "--cases 'ex2-k99999999999-n8': K '99999999999': out of range (at most 2147483647)"},
        {{"bench", "--cases", "ex1:K=x"}, 2, "--cases 'ex1:K=x': K 'x': an integer expected"},
        {{"bench", "--cases", "ex1:K=0"}, 2, "--cases 'ex1:K=0': K 0: must be in [1, 32]"},
        {{"bench", "--cases", "ex3-k40-n64"}, 2, "--cases 'ex3-k40-n64': K 40: must be in [1, 32]"},
        {{"bench", "--cases", "ex1:R=0x10"}, 2, "--cases 'ex1:R=0x10': R '0x10': a finite number expected"},
        {{"bench", "--cases", "ex1:T=inf"}, 2, "--cases 'ex1:T=inf': T 'inf': a finite number expected"},
        {{"bench", "--cases", "ex1:foo=1"}, 2, "unknown key 'foo' (keys: K, N, L, T, R, interp, spline, spline_solve"},
        {{"bench", "--cases", "ex1:startup_substeps=1.5"}, 2,
         "--cases 'ex1:startup_substeps=1.5': startup_substeps '1.5': an integer expected"},
        {{"bench", "--cases", "ex3:sigma=x"}, 2, "--cases 'ex3:sigma=x': sigma 'x': a finite number expected"},
        {{"bench", "--cases", "ex2:startup_substeps=5:startup=exact"}, 2,
         "--cases 'ex2:startup_substeps=5:startup=exact': --startup-substeps: only for --startup multistep"},
        {{"bench", "--cases", "ex2:K=1:startup_substeps=5"}, 2,
         "--cases 'ex2:K=1:startup_substeps=5': --startup-substeps: only for K >= 2"},
        {{"bench", "--cases", "ex2:sigma=0.3"}, 2,
         "--cases 'ex2:sigma=0.3': --sigma: not a parameter of problem log-sine"},
        {{"bench", "--cases", "ex3:S0=-5"}, 2, "--cases 'ex3:S0=-5': --S0 -5: must be > 0"},
        {{"bench", "--cases", "ex1:interp=bicubic"}, 2, "--interp bicubic: only for 2D problems"},
        {{"bench", "--cases", "ex4:interp=hermite"}, 2, "--interp hermite: only for 1D problems"},
        {{"bench", "--cases", "ex1:K=3:N=3"}, 2, "--cases 'ex1:K=3:N=3': --N 3"},
        // an unstable case, with advice that bench can take (it has no --allow-unstable)
        {{"bench", "--cases", "ex2:K=6:N=643"}, 2,
         "--cases 'ex2:K=6:N=643': --K 6, --N 643, --L 32: the scheme is unstable on this grid: grid modes of wavelength about "},
        {{"bench", "--cases", "ex2:K=6:N=643"}, 2,
         "(docs/scheme.md, Stability); bench runs stable cases only (the case's keys L, K and N set these)"},
        // the problem's checks of the grid, before any case is solved (ex1 is not solved first, and the error does
        // not come as 'ex3:K=2:N=8:R=1 on serial: ...')
        {{"bench", "--cases", "ex1:K=2:N=8,ex3:K=2:N=8:R=1", "--backends", "serial", "--repeats", "1"}, 2,
         "--cases 'ex3:K=2:N=8:R=1': --sigma 0.2 with T = 0.33 and R = 1: the price grows like e^(sigma w)"},
        {{"bench", "--cases", "ex1,,ex2"}, 2, "an empty case"},
        {{"bench", "--cases", ""}, 2, "--cases '': no case given"},
        {{"bench", "--cases", "ex1:K=2:N=8:K=3"}, 2, "K is given twice"},
        {{"bench", "--cases", "ex2-k3-n8:N=16"}, 2, "N is set by the name ex2-k3-n8"},
        {{"bench", "--cases", "ex1:interp=hermite:spline=natural"}, 2, "--spline: only for --interp spline"},
        {{"bench", "--cases", "ex1:interp=hermite:spline_solve=inverse-band"}, 2, "--spline-solve: only for the spline"},
        {{"bench", "--cases", "ex4:separable=maybe"}, 2, "--cases 'ex4:separable=maybe': separable 'maybe': on or off"},
        {{"bench", "--cases", "ex2:separable=off"}, 2, "separable is only for 2D and 3D problems (ex2 is 1D)"},
        {{"bench", "--out", ""}, 2, "--out '': an empty folder name"},
        {{"bench", "--repeats", "0"}, 2, "--repeats 0"},
        {{"bench", "--K", "3"}, 2, "--K: not for bsde bench, which takes --cases"},
        {{"bench", "--max-seconds", "1"}, 2, "--max-seconds: not for bsde bench"},
        {{"bench", "--backends", "omp,tpu"}, 2, "--backends 'omp,tpu'"},
        {{"solve", "--cases", "ex1"}, 2, "--cases: only for bsde bench"},
        {{"solve", "--repeats", "3"}, 2, "--repeats: only for bsde bench and bsde study"},
    };
    for (const test::BadInput& row : rows) test::check_bad_input(row);
}

BOOST_AUTO_TEST_CASE(bench_passes_on_the_solves_warnings) {
    BOOST_TEST_MESSAGE("a bench case whose Picard iteration stops unconverged (at most 1 iteration) exits 0 with its "
                       "table and one 'bsde: warning:' line naming the case and Picard, as bsde solve does");
    const std::vector<std::string> args{"bench", "--cases", "ex1:K=2:N=8:picard=1", "--backends", "serial",
                                        "--repeats", "1"};
    const CliResult r = run(args);
    BOOST_CHECK_MESSAGE(r.code == 0, joined(args) << ": expected exit code 0, got " << r.code << " (" << r.err << ")");
    BOOST_CHECK_MESSAGE(test::one_line(r.err, "bsde: warning: ex1:K=2:N=8:picard=1 on serial: Picard did not converge"),
                        joined(args) << ": expected one Picard warning on err, got '" << r.err << "'");
    BOOST_CHECK_MESSAGE(r.out.find("ex1:K=2:N=8:picard=1") != std::string::npos,
                        joined(args) << ": expected the case in the table, got '" << r.out << "'");
}

BSDE_TEST_CASE_PER_BACKEND(sweep_times_its_phases_on_request) {
    SchemeSettings s;
    s.Ky = s.Kz = 2;
    s.N = 8;
    const SolveResult plain = backend_ops(backend).solve("ex1", s);
    BOOST_CHECK_EQUAL(plain.phase_seconds.expectation + plain.phase_seconds.status + plain.phase_seconds.fit, 0.0);
    SchemeSettings timed = s;
    timed.time_phases = true;
    const SolveResult r = backend_ops(backend).solve("ex1", timed);
    const SweepPhaseSeconds& p = r.phase_seconds;
    BOOST_CHECK_MESSAGE(p.expectation > 0 && p.status >= 0 && p.fit > 0,
                        to_string(backend) << ": phase seconds expected expectation > 0, status >= 0, fit > 0; got "
                                           << test::scientific(p.expectation) << ", " << test::scientific(p.status)
                                           << ", " << test::scientific(p.fit));
    const double phases = p.expectation + p.status + p.fit;
    BOOST_CHECK_MESSAGE(phases <= r.sweep_seconds,
                        to_string(backend) << ": phases (expectation + status + fit) expected to add up to at most "
                                              "the sweep's "
                                           << test::scientific(r.sweep_seconds) << " s, got "
                                           << test::scientific(phases) << " s (" << test::scientific(p.expectation)
                                           << " + " << test::scientific(p.status) << " + " << test::scientific(p.fit)
                                           << "), over by " << test::scientific(phases - r.sweep_seconds) << " s");
    BOOST_CHECK_EQUAL(r.y0, plain.y0);  // the timing does not change the result
}

BOOST_AUTO_TEST_CASE(tiny_bench_end_to_end) {
    BOOST_TEST_MESSAGE("bsde bench --cases ex1:K=2:N=8 --backends serial,omp --repeats 2 --out DIR");
    const std::string dir = "/tmp/bsde_test_bench_" + std::to_string(::getpid());
    std::filesystem::remove_all(dir);
    const std::vector<std::string> args{"bench", "--cases", "ex1:K=2:N=8", "--backends", "serial,omp",
                                        "--repeats", "2", "--out", dir};
    const CliResult r = run(args);
    BOOST_TEST_MESSAGE(r.out);
    BOOST_CHECK_MESSAGE(r.code == 0, joined(args) << ": expected exit code 0, got " << r.code << " (" << r.err << ")");
    std::istringstream lines(r.out);
    std::string header, serial, omp;
    std::getline(lines, header);
    std::getline(lines, serial);
    std::getline(lines, omp);
    BOOST_CHECK_MESSAGE(header.find("node evals/s") != std::string::npos && header.find("GFLOP/s") != std::string::npos,
                        "expected a first line with 'node evals/s' and 'GFLOP/s', got '" << header << "'");
    BOOST_CHECK_MESSAGE(serial.find("ex1:K=2:N=8") == 0 && serial.find("serial") != std::string::npos,
                        "expected a second line starting 'ex1:K=2:N=8' with 'serial', got '" << serial << "'");
    BOOST_CHECK_MESSAGE(omp.find("ex1:K=2:N=8") == 0 && omp.find("omp") != std::string::npos,
                        "expected a third line starting 'ex1:K=2:N=8' with 'omp', got '" << omp << "'");
    BOOST_CHECK_MESSAGE(r.out.find("the pass's own time is the sum of its spans") != std::string::npos,
                        "expected the output to say 'the pass's own time is the sum of its spans', got:\n" << r.out);
    BOOST_CHECK_MESSAGE(r.out.find("build: bsde at commit " + build_commit()) != std::string::npos,
                        "the output does not name the build's commit " << build_commit() << ":\n" << r.out);
    std::ifstream csv(dir + "/bench.csv"), markdown(dir + "/bench.md");
    BOOST_REQUIRE(csv && markdown);
    const Table table = read_csv(csv);
    BOOST_CHECK_EQUAL(table.rows.size(), 2u);
    const Table md = read_markdown_table(markdown);
    BOOST_CHECK_EQUAL(md.rows.size(), 2u);
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(bench_whose_files_cannot_be_written_prints_nothing) {
    BOOST_TEST_MESSAGE("a bench whose --out files cannot be written (files limited to 1 KiB, as on a full disk): exit "
                       "code 2, one error line naming --out and the file, nothing on out, no folder left behind");
    test::ScratchDir scratch("bench");
    const std::string dir = scratch.path("out");
    const std::vector<std::string> args{"bench", "--cases", "ex1:K=1:N=8", "--backends", "serial", "--repeats", "1",
                                        "--out", dir};
    test::check_failure({args, 2, "--out '" + dir + "/bench."}, test::run_with_file_size_limit(args, 1024));
    BOOST_CHECK_MESSAGE(!test::exists(dir), "the bench left its --out folder " << dir << " behind");
}

BOOST_AUTO_TEST_CASE(cuda_ceilings_measured, *bsde::test::needs_cuda()) {
    BOOST_TEST_MESSAGE("the device's FP64 rates: positive and finite, and chains of one exp and 32 flops no faster "
                       "than 0.95 of the floor the two rates give them (the pass's floor is then a floor)");
    const Fp64Ceilings c = measure_cuda_fp64_ceilings();
    BOOST_TEST_MESSAGE("multiply-add " << c.flops_per_second << " flop/s, exp " << c.exps_per_second
                                       << " per second, mix over floor " << c.mix_over_floor);
    BOOST_CHECK(std::isfinite(c.flops_per_second) && c.flops_per_second > 0);
    BOOST_CHECK(std::isfinite(c.exps_per_second) && c.exps_per_second > 0);
    BOOST_CHECK_MESSAGE(std::isfinite(c.mix_over_floor) && c.mix_over_floor >= 0.95,
                        "the mix ran at " << c.mix_over_floor << "x its floor, expected at least 0.95");
}

BOOST_AUTO_TEST_CASE(cuda_bench_without_a_device_exits_2) {
    if (backend_available(Backend::cuda)) {
        const CliResult r = run({"bench", "--cases", "ex1:K=2:N=8", "--backends", "cuda", "--repeats", "1"});
        BOOST_CHECK_MESSAGE(r.code == 0, "bench on cuda: exit code " << r.code << " (" << r.err << ")");
        BOOST_CHECK(r.out.find(" cuda ") != std::string::npos);
        BOOST_CHECK(r.out.find("ceilings (cuda): measured on the device") != std::string::npos);
        return;
    }
    BOOST_CHECK_THROW(measure_cuda_fp64_ceilings(), DeviceError);
    const std::vector<std::string> args{"bench", "--backends", "cuda"};
    const CliResult r = run(args);
    BOOST_CHECK_MESSAGE(r.code == 2,
                        joined(args) << ": expected exit code 2 (a backend this machine lacks), got " << r.code);
    BOOST_CHECK_MESSAGE(
        test::one_line(r.err, "bsde: error: --backends cuda: not available; this machine runs serial, omp"),
                        joined(args) << ": got '" << r.err << "'");
    BOOST_CHECK(r.out.empty());
}

BOOST_AUTO_TEST_SUITE_END()
