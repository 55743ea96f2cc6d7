// The cubic Hermite interpolation with fourth-order slopes (cubic_hermite.h), the 1D alternative to the
// spline (--interp hermite): its slopes are exact for quartics, it reproduces cubics and converges at order 4,
// and the solver with it converges at the scheme's orders and agrees between backends.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "../algorithms/interpolation/interpolation.h"
#include "test_support.h"

using namespace bsde;
using namespace bsde::test;

namespace {

// Slopes and the interpolant of one column of M+1 samples of f on x_min + i dx (host).
struct HermiteColumn {
    double x_min, dx;
    int M;
    std::vector<double> values, slopes;
    template <class F>
    HermiteColumn(F f, double x_min_, double dx_, int M_) : x_min(x_min_), dx(dx_), M(M_), values(M_ + 1), slopes(M_ + 1) {
        for (int i = 0; i <= M; ++i) values[i] = f(x_min + i * dx);
        const FourthOrderSlopes slope{values.data(), slopes.data(), M, 1.0 / (12.0 * dx)};
        for (int i = 0; i <= M; ++i) slope(i);
    }
    double operator()(double x) const {
        const CubicHermiteEvaluator evaluate{UniformGridLocator{x_min, dx, M}};
        return evaluate(values.data(), slopes.data(), evaluate.locate(x));
    }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(cubic_hermite)

BOOST_AUTO_TEST_CASE(slopes_are_exact_for_quartics) {
    BOOST_TEST_MESSAGE("the fourth-order slopes (inside, at the ends and next to them) equal p'(x_i) of a quartic p "
                       "to 1e-11 of max |p'|");
    const auto p = [](double x) { return 0.3 - 1.2 * x + 0.7 * x * x - 0.25 * x * x * x + 0.05 * x * x * x * x; };
    const auto dp = [](double x) { return -1.2 + 1.4 * x - 0.75 * x * x + 0.2 * x * x * x; };
    const HermiteColumn column(p, -2.0, 0.25, 16);
    for (int i = 0; i <= column.M; ++i) {
        const double x = column.x_min + i * column.dx;
        check_close("slope at i = " + std::to_string(i), dp(x), column.slopes[i], 1e-11, std::fabs(dp(2.0)));
    }
}

BOOST_AUTO_TEST_CASE(reproduces_nodes_and_cubics) {
    BOOST_TEST_MESSAGE("the interpolant reproduces the nodes to 1e-14 and random cubics everywhere (ends included) "
                       "to 1e-12 of max |p|");
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    for (int trial = 0; trial < 5; ++trial) {
        const double c0 = uniform(random), c1 = uniform(random), c2 = uniform(random), c3 = uniform(random);
        const auto p = [&](double x) { return c0 + x * (c1 + x * (c2 + x * c3)); };
        const HermiteColumn column(p, -3.0, 6.0 / 40, 40);
        double scale = 0;
        for (double v : column.values) scale = std::max(scale, std::fabs(v));
        for (int i = 0; i <= column.M; ++i)
            check_close("node " + std::to_string(i), column.values[i], column(column.x_min + i * column.dx), 1e-14, scale);
        for (int k = 0; k <= 400; ++k) {
            const double x = -3.0 + 6.0 * k / 400;
            check_close("cubic " + std::to_string(trial) + " at x = " + std::to_string(x), p(x), column(x), 1e-12, scale);
        }
    }
}

BOOST_AUTO_TEST_CASE(fourth_order_convergence) {
    BOOST_TEST_MESSAGE("sin on [-16, 16]: max error falls with order in [3.7, 4.3] over three refinements");
    const int Ms[] = {512, 1024, 2048, 4096};
    std::vector<double> errors;
    for (int M : Ms) {
        const HermiteColumn column([](double x) { return std::sin(x); }, -16.0, 32.0 / M, M);
        double error = 0;
        for (int k = 0; k < 10 * M; ++k) {
            const double x = -16.0 + (k + 0.37) * column.dx / 10;
            error = std::max(error, std::fabs(column(x) - std::sin(x)));
        }
        errors.push_back(error);
    }
    for (std::size_t r = 1; r < errors.size(); ++r) {
        const double order = observed_order(errors[r - 1], errors[r]);
        BOOST_CHECK_MESSAGE(order >= 3.7 && order <= 4.3,
                            "order expected in [3.7, 4.3], got " << order << " (max errors " << scientific(errors[r - 1])
                                << " at M = " << Ms[r - 1] << ", " << scientific(errors[r]) << " at M = " << Ms[r] << ")");
    }
}

BOOST_AUTO_TEST_CASE(solver_converges_at_the_schemes_orders) {
    BOOST_TEST_MESSAGE("with --interp hermite, N = 32, 64, 128 (mean order): ex1 y order >= min(K+1, 4) - 0.3 (grid matched) and z "
                       "order >= min(K, 3) - 0.3 for K = 2, 3, 4; ex2 y and z orders >= min(K, 3) - 0.3 for K = 3, 6");
    for (int K : {2, 3, 4}) {
        check_orders("ex1", K, K, std::min(K + 1, 4), y_error, "y", std::min(K + 1, 4), InterpolationKind::hermite);
        check_orders("ex1", K, K, 0, z_error, "z", std::min(K, 3), InterpolationKind::hermite);
    }
    for (int K : {3, 6}) {
        check_orders("ex2", K, K, 0, y_error, "y", std::min(K, 3), InterpolationKind::hermite);
        check_orders("ex2", K, K, 0, z_error, "z", std::min(K, 3), InterpolationKind::hermite);
    }
}

BOOST_AUTO_TEST_CASE(backends_agree) {
    BOOST_TEST_MESSAGE("ex2 and bs-call, K = 3, N = 32, --interp hermite: every backend gives the serial y_0(w), "
                       "z_0(w) to 1e-12 relative");
    for (const char* problem : {"ex2", "bs-call"}) {
        const SolveResult serial = solve(problem, 3, 3, 32, Backend::serial, Startup::multistep, 0, Smoothing::kreiss4,
                                          InterpolationKind::hermite);
        for (Backend b : available_backends()) {
            const SolveResult r =
                solve(problem, 3, 3, 32, b, Startup::multistep, 0, Smoothing::kreiss4, InterpolationKind::hermite);
            check_same_solution(std::string(problem) + " on " + to_string(b), serial, r, 1e-12);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
