// The Black-Scholes option problem (the paper's Example 3): its closed form (with the erratum's -delta),
// the Kreiss kernels, and the scheme's orders with and without smoothing of the kinked payoff.
#include <cmath>

#include "../problems/black_scholes_option.h"
#include "test_support.h"

using namespace bsde;
using namespace bsde::test;

BOOST_AUTO_TEST_SUITE(black_scholes)

BOOST_AUTO_TEST_CASE(closed_form_at_the_papers_parameters) {
    BOOST_TEST_MESSAGE("call at S0 = K = 100, r = 0.03, mu = 0.05, delta = 0.04, sigma = 0.2, T = 0.33: "
                       "y_0 = 4.367138903, z_0 = 10.09500595 (scheme.md)");
    const black_scholes_call call(0.33, {});
    check_close("y_0", 4.367138903, call.exact_y(0.0, 0.0), 1e-8);
    check_close("z_0", 10.09500595, call.exact_z(0.0, 0.0), 1e-8);
}

BOOST_AUTO_TEST_CASE(put_call_parity_with_dividends) {
    BOOST_TEST_MESSAGE("C - P = S e^(-delta tau) - K e^(-r tau); dC/dS - dP/dS = e^(-delta tau)");
    const ProblemParameters p{{"strike", 95.0}, {"sigma", 0.3}, {"r", 0.05}, {"delta", 0.02}};
    const black_scholes_call call(1.0, p);
    const black_scholes_put put(1.0, p);
    for (double t : {0.0, 0.5, 0.9})
        for (double w : {-2.0, -0.5, 0.0, 0.7, 2.0}) {
            const double tau = 1.0 - t, S = call.state(t, w);
            const std::string at = "t = " + std::to_string(t) + ", w = " + std::to_string(w);
            check_close("parity " + at, S * std::exp(-0.02 * tau) - 95.0 * std::exp(-0.05 * tau),
                        call.exact_y(t, w) - put.exact_y(t, w), 1e-12, S);
            check_close("delta parity " + at, std::exp(-0.02 * tau),
                        call.value_gradient(t, w, call.exact_z(t, w)) - put.value_gradient(t, w, put.exact_z(t, w)), 1e-12);
        }
}

BOOST_AUTO_TEST_CASE(rejects_bad_parameters) {
    for (const char* name : {"S0", "strike", "sigma"})
        BOOST_CHECK_THROW(black_scholes_call(0.33, {{name, 0.0}}), InputError);
    BOOST_CHECK_THROW(black_scholes_call(0.33, {{"kappa", 1.0}}), InputError);
}

BOOST_AUTO_TEST_CASE(kreiss_kernels_keep_their_moments) {
    BOOST_TEST_MESSAGE("Phi_4 keeps moments 0..3 (exact on cubics), Phi_2 moments 0..1");
    for (Smoothing smoothing : {Smoothing::kreiss2, Smoothing::kreiss4}) {
        const KreissKernel kernel{smoothing};
        const int exact_degree = smoothing == Smoothing::kreiss4 ? 3 : 1;
        for (int degree = 0; degree <= exact_degree; ++degree) {
            auto monomial = [degree](double x) { return std::pow(x - 0.3, degree); };
            const double dx = 0.1, w = 0.25;
            // the kink argument splits a piece; the average of a polynomial must not notice it
            check_close(to_string(smoothing) + ", degree " + std::to_string(degree), monomial(w),
                        kernel.average(monomial, w, dx, kinks_of(w + 0.037)), 1e-13);
        }
    }
}

BOOST_AUTO_TEST_CASE(kreiss_average_cuts_at_every_kink) {
    BOOST_TEST_MESSAGE("1D Kreiss average of g = |x - a| + 2 (x - b)^+ - 3 (x - c)^+ with three kinks (two in one cell "
                       "of the kernel, given out of order) against the composite midpoint rule on 4e6 cells (error "
                       "~ h^2 times the jumps in g', below 1e-10); Phi_6, Phi_4, Phi_2");
    const double w = 0.25, dx = 0.1;
    const double a = w + 0.031, b = w - 0.142, c = w + 0.077;  // a and c in the cell [0, 1] dx, b in [-2, -1] dx
    auto g = [&](double x) {
        return std::fabs(x - a) + 2 * std::max(x - b, 0.0) - 3 * std::max(x - c, 0.0) + 0.5 * x * x * x;
    };
    for (Smoothing smoothing : {Smoothing::kreiss6, Smoothing::kreiss4, Smoothing::kreiss2}) {
        const KreissKernel kernel{smoothing};
        const int cells = 4000000, half = kernel.half_width();
        const double h = 2.0 * half / cells;
        double expected = 0.0;
        for (int k = 0; k < cells; ++k) {
            const double xi = -half + (k + 0.5) * h;
            expected += h * kernel(xi) * g(w + xi * dx);
        }
        check_close(to_string(smoothing), expected, kernel.average(g, w, dx, KinkPoints{3, {c, b, a}}), 1e-10);
    }
}

BOOST_AUTO_TEST_CASE(call_converges_at_the_schemes_orders) {
    BOOST_TEST_MESSAGE("bs-call (f depends on z), K = 1..6, N = 32, 64, 128 (mean order), the paper's grid, Kreiss smoothing Phi_6: "
                       "y and z orders >= min(K, 3) - 0.3 with Ky = Kz = K; y order >= min(K+1, 3) - 0.3 with Kz = Ky + 1");
    for (int K = 1; K <= 6; ++K) {
        check_orders("bs-call", K, K, 0, z_error, "z", std::min(K, 3));
        check_orders("bs-call", K, K, 0, y_error, "y", std::min(K, 3));
        if (K <= 2) check_orders("bs-call", K, K + 1, K + 1, y_error, "y", K + 1);
    }
}

BOOST_AUTO_TEST_CASE(young_layers_are_read_with_twice_the_nodes) {
    BOOST_TEST_MESSAGE("bs-call, the paper's Table 8 cell K = 5, N = 256 (T = 0.33, R = 16, mu = 0.05, L = 32): the "
                       "layers next to the kink, read at up to K times the variance they are smoothed over, with 2 L "
                       "Gauss-Hermite nodes; y_0 against the closed form within 2e-11 (its neighbours: 4.8e-11 at "
                       "N = 128, 5.8e-12 at K = 6; L nodes gave 2.9e-9)");
    SchemeSettings s = settings(5, 256, 32, 16.0, 0.33);
    s.problem_parameters = {{"mu", 0.05}};
    const SolveResult r = backend_ops(Backend::omp).solve("bs-call", s);
    BOOST_TEST_MESSAGE("y_0 error " << scientific(y_error(r)));
    check_close("y_0 (the closed form)", r.y0_exact, r.y0, 2e-11);
}

BSDE_TEST_CASE_PER_BACKEND(the_solve_is_the_same_in_any_units) {
    BOOST_TEST_MESSAGE("the options are homogeneous, y(c S0, c strike) = c y, and so is the scheme with Picard's "
                       "tolerance (s + |y|), s = E|g(W_T)| the terminal data's mean magnitude: "
                       "bs-call, K = 3, N = 32, T = 0.33 with S0 = strike = 100 and 1e-14: y_0 / S0 and z_0 / S0 agree "
                       "within 1e-12 (with (1 + |y|) they were 1.3e-5 apart); bs-put, strike = 0.4 S0, T = 0.01, "
                       "R = 10, K = 3, N = 16, L = 16, a payoff that is 0 but beyond w = ln(0.4) / 0.2 = -4.58, where "
                       "every term of E|g(W_T)| (density e^(-w^2 / 0.02)) underflows and s is the payoff's largest "
                       "value: S0 = 1 and 1e-12 give the same largest error over |w| <= R/2 relative to S0 (about "
                       "9e-13), within 1e-3 of it: Picard stops within 1e-15 (s + |y|), s = 0.4 S0, which leaves up to "
                       "4e-16 S0 between the two (with s = 1 they were 5.8x apart)");
    struct Value {
        std::string name;
        double (*of)(const SolveResult&);
    };
    struct Scaling {
        std::string problem;
        SchemeSettings settings;
        double strike_per_spot, spot, tiny_spot, tolerance;
        std::vector<Value> values;
    };
    const Scaling scalings[] = {
        {"bs-call", settings(3, 32, 32, 16.0, 0.33), 1.0, 100.0, 1e-14, 1e-12,
         {{"y_0", [](const SolveResult& r) { return r.y0; }}, {"z_0", [](const SolveResult& r) { return r.z0[0]; }}}},
        {"bs-put", settings(3, 16, 16, 10.0, 0.01), 0.4, 1.0, 1e-12, 1e-3,
         {{"largest y error over |w| <= R/2", [](const SolveResult& r) { return r.max_y_error_inner; }}}},
    };
    for (const Scaling& c : scalings) {
        SolveResult at[2];
        const double spots[2] = {c.spot, c.tiny_spot};
        for (int k = 0; k < 2; ++k) {
            SchemeSettings s = c.settings;
            s.problem_parameters = {{"S0", spots[k]}, {"strike", c.strike_per_spot * spots[k]}};
            at[k] = backend_ops(backend).solve(c.problem, s);
        }
        for (const Value& v : c.values)
            check_close(c.problem + ": " + v.name + " / S0 on " + to_string(backend), v.of(at[0]) / spots[0],
                        v.of(at[1]) / spots[1], c.tolerance, v.of(at[0]) / spots[0]);
    }
}

BOOST_AUTO_TEST_CASE(without_smoothing_the_order_drops) {
    BOOST_TEST_MESSAGE("bs-call (T = 1), K = 3, 4, 6 (order 3 with smoothing): with --smoothing none the mean order over "
                       "N = 32..128 is at most 1.5 for y and z (the spline of the payoff's jump in z costs O(dx) = O(dt)), "
                       "with Phi_4 at least 2.7; with the paper's mu = 0.05, the kink at w = -0.15 (at the default "
                       "mu = r - delta it lies at w = 0.15, and the unsmoothed y errors of K = 3 follow no order)");
    const int first = order_check_first_N;
    for (int K : {3, 4, 6})
        for (Smoothing smoothing : {Smoothing::none, Smoothing::kreiss4}) {
            std::vector<SolveResult> runs;
            for (int N : {first, 2 * first, 4 * first})
                runs.push_back(solve("bs-call", K, K, N, Backend::omp, Startup::multistep, 0, smoothing,
                                     InterpolationKind::spline, {{"mu", 0.05}}));
            for (auto [error, variable] : {std::make_pair(y_error, "y"), std::make_pair(z_error, "z")}) {
                const double e[3] = {error(runs[0]), error(runs[1]), error(runs[2])};
                const double mean_order = observed_order(e[0], e[2]) / 2;
                const bool smoothed = smoothing == Smoothing::kreiss4;
                BOOST_CHECK_MESSAGE(smoothed ? mean_order >= 2.7 : mean_order <= 1.5,
                                    "K = " << K << ", smoothing " << to_string(smoothing) << ": mean order of " << variable
                                           << " expected " << (smoothed ? ">= 2.7" : "<= 1.5") << ", got " << mean_order
                                           << " (errors " << scientific(e[0]) << ", " << scientific(e[1]) << ", "
                                           << scientific(e[2]) << ")");
            }
        }
}

BOOST_AUTO_TEST_SUITE_END()
