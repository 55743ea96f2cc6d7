// The 3D solves (the tensor spline of tensor_spline_3d.h, Gauss-Hermite on L^3 nodes, the kink plane's rule and the
// Feynman-Kac start-up in 3D) against the closed forms of ex4-3d (sine_sum_3d.h) and basket3 (geometric_basket.h), at
// grids small enough for CI: T = 1/4, R = 3.2 (6.4 sd of W_T), L = 4, K = 1, whose M = 2 ceil(R / sqrt(dt)) grows as
// sqrt(N) (26, 38, 52 at N = 4, 8, 16); the separable pass against the fused one. The higher orders need finer grids
// than CI runs (docs/results).
#include <string>

#include "test_support.h"

using namespace bsde;
using bsde::test::check_same_solution;
using bsde::test::observed_order;
using bsde::test::scientific;

namespace {

SolveResult solve_3d(const std::string& problem, int K, int N, Backend backend = Backend::omp) {
    const SchemeSettings s = bsde::test::settings(K, N, 4, 3.2, 0.25);
    return backend_ops(backend).solve(problem, s);
}

// Mean observed orders of y_0 and z_0 over N = 4..16 at K = 1: at least 0.7 (the scheme's order 1, less 0.3).
void check_order_one(const std::string& problem) {
    const SolveResult r[3] = {solve_3d(problem, 1, 4), solve_3d(problem, 1, 8), solve_3d(problem, 1, 16)};
    for (const bool y : {true, false}) {
        double e[3];
        for (int k = 0; k < 3; ++k) e[k] = y ? r[k].y0_error() : r[k].z0_error();
        const double order = observed_order(e[0], e[2]) / 2;
        BOOST_TEST_MESSAGE(problem << ", K = 1, N = 4, 8, 16: " << (y ? "y_0" : "z_0") << " errors " << scientific(e[0])
                                   << ", " << scientific(e[1]) << ", " << scientific(e[2]) << "; mean order expected "
                                   << ">= 0.7, got " << order);
        BOOST_TEST(order >= 0.7);
        BOOST_TEST(e[2] < e[1]);
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(solver_3d)

BOOST_AUTO_TEST_CASE(sine_sum_3d_converges_at_order_one) { check_order_one("ex4-3d"); }

BOOST_AUTO_TEST_CASE(geometric_basket_converges_at_order_one) { check_order_one("basket3"); }

// The same 3D solve on every backend: the kink plane's rule, the smoothing and the Feynman-Kac start-up of basket3 and
// the tensor spline give the serial solve's y_0(w), z_0(w) to 1e-12 relative.
BSDE_TEST_CASE_PER_BACKEND(basket3_equals_the_serial_solve) {
    const SolveResult serial = solve_3d("basket3", 1, 4, Backend::serial);
    const SolveResult other = solve_3d("basket3", 1, 4, backend);
    check_same_solution("basket3, K = 1, N = 4, " + to_string(backend) + " against serial", serial, other, 1e-12);
}

// The separable pass in 3D (three passes, one an axis; separable_pass.h) against the fused pass: ex4-3d and basket3
// (its kinked terminal layer read by the kink plane's rule in its band), K = 2, N = 3, the multistep start-up (each of
// its fine steps read by the pass), the same y_0(w), z_0(w) to 1e-12 relative, and every layer read by it.
BSDE_TEST_CASE_PER_BACKEND(separable_pass_equals_fused_pass_3d) {
    for (const char* problem : {"ex4-3d", "basket3"}) {
        SchemeSettings s = bsde::test::settings(2, 3, 4, 3.2, 0.25);
        s.startup = Startup::multistep;
        const SolveResult separable = backend_ops(backend).solve(problem, s);
        s.separable_pass = false;
        const SolveResult fused = backend_ops(backend).solve(problem, s);
        check_same_solution(std::string(problem) + " on " + to_string(backend) + ", separable against fused", fused,
                            separable, 1e-12);
        // (N - K + 1) K main-step reads and min(j, K) in the j-th fine step of each start-up pass, (K - 1) S and
        // (K - 1) 2 S of them
        const int S = separable.startup_substeps, expected = 2 * 2 + (1 + 2 * (S - 1)) + (1 + 2 * (2 * S - 1));
        BOOST_TEST_MESSAGE(problem << ": layers read by the separable pass expected " << expected << " (S = " << S
                                   << "), got " << separable.separable_layers << "; by the fused solve expected 0, got "
                                   << fused.separable_layers);
        BOOST_TEST(separable.separable_layers == expected);
        BOOST_TEST(fused.separable_layers == 0);
    }
}

BOOST_AUTO_TEST_SUITE_END()
