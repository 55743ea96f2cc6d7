// The nonlinear benchmarks of E, Han, Jentzen (2017) in d = 1 and 2: Allen-Cahn (a travelling front) and HJB (Cole-Hopf)
// against their closed forms, the PDE u_t + 1/2 Laplacian_w u + f = 0 by finite differences of exact_y (which checks the
// drivers' signs and scalings independently of the formulas), HJB's quadrature against an independent one, the
// scheme's orders; and Bergman's differential rates (no closed form): Black-Scholes where the rates agree, and
// convergence across N.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../algorithms/scheme/expectation_rules.h"
#include "../problems/allen_cahn_bsde.h"
#include "../problems/bergman_option.h"
#include "../problems/hjb_bsde.h"
#include "../problems/registry.h"
#include "cli_support.h"
#include "test_support.h"

using namespace bsde;
using namespace bsde::test;

namespace {

template <int d>
std::string at(double t, Point<d> w) {
    std::string s = "t = " + std::to_string(t) + ", w = (";
    for (int k = 0; k < d; ++k) s += (k ? ", " : "") + std::to_string(component(w, k));
    return s + ")";
}

template <int d>
Point<d> shifted(Point<d> w, int k, double h) {
    component(w, k) += h;
    return w;
}

// z against fourth-order central differences of exact_y (h = 1e-3), relative to max(1, |z|).
template <class Problem>
void check_z_is_the_gradient(const Problem& problem, double t, Point<Problem::dimension> w, const std::string& label) {
    constexpr int d = Problem::dimension;
    const double h = 1e-3;
    const auto z = problem.exact_z(t, w);
    for (int k = 0; k < d; ++k) {
        auto y = [&](double e) { return problem.exact_y(t, shifted<d>(w, k, e)); };
        const double difference = (-y(2 * h) + 8 * y(h) - 8 * y(-h) + y(-2 * h)) / (12 * h);
        check_close(label + ": z_" + std::to_string(k + 1) + " at " + at<d>(t, w), difference, component(z, k), 1e-9,
                    std::max(1.0, std::fabs(component(z, k))));
    }
}

// The residual of u_t + 1/2 Laplacian_w u + f(t, w, u, grad u) with fourth-order central differences (h = 1e-3:
// truncation ~h^4, round-off ~1e-16 |u| / h^2), relative to the largest of its terms.
template <class Problem>
void check_pde(const Problem& problem, double t, Point<Problem::dimension> w, const std::string& label) {
    constexpr int d = Problem::dimension;
    const double h = 1e-3;
    auto first = [&](auto&& g) { return (-g(2 * h) + 8 * g(h) - 8 * g(-h) + g(-2 * h)) / (12 * h); };
    auto second = [&](auto&& g) { return (-g(2 * h) + 16 * g(h) - 30 * g(0.0) + 16 * g(-h) - g(-2 * h)) / (12 * h * h); };
    const double u_t = first([&](double e) { return problem.exact_y(t + e, w); });
    double laplacian = 0.0;
    for (int k = 0; k < d; ++k) laplacian += second([&](double e) { return problem.exact_y(t, shifted<d>(w, k, e)); });
    const double y = problem.exact_y(t, w);
    const double f = problem.driver(t, w, y, problem.exact_z(t, w));
    const double residual = u_t + 0.5 * laplacian + f;
    const double scale = std::max({std::fabs(u_t), 0.5 * std::fabs(laplacian), std::fabs(f), 1e-3});
    check_close(label + ": PDE residual / scale at " + at<d>(t, w), 0.0, residual / scale, 1e-6);
}

const std::vector<double> times{0.0, 0.3, 0.8};
const std::vector<double> points_1d{0.0, 0.7, -1.3, 2.1, -4.5};
const std::vector<Vec2> points_2d{Vec2{{0.0, 0.0}}, Vec2{{0.7, -0.4}}, Vec2{{-1.3, 0.9}}, Vec2{{2.1, 1.6}},
                                  Vec2{{-3.5, 2.5}}};

// Errors of y_0 and z_0 at N = first, 2 first, 4 first and their mean orders >= min(K, 3) - 0.3 (omp, the multistep
// start-up, the problem's defaults).
void check_mean_orders(const std::string& problem, int K, int first) {
    for (auto [error, variable] : {std::make_pair(y_error, "y"), std::make_pair(z_error, "z")}) {
        const std::vector<double> e = errors_at(first, problem, K, K, 0, error);
        const double mean_order = observed_order(e[0], e[2]) / 2, expected = std::min(K, 3) - 0.3;
        BOOST_TEST_MESSAGE(problem << " K = " << K << ": " << variable << " errors " << scientific(e[0]) << ", "
                                   << scientific(e[1]) << ", " << scientific(e[2]) << " at N = " << first << ".."
                                   << 4 * first << ", mean order " << mean_order);
        BOOST_CHECK_MESSAGE(mean_order >= expected, problem << " K = " << K << ": mean order of " << variable
                                                            << " expected >= " << expected << ", got " << mean_order
                                                            << " (errors " << scientific(e[0]) << ", "
                                                            << scientific(e[1]) << ", " << scientific(e[2]) << ")");
    }
}

// E[e^(-lambda g(sqrt(2) (w + sqrt(tau) xi)))], xi ~ N(0, I_d), by composite 16-point Gauss-Legendre in each xi_k over
// [-10, 10] (panels of 1/4: the integrand's poles lie 1 / sqrt(2 tau) >= 0.7 off the real axis), independent of
// hjb_bsde's Gamma-integral sum; d = 2 as a tensor product.
std::vector<std::pair<double, double>> normal_rule() {
    std::vector<std::pair<double, double>> rule;
    const double a = -10.0, width = 0.25;
    for (int panel = 0; panel < 80; ++panel)
        for (int q = 0; q < GaussLegendre16::points; ++q) {
            const double xi = a + width * (panel + 0.5 * (1.0 + GaussLegendre16::node(q)));
            rule.emplace_back(xi, 0.5 * width * GaussLegendre16::weight(q) * std::exp(-0.5 * xi * xi) /
                                      std::sqrt(2.0 * 3.14159265358979323846));
        }
    return rule;
}

double hjb_y_by_gauss_legendre(double lambda, double tau, const std::vector<double>& w) {
    static const std::vector<std::pair<double, double>> rule = normal_rule();
    const auto e = [&](double q) { return std::pow(2.0 / (1.0 + 2.0 * q), lambda); };  // e^(-lambda g), q = |.|^2
    double sum = 0.0;
    if (w.size() == 1) {
        for (auto [xi, weight] : rule) sum += weight * e(std::pow(w[0] + std::sqrt(tau) * xi, 2));
    } else {
        for (auto [xi1, weight1] : rule)
            for (auto [xi2, weight2] : rule)
                sum += weight1 * weight2 *
                       e(std::pow(w[0] + std::sqrt(tau) * xi1, 2) + std::pow(w[1] + std::sqrt(tau) * xi2, 2));
    }
    return -std::log(sum) / lambda;
}

// The Black-Scholes call without dividends at rate r: S N(d_1) - K e^(-r tau) N(d_2), and its delta N(d_1).
struct Call {
    double price, delta;
};
Call black_scholes_call_price(double S, double strike, double r, double sigma, double tau) {
    const auto N = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
    const double d1 = (std::log(S / strike) + (r + 0.5 * sigma * sigma) * tau) / (sigma * std::sqrt(tau));
    const double d2 = d1 - sigma * std::sqrt(tau);
    return {S * N(d1) - strike * std::exp(-r * tau) * N(d2), N(d1)};
}

// K, N and the problem's defaults T, R and L (registry), on omp with the multistep start-up.
SolveResult solve_at_defaults(const std::string& problem, int K, int N, const ProblemParameters& parameters = {}) {
    const auto& infos = problem_infos();
    const auto found = std::find_if(infos.begin(), infos.end(), [&](const ProblemInfo& info) {
        return problem == info.name || problem == info.alias;
    });
    BOOST_REQUIRE_MESSAGE(found != infos.end(), "no problem " << problem);
    const ProblemInfo& info = *found;
    SchemeSettings s = settings(K, N, info.default_L, info.default_R, info.default_T);
    s.problem_parameters = parameters;
    return backend_ops(Backend::omp).solve(problem, s);
}

SolveResult solve_bergman(int K, int N, const ProblemParameters& parameters) {
    return solve_at_defaults("bergman", K, N, parameters);
}

// The integral of f over [a, b] by composite 16-point Gauss-Legendre on `panels` equal panels.
template <class Function>
double composite_gauss_legendre(Function f, double a, double b, int panels) {
    const double width = (b - a) / panels;
    double sum = 0.0;
    for (int panel = 0; panel < panels; ++panel)
        for (int q = 0; q < GaussLegendre16::points; ++q)
            sum += 0.5 * width * GaussLegendre16::weight(q) *
                   f(a + width * (panel + 0.5 * (1.0 + GaussLegendre16::node(q))));
    return sum;
}

// bergman-2d's price at R_b = R_l = r, E[e^(-r T) g(M_T)] with M = max(S^1, S^2) under the pricing measure
// (S^k_T = S_k0 exp((r - s_k^2 / 2) T + s_k sqrt(T) xi_k), corr(xi_1, xi_2) = rho), independent of the problem's header:
// g(0) = 0 and g' = 1 on (strike1, strike2), -1 above, so E[g(M)] = int_strike1^strike2 P(M > s) ds -
// int_strike2^inf P(M > s) ds, with
//   P(M <= s) = P(xi_1 <= d_1(s), xi_2 <= d_2(s)) = int_-inf^d_1 phi(x) Phi((d_2 - rho x) / sqrt(1 - rho^2)) dx,
//   d_k(s) = (ln(s / S_k0) - (r - s_k^2 / 2) T) / (s_k sqrt(T)).
// Both integrands are analytic: composite 16-point Gauss-Legendre in u = ln s (P(M > s) s du), up to ln max S_k0 + r T +
// 12 max s_k sqrt(T) (P(M > s) below 1e-32 beyond), and in x from -12 (phi below 1e-31 before). `panels` sets the
// rule's panels (the test doubles it to show the digits).
struct MaxCallSpread {
    double S1 = 100, S2 = 100, sigma1 = 0.2, sigma2 = 0.2, rho = 0, r = 0.04, T = 0.5, strike1 = 120, strike2 = 150;
    double price(int panels = 20) const {
        const auto Phi = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
        const auto d = [&](double s, double S0, double sigma) {
            return (std::log(s / S0) - (r - 0.5 * sigma * sigma) * T) / (sigma * std::sqrt(T));
        };
        const auto below = [&](double s) {  // P(M <= s)
            const double d1 = d(s, S1, sigma1), d2 = d(s, S2, sigma2);
            if (d1 <= -12.0) return 0.0;
            return composite_gauss_legendre(
                [&](double x) {
                    return std::exp(-0.5 * x * x) / std::sqrt(2.0 * 3.14159265358979323846) *
                           Phi((d2 - rho * x) / std::sqrt(1.0 - rho * rho));
                },
                -12.0, d1, panels);
        };
        const auto above = [&](double u) { return (1.0 - below(std::exp(u))) * std::exp(u); };
        const double top = std::log(std::max(S1, S2)) + r * T + 12.0 * std::max(sigma1, sigma2) * std::sqrt(T);
        return std::exp(-r * T) * (composite_gauss_legendre(above, std::log(strike1), std::log(strike2), panels) -
                                   composite_gauss_legendre(above, std::log(strike2), top, 4 * panels));
    }
};

SolveResult solve_bergman_2d(int K, int N, const ProblemParameters& parameters) {
    return solve_at_defaults("bergman-2d", K, N, parameters);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(nonlinear_benchmarks)

BOOST_AUTO_TEST_CASE(allen_cahn_front_solves_its_pde) {
    BOOST_TEST_MESSAGE("Allen-Cahn, f = y - y^3: y = 1/(1 + e^(3t/2 - a.w)) solves u_t + 1/2 Laplacian u + f = 0 "
                       "(finite differences), z = grad_w y; y(0, 0) = 1/2, z(0, 0) = a / 4");
    const allen_cahn_1d one(1.0, {});
    const allen_cahn_2d two(1.0, {});
    check_close("1D y(0, 0)", 0.5, one.exact_y(0.0, 0.0), 1e-15);
    check_close("1D z(0, 0)", 0.25, one.exact_z(0.0, 0.0), 1e-15);
    check_close("2D z_1(0, 0)", 0.25 / std::sqrt(2.0), two.exact_z(0.0, Vec2{{0.0, 0.0}})[0], 1e-15);
    for (double t : times) {
        for (double w : points_1d) {
            check_pde(one, t, w, "allen-cahn-1d");
            check_z_is_the_gradient(one, t, w, "allen-cahn-1d");
        }
        for (const Vec2& w : points_2d) {
            check_pde(two, t, w, "allen-cahn-2d");
            check_z_is_the_gradient(two, t, w, "allen-cahn-2d");
        }
    }
}

BOOST_AUTO_TEST_CASE(allen_cahn_1d_converges) {
    BOOST_TEST_MESSAGE("allen-cahn-1d, the paper's grid: y and z mean orders >= min(K, 3) - 0.3, K = 2 over N = 128, 256, "
                       "512 (its y error, the spline's dt^2 on that grid, reaches its order only there: 1.67 over 32..128 "
                       "with the exact start-up too), K = 3 over N = 32, 64, 128");
    check_mean_orders("ac1", 2, 128);
    check_mean_orders("ac1", 3, 32);
}

// One pair of N in 2D: K = 3's N = 16 alone takes some 15 s on one core.
static void check_pair_order(const std::string& problem, int K, int N, double (*error)(const SolveResult&),
                      const std::string& variable, double expected) {
    const double coarse = error(solve_at_defaults(problem, K, N)), fine = error(solve_at_defaults(problem, K, 2 * N));
    const double order = observed_order(coarse, fine);
    BOOST_TEST_MESSAGE(problem << " K = " << K << ": " << variable << " errors " << scientific(coarse) << ", "
                               << scientific(fine) << " at N = " << N << ", " << 2 * N << ", order " << order);
    BOOST_CHECK_MESSAGE(order >= expected, problem << " K = " << K << ": order of " << variable << " expected >= "
                                                   << expected << ", got " << order << " (errors " << scientific(coarse)
                                                   << ", " << scientific(fine) << ")");
}

BOOST_AUTO_TEST_CASE(allen_cahn_2d_converges) {
    BOOST_TEST_MESSAGE("allen-cahn-2d, K = 2, N = 8, 16, L = 8, R = 8: y and z orders >= 2 - 0.3");
    check_pair_order("ac2", 2, 8, y_error, "y", 1.7);
    check_pair_order("ac2", 2, 8, z_error, "z", 1.7);
}

BOOST_AUTO_TEST_CASE(hjb_exact_against_gauss_legendre) {
    BOOST_TEST_MESSAGE("HJB: exact_y (trapezoidal sum of the Gamma integral in log s) against composite Gauss-Legendre "
                       "of E[e^(-lambda g)] in xi, to 1e-12 (2D: 1e-11, the sum of 1.6e6 terms); lambda = 0.5, 1, 3");
    for (double lambda : {0.5, 1.0, 3.0}) {
        const hjb_1d one(1.0, {{"lambda", lambda}});
        const hjb_2d two(1.0, {{"lambda", lambda}});
        const std::string label = "lambda = " + std::to_string(lambda) + ", ";
        for (double t : {0.0, 0.5, 0.99}) {
            for (double w : points_1d)
                check_close(label + at<1>(t, w), hjb_y_by_gauss_legendre(lambda, 1.0 - t, {w}), one.exact_y(t, w), 1e-12,
                            std::max(1.0, std::fabs(one.exact_y(t, w))));
            for (const Vec2& w : {points_2d[1], points_2d[4]})
                check_close(label + at<2>(t, w), hjb_y_by_gauss_legendre(lambda, 1.0 - t, {w[0], w[1]}),
                            two.exact_y(t, w), 1e-11, std::max(1.0, std::fabs(two.exact_y(t, w))));
        }
    }
}

BOOST_AUTO_TEST_CASE(hjb_solves_its_pde) {
    BOOST_TEST_MESSAGE("HJB in w = x / sqrt(2): y solves u_t + 1/2 Laplacian_w u - lambda/2 |grad_w u|^2 = 0 (finite "
                       "differences), z = grad_w y, y(T) = ln(1/2 + |w|^2); lambda = 1, 2.5");
    for (double lambda : {1.0, 2.5}) {
        const hjb_1d one(1.0, {{"lambda", lambda}});
        const hjb_2d two(1.0, {{"lambda", lambda}});
        const std::string label = "lambda = " + std::to_string(lambda);
        for (double t : times) {
            for (double w : points_1d) {
                check_pde(one, t, w, "hjb-1d " + label);
                check_z_is_the_gradient(one, t, w, "hjb-1d " + label);
            }
            for (const Vec2& w : points_2d) {
                check_pde(two, t, w, "hjb-2d " + label);
                check_z_is_the_gradient(two, t, w, "hjb-2d " + label);
            }
        }
        for (double w : points_1d)
            check_close("terminal_y at w = " + std::to_string(w), std::log((1.0 + 2.0 * w * w) / 2.0), one.terminal_y(w),
                        1e-15, std::max(1.0, std::fabs(one.terminal_y(w))));
    }
}

BOOST_AUTO_TEST_CASE(hjb_1d_converges) {
    BOOST_TEST_MESSAGE("hjb-1d, K = 2, 3, N = 32, 64, 128, the paper's grid: y mean order >= min(K, 3) - 0.5 (z_0 = 0 "
                       "by symmetry); K = 3 is still below its order there (y errors 2.6e-5, 4.7e-6, 7.1e-7: 2.4, 2.7)");
    for (int K : {2, 3}) {
        const std::vector<double> e = errors_at(32, "hjb1", K, K, 0, y_error);
        const double mean_order = observed_order(e[0], e[2]) / 2;
        BOOST_TEST_MESSAGE("hjb1 K = " << K << ": y errors " << scientific(e[0]) << ", " << scientific(e[1]) << ", "
                                       << scientific(e[2]) << ", mean order " << mean_order);
        BOOST_CHECK_MESSAGE(mean_order >= std::min(K, 3) - 0.5, "hjb1 K = " << K << ": mean order of y expected >= "
                                                                            << std::min(K, 3) - 0.5 << ", got "
                                                                            << mean_order);
    }
}

BOOST_AUTO_TEST_CASE(hjb_2d_error_falls) {
    BOOST_TEST_MESSAGE("hjb-2d, K = 2, N = 8, 16, L = 8, R = 8: the y error falls (order >= 1; at these N it is 1.4, "
                       "not yet K's)");
    check_pair_order("hjb2", 2, 8, y_error, "y", 1.0);
}

BOOST_AUTO_TEST_CASE(bergman_equal_rates_is_black_scholes) {
    BOOST_TEST_MESSAGE("bergman with Rb = Rl = 0.04 at the defaults (S0 = 100, strikes 120 and 150, sigma = 0.2, T = 0.5): "
                       "y_0 = C(120) - 2 C(150), z_0 = sigma S0 (N(d_1(120)) - 2 N(d_1(150))), Black-Scholes calls at rate "
                       "0.04. K = 3, N = 32: y_0 to 1e-8, z_0 to 1e-6 (measured 7.1e-10, 1.1e-7; with one of the two "
                       "kinks smoothed 9e-4). K = 2, 3, N = 16 -> 128: the mean orders of y and z >= min(K, 3) - 0.5 "
                       "(measured y 2.4, 3.0, z 2.0, 3.0)");
    const double S0 = 100, r = 0.04, sigma = 0.2, T = 0.5;
    const Call low = black_scholes_call_price(S0, 120.0, r, sigma, T);
    const Call high = black_scholes_call_price(S0, 150.0, r, sigma, T);
    const double exact_y = low.price - 2 * high.price, exact_z = sigma * S0 * (low.delta - 2 * high.delta);
    const ProblemParameters equal_rates{{"Rb", 0.04}};
    const SolveResult result = solve_bergman(3, 32, equal_rates);
    BOOST_TEST_MESSAGE("K = 3, N = 32: y_0 expected " << all_digits(exact_y) << ", got " << all_digits(result.y0)
                                                      << ", error " << scientific(std::fabs(result.y0 - exact_y))
                                                      << "; z_0 expected " << all_digits(exact_z) << ", got "
                                                      << all_digits(result.z0[0]) << ", error "
                                                      << scientific(std::fabs(result.z0[0] - exact_z)));
    check_close("K = 3, N = 32: y_0", exact_y, result.y0, 1e-8, std::max(1.0, exact_y));
    check_close("K = 3, N = 32: z_0", exact_z, result.z0[0], 1e-6, std::max(1.0, exact_z));
    for (int K : {2, 3}) {
        const SolveResult coarse = solve_bergman(K, 16, equal_rates), fine = solve_bergman(K, 128, equal_rates);
        const double y_order = observed_order(std::fabs(coarse.y0 - exact_y), std::fabs(fine.y0 - exact_y)) / 3;
        const double z_order = observed_order(std::fabs(coarse.z0[0] - exact_z), std::fabs(fine.z0[0] - exact_z)) / 3;
        BOOST_TEST_MESSAGE("K = " << K << ", N = 16, 128: y_0 errors " << scientific(std::fabs(coarse.y0 - exact_y))
                                  << ", " << scientific(std::fabs(fine.y0 - exact_y)) << ", mean order " << y_order
                                  << "; z_0 errors " << scientific(std::fabs(coarse.z0[0] - exact_z)) << ", "
                                  << scientific(std::fabs(fine.z0[0] - exact_z)) << ", mean order " << z_order);
        for (auto [variable, order] : {std::make_pair("y", y_order), std::make_pair("z", z_order)})
            BOOST_CHECK_MESSAGE(order >= std::min(K, 3) - 0.5, "bergman Rb = Rl, K = " << K << ": mean order of "
                                                                << variable << " expected >= " << std::min(K, 3) - 0.5
                                                                << ", got " << order);
    }
}

BOOST_AUTO_TEST_CASE(bergman_converges) {
    BOOST_TEST_MESSAGE("bergman at the defaults (Rl = 0.04, Rb = 0.06, strikes 120 and 150): the differences of y_0 and "
                       "z_0 across N = 32, 64, 128 fall at order >= 1.2 with K = 2 and 3 (f is only Lipschitz in (y, z): "
                       "measured K = 2: y 1.6, z 1.4; K = 3: y 1.4, z 1.5); y_0 lies above the "
                       "Black-Scholes prices at Rl and at Rb (f >= either's driver, since (z/sigma - y)^+ >= 0 and >= "
                       "z/sigma - y: the comparison theorem)");
    for (int K : {2, 3}) {
        std::vector<double> y, z;
        for (int N : {32, 64, 128}) {
            const SolveResult r = solve_bergman(K, N, {});
            y.push_back(r.y0);
            z.push_back(r.z0[0]);
        }
        const double y_order = observed_order(std::fabs(y[1] - y[0]), std::fabs(y[2] - y[1]));
        const double z_order = observed_order(std::fabs(z[1] - z[0]), std::fabs(z[2] - z[1]));
        BOOST_TEST_MESSAGE("bergman K = " << K << ": y_0 " << all_digits(y[0]) << ", " << all_digits(y[1]) << ", "
                                          << all_digits(y[2]) << ", order of the differences " << y_order << "; z_0 "
                                          << all_digits(z[0]) << ", " << all_digits(z[1]) << ", " << all_digits(z[2])
                                          << ", order " << z_order);
        BOOST_CHECK_MESSAGE(z_order >= 1.2, "bergman K = " << K << ": order of the differences of z_0 expected >= 1.2, "
                                                           "got " << z_order);
        BOOST_CHECK_MESSAGE(y_order >= 1.2, "bergman K = " << K << ": order of the differences of y_0 expected >= 1.2, "
                                                           "got " << y_order);
        if (K == 3) {
            const auto spread = [](double r) {
                return black_scholes_call_price(100.0, 120.0, r, 0.2, 0.5).price -
                       2 * black_scholes_call_price(100.0, 150.0, r, 0.2, 0.5).price;
            };
            BOOST_CHECK_MESSAGE(y[0] > std::max(spread(0.04), spread(0.06)),
                                "bergman K = 3, N = 32: y_0 = " << y[0] << " expected above the Black-Scholes prices "
                                                                << spread(0.04) << " (r = 0.04) and " << spread(0.06)
                                                                << " (r = 0.06)");
        }
    }
}

BOOST_AUTO_TEST_CASE(bergman_2d_reference_integral) {
    BOOST_TEST_MESSAGE("the independent price of bergman-2d at Rb = Rl = 0.04 (MaxCallSpread): 20 and 40 panels agree to "
                       "1e-13 (rho = 0, 0.5, -0.7); with S2 = 1e-6 (M = S1) it is C(120) - 2 C(150), two Black-Scholes "
                       "calls, to 1e-12");
    for (double rho : {0.0, 0.5, -0.7}) {
        MaxCallSpread spread;
        spread.rho = rho;
        const double coarse = spread.price(20), fine = spread.price(40);
        BOOST_TEST_MESSAGE("rho = " << rho << ": " << all_digits(coarse) << " (20 panels), " << all_digits(fine)
                                    << " (40), difference " << scientific(std::fabs(fine - coarse)));
        check_close("rho = " + std::to_string(rho) + ": 20 against 40 panels", fine, coarse, 1e-13);
    }
    MaxCallSpread one_asset;
    one_asset.S2 = 1e-6;
    const double calls = black_scholes_call_price(100.0, 120.0, 0.04, 0.2, 0.5).price -
                         2 * black_scholes_call_price(100.0, 150.0, 0.04, 0.2, 0.5).price;
    check_close("S2 = 1e-6: the call spread on S1", calls, one_asset.price(), 1e-12);
}

BOOST_AUTO_TEST_CASE(bergman_2d_equal_rates_is_european) {
    BOOST_TEST_MESSAGE("bergman-2d with Rb = Rl = 0.04 at the defaults (S1 = S2 = 100, sigma 0.2 each, rho = 0, T = 0.5), "
                       "K = 3, N = 4: y_0 against E[e^(-r T) g(max(S1, S2))] (MaxCallSpread) to 2e-2, z_0 against "
                       "A^T (S * dV/dS) from central differences of it (h = 0.01) to 0.15: the strikes' kinks are not "
                       "smoothed in 2D, and over K = 2, 3, N = 4..32 the y_0 errors reach 1.6e-2, the z_0 errors 0.14 "
                       "(docs/scheme.md); z_0 symmetric (z_1 = z_2) to 1e-12");
    const MaxCallSpread spread;
    const double exact_y = spread.price(), h = 0.01;
    MaxCallSpread up = spread, down = spread;
    up.S1 += h;
    down.S1 -= h;
    const double exact_z = 0.2 * 100.0 * (up.price() - down.price()) / (2 * h);  // rho = 0: z_1 = sigma1 S1 dV/dS1
    const SolveResult r = solve_bergman_2d(3, 4, {{"Rb", 0.04}});
    BOOST_TEST_MESSAGE("K = 3, N = 4: y_0 expected " << all_digits(exact_y) << ", got " << all_digits(r.y0) << ", error "
                                                     << scientific(std::fabs(r.y0 - exact_y)) << "; z_0 expected "
                                                     << all_digits(exact_z) << " (each), got " << all_digits(r.z0[0])
                                                     << ", " << all_digits(r.z0[1]) << ", error "
                                                     << scientific(std::fabs(r.z0[0] - exact_z)));
    check_close("y_0", exact_y, r.y0, 2e-2);
    check_close("z_0[1]", exact_z, r.z0[0], 0.15);
    check_close("z_0[2] = z_0[1]", r.z0[0], r.z0[1], 1e-12, std::fabs(r.z0[0]));
}

BOOST_AUTO_TEST_CASE(bergman_2d_converges) {
    BOOST_TEST_MESSAGE("bergman-2d at the defaults (Rl = 0.04, Rb = 0.06), K = 3, N = 4, 8: y_0 changes by at most 1.5e-2 "
                       "(measured 9.6e-3; then 2.0e-3 and 1.0e-4 to N = 16, 32); both lie above the European price at "
                       "Rb (the comparison theorem: f >= the driver at Rb), 2.03143, less 2e-2 (the y_0 errors at "
                       "Rb = Rl), and so far above the one at Rl, 1.78755");
    MaxCallSpread at_Rb;
    at_Rb.r = 0.06;
    const double european_Rb = at_Rb.price();
    std::vector<double> y;
    for (int N : {4, 8}) y.push_back(solve_bergman_2d(3, N, {}).y0);
    BOOST_TEST_MESSAGE("K = 3: y_0 " << all_digits(y[0]) << ", " << all_digits(y[1]) << " at N = 4, 8, difference "
                                     << scientific(std::fabs(y[1] - y[0])) << "; the European price at Rb "
                                     << all_digits(european_Rb));
    BOOST_CHECK_MESSAGE(std::fabs(y[1] - y[0]) <= 1.5e-2,
                        "bergman-2d K = 3: |y_0(8) - y_0(4)| expected <= 1.5e-2, got " << scientific(std::fabs(y[1] - y[0])));
    for (double y0 : y)
        BOOST_CHECK_MESSAGE(y0 >= european_Rb - 2e-2, "bergman-2d K = 3: y_0 = " << all_digits(y0)
                                                                               << " expected >= the European price at Rb "
                                                                               << all_digits(european_Rb) << " - 2e-2");
}

BOOST_AUTO_TEST_CASE(bad_parameters_are_refused) {
    const std::vector<std::string> solve{"solve", "--N", "32", "--K", "2", "--problem"};
    for (const BadInput& row : std::vector<BadInput>{
             {extended(solve, {"bergman", "--Rb", "0.03"}), 2, "--Rb 0.03: the borrowing rate must be >= the lending"},
             {extended(solve, {"bergman", "--Rl", "-0.01", "--Rb", "0.02"}), 2, "--Rl -0.01: the lending rate must be >= 0"},
             {extended(solve, {"bergman", "--Rb", "nan"}), 2, "--Rb"},
             {extended(solve, {"bergman", "--Rb", "inf"}), 2, "--Rb"},
             {extended(solve, {"bergman", "--strike2", "110"}), 2, "--strike2 110: must be above --strike1 120"},
             {extended(solve, {"bergman", "--strike1", "1"}), 2, "the terminal data's kink at w = -23.1258509299405 lies "
                                                                 "outside [-R/2, R/2] = [-8, 8]"},
             {extended(solve, {"rates2", "--Rb", "0.03"}), 2, "--Rb 0.03: the borrowing rate must be >= the lending"},
             {extended(solve, {"rates2", "--Rl", "-0.01", "--Rb", "0.02"}), 2, "--Rl -0.01: the lending rate must be >= 0"},
             {extended(solve, {"rates2", "--Rl", "nan"}), 2, "--Rl 'nan': a finite number expected"},
             {extended(solve, {"rates2", "--Rb", "inf"}), 2, "--Rb 'inf': a finite number expected"},
             {extended(solve, {"rates2", "--rho", "1"}), 2, "--rho 1: must lie in (-1, 1)"},
             {extended(solve, {"rates2", "--strike1", "150"}), 2, "--strike2 150: must be above --strike1 150"},
             {extended(solve, {"hjb1", "--lambda", "0"}), 2, "--lambda 0: must be >= 0.1"},
             {extended(solve, {"hjb2", "--lambda", "500"}), 2, "--lambda 500 with R = 8: the exact solution's sums"},
             {extended(solve, {"ac1", "--lambda", "1"}), 2, "--lambda: not a parameter of problem allen-cahn-1d"}})
        check_bad_input(row);
}

BOOST_AUTO_TEST_CASE(problems_lists_them) {
    const CliResult r = run({"problems"});
    BOOST_CHECK(r.code == 0);
    for (const char* expected : {"ac1", "allen-cahn-1d", "ac2", "allen-cahn-2d", "hjb1", "hjb-1d", "hjb2", "hjb-2d",
                                 "rates", "bergman", "rates2", "bergman-2d", "parameters: --lambda 1\n",
                                 "parameters: --S0 100, --strike1 120, --strike2 150, --Rl 0.04, --Rb 0.06, --mu 0.06, "
                                 "--sigma 0.2\n"})
        BOOST_CHECK_MESSAGE(r.out.find(expected) != std::string::npos,
                            "bsde problems: expected '" << expected << "' on out, got '" << r.out << "'");
}

BOOST_AUTO_TEST_SUITE_END()
