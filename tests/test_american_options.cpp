// Reflected BSDEs: the American put and call (am-put, am-call; problems/american_option.h), against a binomial tree
// (american_tree.h) and published values, their early-exercise boundary (algorithms/sweep/exercise_boundary.h) against
// the tree's and the last date's closed form, and the obstacle's checks (algorithms/scheme/obstacle.h).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "../algorithms/scheme/problem_grid_checks.h"
#include "../problems/american_option.h"
#include "american_tree.h"
#include "cli_support.h"
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
SolveResult solve_option(const std::string& problem, const Option& o, int Ky, int Kz, int N,
                         Backend backend = Backend::omp, Startup startup = Startup::automatic) {
    SchemeSettings s = settings(Ky, N, 32, 10.0, o.T);
    s.Kz = Kz;
    s.problem_parameters = parameters_of(o);
    s.startup = startup;
    return backend_ops(backend).solve(problem, s);
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

BOOST_AUTO_TEST_CASE(solve_reports_the_limit_price_within_1e4) {
    BOOST_TEST_MESSAGE("bsde solve --config data/american_put.ini (Ju's put, sigma = 0.2, Ky = 1, Kz = 2, N = 128) on "
                       "omp: the estimate at order 1 (the exercise dates) and its 'y_0 limit', Richardson's of N = 128 "
                       "and 64, within 1e-4 of the American tree, closer than y_0 by a factor 10 at least");
    const CliResult r = run({"solve", "--config", "data/american_put.ini", "--backend", "omp", "--estimate", "on"});
    BOOST_REQUIRE_MESSAGE(r.code == 0, "exit code " << r.code << " (" << shown(r.err) << ")");
    BOOST_CHECK_MESSAGE(r.out.find("solves at N = 64 and 32, orders 1/1") != std::string::npos,
                        "expected the estimate at orders 1/1 from N = 64 and 32, got '" << r.out << "'");
    const auto value_after = [&](const std::string& label) {
        const std::size_t at = r.out.find("\n" + label);
        BOOST_REQUIRE_MESSAGE(at != std::string::npos, "no line '" << label << "' in '" << r.out << "'");
        return std::stod(r.out.substr(at + 1 + label.size()));
    };
    const double y0 = value_after("y_0       "), limit = value_after("y_0 limit "), american = tree_price(ju_put(0.2), tree_steps);
    BOOST_TEST_MESSAGE("y_0 " << all_digits(y0) << ", limit " << all_digits(limit) << ", American tree "
                              << all_digits(american));
    check_close("y_0 limit against the American tree", american, limit, 1e-4);
    BOOST_CHECK_MESSAGE(std::fabs(limit - american) * 10 <= std::fabs(y0 - american),
                        "the limit's error " << std::fabs(limit - american) << " expected at most a tenth of y_0's "
                                             << std::fabs(y0 - american));
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
                       "with the same (multistep) start-up (1e-13) and within 1e-4 of the European closed form; with delta = 0.05, Ky = 1, Kz = 2, N = 32 "
                       "and 64 Richardson-extrapolated within 1e-3 of the American tree, above the European price");
    Option o{1.0, spot, strike, rate, 0.0, 0.3, maturity};
    const double exact = black_scholes(o, spot, maturity);
    const SolveResult american = solve_option("am-call", o, 2, 2, 32);
    const SolveResult european = solve_option("bs-call", o, 2, 2, 32, Backend::omp, Startup::multistep);
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

// The largest |a_n - b_n| over the layers where both are numbers, and how many those are.
struct LayerDifference {
    double largest = 0.0;
    int layers = 0, at = -1;
};
LayerDifference compare_layers(const std::vector<double>& a, const std::vector<double>& b) {
    LayerDifference d;
    for (std::size_t n = 0; n < std::min(a.size(), b.size()); ++n) {
        if (std::isnan(a[n]) || std::isnan(b[n])) continue;
        ++d.layers;
        if (std::fabs(a[n] - b[n]) > d.largest) d.largest = std::fabs(a[n] - b[n]), d.at = static_cast<int>(n);
    }
    return d;
}

// The grid's spacing in S at the spot S: dS = sigma S dx, dx = 2 R / M with solve_option's R = 10 (dS/dw = sigma S).
double spot_spacing(const Option& o, const SolveResult& r, double S) { return o.sigma * S * 2.0 * 10.0 / r.M; }

// The Bermudan put's boundary one date before expiry: the S where the European put over dt equals K - S (the
// continuation value there is the European price), by bisection on [K / 4, K] (c - h < 0 deep in the money where
// r K > delta S, > 0 at the strike).
double last_date_boundary(const Option& o, double dt) {
    double low = o.K / 4, high = o.K;
    for (int k = 0; k < 200; ++k) {
        const double mid = 0.5 * (low + high);
        (black_scholes(o, mid, dt) - (o.K - mid) <= 0.0 ? low : high) = mid;
    }
    return 0.5 * (low + high);
}

}  // namespace

// The layers the start-up makes, N-K+1..N-1 (K = max(Ky, Kz)), take their boundary from its finer steps', which
// exercise dt / 2S apart: the N-date Bermudan tree's is not theirs.
BSDE_TEST_CASE_PER_BACKEND(put_boundary_matches_the_bermudan_tree) {
    BOOST_TEST_MESSAGE("am-put, sigma = 0.2, Ky = 1, Kz = 2, N = 64 (" << to_string(backend) << "): S*(t_n) at the "
                       "main steps' layers within a quarter of the grid's spacing in S there (dS = sigma S dx, the "
                       "resolution the grid gives it) of the boundary of the tree exercisable at the same 64 dates (80 "
                       "steps a date; its change to 160 within 0.01); one edge a layer, S* rising with t");
    const Option o = ju_put(0.2);
    const int N = 64, every = 80;
    const SolveResult r = solve_option("am-put", o, reflected_Ky, reflected_Kz, N, backend);
    BOOST_REQUIRE(r.has_exercise_boundary && r.exercise_boundary.has_state);
    const ExerciseBoundary& b = r.exercise_boundary;
    BOOST_REQUIRE_EQUAL(b.state.size(), std::size_t(N));
    std::vector<double> tree, finer;
    smoothed_tree(o, N * every, every, &tree);
    smoothed_tree(o, 2 * N * every, 2 * every, &finer);
    const LayerDifference trees = compare_layers(tree, finer);
    BOOST_TEST_MESSAGE("the tree at 80 and 160 steps a date: largest difference " << trees.largest << " over "
                                                                                 << trees.layers << " dates");
    BOOST_CHECK_MESSAGE(trees.largest <= 0.01, "the tree's boundary changes by " << trees.largest);
    const int main_layers = N - std::max(reflected_Ky, reflected_Kz) + 1;  // n = 0..N-K
    int compared = 0;
    double largest_before_last = 0.0;  // over the main layers but the last, which the start-up's layer next to it moves
    for (int n = 0; n < N; ++n) {
        const double S = b.state[n], dS = spot_spacing(o, r, S);
        BOOST_CHECK_MESSAGE(b.edges[n] == 1, "layer " << n << ": expected one edge, got " << b.edges[n]);
        if (n > 0) BOOST_CHECK_MESSAGE(S >= b.state[n - 1], "S* falls from layer " << n - 1 << " to " << n << ": "
                                                           << all_digits(b.state[n - 1]) << ", " << all_digits(S));
        if (n >= main_layers || std::isnan(tree[n])) continue;  // the start-up's, or beyond the tree's nodes
        ++compared;
        if (n < main_layers - 1) largest_before_last = std::max(largest_before_last, std::fabs(S - tree[n]));
        if (n % 8 == 0 || n == main_layers - 1)
            BOOST_TEST_MESSAGE("t_" << n << " = " << b.t[n] << ": S* " << all_digits(S) << ", tree "
                                    << all_digits(tree[n]) << ", error " << scientific(std::fabs(S - tree[n]))
                                    << ", dS " << dS);
        BOOST_CHECK_MESSAGE(std::fabs(S - tree[n]) <= dS / 4, "layer " << n << ": expected " << all_digits(tree[n])
                                                                       << ", got " << all_digits(S) << ", error "
                                                                       << std::fabs(S - tree[n]) << " > dS/4 = "
                                                                       << dS / 4);
    }
    BOOST_TEST_MESSAGE("largest error over " << compared - 1 << " layers t_n, n <= N - K - 1: " << largest_before_last);
    BOOST_CHECK_MESSAGE(compared >= main_layers - 4, "only " << compared << " layers within the tree's nodes");
}

BOOST_AUTO_TEST_CASE(put_boundary_near_expiry) {
    BOOST_TEST_MESSAGE("am-put, sigma = 0.2, Ky = Kz = 1 (no start-up), N = 32..256 (omp): S* at t_{N-1} = T - dt "
                       "within half a grid spacing dS of the Bermudan put's there, where the European put over dt "
                       "equals K - S (the kink of the payoff lies a cell or two away: sigma K sqrt(dt) against dS = "
                       "sigma S sqrt(dt)); its distance to the limit S*(T-) = min(K, r K / delta) falls as N doubles: "
                       "to K without dividends, to r K / delta = 19.52 with delta = 0.1");
    for (double delta : {0.0, 0.1}) {
        Option o = ju_put(0.2);
        o.delta = delta;
        const double limit = delta > 0 ? std::min(o.K, o.r * o.K / delta) : o.K;
        double previous = std::numeric_limits<double>::infinity();
        for (int N : {32, 64, 128, 256}) {
            const SolveResult r = solve_option("am-put", o, 1, 1, N);
            BOOST_REQUIRE(r.has_exercise_boundary && r.exercise_boundary.state.size() == std::size_t(N));
            const double S = r.exercise_boundary.state[N - 1], dS = spot_spacing(o, r, S);
            const double bermudan = last_date_boundary(o, o.T / N), distance = std::fabs(S - limit);
            const std::string at = "delta " + format_number(delta, "%g") + ", N = " + std::to_string(N);
            BOOST_TEST_MESSAGE(at << ": S*(T - dt) " << all_digits(S) << ", Bermudan " << all_digits(bermudan)
                                  << " (error " << scientific(std::fabs(S - bermudan)) << ", dS " << dS
                                  << "); limit " << limit << ", distance " << distance);
            BOOST_CHECK_MESSAGE(std::fabs(S - bermudan) <= dS / 2, at << ": expected " << all_digits(bermudan)
                                                                      << ", got " << all_digits(S) << " (dS/2 = "
                                                                      << dS / 2 << ")");
            BOOST_CHECK_MESSAGE(distance < previous, at << ": the distance to the limit " << distance
                                                        << " did not fall from " << previous);
            previous = distance;
        }
    }
}

BOOST_AUTO_TEST_CASE(boundary_is_empty_without_exercise) {
    BOOST_TEST_MESSAGE("am-call without dividends (never exercised early), sigma = 0.3, N = 32: every layer without an "
                       "edge (NaN); bs-put, without an obstacle, records no boundary");
    const Option o{1.0, spot, strike, rate, 0.0, 0.3, maturity};
    const SolveResult call = solve_option("am-call", o, reflected_Ky, reflected_Kz, 32);
    BOOST_REQUIRE(call.has_exercise_boundary);
    const ExerciseBoundary& b = call.exercise_boundary;
    BOOST_REQUIRE_EQUAL(b.w.size(), std::size_t(32));
    for (std::size_t n = 0; n < b.w.size(); ++n)
        BOOST_CHECK_MESSAGE(b.edges[n] == 0 && std::isnan(b.w[n]) && std::isnan(b.state[n]),
                            "layer " << n << ": expected no edge, got " << b.edges[n] << " at w* " << b.w[n]);
    const SolveResult put = solve_option("bs-put", ju_put(0.2), 2, 2, 32);
    BOOST_CHECK(!put.has_exercise_boundary && put.exercise_boundary.t.empty());
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
