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
                        kernel.average(monomial, w, dx, w + 0.037), 1e-13);
        }
    }
}

BOOST_AUTO_TEST_CASE(call_converges_at_the_schemes_orders) {
    BOOST_TEST_MESSAGE("bs-call (f depends on z), K = 1..6, N = 16, 32, 64, the paper's grid, Kreiss smoothing Phi_4: "
                       "y and z orders >= min(K, 3) - 0.3 with Ky = Kz = K; y order >= min(K+1, 3) - 0.3 with Kz = Ky + 1");
    for (int K = 1; K <= 6; ++K) {
        check_orders("bs-call", K, K, 0, z_error, "z", std::min(K, 3));
        check_orders("bs-call", K, K, 0, y_error, "y", std::min(K, 3));
        if (K <= 2) check_orders("bs-call", K, K + 1, K + 1, y_error, "y", K + 1);
    }
}

BOOST_AUTO_TEST_CASE(the_solve_is_the_same_in_any_units) {
    BOOST_TEST_MESSAGE("bs-call, K = 3, N = 32, T = 0.33 with S0 = strike = 100 and 1e-14: the problem is homogeneous, "
                       "y(c S0, c strike) = c y, and so is the scheme with Picard's tolerance (s + |y|), s the terminal "
                       "data's largest |y|: y_0 / S0 and z_0 / S0 agree within 1e-12 on each backend (with (1 + |y|) "
                       "they were 1.3e-5 apart)");
    for (Backend backend : available_backends()) {
        SolveResult unit[2];
        const double S0[2] = {100.0, 1e-14};
        for (int i = 0; i < 2; ++i) {
            SchemeSettings s;
            s.Ky = s.Kz = 3;
            s.N = 32;
            s.T = 0.33;
            s.problem_parameters = {{"S0", S0[i]}, {"strike", S0[i]}};
            unit[i] = backend_ops(backend).solve("bs-call", s);
        }
        const std::string on = " on " + to_string(backend);
        check_close("y_0 / S0" + on, unit[0].y0 / S0[0], unit[1].y0 / S0[1], 1e-12, unit[0].y0 / S0[0]);
        check_close("z_0 / S0" + on, unit[0].z0[0] / S0[0], unit[1].z0[0] / S0[1], 1e-12, unit[0].z0[0] / S0[0]);
    }
}

BOOST_AUTO_TEST_CASE(the_solve_is_the_same_in_any_units_where_the_mean_payoff_underflows) {
    BOOST_TEST_MESSAGE("bs-put, strike = 0.4 S0, T = 0.01, R = 10, K = 3, N = 16, L = 16: the payoff is 0 but beyond "
                       "w = ln(0.4) / 0.2 = -4.58, where every term of E|g(W_T)| (density e^(-w^2 / 0.02)) underflows; "
                       "Picard's scale is then the payoff's largest value, so S0 = 1 and 1e-12 give the same largest "
                       "error over |w| <= R/2 relative to S0, within 1e-6 (with the scale 1 they were 5.8x apart)");
    for (Backend backend : available_backends()) {
        SolveResult unit[2];
        const double S0[2] = {1.0, 1e-12};
        for (int i = 0; i < 2; ++i) {
            SchemeSettings s;
            s.Ky = s.Kz = 3;
            s.N = 16;
            s.T = 0.01;
            s.R = 10;
            s.L = 16;
            s.problem_parameters = {{"S0", S0[i]}, {"strike", 0.4 * S0[i]}};
            unit[i] = backend_ops(backend).solve("bs-put", s);
        }
        check_close("largest y error over |w| <= R/2, over S0, on " + to_string(backend),
                    unit[0].max_y_error_inner / S0[0], unit[1].max_y_error_inner / S0[1], 1e-6,
                    unit[0].max_y_error_inner / S0[0]);
    }
}

BOOST_AUTO_TEST_CASE(without_smoothing_the_order_drops) {
    BOOST_TEST_MESSAGE("bs-call, K = 3, 4, 6 (order 3 with smoothing): with --smoothing none the mean order over "
                       "N = 16..64 is at most 1.5 for y and z (the spline of the payoff's jump in z costs O(dx) = O(dt)), "
                       "with Phi_4 at least 2.7");
    for (int K : {3, 4, 6})
        for (auto [error, variable] : {std::make_pair(y_error, "y"), std::make_pair(z_error, "z")}) {
            for (Smoothing smoothing : {Smoothing::none, Smoothing::kreiss4}) {
                const std::vector<double> e = errors_at_16_32_64("bs-call", K, K, 0, error, smoothing);
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
