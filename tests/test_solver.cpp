// The 1D multistep solver end to end: convergence orders, the paper's Table 4, start-up, backends.
#include <cmath>
#include <cstdio>
#include <limits>

#include "../algorithms/sweep/backward_sweep.h"
#include "../algorithms/backends/host_system.h"
#include "../problems/logistic_bsde.h"
#include "test_support.h"

using namespace bsde;
using namespace bsde::test;

BOOST_AUTO_TEST_SUITE(solver_1d)

BOOST_AUTO_TEST_CASE(ex1_converges_at_the_schemes_orders) {
    BOOST_TEST_MESSAGE("ex1, K = 1..6, N = 32, 64, 128 (mean order): y order >= min(K+1, 4) - 0.3 (space grid matched to that "
                       "order), z order >= min(K, 3) - 0.3 (the paper's grid)");
    for (int K = 1; K <= 6; ++K) {
        check_orders("ex1", K, K, std::min(K + 1, 4), y_error, "y", std::min(K + 1, 4));
        check_orders("ex1", K, K, 0, z_error, "z", std::min(K, 3));
    }
}

// One check misses: Ky = 6, Kz = 7, y's mean order 2.67 over N = 32..128 (4.4e-6, 7.6e-7, 1.1e-7), with --startup
// exact too (4.3e-6, 7.3e-7, 1.1e-7): the scheme's own errors reach order 3 only beyond N = 128 there.
BOOST_AUTO_TEST_CASE(ex2_converges_at_the_schemes_orders, *boost::unit_test::expected_failures(1)) {
    BOOST_TEST_MESSAGE("ex2 (f depends on z), K = 1..6, N = 32, 64, 128 (mean order): z order >= min(K, 3) - 0.3 and y order >= "
                       "min(K, 3) - 0.3 with Ky = Kz = K (y inherits z's order through f); y order >= min(K+1, 3) - 0.3 "
                       "with Kz = Ky + 1");
    for (int K = 1; K <= 6; ++K) {
        check_orders("ex2", K, K, 0, z_error, "z", std::min(K, 3));
        check_orders("ex2", K, K, 0, y_error, "y", std::min(K, 3));
        check_orders("ex2", K, K + 1, std::min(K + 1, 3), y_error, "y", std::min(K + 1, 3));
    }
}

BOOST_AUTO_TEST_CASE(papers_table_4) {
    // The paper's errors are given to three digits (0.5 % of rounding); with its start-up (the exact one: its K = 3..6
    // numbers are reproduced with it, not with the multistep one) ours for K = 1, 3, 4, 5, 6 measured within 1.6 % of
    // them (K = 1, N = 128, y: 9.21e-7 against 9.36e-7), most within 0.6 %, so 3 % either way. K = 2 is not
    // reproduced: the paper's z errors fall at order 1 (8.61e-6, 4.00e-6, 1.92e-6, 9.41e-7 up to N = 1024) where the
    // scheme's order is 2, and ours measured 1.6e-6, 3.9e-7 for z and 2.4e-9, 8.0e-10 for y at N = 128, 256, 5-35
    // times below the table: for K = 2 the errors may only be at most the table's.
    BOOST_TEST_MESSAGE("ex1, the paper's Table 4 rows with N <= 256, exact start-up: errors within 3 % of the table's for "
                       "K = 1, 3..6 (reproduced to about three digits), at most the table's for K = 2");
    struct Row { int K, N; double y_error, z_error; };
    const std::vector<Row> table4{{1, 128, 9.36e-07, 2.78e-05}, {1, 256, 3.89e-07, 1.40e-05},
                                  {2, 128, 8.01e-08, 8.61e-06}, {2, 256, 2.03e-08, 4.00e-06},
                                  {3, 128, 1.44e-11, 2.77e-08}, {3, 256, 1.70e-12, 3.50e-09},
                                  {4, 128, 1.06e-11, 1.69e-08}, {4, 256, 1.20e-12, 2.13e-09},
                                  {5, 128, 1.46e-12, 1.90e-08}, {5, 256, 1.12e-12, 2.40e-09},
                                  {6, 128, 6.94e-12, 1.84e-08}, {6, 256, 7.71e-13, 2.32e-09}};
    for (const Row& row : table4) {
        const SolveResult r = solve("ex1", row.K, row.K, row.N, Backend::omp, Startup::exact);
        BOOST_TEST_MESSAGE("K = " << row.K << ", N = " << row.N << ", M = " << r.M << ": y error " << scientific(y_error(r))
                                  << " (paper " << row.y_error << "), z error " << scientific(z_error(r)) << " (paper "
                                  << row.z_error << ")");
        const std::string where = "K = " + std::to_string(row.K) + ", N = " + std::to_string(row.N);
        if (row.K == 2) {
            BOOST_CHECK_MESSAGE(y_error(r) <= row.y_error, where << ": y error expected <= " << row.y_error << " (the "
                                                                 << "paper's), got " << scientific(y_error(r)));
            BOOST_CHECK_MESSAGE(z_error(r) <= row.z_error, where << ": z error expected <= " << row.z_error << " (the "
                                                                 << "paper's), got " << scientific(z_error(r)));
        } else {
            check_close(where + ": y error (the paper's)", row.y_error, y_error(r), 0.03, row.y_error);
            check_close(where + ": z error (the paper's)", row.z_error, z_error(r), 0.03, row.z_error);
        }
    }
}

// The default start-up's y_0 and z_0 errors over those of --startup exact, on omp: the target is at most 1.25 (or both
// errors below 1e-12), the accuracy the scheme reaches from exact start values. Returns the checks that missed it.
int check_startup_against_exact(const std::string& problem, SchemeSettings s) {
    const double target = 1.25, negligible = 1e-12;
    s.startup = Startup::exact;
    const SolveResult exact = backend_ops(Backend::omp).solve(problem, s);
    s.startup = Startup::automatic;
    const SolveResult scheme = backend_ops(Backend::omp).solve(problem, s);
    int missed = 0;
    for (auto [variable, of] : {std::make_pair("y_0", &y_error), std::make_pair("z_0", &z_error)}) {
        const double expected = of(exact), got = of(scheme);
        const bool met = got <= target * expected || std::max(got, expected) < negligible;
        missed += met ? 0 : 1;
        BOOST_CHECK_MESSAGE(met, problem << " K = " << s.K() << ", N = " << s.N << ": " << variable
                                         << " error with the default (" << to_string(scheme.startup)
                                         << ") start-up expected <= " << target
                                         << " x the exact start-up's " << scientific(expected) << ", got "
                                         << scientific(got) << " (" << got / expected << " x)");
        BOOST_TEST_MESSAGE(problem << " K = " << s.K() << ", N = " << s.N << ": " << variable << " error "
                                   << scientific(got) << ", exact start-up " << scientific(expected) << " ("
                                   << got / expected << " x)");
    }
    return missed;
}

BOOST_AUTO_TEST_CASE(smooth_data_startup_as_accurate_as_the_exact_one) {
    BOOST_TEST_MESSAGE("ex2 (a nonlinear driver: the multistep start-up), K = 3..6, N = 32, 64: the y_0 and z_0 errors "
                       "with the default start-up at most 1.25 x those with --startup exact");
    for (int K = 3; K <= 6; ++K)
        for (int N : {32, 64}) check_startup_against_exact("ex2", settings(K, N, 32, 16.0));
}

BOOST_AUTO_TEST_CASE(kinked_data_startup_as_accurate_as_the_exact_one) {
    BOOST_TEST_MESSAGE("bs-call (T = 0.33, an affine driver: the Feynman-Kac start-up) K = 3..6, N = 32, 64: the y_0 "
                       "and z_0 errors with the default start-up at most 1.25 x those with --startup exact");
    for (int K = 3; K <= 6; ++K)
        for (int N : {32, 64}) check_startup_against_exact("bs-call", settings(K, N, 32, 16.0, 0.33));
}

// The multistep start-up misses it here (y 3.2 x, z 3.1 x at N = 16; y 1.5 x, z 2.1 x at N = 32): its fine steps' z
// divides the interpolation's error of the kinked layers by the fine step.
BOOST_AUTO_TEST_CASE(kinked_data_in_2d_startup_as_accurate_as_the_exact_one) {
    BOOST_TEST_MESSAGE("exchange (ex5, R = 8, L = 8, the paper's drifts; an affine driver: the Feynman-Kac start-up) "
                       "K = 3, N = 16, 32: the y_0 and z_0 errors with the default start-up at most 1.25 x those with "
                       "--startup exact");
    for (int N : {16, 32}) {
        SchemeSettings s = settings(3, N, 8, 8.0);
        s.problem_parameters = {{"mu1", 0.1}, {"mu2", 0.1}};
        check_startup_against_exact("ex5", s);
    }
}

BOOST_AUTO_TEST_CASE(omp_equals_serial) {
    BOOST_TEST_MESSAGE("omp and serial give the same y_0(w), z_0(w) to 1e-14 relative");
    const SolveResult serial = solve("ex2", 3, 3, 32, Backend::serial);
    const SolveResult omp = solve("ex2", 3, 3, 32, Backend::omp);
    bsde::test::check_same_solution("ex2 on omp", serial, omp, 1e-14);
}

BOOST_AUTO_TEST_CASE(inverse_band_equals_tridiagonal_solve) {
    BOOST_TEST_MESSAGE("omp, K = 3, N = 32: the sweep with inverse-band spline moments gives the tridiagonal one's "
                       "y_0(w), z_0(w) to 1e-12 relative (ex1 natural and not-a-knot, ex2, bs-call)");
    struct Case { const char* problem; SplineBoundary boundary; };
    for (const Case c : {Case{"ex1", SplineBoundary::natural}, Case{"ex1", SplineBoundary::not_a_knot},
                         Case{"ex2", SplineBoundary::not_a_knot}, Case{"bs-call", SplineBoundary::not_a_knot}}) {
        SchemeSettings s;
        s.N = 32;
        s.spline = c.boundary;
        s.spline_solve = SplineSolve::tridiagonal;
        const SolveResult tridiagonal = backend_ops(Backend::omp).solve(c.problem, s);
        s.spline_solve = SplineSolve::inverse_band;
        const SolveResult band = backend_ops(Backend::omp).solve(c.problem, s);
        const std::string what = std::string(c.problem) + " " + to_string(c.boundary);
        BOOST_CHECK_MESSAGE(tridiagonal.spline_solve == "tridiagonal" && band.spline_solve == "inverse-band",
                            what << ": the results name " << tridiagonal.spline_solve << " and " << band.spline_solve);
        bsde::test::check_same_solution(what, tridiagonal, band, 1e-12);
    }
}

BOOST_AUTO_TEST_CASE(points_per_call_give_the_same_solution) {
    BOOST_TEST_MESSAGE("serial, K = 3, N = 32: the fused pass with 2 or 3 grid points per call gives the y(w), z(w) "
                       "of one point per call exactly (the same operations; ex1, ex2 with the spline and the Hermite "
                       "cubic, and bs-call with its kinked terminal layer)");
    struct Case { const char* problem; InterpolationKind interpolation; };
    for (const Case c : {Case{"ex1", InterpolationKind::spline}, Case{"ex2", InterpolationKind::spline},
                         Case{"ex2", InterpolationKind::hermite}, Case{"bs-call", InterpolationKind::spline}}) {
        SchemeSettings s;
        s.N = 32;
        s.interpolation = c.interpolation;
        s.points_per_call = 1;
        const SolveResult single = backend_ops(Backend::serial).solve(c.problem, s);
        for (int P = 2; P <= max_points_per_call; ++P) {
            s.points_per_call = P;
            const SolveResult run = backend_ops(Backend::serial).solve(c.problem, s);
            bsde::test::check_same_solution(std::string(c.problem) + " " + to_string(c.interpolation) + ", " +
                                                std::to_string(P) + " points per call",
                                            single, run, 0.0);
        }
    }
}

BOOST_AUTO_TEST_CASE(points_per_call_out_of_range_is_refused) {
    BOOST_TEST_MESSAGE("points_per_call -1 and max_points_per_call + 1: an InputError that names the setting");
    for (int P : {-1, max_points_per_call + 1}) {
        SchemeSettings s;
        s.points_per_call = P;
        try {
            validate(s);
            BOOST_ERROR("points_per_call " << P << ": expected an InputError, got none");
        } catch (const InputError& e) {
            BOOST_CHECK_MESSAGE(std::string(e.what()).find("points_per_call " + std::to_string(P)) != std::string::npos,
                                "points_per_call " << P << ": the message does not name it: " << e.what());
        }
    }
}

BOOST_AUTO_TEST_CASE(cuda_equals_serial, *bsde::test::needs_cuda()) {
    BOOST_TEST_MESSAGE("cuda gives the serial y_0, z_0 and y_0(w) to 1e-12 relative (ex1, ex2, and the option "
                       "bs-call with its smoothed, kinked terminal layer; ex2 with 1, 2 and 3 points per call)");
    for (const char* problem : {"ex1", "ex2", "bs-call"}) {
        const SolveResult serial = solve(problem, 3, 3, 32, Backend::serial);
        const SolveResult cuda = solve(problem, 3, 3, 32, Backend::cuda);
        bsde::test::check_close(std::string(problem) + " y_0", serial.y0, cuda.y0, 1e-12, std::fabs(serial.y0));
        bsde::test::check_close(std::string(problem) + " z_0", serial.z0[0], cuda.z0[0], 1e-12, std::fabs(serial.z0[0]));
        bsde::test::check_same_solution(std::string(problem) + " on cuda", serial, cuda, 1e-12);
    }
    SchemeSettings s;
    s.N = 32;
    const SolveResult serial = backend_ops(Backend::serial).solve("ex2", s);
    for (int P = 1; P <= max_points_per_call; ++P) {
        s.points_per_call = P;
        const SolveResult cuda = backend_ops(Backend::cuda).solve("ex2", s);
        bsde::test::check_same_solution("ex2 on cuda, " + std::to_string(P) + " points per call", serial, cuda, 1e-12);
    }
}

BOOST_AUTO_TEST_CASE(a_sweep_runs_again_from_the_start) {
    BOOST_TEST_MESSAGE("BackwardSweep::run() twice (ex1 K = 3, N = 64, serial): the same y_0, z_0 and Picard tally, and "
                       "the progress counts the steps from the first again (the step counts, statuses and Picard tally "
                       "had been kept from the first run, and the second wrote past the end of the step statuses)");
    SchemeSettings s = settings(3, 64, 32, 16.0);
    std::vector<int> reported;
    s.progress = [&reported](int done, int) { reported.push_back(done); };
    HostContext<SerialSystem> context;
    BackwardSweep<logistic_bsde, CubicSpline1D, HostContext<SerialSystem>> sweep(context, logistic_bsde(s.T, {}), s);
    const SolveResult first = sweep.run();
    const std::vector<int> first_reported = reported;
    reported.clear();
    const SolveResult second = sweep.run();
    BOOST_CHECK_MESSAGE(second.y0 == first.y0 && second.z0 == first.z0 &&
                            second.picard_most_iterations == first.picard_most_iterations &&
                            second.picard_largest_change == first.picard_largest_change,
                        "second run: y_0 " << second.y0 << ", z_0 " << second.z0[0] << ", Picard " << second.picard_most_iterations
                                           << " iterations, change " << second.picard_largest_change << "; first: "
                                           << first.y0 << ", " << first.z0[0] << ", " << first.picard_most_iterations << ", "
                                           << first.picard_largest_change);
    BOOST_CHECK_MESSAGE(!first_reported.empty() && reported == first_reported,
                        "progress: the first run reported " << first_reported.size() << " counts up to "
                                                            << (first_reported.empty() ? 0 : first_reported.back())
                                                            << ", the second " << reported.size() << " up to "
                                                            << (reported.empty() ? 0 : reported.back()));
}

namespace {
struct CountingSink {  // a rule's increments, counted
    static constexpr int dimension = 1;
    long long increments = 0;
    void add(double, double) { ++increments; }
};
}  // namespace

BOOST_AUTO_TEST_CASE(a_kinked_terminal_layers_rule_is_counted) {
    BOOST_TEST_MESSAGE("the kinked layer's rule gives CellGaussLegendreExpectation::nodes(v) increments, "
                       "10 ceil(8.5 sqrt(v) / dx) ceil(2 dx / sqrt(v)); ex3's grid (T = 0.33, R = 16) at K = 2, N = 16, "
                       "--grid-order 8 (M = 198502): 10 ceil(8.5 sqrt(2 dt) / dx) = 107090 nodes a point at the first "
                       "main step, 1.5e11 evaluations with the multistep start-up's reads on its grid of 2 M intervals "
                       "(the warning of a run that long: tests/test_run_loading.cpp)");
    for (const double dx : {1e-4, 0.01, 0.3})
        for (const double v : {1e-6, 1e-3, 0.04, 1.0}) {
            CountingSink sink;
            CellGaussLegendreExpectation{dx}(v, sink);
            const double expected = 10.0 * std::ceil(8.5 * std::sqrt(v) / dx) * std::ceil(2.0 * dx / std::sqrt(v));
            BOOST_CHECK_MESSAGE(sink.increments == expected && CellGaussLegendreExpectation{dx}.nodes(v) == expected,
                                "dx = " << dx << ", v = " << v << ": expected " << expected << " increments, the rule "
                                        << "gave " << sink.increments << ", nodes() " << CellGaussLegendreExpectation{dx}.nodes(v));
        }
    SchemeSettings s = settings(2, 16, 32, 16.0, 0.33);
    s.grid_order = 8;
    s.startup = Startup::multistep;
    s.terminal_kinked = true;
    const int M = space_intervals(2, 2, 16, 0.33, 16, 8);
    BOOST_CHECK_EQUAL(M, 2 * static_cast<int>(std::ceil(16 / std::pow(0.33 / 16, 9.0 / 4))));
    // the start-up's passes of S = 4 (kinked data: the least multiple of Ky = 2 at least max(4, ceil(sqrt(16 / 0.33) /
    // 2))) and 2 S = 8 substeps, each reading the terminal layer in its first two fine steps, on its grid of 2 M
    // intervals (1D)
    const double dx = 32.0 / M, dt = 0.33 / 16, S = 4;
    const auto nodes = [](double v, double h) { return 10.0 * std::ceil(8.5 * std::sqrt(v) / h); };  // 2 h < sqrt(v)
    const double startup_dx = dx / 2;
    const double expected =
        (M + 1.0) * nodes(2 * dt, dx) + (2.0 * M + 1.0) * (nodes(dt / S, startup_dx) + nodes(2 * dt / S, startup_dx) +
                                                           nodes(dt / (2 * S), startup_dx) +
                                                           nodes(2 * dt / (2 * S), startup_dx));
    BOOST_CHECK_MESSAGE(std::fabs(kinked_rule_evaluations(s) - expected) <= 1e-12 * expected,
                        "expected " << expected << " evaluations, got " << kinked_rule_evaluations(s));
}

BOOST_AUTO_TEST_SUITE_END()
