// Reflected BSDEs: the American put and call (am-put, am-call; problems/american_option.h), against a binomial tree
// (american_tree.h) and published values, and the obstacle's checks (algorithms/scheme/obstacle.h).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../algorithms/scheme/problem_grid_checks.h"
#include "../problems/american_option.h"
#include "american_tree.h"
#include "test_support.h"

using namespace bsde;
using namespace bsde::test;

namespace {

// The option of Ju's Exhibit 3 (below): S0 = strike = 40, r = 0.0488, no dividends, T = 7/12.
constexpr double spot = 40.0, strike = 40.0, rate = 0.0488, maturity = 7.0 / 12.0;

Option ju_put(double sigma) { return {-1.0, spot, strike, rate, 0.0, sigma, maturity}; }

ProblemParameters parameters_of(const Option& o) {
    return {{"S0", o.S0}, {"strike", o.K}, {"r", o.r}, {"delta", o.delta}, {"sigma", o.sigma}};
}

// R = 10 holds the spots' reach (bsde: R >= 8.05 for sigma = 0.2); L = 32.
SolveResult solve_option(const std::string& problem, const Option& o, int Ky, int Kz, int N) {
    SchemeSettings s = settings(Ky, N, 32, 10.0, o.T);
    s.Kz = Kz;
    s.problem_parameters = parameters_of(o);
    return backend_ops(Backend::omp).solve(problem, s);
}

// The reflected scheme's orders: y from layer n + 1 alone (Ky = 1: exercise at every step; scheme.md, "Reflected
// BSDEs"), z of order 2.
constexpr int reflected_Ky = 1, reflected_Kz = 2;

double price(const std::string& problem, const Option& o, int N) {
    return solve_option(problem, o, reflected_Ky, reflected_Kz, N).y0;
}

// The Bermudan prices at N and 2N exercise dates, Richardson-extrapolated to the American price: 2 V_2N - V_N (the
// gap to the American price is c / N + O(1 / N^2)).
double extrapolated_price(const std::string& problem, const Option& o, int N) {
    return 2.0 * price(problem, o, 2 * N) - price(problem, o, N);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(american_options)

BOOST_AUTO_TEST_CASE(tree_reproduces_jus_values) {
    BOOST_TEST_MESSAGE("the tree (smoothed CRR, Richardson of 5000 and 10000 steps) against the American put's values "
                       "at S = strike = 40, r = 0.0488, T = 7/12 that QuantLib's test-suite (americanoption.cpp, "
                       "juValues) takes from Ju, 'An Approximate Formula for Pricing American Options', J. Derivatives "
                       "1999, Exhibit 3: 1.984, 3.161, 4.342 at sigma 0.2, 0.3, 0.4, Ju's approximation, which QuantLib "
                       "reproduces to 1e-3 (relative 4e-3: the approximation's own error, up to 0.33 % here against the "
                       "tree and a plain CRR tree of 8000 steps alike); the tree at 2500 and 5000 steps within 1e-4");
    const double ju[3][2] = {{0.2, 1.984}, {0.3, 3.161}, {0.4, 4.342}};
    for (const auto& [sigma, value] : ju) {
        const double tree = tree_price(ju_put(sigma), tree_steps);
        BOOST_TEST_MESSAGE("sigma " << sigma << ": tree " << all_digits(tree) << ", Ju " << value);
        check_close("sigma " + std::to_string(sigma) + ": tree against Ju", value, tree, 4e-3, value);
        check_close("sigma " + std::to_string(sigma) + ": tree at n = 2500 and 5000 against 5000 and 10000",
                    tree_price(ju_put(sigma), tree_steps / 2), tree, 1e-4);
    }
}

BOOST_AUTO_TEST_CASE(put_matches_the_tree) {
    BOOST_TEST_MESSAGE("am-put at Ju's sigma = 0.2, 0.3, 0.4, Ky = 1, Kz = 2 (omp): y_0 at N = 64 within 5e-4 of the "
                       "Bermudan tree exercisable at the scheme's 64 dates; N = 32 and 64 Richardson-extrapolated "
                       "within 1e-3 of the American tree");
    for (double sigma : {0.2, 0.3, 0.4}) {
        const Option o = ju_put(sigma);
        const int N = 64;
        const double y0 = price("am-put", o, N), extrapolated = 2.0 * y0 - price("am-put", o, N / 2);
        const double american = tree_price(o, tree_steps), bermudan = tree_price(o, 40 * N, 40);
        const std::string at = "sigma " + std::to_string(sigma);
        BOOST_TEST_MESSAGE(at << ": y_0 " << all_digits(y0) << ", Bermudan tree " << all_digits(bermudan) << " (error "
                              << scientific(std::fabs(y0 - bermudan)) << "); extrapolated " << all_digits(extrapolated)
                              << ", American tree " << all_digits(american) << " (error "
                              << scientific(std::fabs(extrapolated - american)) << ")");
        check_close(at + ": y_0 against the Bermudan tree", bermudan, y0, 5e-4);
        check_close(at + ": extrapolated y_0 against the American tree", american, extrapolated, 1e-3);
    }
}

BOOST_AUTO_TEST_CASE(put_converges_to_the_american_price) {
    BOOST_TEST_MESSAGE("am-put, sigma = 0.2, Ky = 1, Kz = 2, N = 16, 32, 64, 128 (omp): the error against the American "
                       "tree falls at order >= 0.8 pair by pair (the Bermudan option's N exercise dates: O(1/N))");
    const Option o = ju_put(0.2);
    const double american = tree_price(o, tree_steps);
    std::vector<double> errors;
    for (int N : {16, 32, 64, 128}) {
        const double y0 = price("am-put", o, N);
        errors.push_back(std::fabs(y0 - american));
        BOOST_TEST_MESSAGE("N = " << N << ": y_0 " << all_digits(y0) << ", error " << scientific(errors.back()));
    }
    for (std::size_t k = 1; k < errors.size(); ++k) {
        const double order = observed_order(errors[k - 1], errors[k]);
        BOOST_TEST_MESSAGE("order " << order);
        BOOST_CHECK_MESSAGE(order >= 0.8, "order from N = " << (8 << k) << " to " << (16 << k) << " expected >= 0.8, got "
                                                            << order);
    }
}

BOOST_AUTO_TEST_CASE(obstacle_holds_on_the_grid) {
    BOOST_TEST_MESSAGE("am-put (sigma = 0.2, Ky = 1, Kz = 2, N = 32): y_0(w) >= (strike - S(0, w))^+ at every grid "
                       "point, where the European put (bs-put) falls below it deep in the money (r > 0)");
    const Option o = ju_put(0.2);
    const SolveResult r = solve_option("am-put", o, reflected_Ky, reflected_Kz, 32);
    const SolveResult european = solve_option("bs-put", o, reflected_Ky, reflected_Kz, 32);
    BOOST_REQUIRE(r.w.size() == r.y.size() && european.y.size() == r.y.size());
    double worst = 0.0, european_worst = 0.0;
    for (std::size_t i = 0; i < r.y.size(); ++i) {
        const double h = std::max(strike - spot * std::exp(o.sigma * r.w[i]), 0.0);  // S(0, w) = S0 e^(sigma w)
        worst = std::max(worst, h - r.y[i]);
        european_worst = std::max(european_worst, h - european.y[i]);
    }
    BOOST_TEST_MESSAGE("largest h - y: am-put " << scientific(worst) << ", bs-put " << scientific(european_worst));
    BOOST_CHECK_MESSAGE(worst <= 0.0, "am-put below its obstacle by " << scientific(worst));
    BOOST_CHECK_MESSAGE(european_worst > 0.1, "bs-put expected below the payoff somewhere, by " << european_worst);
}

BOOST_AUTO_TEST_CASE(call_without_dividends_is_the_european_call) {
    BOOST_TEST_MESSAGE("am-call with delta = 0 (never exercised early), sigma = 0.3, K = 2, N = 32: y_0 as bs-call's "
                       "(1e-13) and within 1e-4 of the European closed form; with delta = 0.05, Ky = 1, Kz = 2, N = 32 "
                       "and 64 Richardson-extrapolated within 1e-3 of the American tree, above the European price");
    Option o{1.0, spot, strike, rate, 0.0, 0.3, maturity};
    const double exact = black_scholes(o, spot, maturity);
    const SolveResult american = solve_option("am-call", o, 2, 2, 32), european = solve_option("bs-call", o, 2, 2, 32);
    BOOST_TEST_MESSAGE("delta = 0: am-call " << all_digits(american.y0) << ", bs-call " << all_digits(european.y0)
                                             << ", closed form " << all_digits(exact) << " (error "
                                             << scientific(std::fabs(american.y0 - exact)) << ")");
    check_close("delta = 0: am-call against bs-call", european.y0, american.y0, 1e-13, european.y0);
    check_close("delta = 0: am-call against the closed form", exact, american.y0, 1e-4);
    o.delta = 0.05;
    const double extrapolated = extrapolated_price("am-call", o, 32);
    const double tree = tree_price(o, tree_steps), european_price = black_scholes(o, spot, maturity);
    BOOST_TEST_MESSAGE("delta = 0.05: am-call extrapolated " << all_digits(extrapolated) << ", tree " << all_digits(tree)
                                                             << ", European " << all_digits(european_price));
    check_close("delta = 0.05: am-call against the tree", tree, extrapolated, 1e-3);
    BOOST_CHECK_MESSAGE(extrapolated > european_price + 1e-2,
                        "am-call " << extrapolated << " not above the European call " << european_price);
}

namespace {
// Terminal data g = 0 below the obstacle h = 1 where w > 1.
struct data_below_obstacle {
    static constexpr const char* name = "below-obstacle";
    static constexpr int dimension = 1;
    double terminal_y(double) const { return 0.0; }
    double obstacle(double, double w) const { return w > 1.0 ? 1.0 : 0.0; }
};
}  // namespace

BOOST_AUTO_TEST_CASE(terminal_data_below_the_obstacle_are_refused) {
    BOOST_TEST_MESSAGE("g(w) < h(T, w) at a grid point: InputError (exit code 2), one line naming the point");
    SchemeSettings s = settings(2, 16, 16, 4.0, 1.0);
    try {
        check_problem_against_grid(data_below_obstacle{}, s);
        BOOST_ERROR("no InputError");
    } catch (const InputError& e) {
        const std::string message = e.what();
        BOOST_TEST_MESSAGE(message);
        BOOST_CHECK(message.find('\n') == std::string::npos);
        BOOST_CHECK(message.find("below its obstacle") != std::string::npos);
        BOOST_CHECK_EQUAL(e.exit_code(), 2);
    }
    BOOST_CHECK_NO_THROW(check_problem_against_grid(american_put(1.0, {}), s));
}

BOOST_AUTO_TEST_SUITE_END()
