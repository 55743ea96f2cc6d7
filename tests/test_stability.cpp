// The von Neumann analysis of the fully discrete scheme (algorithms/scheme/stability.h): its factor for a grid mode is
// what the code's interpolation and Gauss-Hermite rule make of that mode, its smooth modes decay as under the exact
// expectation, the paper's settings pass it, and what it calls unstable does blow up in the solver (and is refused
// unless --allow-unstable).
#include <array>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "../algorithms/core/errors.h"
#include "../algorithms/quadrature/gauss_hermite.h"
#include "../algorithms/scheme/grid.h"
#include "../algorithms/interpolation/interpolation.h"
#include "../algorithms/scheme/stability.h"
#include "../problems/problem_support.h"
#include "../problems/registry.h"
#include "cli_support.h"
#include "test_support.h"

using namespace bsde;
using namespace bsde::test;

namespace {

const double pi = 3.14159265358979323846;

// sum_l omega_l s(w_c + sqrt(2 j dt) a_l) for the code's 1D interpolant s of the grid values v_i = cos(theta i),
// at the centre point c: the spline's moments by the serial tridiagonal solve (not-a-knot), the Hermite cubic's
// slopes by FourthOrderSlopes.
double rule_on_mode(const SchemeSettings& s, double theta, int j) {
    const SpaceGrid grid{space_intervals(s.Ky, s.Kz, s.N, s.T, s.R), s.R};
    const int M = grid.M;
    std::vector<double> values(M + 1), data(M + 1);
    for (int i = 0; i <= M; ++i) values[i] = std::cos(theta * i);
    const UniformGridLocator locator{-s.R, grid.dx(), M};
    const auto expectation = [&](const auto& evaluate) {
        const GaussHermiteRule rule = gauss_hermite(s.L);
        const double shift = std::sqrt(2.0 * j * s.T / s.N);
        double sum = 0.0;
        for (int l = 0; l < s.L; ++l)
            sum += rule.weights[l] / std::sqrt(pi) *
                   evaluate(values.data(), data.data(), evaluate.locate(grid.point(M / 2) + shift * rule.nodes[l]));
        return sum;
    };
    if (s.interpolation == InterpolationKind::hermite) {
        const FourthOrderSlopes slopes{values.data(), data.data(), M, 1.0 / (12.0 * grid.dx())};
        for (int i = 0; i <= M; ++i) slopes(i);
        return expectation(CubicHermiteEvaluator{locator});
    }
    data = backend_ops(Backend::serial)
               .spline_moments(values, M, 1, grid.dx(), SplineBoundary::not_a_knot, SplineSolve::tridiagonal);
    return expectation(CubicSplineEvaluator{locator});
}

// The error of a serial solve (its result's y0_error or z0_error), or infinity where it stopped on a non-finite
// value (the NumericalError is shown).
double serial_solve_error(const std::string& problem, const SchemeSettings& s, double (SolveResult::*error)() const) {
    try {
        return (backend_ops(Backend::serial).solve(problem, s).*error)();
    } catch (const NumericalError& failure) {
        BOOST_TEST_MESSAGE(problem << ": " << failure.what());
        return INFINITY;
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(stability)

BOOST_AUTO_TEST_CASE(mode_factors_are_the_rule_applied_to_the_interpolant) {
    // The two are the same sums in exact arithmetic (at the centre the not-a-knot ends are 4096 cells away, their
    // effect 0.27^4096); they differ by rounding, of the phase theta c (c = 4096) and of cos(theta i): measured 5.1e-13
    // at most over these cases (both interpolations), hence 1e-11.
    BOOST_TEST_MESSAGE("for grid values cos(theta i), the code's interpolant (spline, Hermite) under the Gauss-Hermite "
                       "rule at the grid's centre c equals Re(r_j e^(i theta c)) of the analysis to 1e-11, theta = 0.3, "
                       "1.2, 1.8, 2.9, layers j = 1..6 (K = 6, N = 256, L = 32, R = 16, M = 8192)");
    for (InterpolationKind interpolation : {InterpolationKind::spline, InterpolationKind::hermite}) {
        const SchemeSettings s = settings(6, 256, 32, 16.0, 1.0, interpolation);
        const int centre = space_intervals(s.Ky, s.Kz, s.N, s.T, s.R) / 2;
        for (double theta : {0.3, 1.2, 1.8, 2.9}) {
            const std::vector<std::complex<double>> r = axis_expectation_factors(s, theta).r;
            for (int j = 1; j <= 6; ++j)
                check_close(to_string(interpolation) + ", theta = " + format_number(theta) + ", j = " + std::to_string(j),
                            rule_on_mode(s, theta, j), std::real(r[j - 1] * std::polar(1.0, theta * centre)), 1e-11);
        }
    }
}

BOOST_AUTO_TEST_CASE(smooth_modes_decay_as_under_the_exact_expectation) {
    // r_j differs from the exact expectation by the interpolant's error on the mode, at most 5/384 theta^4 = 8.1e-8 for
    // the spline at theta = 0.05 (the cubic spline's bound 5/384 h^4 max |f''''|), and by the rule's, which L = 32
    // makes negligible here: 1e-7. Measured: 8.4e-9 (r_j, both interpolations), 7.0e-10 (q_j).
    BOOST_TEST_MESSAGE("for theta = 0.01, 0.05 (k = theta / dx) the factor r_j equals E[e^(i k dW)] = e^(-k^2 j dt / 2), "
                       "dW ~ N(0, j dt), to 1e-7, and q_j (the driver's z term's) E[e^(i k dW) dW] = i k j dt "
                       "e^(-k^2 j dt / 2) to 1e-7 sqrt(j dt) (K = 6, N = 256, L = 32, both interpolations)");
    for (InterpolationKind interpolation : {InterpolationKind::spline, InterpolationKind::hermite}) {
        const SchemeSettings s = settings(6, 256, 32, 16.0, 1.0, interpolation);
        const double dx = SpaceGrid{space_intervals(s.Ky, s.Kz, s.N, s.T, s.R), s.R}.dx(), dt = s.T / s.N;
        for (double theta : {0.01, 0.05}) {
            const AxisFactors factors = axis_expectation_factors(s, theta);
            const double k = theta / dx;
            for (int j = 1; j <= 6; ++j) {
                const std::string what = to_string(interpolation) + ", theta = " + format_number(theta) + ", j = " +
                                         std::to_string(j);
                const double decay = std::exp(-k * k * j * dt / 2), spread = std::sqrt(j * dt);
                check_close(what + " (real part)", decay, std::real(factors.r[j - 1]), 1e-7);
                check_close(what + " (imaginary part)", 0.0, std::imag(factors.r[j - 1]), 1e-7);
                check_close(what + ", q_j (real part)", 0.0, std::real(factors.q[j - 1]), 1e-7 * spread);
                check_close(what + ", q_j (imaginary part)", k * j * dt * decay, std::imag(factors.q[j - 1]),
                            1e-7 * spread);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(the_papers_settings_are_stable) {
    BOOST_TEST_MESSAGE("every (K, N) of the paper's tables grows by at most 1e3 over its run (their errors converge at the "
                       "scheme's orders, in the paper and in docs/results), with its problem's driver z term: ex1, ex2 "
                       "K = 1..6, N = 128..1024, L = 32, R = 16; ex3 (Table 8) N = 32..256, T = 0.33; ex4, ex5 (Tables "
                       "9, 11) K = 1..6, N = 8..64, L = 8, R = 8, spline and bicubic");
    struct Table {
        std::vector<std::string> problems;
        std::vector<int> Ns;
        int L;
        double R, T;
        std::vector<InterpolationKind> interpolations;
    };
    const Table tables[] = {
        {{"ex1", "ex2"}, {128, 256, 512, 1024}, 32, 16.0, 1.0, {InterpolationKind::spline}},
        {{"ex3", "ex3-put"}, {32, 64, 128, 256}, 32, 16.0, 0.33, {InterpolationKind::spline}},
        {{"ex4", "ex5"}, {8, 16, 32, 64}, 8, 8.0, 1.0, {InterpolationKind::spline, InterpolationKind::bicubic}},
    };
    for (const Table& table : tables)
        for (const std::string& problem : table.problems)
            for (InterpolationKind interpolation : table.interpolations)
                for (int K = 1; K <= 6; ++K)
                    for (int N : table.Ns) {
                        if (N < K + 1) continue;
                        SchemeSettings s = settings(K, N, table.L, table.R, table.T, interpolation);
                        const ProblemInfo& info = find_problem(problem);
                        s.driver_z_gradient = info.driver_z_gradient(s.T, {});
                        const StabilityEstimate e = estimate_stability(s, info.dimension);
                        BOOST_CHECK_MESSAGE(e.growth_over_run <= stability_warning_growth,
                                            problem << " " << to_string(interpolation) << " K = " << K << ", N = " << N
                                                    << ", T = " << table.T << ": growth over the run expected <= "
                                                    << scientific(stability_warning_growth) << ", got "
                                                    << scientific(e.growth_over_run) << " (" << describe(e, s) << ")");
                    }
}

// Affine drivers f = c(t) . z whose c changes with t (no shipped problem's does).
struct GradientLargestMidRun {  // c(t) = -4 t (T - t) / T^2: |c| largest at t = T / 2, c = -1
    static constexpr int dimension = 1;
    double T;
    AffineDriver<1> driver_at(double t) const { return {0.0, 0.0, -4.0 * t * (T - t) / (T * T)}; }
};
struct GradientLargestAtEnd {  // c(t) = (1/2 + t, -2 t): |c| largest at t = T
    static constexpr int dimension = 2;
    AffineDriver<2> driver_at(double t) const { return {0.0, 0.0, Vec2{{0.5 + t, -2.0 * t}}}; }
};

BOOST_AUTO_TEST_CASE(a_time_dependent_driver_z_gradient_is_read_where_largest) {
    BOOST_TEST_MESSAGE("the analysis's df/dz of an affine driver whose c changes with t is its c of largest |c| over "
                       "[0, T]: c(t) = -4 t (T - t) / T^2 with T = 2 gives c(1) = -1; c(t) = (1/2 + t, -2 t) with "
                       "T = 0.5 gives c(0.5) = (1, -1)");
    const struct {
        std::array<double, 3> got, expected;
    } cases[] = {{driver_z_gradient(GradientLargestMidRun{2.0}, 2.0), {-1.0, 0.0}},
                 {driver_z_gradient(GradientLargestAtEnd{}, 0.5), {1.0, -1.0}}};
    for (std::size_t i = 0; i < std::size(cases); ++i)
        for (int k = 0; k < 2; ++k)
            check_close("case " + std::to_string(i + 1) + ", df/dz component " + std::to_string(k), cases[i].expected[k],
                        cases[i].got[k], 1e-15);
}

BOOST_AUTO_TEST_CASE(a_large_driver_z_gradient_blows_up_as_it_predicts) {
    BOOST_TEST_MESSAGE("ex5 K = 2, N = 16, R = 28 on serial, where df/dz = -lambda grows as |rho| -> 1: with rho = 0.999 "
                       "(|df/dz| sqrt(dt) = 0.19) the analysis finds growth under 1e3 over the run and the y_0 error is "
                       "below 1e-3; with rho = 0.999999 (5.9) growth above 1e8, and the y_0 error exceeds 1 (or the solve "
                       "stops on a non-finite value). R = 28 holds the price's weight at w_2 = c_2 T = 23.6 (the default 8 "
                       "is refused for it: option_checks.h, check_domain_holds_bounded_price). The paper's drifts, "
                       "mu1 = mu2 = 0.1 (the defaults, r, make lambda 0). The multistep start-up, whose fine steps seed "
                       "the grid modes (the Feynman-Kac start-up's smooth layers seed them little: y_0 error 1.3e-3 at "
                       "rho = 0.999999)");
    for (const double rho : {0.999, 0.999999}) {
        SchemeSettings s = settings(2, 16, 8, 28.0);
        s.problem_parameters = {{"rho", rho}, {"mu1", 0.1}, {"mu2", 0.1}};
        s.startup = Startup::multistep;
        s.driver_z_gradient = find_problem("ex5").driver_z_gradient(s.T, s.problem_parameters);
        s.allow_unstable = true;
        const StabilityEstimate e = estimate_stability(s, 2);
        const bool unstable = rho > 0.9999;
        BOOST_CHECK_MESSAGE(unstable ? e.growth_over_run > stability_error_growth
                                     : e.growth_over_run <= stability_warning_growth,
                            "rho = " << rho << ": growth over the run expected "
                                     << (unstable ? "> " + scientific(stability_error_growth)
                                                  : "<= " + scientific(stability_warning_growth))
                                     << ", got " << scientific(e.growth_over_run) << " (" << describe(e, s) << ")");
        const double y_error = serial_solve_error("ex5", s, &SolveResult::y0_error);
        BOOST_CHECK_MESSAGE(unstable ? !(y_error <= 1.0) : y_error < 1e-3,
                            "rho = " << rho << ": y_0 error expected "
                                     << (unstable ? "> " + scientific(1.0) + " (or a stop on a non-finite value)"
                                                  : "< " + scientific(1e-3))
                                     << ", got " << scientific(y_error));
    }
}

BOOST_AUTO_TEST_CASE(what_it_calls_unstable_blows_up) {
    BOOST_TEST_MESSAGE("ex1 K = 6, N = 512, R = 5 on serial: with L = 8 the analysis finds growth above 1e20 over the run "
                       "and the solve's z_0 error exceeds 1 (or the solve stops on a non-finite value); with L = 16 it "
                       "finds none and the z_0 error is below 1e-6 (exact z_0 = 1/4)");
    for (int L : {8, 16}) {
        SchemeSettings s = settings(6, 512, L, 5.0);
        s.allow_unstable = true;
        const StabilityEstimate e = estimate_stability(s, 1);
        const bool unstable = L == 8;
        BOOST_CHECK_MESSAGE(unstable ? e.growth_over_run > 1e20 : e.growth_per_step <= 1.0,
                            "L = " << L << ": "
                                   << (unstable ? "growth over the run expected > " + scientific(1e20) + ", got " +
                                                      scientific(e.growth_over_run)
                                                : "growth a step expected <= 1, got " + format_number(e.growth_per_step, "%.17g"))
                                   << " (" << describe(e, s) << ")");
        const double z_error = serial_solve_error("ex1", s, &SolveResult::z0_error);
        BOOST_CHECK_MESSAGE(unstable ? !(z_error <= 1.0) : z_error < 1e-6,
                            "L = " << L << ": z_0 error expected "
                                   << (unstable ? "> " + scientific(1.0) + " (or a stop on a non-finite value)"
                                                : "< " + scientific(1e-6))
                                   << ", got " << scientific(z_error));
    }
}

BOOST_AUTO_TEST_CASE(unstable_settings_are_refused_unless_allowed) {
    BOOST_TEST_MESSAGE("bsde solve with settings the analysis finds unstable (ex1 K = 6, N = 512, L = 8, R = 1; ex5 K = 2, "
                       "N = 16, T = 0.01 with rho = 0.999999999, where df/dz = -lambda is about 745) exits 2 with "
                       "one line naming the growth and --allow-unstable (and for ex5 the driver's z term); with --allow-unstable it runs, warns on stderr "
                       "and prints the stability line; a stable run prints its line and no warning");
    const std::vector<std::string> unstable{"solve", "--problem", "ex1", "--K",  "6",         "--N",
                                            "512",   "--L",       "8",   "--R",  "1",         "--backend",
                                            "serial"};
    const CliResult refused = run(unstable);
    BOOST_CHECK_MESSAGE(refused.code == 2 && one_line(refused.err, "bsde: error: --K 6, --N 512, --L 8: the scheme is unstable") &&
                            refused.err.find("--allow-unstable runs it anyway") != std::string::npos,
                        joined(unstable) << ": expected exit 2 and one stderr line starting 'bsde: error: --K 6, --N 512, "
                                            "--L 8: the scheme is unstable' with '--allow-unstable runs it anyway'; got exit "
                                         << refused.code << ", stderr '" << shown(refused.err) << "'");
    std::vector<std::string> allowed = unstable;
    allowed.push_back("--allow-unstable");
    const CliResult ran = run(allowed);
    BOOST_CHECK_MESSAGE(ran.code == 0 || ran.code == 3,
                        joined(allowed) << ": expected exit 0 or 3, got " << ran.code << " (stderr '" << shown(ran.err)
                                        << "')");
    BOOST_CHECK_MESSAGE(ran.err.find("bsde: warning: --K 6, --N 512, --L 8: the scheme is unstable") != std::string::npos,
                        joined(allowed) << ": expected stderr to say 'bsde: warning: --K 6, --N 512, --L 8: the scheme "
                                           "is unstable', got '" << shown(ran.err) << "'");
    if (ran.code == 0)
        BOOST_CHECK_MESSAGE(ran.out.find("stability grid modes of wavelength about") != std::string::npos &&
                                ran.out.find("UNSTABLE (warning on stderr)") != std::string::npos,
                            joined(allowed) << ": expected the output to have 'stability grid modes of wavelength about' and "
                                               "'UNSTABLE (warning on stderr)', got:\n" << ran.out);
    // T = 0.01: at T = 1 the domain would refuse it first (the price's weight at w_2 = c_2 T = 745); the paper's
    // drifts (the defaults make lambda 0) and R (the spots would ask for R = 1.1e5: the grid's check comes first)
    const std::vector<std::string> driven{"solve", "--problem", "ex5", "--K", "2", "--N", "16", "--rho", "0.999999999",
                                          "--T", "0.01", "--mu1", "0.1", "--mu2", "0.1", "--R", "8", "--backend",
                                          "serial"};
    const CliResult driven_refused = run(driven);
    BOOST_CHECK_MESSAGE(driven_refused.code == 2 &&
                            one_line(driven_refused.err, "bsde: error: --K 2, --N 16, --L 8: the scheme is unstable") &&
                            driven_refused.err.find("the driver's z term makes it so") != std::string::npos &&
                            driven_refused.err.find("no --N whose grid the sweep can take keeps their growth") !=
                                std::string::npos,
                        joined(driven) << ": expected exit 2 and one stderr line starting 'bsde: error: --K 2, --N 16, "
                                          "--L 8: the scheme is unstable' with 'the driver's z term makes it so' and 'no --N "
                                          "whose grid the sweep can take keeps their growth'; got exit "
                                       << driven_refused.code << ", stderr '" << shown(driven_refused.err) << "'");
    const std::vector<std::string> driven_grid{"grid", "--problem", "ex5", "--K", "2", "--N", "16", "--rho", "0.99999",
                                               "--mu1", "0.1", "--mu2", "0.1", "--R", "8"};
    const CliResult grid = run(driven_grid);
    BOOST_CHECK_MESSAGE(grid.code == 0 && grid.out.find("UNSTABLE: bsde solve warns of these settings; the driver's z "
                                                        "term makes it so") != std::string::npos &&
                            grid.out.find("--N 50 keeps their growth under 1e3") != std::string::npos,
                        joined(driven_grid) << ": expected exit 0 and an output with 'UNSTABLE: bsde solve warns of these "
                                               "settings; the driver's z term makes it so' and '--N 50 keeps their growth "
                                               "under 1e3'; got exit "
                                            << grid.code << ", output:\n" << grid.out);
    const std::vector<std::string> stable{"solve", "--problem", "ex1", "--K", "3", "--N", "16", "--backend", "serial"};
    const CliResult fine = run(stable);
    BOOST_CHECK_MESSAGE(fine.code == 0 && fine.err.empty() &&
                            fine.out.find("stability grid modes grow by at most") != std::string::npos,
                        joined(stable) << ": expected exit 0, nothing on stderr and an output with 'stability grid modes "
                                          "grow by at most'; got exit "
                                       << fine.code << ", stderr '" << shown(fine.err) << "', output:\n" << fine.out);
}

BOOST_AUTO_TEST_CASE(an_instability_no_L_removes_names_the_driver_term_too) {
    BOOST_TEST_MESSAGE("ex3 K = 6, N = 512, L = 4 with mu = 1, sigma = 0.01 (df/dz = -(mu - r + delta) / sigma = -101): "
                       "unstable with or without the driver's z term, and at the largest rule, L = 128, too, so "
                       "smallest_stable_L is 0 and bsde grid's remedy names the driver's term beside a lower K or N");
    const std::vector<std::string> args{"grid", "--problem", "ex3", "--K", "6", "--N", "512", "--L", "4",
                                        "--mu", "1", "--sigma", "0.01"};
    const CliResult r = run(args);
    const std::string expected = "UNSTABLE: bsde solve refuses these settings unless --allow-unstable; a lower --K or "
                                 "--N may keep their growth under 1e3; the driver's z term adds to it (df/dz = -101, ";
    BOOST_CHECK_MESSAGE(r.out.find(expected) != std::string::npos &&
                            r.out.find("; --mu equal to r - delta makes it 0") != std::string::npos,
                        joined(args) << ": expected '" << expected << "...; --mu equal to r - delta makes it 0', got:\n"
                                     << r.out);
    SchemeSettings s = settings(6, 512, 4, 16.0, 0.33);
    s.driver_z_gradient = {-101.0, 0.0};
    BOOST_CHECK_EQUAL(smallest_stable_L(s, 1), 0);
    s.L = gauss_hermite_max_points;
    const StabilityEstimate largest = estimate_stability(s, 1);
    BOOST_CHECK_MESSAGE(largest.growth_over_run > stability_warning_growth,
                        "L = " << s.L << ": growth over the run expected > 1e3, got " << scientific(largest.growth_over_run));
}

BOOST_AUTO_TEST_CASE(the_options_drift_advice_removes_the_driver_term) {
    BOOST_TEST_MESSAGE("where the driver's z term makes the scheme unstable, bs-call's and exchange's refusals say which "
                       "drifts make it 0 (bsde grid: ex3 K = 3, N = 64, sigma = 0.02, mu = 0.5; ex5 K = 2, N = 16, rho = "
                       "0.999999999), and with those drifts bsde grid finds the grid stable; and the drift leaves the "
                       "price: bs-call K = 3, N = 64 with mu = 0.05 and with mu = r - delta = -0.01 within 1e-8");
    struct Case {
        std::vector<std::string> grid, drifts;  // the drifts that make it unstable
        std::string advice;
        std::vector<std::string> advised;  // the drifts the advice names
    };
    const Case cases[]{{{"grid", "--problem", "ex3", "--K", "3", "--N", "64", "--sigma", "0.02"},
                        {"--mu", "0.5"},
                        "smaller |df/dz|; --mu equal to r - delta makes it 0 and leaves the price as it is (docs/scheme.md",
                        {"--mu", "-0.01"}},
                       // the price at S0 only: the default spots ask for R = 1.1e5 at this rho
                       {{"grid", "--problem", "ex5", "--K", "2", "--N", "16", "--rho", "0.999999999", "--R", "8",
                         "--spots", "100:100"},
                        {"--mu1", "0.1", "--mu2", "0.1"},
                        "smaller |df/dz|; --mu1 and --mu2 equal to r - delta1 and r - delta2 make it 0 and leave the price as it is "
                        "(docs/scheme.md",
                        {"--mu1", "0.05", "--mu2", "0.05"}}};
    for (const Case& c : cases) {
        std::vector<std::string> args = c.grid;
        args.insert(args.end(), c.drifts.begin(), c.drifts.end());
        const std::string& advice = c.advice;
        const CliResult unstable = run(args);
        BOOST_CHECK_MESSAGE(unstable.out.find("UNSTABLE: bsde solve refuses these settings unless --allow-unstable; the "
                                              "driver's z term makes it so") != std::string::npos &&
                                unstable.out.find(advice) != std::string::npos,
                            joined(args) << ": expected the refusal with '" << advice << "', got:\n" << unstable.out);
        std::vector<std::string> advised = c.grid;
        advised.insert(advised.end(), c.advised.begin(), c.advised.end());
        const CliResult stable = run(advised);
        BOOST_CHECK_MESSAGE(stable.code == 0 && stable.out.find("UNSTABLE") == std::string::npos &&
                                stable.out.find("REFUSED") == std::string::npos,
                            joined(advised) << ": expected a grid neither unstable nor refused, got " << stable.code
                                            << ":\n" << stable.out);
    }
    const std::vector<std::string> call{"solve", "--problem", "bs-call", "--K", "3", "--N", "64", "--backend", "serial"};
    std::vector<std::string> paper = call, risk_neutral = call;
    paper.insert(paper.end(), {"--mu", "0.05"});
    risk_neutral.insert(risk_neutral.end(), {"--mu", "-0.01"});
    const auto price = [](const std::vector<std::string>& args) {
        const CliResult r = run(args);
        const std::size_t at = r.out.find("\nprice ");
        return r.code == 0 && at != std::string::npos ? std::stod(r.out.substr(at + 7)) : std::nan("");
    };
    const double with_drift = price(paper), without = price(risk_neutral);
    BOOST_CHECK_MESSAGE(std::fabs(with_drift - without) <= 1e-8,
                        "bs-call price with mu = 0.05: expected the price with mu = -0.01, " << all_digits(without)
                                                                                             << ", got "
                                                                                             << all_digits(with_drift));
}

BOOST_AUTO_TEST_SUITE_END()
