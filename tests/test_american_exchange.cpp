// The American exchange option (am-exchange; problems/american_option.h), a reflected BSDE in 2D, against the 1D
// American call it reduces to (Bjerksund and Stensland 1993): with asset 2 as numeraire V(S1, S2, t) = S2 C(S1 / S2, t),
// C the American call on P = S1 / S2 with strike 1, interest rate delta2, dividend yield delta1 and volatility
// sigma~ = sqrt(s1^2 + s2^2 - 2 rho s1 s2), priced by the tree of american_tree.h; Margrabe's formula with dividend
// yields checks the tree where early exercise is never optimal (delta1 = 0) and the European exchange option (ex5).
//
// Sizes: am-exchange with Ky = Kz = 1 (dx = sqrt(dt): M = 40, 58, 80 at N = 16, 32, 64), ex5 with K = 2 at N = 8;
// L = 8, R = 5 (the price's weight needs R >= 3.97), on omp; the solves shared by the cases are made once.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "../problems/american_option.h"
#include "american_tree.h"
#include "cli_support.h"
#include "test_support.h"

using namespace bsde;
using namespace bsde::test;

namespace {

struct Exchange {
    double S1, S2, delta1, delta2, sigma1, sigma2, rho, T;
};

// am-exchange's defaults: ex5's assets, asset 1 paying 10 % a year.
constexpr Exchange default_exchange{100.0, 100.0, 0.1, 0.0, 0.25, 0.3, 0.0, 1.0};

double sigma_tilde(const Exchange& e) {
    return std::sqrt(e.sigma1 * e.sigma1 + e.sigma2 * e.sigma2 - 2.0 * e.rho * e.sigma1 * e.sigma2);
}

// The call C of the reduction: on P = S1 / S2, strike 1, interest rate delta2, dividend yield delta1, volatility sigma~.
Option reduced_call(const Exchange& e) { return {1.0, e.S1 / e.S2, 1.0, e.delta2, e.delta1, sigma_tilde(e), e.T}; }

// S2 C(S1 / S2, 0) by the tree, exercisable at every `every`-th of n steps (american_tree.h).
double tree_exchange(const Exchange& e, int n = tree_steps, int every = 1) {
    return e.S2 * tree_price(reduced_call(e), n, every);
}

// The American price S2 C(S1 / S2, 0): the tree of 2500, 5000 and 10000 steps, extrapolated twice.
constexpr int american_tree_steps = 2500;
double american_exchange_price(const Exchange& e, int n = american_tree_steps) {
    return e.S2 * twice_extrapolated_tree(reduced_call(e), n);
}

// Margrabe's price with dividend yields: S1 e^(-delta1 T) N(d_1) - S2 e^(-delta2 T) N(d_2),
// d_{1,2} = (ln(S1 / S2) + (delta2 - delta1 +- sigma~^2 / 2) T) / (sigma~ sqrt(T)).
double margrabe(const Exchange& e) {
    const double s = sigma_tilde(e), root = s * std::sqrt(e.T);
    const double d1 = (std::log(e.S1 / e.S2) + (e.delta2 - e.delta1 + 0.5 * s * s) * e.T) / root, d2 = d1 - root;
    return e.S1 * std::exp(-e.delta1 * e.T) * normal_cdf(d1) - e.S2 * std::exp(-e.delta2 * e.T) * normal_cdf(d2);
}

ProblemParameters parameters_of(const Exchange& e) {
    return {{"S1", e.S1},         {"S2", e.S2},         {"delta1", e.delta1}, {"delta2", e.delta2},
            {"sigma1", e.sigma1}, {"sigma2", e.sigma2}, {"rho", e.rho}};
}

// Ky = Kz = K, N, L = 8, R = 5 for the exchange option e.
SchemeSettings exchange_settings(const Exchange& e, int K, int N) {
    SchemeSettings s = settings(K, N, 8, 5.0, e.T);
    s.problem_parameters = parameters_of(e);
    return s;
}

// The reflected scheme's orders (scheme.md, "Reflected BSDEs"): Ky = 1 exercises at every step; Kz = 1 needs no
// start-up, whose fine steps would exercise at dates of their own, and its grid is the coarsest.
constexpr int reflected_K = 1;

// am-exchange (or ex5) at the default parameters, by the separable 2D pass or the fused one; made once.
const SolveResult& solved(const std::string& problem, int K, int N, bool separable = true) {
    static std::map<std::tuple<std::string, int, int, bool>, SolveResult> results;
    const auto key = std::make_tuple(problem, K, N, separable);
    const auto found = results.find(key);
    if (found != results.end()) return found->second;
    SchemeSettings s = exchange_settings(default_exchange, K, N);
    s.separable_pass = separable;
    return results[key] = backend_ops(Backend::omp).solve(problem, s);
}

// The largest h - y over the grid, h = (S1(0, w) - S2(0, w))^+ with S_k(0, w) = S_k0 e^((A w)_k) (ex5's state map).
double largest_shortfall(const SolveResult& r, const Exchange& e) {
    const std::size_t points = r.y.size();
    const double a21 = e.rho * e.sigma2, a22 = e.sigma2 * std::sqrt(1.0 - e.rho * e.rho);
    double worst = -INFINITY;
    for (std::size_t i = 0; i < points; ++i) {
        const double w1 = r.w[i], w2 = r.w[points + i];
        const double h = std::max(e.S1 * std::exp(e.sigma1 * w1) - e.S2 * std::exp(a21 * w1 + a22 * w2), 0.0);
        worst = std::max(worst, h - r.y[i]);
    }
    return worst;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(american_exchange)

BOOST_AUTO_TEST_CASE(reduced_tree_is_margrabes_price_without_early_exercise) {
    BOOST_TEST_MESSAGE("the reduction's tree (S2 C(S1 / S2), C the American call on P = S1 / S2) at delta1 = 0, where "
                       "early exercise is never optimal, within 1e-6 of Margrabe's price with dividend yields (delta2 = "
                       "0, 0.05; rho = 0, 0.5; S1 = 90, 100); at am-exchange's defaults (delta1 = 0.1) above it by more "
                       "than 1, and (extrapolated twice: 2500, 5000, 10000 steps) within 2e-5 of itself at half the steps; ex5's closed form with dividends at w = 0 equal to the formula written here (1e-14)");
    for (const double delta2 : {0.0, 0.05})
        for (const double rho : {0.0, 0.5})
            for (const double S1 : {90.0, 100.0}) {
                Exchange e = default_exchange;
                e.delta1 = 0.0;
                e.delta2 = delta2;
                e.rho = rho;
                e.S1 = S1;
                const double tree = tree_exchange(e), closed = margrabe(e);
                const std::string at = "delta2 " + std::to_string(delta2) + ", rho " + std::to_string(rho) + ", S1 " +
                                       std::to_string(S1);
                BOOST_TEST_MESSAGE(at << ": tree " << all_digits(tree) << ", Margrabe " << all_digits(closed));
                check_close(at + ": tree against Margrabe", closed, tree, 1e-6, closed);
            }
    const double american = american_exchange_price(default_exchange), european = margrabe(default_exchange);
    const double coarser = american_exchange_price(default_exchange, american_tree_steps / 2);
    BOOST_TEST_MESSAGE("defaults: American (tree) " << all_digits(american) << ", at half the steps "
                                                    << all_digits(coarser) << ", once extrapolated "
                                                    << all_digits(tree_exchange(default_exchange)) << "; European "
                                                    << all_digits(european));
    BOOST_CHECK_MESSAGE(american > european + 1.0, "early exercise worth " << american - european << ", expected > 1");
    check_close("defaults: the tree at n = 1250, 2500, 5000 against 2500, 5000, 10000", american, coarser, 2e-5);
    for (const Exchange& e : {default_exchange, Exchange{120.0, 90.0, 0.03, 0.07, 0.2, 0.4, -0.3, 0.5}}) {
        const exchange_option ex5(e.T, parameters_of(e));
        check_close("ex5's exact_y(0, 0)", margrabe(e), ex5.exact_y(0.0, Vec2{{0.0, 0.0}}), 1e-14, margrabe(e));
    }
}

BOOST_AUTO_TEST_CASE(european_exchange_with_dividends_matches_margrabe) {
    BOOST_TEST_MESSAGE("ex5 with delta1 = 0.1 (am-exchange's defaults), K = 2, N = 8, L = 8, R = 5 (omp): y_0 within "
                       "2e-3 of Margrabe's price written here, with the default drifts (r - delta_k) and with mu1 = "
                       "0.1, mu2 = 0.02, whose driver's z term is A^-1 (mu - r + delta) = (0.6, 0.0667) (without delta "
                       "in it the scheme prices as if asset 1 paid no dividends: 15.48)");
    const double expected = margrabe(default_exchange);
    SchemeSettings drifts = exchange_settings(default_exchange, 2, 8);
    drifts.problem_parameters["mu1"] = 0.1;
    drifts.problem_parameters["mu2"] = 0.02;
    const std::vector<std::pair<std::string, double>> runs{
        {"default drifts", solved("ex5", 2, 8).y0}, {"mu1 0.1, mu2 0.02", backend_ops(Backend::omp).solve("ex5", drifts).y0}};
    for (const auto& [what, y0] : runs) {
        BOOST_TEST_MESSAGE(what << ": y_0 " << all_digits(y0) << ", Margrabe " << all_digits(expected) << " (error "
                                << scientific(std::fabs(y0 - expected)) << ")");
        check_close(what + ": ex5 with dividends against Margrabe", expected, y0, 2e-3);
    }
}

BOOST_AUTO_TEST_CASE(price_converges_to_the_reduced_tree) {
    BOOST_TEST_MESSAGE("am-exchange at its defaults, Ky = Kz = 1, N = 16, 32, 64 (omp): y_0's error against the "
                       "American tree falls at order >= 0.9 pair by pair (the Bermudan option's N exercise dates: "
                       "O(1/N)); y_0 within 0.045 / N of the Bermudan tree at the scheme's N dates; N = 32 and 64 "
                       "Richardson-extrapolated within 5e-4 of the American tree (y_0 alone at N = 64: 1.9e-2)");
    const double american = american_exchange_price(default_exchange);
    std::vector<double> prices, errors;
    for (const int N : {16, 32, 64}) {
        const SolveResult& r = solved("am-exchange", reflected_K, N);
        const double bermudan = tree_exchange(default_exchange, 100 * N, 100);
        prices.push_back(r.y0);
        errors.push_back(std::fabs(r.y0 - american));
        BOOST_TEST_MESSAGE("N = " << N << " (M = " << r.M << "): y_0 " << all_digits(r.y0) << ", American error "
                                  << scientific(errors.back()) << "; Bermudan tree " << all_digits(bermudan)
                                  << ", error " << scientific(std::fabs(r.y0 - bermudan)));
        check_close("N = " + std::to_string(N) + ": y_0 against the Bermudan tree", bermudan, r.y0, 0.045 / N);
    }
    for (std::size_t k = 1; k < errors.size(); ++k) {
        const double order = observed_order(errors[k - 1], errors[k]);
        BOOST_TEST_MESSAGE("order " << order);
        BOOST_CHECK_MESSAGE(order >= 0.9, "order from N = " << (8 << k) << " to " << (16 << k)
                                                            << " expected >= 0.9, got " << order);
    }
    const double extrapolated = 2.0 * prices[2] - prices[1];
    BOOST_TEST_MESSAGE("Richardson of N = 32 and 64: " << all_digits(extrapolated) << ", American tree "
                                                       << all_digits(american) << ", error "
                                                       << scientific(std::fabs(extrapolated - american)));
    check_close("extrapolated y_0 against the American tree", american, extrapolated, 5e-4);
}

BOOST_AUTO_TEST_CASE(obstacle_holds_on_both_2d_passes) {
    BOOST_TEST_MESSAGE("am-exchange, Ky = Kz = 1, N = 16: y_0(w) >= (S1(0, w) - S2(0, w))^+ at every grid point by "
                       "the separable pass and by the fused one (separable_pass off), which agree to 1e-12; ex5 with "
                       "the same dividends falls below that payoff somewhere");
    const SolveResult& separable = solved("am-exchange", reflected_K, 16, true);
    const SolveResult& fused = solved("am-exchange", reflected_K, 16, false);
    const SolveResult& european = solved("ex5", 2, 8);
    BOOST_REQUIRE(separable.separable_layers > 0 && fused.separable_layers == 0);
    const double separable_worst = largest_shortfall(separable, default_exchange);
    const double fused_worst = largest_shortfall(fused, default_exchange);
    const double european_worst = largest_shortfall(european, default_exchange);
    BOOST_TEST_MESSAGE("largest h - y: separable " << scientific(separable_worst) << ", fused "
                                                   << scientific(fused_worst) << ", ex5 " << scientific(european_worst));
    BOOST_CHECK_MESSAGE(separable_worst <= 0.0, "separable pass: below the obstacle by " << scientific(separable_worst));
    BOOST_CHECK_MESSAGE(fused_worst <= 0.0, "fused pass: below the obstacle by " << scientific(fused_worst));
    BOOST_CHECK_MESSAGE(european_worst > 1.0, "ex5 expected below the payoff somewhere, by " << european_worst);
    check_same_values("separable against fused y", fused.y, separable.y, 1e-12);
}

BOOST_AUTO_TEST_CASE(dividend_yields_are_checked) {
    BOOST_TEST_MESSAGE("am-exchange and ex5: a dividend yield outside [0, 1] or not a number exits 2 with one line");
    for (const std::string problem : {"am-exchange", "ex5"}) {
        check_bad_input({{"solve", "--problem", problem, "--delta1", "-0.01", "--backend", "serial"}, 2,
                         "--delta1 -0.01: must lie in [0, 1] (a dividend yield a year"});
        check_bad_input({{"solve", "--problem", problem, "--delta2", "1.5", "--backend", "serial"}, 2,
                         "--delta2 1.5: must lie in [0, 1]"});
        check_bad_input({{"solve", "--problem", problem, "--delta2", "nan", "--backend", "serial"}, 2,
                         "--delta2 'nan': a finite number expected"});
    }
}

BOOST_AUTO_TEST_SUITE_END()
