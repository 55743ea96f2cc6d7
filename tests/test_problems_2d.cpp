// The paper's two 2D problems, Example 4 (sine-sum) and Example 5 (exchange option): their closed forms,
// z as the W-gradient of y, the PDE u_t + 1/2 (u_w1w1 + u_w2w2) + f(t, w, u, grad u) = 0 by finite
// differences (which checks the driver's sign and A^-1 independently of the formulas), the terminal data,
// and the parameter checks.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../problems/black_scholes_option.h"
#include "../problems/exchange_option.h"
#include "../problems/sine_sum_bsde.h"
#include "test_support.h"

using namespace bsde;
using namespace bsde::test;

namespace {

std::string at(double t, Vec2 w) {
    return "t = " + std::to_string(t) + ", w = (" + std::to_string(w[0]) + ", " + std::to_string(w[1]) + ")";
}

Vec2 shifted(Vec2 w, int k, double h) {
    w[k] += h;
    return w;
}

// z against central differences of exact_y (h = 1e-5), relative to max(1, |z|).
template <class Problem>
void check_z_is_the_gradient(const Problem& problem, double t, Vec2 w, const std::string& label) {
    const double h = 1e-5;
    const Vec2 z = problem.exact_z(t, w);
    for (int k = 0; k < 2; ++k) {
        const double difference =
            (problem.exact_y(t, shifted(w, k, h)) - problem.exact_y(t, shifted(w, k, -h))) / (2 * h);
        check_close(label + ": z_" + std::to_string(k + 1) + " at " + at(t, w), difference, z[k], 1e-7,
                    std::max(1.0, std::fabs(z[k])));
    }
}

// The residual of u_t + 1/2 (u_w1w1 + u_w2w2) + f(t, w, u, grad u) with fourth-order central differences
// (h = 1e-3: truncation ~h^4, round-off ~1e-16 |u| / h^2), relative to the largest of its terms.
template <class Problem>
void check_pde(const Problem& problem, double t, Vec2 w, const std::string& label) {
    const double h = 1e-3;
    auto u = [&](double s, Vec2 x) { return problem.exact_y(s, x); };
    auto first = [&](auto&& g) { return (-g(2 * h) + 8 * g(h) - 8 * g(-h) + g(-2 * h)) / (12 * h); };
    auto second = [&](auto&& g) { return (-g(2 * h) + 16 * g(h) - 30 * g(0.0) + 16 * g(-h) - g(-2 * h)) / (12 * h * h); };
    const double u_t = first([&](double e) { return u(t + e, w); });
    const double u_11 = second([&](double e) { return u(t, shifted(w, 0, e)); });
    const double u_22 = second([&](double e) { return u(t, shifted(w, 1, e)); });
    const double y = u(t, w);
    const double f = problem.driver(t, w, y, problem.exact_z(t, w));
    const double residual = u_t + 0.5 * (u_11 + u_22) + f;
    const double scale = std::max({std::fabs(u_t), 0.5 * std::fabs(u_11 + u_22), std::fabs(f), 1e-3});
    check_close(label + ": PDE residual / scale at " + at(t, w), 0.0, residual / scale, 1e-5);
}

const std::vector<double> times{0.0, 0.3, 0.8};
const std::vector<Vec2> points{Vec2{{0.0, 0.0}}, Vec2{{0.7, -0.4}}, Vec2{{-1.3, 0.9}}, Vec2{{2.1, 1.6}}};

// Non-symmetric parameters so that every entry of A and A^-1 (mu - r) matters.
const ProblemParameters skewed{{"S1", 110.0}, {"S2", 95.0}, {"r", 0.02},     {"mu1", 0.12},
                               {"mu2", 0.04}, {"sigma1", 0.35}, {"sigma2", 0.2}, {"rho", 0.6}};

}  // namespace

BOOST_AUTO_TEST_SUITE(problems_2d)

BOOST_AUTO_TEST_CASE(sine_sum_closed_form) {
    BOOST_TEST_MESSAGE("ex4, T = 1: y_0 = 0, z_0 = (1, 1); terminal data g(w) = sin(w_1 + w_2 + 1) and its gradient "
                       "(cos(w_1 + w_2 + 1), cos(w_1 + w_2 + 1))");
    const sine_sum_bsde ex4(1.0, {});
    const Vec2 origin{{0.0, 0.0}};
    check_close("y_0", 0.0, ex4.exact_y(0.0, origin), 1e-15);
    check_close("z_0,1", 1.0, ex4.exact_z(0.0, origin)[0], 1e-15);
    check_close("z_0,2", 1.0, ex4.exact_z(0.0, origin)[1], 1e-15);
    for (const Vec2& w : points) {
        check_close("terminal_y at " + at(1.0, w), std::sin(w[0] + w[1] + 1.0), ex4.terminal_y(w), 1e-15);
        for (int k = 0; k < 2; ++k)
            check_close("terminal_z_" + std::to_string(k + 1) + " at " + at(1.0, w), std::cos(w[0] + w[1] + 1.0),
                        ex4.terminal_z(w)[k], 1e-15);
    }
}

BOOST_AUTO_TEST_CASE(sine_sum_gradient_and_pde) {
    BOOST_TEST_MESSAGE("ex4: z = grad_w y (central differences), and y solves u_t + 1/2 Laplacian u + f = 0");
    const sine_sum_bsde ex4(1.0, {});
    for (double t : times)
        for (const Vec2& w : points) {
            check_z_is_the_gradient(ex4, t, w, "ex4");
            check_pde(ex4, t, w, "ex4");
        }
}

BOOST_AUTO_TEST_CASE(exchange_closed_form_at_the_papers_parameters) {
    BOOST_TEST_MESSAGE("ex5 at S0 = (100, 100), r = 0.05, mu = (0.1, 0.1), sigma = (0.25, 0.3), rho = 0, T = 1 "
                       "(scheme.md erratum): y_0 = 15.48076484, z_0 = (14.43509561, -12.67788527)");
    const exchange_option ex5(1.0, {});
    const Vec2 origin{{0.0, 0.0}};
    check_close("y_0", 15.48076484, ex5.exact_y(0.0, origin), 1e-8);
    check_close("z_0,1", 14.43509561, ex5.exact_z(0.0, origin)[0], 1e-8);
    check_close("z_0,2", -12.67788527, ex5.exact_z(0.0, origin)[1], 1e-8);
}

BOOST_AUTO_TEST_CASE(exchange_reduces_to_black_scholes) {
    BOOST_TEST_MESSAGE("Margrabe: V(S1, S2) = S2 C(S1/S2) with C the Black-Scholes call of strike 1, r = delta = 0 and "
                       "volatility sigma~; dV/dS1 = dC/dx; V = S1 dV/dS1 + S2 dV/dS2 (homogeneity); rho in (-1, 1)");
    for (double rho : {-0.95, -0.5, 0.0, 0.3, 0.8, 0.99})
        for (auto [S1, S2] : {std::make_pair(100.0, 100.0), std::make_pair(120.0, 90.0), std::make_pair(80.0, 130.0)}) {
            const ProblemParameters p{{"S1", S1}, {"S2", S2}, {"rho", rho}, {"mu1", 0.07}, {"mu2", 0.02}};
            const exchange_option ex5(1.0, p);
            for (double t : times)
                for (const Vec2& w : points) {
                    const Vec2 S = ex5.state(t, w);
                    const black_scholes_call bs(1.0 - t, {{"S0", S[0] / S[1]}, {"strike", 1.0}, {"r", 0.0},
                                                          {"delta", 0.0}, {"sigma", ex5.sigma_tilde}});
                    const std::string label = "rho = " + std::to_string(rho) + ", S0 = (" + std::to_string(S1) + ", " +
                                              std::to_string(S2) + "), " + at(t, w);
                    const double V = ex5.exact_y(t, w);
                    check_close("V " + label, S[1] * bs.exact_y(0.0, 0.0), V, 1e-12, V);
                    const Vec2 dV = ex5.value_gradient(t, w, ex5.exact_z(t, w));
                    check_close("dV/dS1 " + label, bs.value_gradient(0.0, 0.0, bs.exact_z(0.0, 0.0)), dV[0], 1e-12);
                    check_close("homogeneity " + label, V, S[0] * dV[0] + S[1] * dV[1], 1e-12, V);
                }
        }
}

BOOST_AUTO_TEST_CASE(exchange_parity) {
    BOOST_TEST_MESSAGE("exchanging the assets: V(S1 -> S2) - V(S2 -> S1) = S1 - S2 at t = 0, w = 0; "
                       "equal assets with rho -> 1: at the money V = S sigma~ sqrt(T) / sqrt(2 pi) (1 + O(sigma~^2))");
    for (double rho : {-0.7, 0.0, 0.5}) {
        const exchange_option one(1.0, {{"S1", 120.0}, {"S2", 90.0}, {"sigma1", 0.2}, {"sigma2", 0.4}, {"rho", rho}});
        const exchange_option two(1.0, {{"S1", 90.0}, {"S2", 120.0}, {"sigma1", 0.4}, {"sigma2", 0.2}, {"rho", rho}});
        const Vec2 origin{{0.0, 0.0}};
        check_close("parity at rho = " + std::to_string(rho), 30.0, one.exact_y(0.0, origin) - two.exact_y(0.0, origin),
                    1e-12, 120.0);
    }
    const exchange_option same(1.0, {{"sigma1", 0.3}, {"sigma2", 0.3}, {"rho", 0.999999}});
    const double small = 100.0 * same.sigma_tilde / std::sqrt(2.0 * M_PI);  // sigma~ = 0.3 sqrt(2e-6)
    check_close("sigma1 = sigma2, rho = 0.999999", small, same.exact_y(0.0, Vec2{{0.0, 0.0}}), 1e-6, small);
}

BOOST_AUTO_TEST_CASE(exchange_gradient_and_pde) {
    BOOST_TEST_MESSAGE("ex5 (the paper's parameters and a skewed set with rho = 0.6, mu1 != mu2): z = grad_w y "
                       "(central differences), and y solves u_t + 1/2 Laplacian u + f = 0 (driver sign, A^-1 (mu - r))");
    for (const ProblemParameters& p : {ProblemParameters{}, skewed, ProblemParameters{{"rho", -0.8}, {"mu2", 0.3}}}) {
        const exchange_option ex5(1.0, p);
        const std::string label = "ex5 rho = " + std::to_string(ex5.rho);
        for (double t : times)
            for (const Vec2& w : points) {
                check_z_is_the_gradient(ex5, t, w, label);
                check_pde(ex5, t, w, label);
            }
    }
}

BOOST_AUTO_TEST_CASE(exchange_terminal_data) {
    BOOST_TEST_MESSAGE("ex5: terminal_y, terminal_z = the payoff (S1 - S2)^+ and its W-gradient, A^T (S1, -S2) in the "
                       "money and 0 out of it, and exact_y, exact_z tend to them as t -> T away from the kink S1 = S2");
    for (const ProblemParameters& p : {ProblemParameters{}, skewed}) {
        const exchange_option ex5(1.0, p);
        for (const Vec2& w : points) {
            const Vec2 S = ex5.state(1.0, w);
            if (std::fabs(std::log(S[0] / S[1])) < 0.05) continue;  // near the kink
            const double payoff = std::max(S[0] - S[1], 0.0);
            // grad_w S1 = S1 (a11, 0), grad_w S2 = S2 (a21, a22) by the state map
            const Vec2 gradient =
                S[0] > S[1] ? Vec2{{ex5.a11 * S[0] - ex5.a21 * S[1], -ex5.a22 * S[1]}} : Vec2{{0.0, 0.0}};
            check_close("terminal_y at " + at(1.0, w), payoff, ex5.terminal_y(w), 1e-14, std::max(1.0, payoff));
            const double t = 1.0 - 1e-9;  // tau = 1e-9: N(d) = 0 or 1 to double precision this far from the kink
            check_close("exact_y(T-) at " + at(t, w), payoff, ex5.exact_y(t, w), 1e-6, std::max(1.0, payoff));
            for (int k = 0; k < 2; ++k) {
                const double scale = std::max(1.0, std::fabs(gradient[k]));
                check_close("terminal_z_" + std::to_string(k + 1) + " at " + at(1.0, w), gradient[k],
                            ex5.terminal_z(w)[k], 1e-14, scale);
                check_close("exact_z_" + std::to_string(k + 1) + "(T-) at " + at(t, w), gradient[k],
                            ex5.exact_z(t, w)[k], 1e-6, scale);
            }
            // that gradient is the payoff's: terminal_z against differences of terminal_y (exact_z, exact_y at T)
            check_z_is_the_gradient(ex5, 1.0, w, "ex5 payoff");
        }
    }
}

BOOST_AUTO_TEST_CASE(exchange_rejects_bad_parameters) {
    BOOST_TEST_MESSAGE("rho outside (-1, 1), non-positive S1, S2, sigma1, sigma2 and unknown names throw InputError "
                       "naming the option");
    auto check_rejected = [](const ProblemParameters& p, const std::string& option) {
        try {
            exchange_option(1.0, p);
            BOOST_ERROR("no InputError for " << option);
        } catch (const InputError& e) {
            const std::string message = e.what();
            BOOST_CHECK_MESSAGE(message.rfind(option, 0) == 0, "message '" << message << "' should start with " << option);
        }
    };
    check_rejected({{"rho", 1.0}}, "--rho 1: must lie in (-1, 1)");
    check_rejected({{"rho", -1.5}}, "--rho -1.5: must lie in (-1, 1)");
    check_rejected({{"rho", -1.0}}, "--rho -1:");
    check_rejected({{"sigma1", 0.0}}, "--sigma1 0: must be > 0");
    check_rejected({{"sigma2", -0.1}}, "--sigma2");
    check_rejected({{"S1", 0.0}}, "--S1");
    check_rejected({{"S2", -5.0}}, "--S2");
    check_rejected({{"sigma", 0.2}}, "--sigma: not a parameter of problem exchange");
    BOOST_CHECK_THROW(sine_sum_bsde(1.0, {{"rho", 0.5}}), InputError);
    BOOST_CHECK_NO_THROW(exchange_option(1.0, {{"rho", -0.999}, {"S1", 1.0}}));
}

BOOST_AUTO_TEST_SUITE_END()
