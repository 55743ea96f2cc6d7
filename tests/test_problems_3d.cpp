// The 3D problems, Example 4 in 3D (sine-sum-3d) and the geometric basket call (geometric-basket), without the solver:
// the PDE u_t + 1/2 Laplacian_w u + f(t, w, u, grad u) = 0 and z = grad_w y by finite differences of exact_y (which
// check the driver, its sign and A^-1 (mu - r + delta) independently of the formulas), the terminal data and the kink
// plane, dV/dS against differences in the spots, the basket's price against a quadrature of its payoff through the
// state map, its limit of one asset, and the parameter checks.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "../problems/geometric_basket.h"
#include "../problems/sine_sum_3d.h"
#include "test_support.h"

using namespace bsde;
using namespace bsde::test;

namespace {

std::string at(double t, Vec3 w) {
    return "t = " + std::to_string(t) + ", w = (" + std::to_string(w[0]) + ", " + std::to_string(w[1]) + ", " +
           std::to_string(w[2]) + ")";
}

Vec3 shifted(Vec3 w, int k, double h) {
    w[k] += h;
    return w;
}

// The check of a case with the largest |got - expected| / tolerance, reported as a message at the case's end: what,
// expected, got, error and tolerance.
struct Worst {
    std::string what;
    double expected = 0, got = 0, tolerance = 1, ratio = -1;
    void take(const std::string& label, double expected_value, double got_value, double tolerance_value) {
        const double r = std::fabs(got_value - expected_value) / tolerance_value;
        if (r > ratio) {
            what = label;
            expected = expected_value;
            got = got_value;
            tolerance = tolerance_value;
            ratio = r;
        }
    }
    void report(const std::string& checks) const {
        BOOST_TEST_MESSAGE(checks << ": the largest error against its tolerance at " << what << ": expected "
                                  << all_digits(expected) << ", got " << all_digits(got) << ", error "
                                  << scientific(std::fabs(got - expected)) << ", tolerance " << scientific(tolerance));
    }
};

// |got - expected| <= tolerance, kept in `worst`.
void check_within(const std::string& what, double expected, double got, double tolerance, Worst& worst) {
    check_close(what, expected, got, tolerance);
    worst.take(what, expected, got, tolerance);
}

// A finite-difference estimate and a bound of its error.
struct Estimate {
    double value, error;
};

// Each value of exact_y is taken to be within 8 roundings of its terms' size (rounding_scale) of the true one (its exp,
// log and erfc, and the difference of the basket's two terms).
constexpr double value_roundings = 8.0 * DBL_EPSILON;

// The size of the terms whose rounding exact_y's values carry near (t, w): 1 for the sine; G + K for the basket, whose
// price G e^(-delta_G tau) N(d_1) - K e^(-r tau) N(d_2) is their difference (deep in the money far below either).
double rounding_scale(const sine_sum_3d_bsde&, double, Vec3) { return 1.0; }
double rounding_scale(const geometric_basket& basket, double t, Vec3 w) {
    return std::exp(basket.log_average(t, w)) + basket.strike;
}

// g'(0) by the fourth-order central difference (-g(2h) + 8 g(h) - 8 g(-h) + g(-2h)) / 12h. Its error bound: the
// truncation, O(h^4), by the difference from the same formula at 2h (whose truncation is 16 times, so the difference
// is 15 times it), and the round-off, (1 + 8 + 8 + 1) / 12 value_roundings max(|g|, scale) / h.
Estimate first_derivative(const std::function<double(double)>& g, double h, double scale) {
    double largest = scale;
    const auto at_step = [&](double s) {
        const double a = g(2 * s), b = g(s), c = g(-s), d = g(-2 * s);
        largest = std::max({largest, std::fabs(a), std::fabs(b), std::fabs(c), std::fabs(d)});
        return (-a + 8 * b - 8 * c + d) / (12 * s);
    };
    const double fine = at_step(h), coarse = at_step(2 * h);
    return {fine, std::fabs(fine - coarse) + 1.5 * value_roundings * largest / h};
}

// g''(0) by (-g(2h) + 16 g(h) - 30 g(0) + 16 g(-h) - g(-2h)) / 12h^2; the error bound as first_derivative's, the
// round-off (1 + 16 + 30 + 16 + 1) / 12 value_roundings max(|g|, scale) / h^2.
Estimate second_derivative(const std::function<double(double)>& g, double h, double scale) {
    double largest = scale;
    const auto at_step = [&](double s) {
        const double a = g(2 * s), b = g(s), m = g(0.0), c = g(-s), d = g(-2 * s);
        largest = std::max({largest, std::fabs(a), std::fabs(b), std::fabs(m), std::fabs(c), std::fabs(d)});
        return (-a + 16 * b - 30 * m + 16 * c - d) / (12 * s * s);
    };
    const double fine = at_step(h), coarse = at_step(2 * h);
    return {fine, std::fabs(fine - coarse) + 64.0 / 12.0 * value_roundings * largest / (h * h)};
}

// h of the differences: their truncation, h^4 times sixth derivatives of size 1 (sine) or sigma^6 V (basket), and their
// round-off, 1e-15 (G + K) / h^2, give bounds of 4e-9 (sine) and 9e-7 (basket) on the residual at 2e-3, far below what
// a wrong term of f leaves (r y, lambda . z: 0.1 to 1).
constexpr double step = 2e-3;

// z_k against the difference of exact_y along w_k, within the difference's error bound.
template <class Problem>
void check_z_is_the_gradient(const Problem& problem, double t, Vec3 w, const std::string& label, Worst& worst) {
    const Vec3 z = problem.exact_z(t, w);
    for (int k = 0; k < 3; ++k) {
        const Estimate d = first_derivative([&](double s) { return problem.exact_y(t, shifted(w, k, s)); }, step,
                                            rounding_scale(problem, t, w));
        check_within(label + ": z_" + std::to_string(k + 1) + " at " + at(t, w), d.value, z[k],
                     d.error + value_roundings * std::fabs(z[k]), worst);
    }
}

// The residual u_t + 1/2 (u_w1w1 + u_w2w2 + u_w3w3) + f(t, w, u, z) is 0 within the differences' error bounds and the
// rounding of the terms.
template <class Problem>
void check_pde(const Problem& problem, double t, Vec3 w, const std::string& label, Worst& worst) {
    const double scale = rounding_scale(problem, t, w);
    const Estimate u_t = first_derivative([&](double s) { return problem.exact_y(t + s, w); }, step, scale);
    double half_laplacian = 0.0, error = u_t.error, terms = std::fabs(u_t.value);
    for (int k = 0; k < 3; ++k) {
        const Estimate u_kk =
            second_derivative([&](double s) { return problem.exact_y(t, shifted(w, k, s)); }, step, scale);
        half_laplacian += 0.5 * u_kk.value;
        error += 0.5 * u_kk.error;
        terms += 0.5 * std::fabs(u_kk.value);
    }
    const double y = problem.exact_y(t, w);
    const double f = problem.driver(t, w, y, problem.exact_z(t, w));
    check_within(label + ": PDE residual at " + at(t, w), 0.0, u_t.value + half_laplacian + f,
                 error + value_roundings * (terms + std::fabs(f)), worst);
}

const std::vector<double> times{0.0, 0.3, 0.8};
const std::vector<Vec3> points{Vec3{{0.0, 0.0, 0.0}}, Vec3{{0.7, -0.4, 0.2}}, Vec3{{-1.3, 0.9, 0.5}},
                               Vec3{{2.1, 1.6, -0.8}}, Vec3{{-0.6, -1.8, 1.4}}};

// Every coordinate in {-2, -0.5, 0.7, 2}: 64 points on both sides of the basket's kink.
std::vector<Vec3> cube_points() {
    std::vector<Vec3> cube;
    for (double a : {-2.0, -0.5, 0.7, 2.0})
        for (double b : {-2.0, -0.5, 0.7, 2.0})
            for (double c : {-2.0, -0.5, 0.7, 2.0}) cube.push_back(Vec3{{a, b, c}});
    return cube;
}

// Non-symmetric parameters so that every entry of A and of A^-1 (mu - r + delta) matters; and negative correlations
// with a large drift.
const ProblemParameters skewed{{"S1", 110.0},    {"S2", 95.0},     {"S3", 80.0},     {"strike", 90.0},
                               {"r", 0.02},      {"mu1", 0.12},    {"mu2", 0.04},    {"mu3", -0.03},
                               {"delta1", 0.03}, {"delta2", 0.0},  {"delta3", 0.05}, {"sigma1", 0.35},
                               {"sigma2", 0.2},  {"sigma3", 0.45}, {"rho12", 0.6},   {"rho13", -0.3},
                               {"rho23", 0.2}};
const ProblemParameters negative{{"rho12", -0.5}, {"rho13", -0.4}, {"rho23", 0.3}, {"mu2", 0.3}, {"delta1", 0.04}};
const std::vector<ProblemParameters> basket_cases{ProblemParameters{}, skewed, negative};

std::string rhos(const geometric_basket& basket) {
    return "rho = (" + std::to_string(basket.rho12) + ", " + std::to_string(basket.rho13) + ", " +
           std::to_string(basket.rho23) + ")";
}

// ln G = (ln S_1 + ln S_2 + ln S_3) / 3 from the state map.
double log_average_of(const Vec3& S) { return (std::log(S[0]) + std::log(S[1]) + std::log(S[2])) / 3.0; }

// sigma_G from the parameters: sigma_G^2 = 1/9 sum_kl sigma_k sigma_l rho_kl.
double average_volatility(const geometric_basket& b) {
    const double rho[3][3] = {{1.0, b.rho12, b.rho13}, {b.rho12, 1.0, b.rho23}, {b.rho13, b.rho23, 1.0}};
    double variance = 0.0;
    for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 3; ++l) variance += b.sigma[k] * b.sigma[l] * rho[k][l] / 9.0;
    return std::sqrt(variance);
}

// The n-point Gauss-Legendre rule on [-1, 1]: nodes by Newton's method on P_n (the three-term recurrence).
struct GaussLegendre {
    std::vector<double> nodes, weights;
    explicit GaussLegendre(int n) : nodes(n), weights(n) {
        for (int i = 0; i < n; ++i) {
            double x = std::cos(M_PI * (i + 0.75) / (n + 0.5)), derivative = 1.0;
            for (int iteration = 0; iteration < 100; ++iteration) {
                double p0 = 1.0, p1 = x;
                for (int k = 2; k <= n; ++k) {
                    const double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
                    p0 = p1;
                    p1 = p2;
                }
                derivative = n * (x * p1 - p0) / (x * x - 1.0);
                const double dx = p1 / derivative;
                x -= dx;
                if (std::fabs(dx) < 1e-16) break;
            }
            nodes[i] = x;
            weights[i] = 2.0 / ((1.0 - x * x) * derivative * derivative);
        }
    }
};

// E[F(x)] over x ~ N(0, I) in 3D, restricted to x_3 > lower(x_1, x_2): the standard normal cut at +-9 (mass 2e-19
// beyond), each axis in panels of width at most 1.5 with `rule` on each; x_3's panels start at the cut, where F may
// bend, so each panel's integrand is smooth.
double normal_expectation(const GaussLegendre& rule, const std::function<double(double, double, double)>& F,
                          const std::function<double(double, double)>& lower) {
    constexpr double cut = 9.0, width = 1.5;
    const auto density = [](double x) { return std::exp(-0.5 * x * x) / std::sqrt(2.0 * M_PI); };
    // the nodes and weights (density included) of [a, b] in panels of width at most `width`
    const auto nodes_on = [&](double a, double b, std::vector<double>& x, std::vector<double>& weight) {
        x.clear();
        weight.clear();
        const int panels = std::max(1, static_cast<int>(std::ceil((b - a) / width)));
        const double half = 0.5 * (b - a) / panels;
        for (int p = 0; p < panels; ++p) {
            const double mid = a + (2 * p + 1) * half;
            for (std::size_t q = 0; q < rule.nodes.size(); ++q) {
                x.push_back(mid + half * rule.nodes[q]);
                weight.push_back(half * rule.weights[q] * density(x.back()));
            }
        }
    };
    std::vector<double> x, weight, x3, weight3;
    nodes_on(-cut, cut, x, weight);
    double total = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i)
        for (std::size_t j = 0; j < x.size(); ++j) {
            const double from = std::max(-cut, lower(x[i], x[j]));
            if (from >= cut) continue;
            nodes_on(from, cut, x3, weight3);
            double inner = 0.0;
            for (std::size_t k = 0; k < x3.size(); ++k) inner += weight3[k] * F(x[i], x[j], x3[k]);
            total += weight[i] * weight[j] * inner;
        }
    return total;
}

// e^(-rT) E[(G_T - K)^+] and E[S_k(T)] under the pricing measure that the driver sets, by quadrature through the state
// map: f = -r y + c . z makes W_T ~ N(c T, T I) (Girsanov: -dy = -r y dt - z (dW - c dt)), so W_T = c T + sqrt(T) x.
// The payoff bends where G_T = K: for each (x_1, x_2) that x_3 is found by bisection on ln G_T - ln K, increasing in
// x_3 (only S_3 depends on w_3, through a33 > 0), and the x_3 integral starts there.
struct PricingQuadrature {
    const geometric_basket& basket;
    GaussLegendre rule;
    Vec3 w_of(double x1, double x2, double x3) const {
        const AffineDriver<3> f = basket.driver_at(0.0);
        const double T = basket.T, root_T = std::sqrt(T);
        return Vec3{{f.c[0] * T + root_T * x1, f.c[1] * T + root_T * x2, f.c[2] * T + root_T * x3}};
    }
    double moneyness(double x1, double x2, double x3) const {
        return log_average_of(basket.state(basket.T, w_of(x1, x2, x3))) - std::log(basket.strike);
    }
    double price() const {
        const auto payoff = [&](double x1, double x2, double x3) {
            const double G = std::exp(log_average_of(basket.state(basket.T, w_of(x1, x2, x3))));
            return std::max(G - basket.strike, 0.0);
        };
        const auto kink = [&](double x1, double x2) {
            double low = -9.0, high = 9.0;
            if (moneyness(x1, x2, high) <= 0.0) return high;
            if (moneyness(x1, x2, low) >= 0.0) return low;
            for (int iteration = 0; iteration < 64; ++iteration) {
                const double mid = 0.5 * (low + high);
                (moneyness(x1, x2, mid) > 0.0 ? high : low) = mid;
            }
            return 0.5 * (low + high);
        };
        return std::exp(-basket.r * basket.T) * normal_expectation(rule, payoff, kink);
    }
    double forward(int k) const {
        return normal_expectation(
            rule, [&](double x1, double x2, double x3) { return basket.state(basket.T, w_of(x1, x2, x3))[k]; },
            [](double, double) { return -9.0; });
    }
};

// The Black-Scholes call with dividend yield, computed here: S e^(-delta T) N(d_1) - K e^(-r T) N(d_2).
double black_scholes_call_price(double S, double K, double r, double delta, double sigma, double T) {
    const auto N = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
    const double d1 = (std::log(S / K) + (r - delta + 0.5 * sigma * sigma) * T) / (sigma * std::sqrt(T));
    return S * std::exp(-delta * T) * N(d1) - K * std::exp(-r * T) * N(d1 - sigma * std::sqrt(T));
}
double black_scholes_call_delta(double S, double K, double r, double delta, double sigma, double T) {
    const double d1 = (std::log(S / K) + (r - delta + 0.5 * sigma * sigma) * T) / (sigma * std::sqrt(T));
    return std::exp(-delta * T) * 0.5 * std::erfc(-d1 / std::sqrt(2.0));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(problems_3d)

BOOST_AUTO_TEST_CASE(sine_sum_3d_closed_form) {
    BOOST_TEST_MESSAGE("ex4-3d, T = 1: y_0 = 0, z_0 = (1, 1, 1); terminal data g(w) = sin(w_1 + w_2 + w_3 + 1) and its "
                       "gradient cos(w_1 + w_2 + w_3 + 1) (1, 1, 1); the driver 3/2 y - (z_1 + z_2 + z_3) / 3");
    const sine_sum_3d_bsde ex4(1.0, {});
    const Vec3 origin{{0.0, 0.0, 0.0}};
    check_close("y_0", 0.0, ex4.exact_y(0.0, origin), 1e-15);
    for (int k = 0; k < 3; ++k) check_close("z_0," + std::to_string(k + 1), 1.0, ex4.exact_z(0.0, origin)[k], 1e-15);
    for (const Vec3& w : points) {
        const double s = w[0] + w[1] + w[2] + 1.0;
        check_close("terminal_y at " + at(1.0, w), std::sin(s), ex4.terminal_y(w), 1e-15);
        for (int k = 0; k < 3; ++k)
            check_close("terminal_z_" + std::to_string(k + 1) + " at " + at(1.0, w), std::cos(s), ex4.terminal_z(w)[k],
                        1e-15);
        const Vec3 z{{0.3, -1.1, 0.5}};
        check_close("driver at " + at(1.0, w) + ", y = 0.7, z = (0.3, -1.1, 0.5)", 1.5 * 0.7 - (0.3 - 1.1 + 0.5) / 3.0,
                    ex4.driver(1.0, w, 0.7, z), 1e-15);
    }
}

BOOST_AUTO_TEST_CASE(sine_sum_3d_gradient_and_pde) {
    BOOST_TEST_MESSAGE("ex4-3d: z = grad_w y and u_t + 1/2 Laplacian u + f = 0 by central differences (h = 2e-3), "
                       "within their error bounds (truncation from h against 2h, round-off)");
    const sine_sum_3d_bsde ex4(1.0, {});
    Worst gradient, pde;
    for (double t : times)
        for (const Vec3& w : points) {
            check_z_is_the_gradient(ex4, t, w, "ex4-3d", gradient);
            check_pde(ex4, t, w, "ex4-3d", pde);
        }
    gradient.report("ex4-3d z = grad y");
    pde.report("ex4-3d PDE");
}

BOOST_AUTO_TEST_CASE(basket_gradient_and_pde) {
    BOOST_TEST_MESSAGE("geometric-basket (defaults; skewed spots, drifts, yields, vols, rho = (0.6, -0.3, 0.2); negative "
                       "correlations with mu2 = 0.3): z = grad_w y and u_t + 1/2 Laplacian u + f = 0 by central "
                       "differences (driver sign, A^-1 (mu - r + delta), sigma_G, delta_G)");
    Worst gradient, pde;
    for (const ProblemParameters& p : basket_cases) {
        const geometric_basket basket(1.0, p);
        const std::string label = "basket " + rhos(basket);
        for (double t : times)
            for (const Vec3& w : points) {
                check_z_is_the_gradient(basket, t, w, label, gradient);
                check_pde(basket, t, w, label, pde);
            }
    }
    gradient.report("basket z = grad y");
    pde.report("basket PDE");
}

BOOST_AUTO_TEST_CASE(basket_value_gradient) {
    BOOST_TEST_MESSAGE("geometric-basket: value_gradient(t, w, exact_z) = dV/dS_k, by differences of exact_y in the spot "
                       "S_k0 (which scales S_k(t, w) alone)");
    Worst worst;
    for (const ProblemParameters& p : basket_cases) {
        const geometric_basket basket(1.0, p);
        for (double t : times)
            for (const Vec3& w : points) {
                const Vec3 S = basket.state(t, w), dV = basket.value_gradient(t, w, basket.exact_z(t, w));
                for (int k = 0; k < 3; ++k) {
                    const std::string spot = "S" + std::to_string(k + 1);
                    // d/ds V at S_k0 (1 + s) is S_k dV/dS_k
                    const Estimate d = first_derivative(
                        [&](double s) {
                            ProblemParameters moved = p;
                            moved[spot] = basket.spot[k] * (1.0 + s);
                            return geometric_basket(1.0, moved).exact_y(t, w);
                        },
                        1e-3, rounding_scale(basket, t, w));
                    check_within("dV/d" + spot + " " + rhos(basket) + " at " + at(t, w), d.value / S[k], dV[k],
                                 (d.error + value_roundings * std::fabs(d.value)) / S[k], worst);
                }
            }
    }
    worst.report("basket dV/dS");
}

BOOST_AUTO_TEST_CASE(basket_terminal_data_and_kink) {
    BOOST_TEST_MESSAGE("geometric-basket at T: terminal_y = (G_T - K)^+ with G_T = (S_1 S_2 S_3)^(1/3) from the state "
                       "map, terminal_z its w-gradient by differences, exact_y, exact_z(T - 1e-9) tend to them, away from "
                       "the kink (|ln(G_T / K)| > 0.05); the kink plane: |n| = 1, n . w - c = ln(G_T / K) / sigma_G "
                       "(positive in the money), and G_T = K on it");
    Worst payoff_error, limit_error, gradient, kink_error;
    for (const ProblemParameters& p : basket_cases) {
        const geometric_basket basket(1.0, p);
        const double T = basket.T, sigma_G = average_volatility(basket);
        const KinkPlane kink = basket.terminal_kink();
        const Vec3& n = kink.normal;
        check_close("|n| " + rhos(basket), 1.0, std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), 1e-15);
        for (const Vec3& w : cube_points()) {
            const std::string where = rhos(basket) + " at " + at(T, w);
            const double moneyness = log_average_of(basket.state(T, w)) - std::log(basket.strike);
            check_within("signed distance " + where, moneyness / sigma_G, kink.distance(w), 1e-13, kink_error);
            // the point of the plane nearest w: G_T = K there
            const double d = kink.distance(w);
            const Vec3 on_plane{{w[0] - d * n[0], w[1] - d * n[1], w[2] - d * n[2]}};
            check_within("ln(G_T / K) on the plane, from " + where, 0.0,
                         log_average_of(basket.state(T, on_plane)) - std::log(basket.strike), 1e-13, kink_error);
            if (std::fabs(moneyness) < 0.05) continue;
            const Vec3 S = basket.state(T, w);
            const double payoff = std::max(std::cbrt(S[0] * S[1] * S[2]) - basket.strike, 0.0);
            const double scale = std::max(1.0, payoff);
            check_within("terminal_y " + where, payoff, basket.terminal_y(w), 1e-13 * scale, payoff_error);
            check_within("exact_y(T - 1e-9) " + where, payoff, basket.exact_y(T - 1e-9, w), 1e-7 * scale, limit_error);
            const Vec3 z = basket.terminal_z(w), z_limit = basket.exact_z(T - 1e-9, w);
            for (int k = 0; k < 3; ++k)
                check_within("exact_z_" + std::to_string(k + 1) + "(T - 1e-9) " + where, z[k], z_limit[k],
                             1e-7 * std::max(1.0, std::fabs(z[k])), limit_error);
            check_z_is_the_gradient(basket, T, w, "basket payoff", gradient);  // exact_y, exact_z at T: g, grad g
        }
    }
    payoff_error.report("basket terminal_y");
    limit_error.report("basket exact(T-) -> terminal");
    gradient.report("basket terminal_z = grad g");
    kink_error.report("basket kink plane");
}

BOOST_AUTO_TEST_CASE(basket_price_by_quadrature) {
    BOOST_TEST_MESSAGE("geometric-basket: y(0, 0) = e^(-rT) E[(G_T - K)^+] with W_T ~ N(c T, T I) (c = df/dz; 0 at the "
                       "default drifts) by 3D Gauss-Legendre through the state map, the x_3 integral split at the kink; "
                       "the same rule gives the forwards E[S_k(T)] = S_k0 e^((r - delta_k) T)");
    struct PriceCase {
        ProblemParameters parameters;
        double T;
    };
    const ProblemParameters out_of_the_money{{"strike", 130.0}, {"sigma3", 0.6}};
    for (const PriceCase& c : {PriceCase{{}, 1.0}, PriceCase{skewed, 1.0}, PriceCase{negative, 1.0},
                               PriceCase{out_of_the_money, 3.0}}) {
        const double T = c.T;
        const geometric_basket basket(T, c.parameters);
        const std::string label = rhos(basket) + ", K = " + std::to_string(basket.strike) + ", T = " + std::to_string(T);
        const PricingQuadrature fine{basket, GaussLegendre(16)}, coarse{basket, GaussLegendre(8)};
        for (int k = 0; k < 3; ++k) {
            const double expected = basket.spot[k] * std::exp((basket.r - basket.delta[k]) * T);
            const double got = fine.forward(k);
            check_close("E[S_" + std::to_string(k + 1) + "(T)] " + label, expected, got, 1e-12, expected);
            BOOST_TEST_MESSAGE("forward S_" << k + 1 << " " << label << ": expected " << all_digits(expected)
                                            << ", got " << all_digits(got) << ", error "
                                            << scientific(std::fabs(got - expected)));
        }
        // 1e-10 relative: the quadrature's own error, 16 against 8 nodes a panel, is below 1e-12 of the price (checked),
        // and the closed form's exp and erfc are good to a few roundings
        const double quadrature = fine.price(), rule_error = std::fabs(quadrature - coarse.price());
        const double price = basket.exact_y(0.0, Vec3{{0.0, 0.0, 0.0}});
        check_close("quadrature's own error (16 - 8 nodes a panel) " + label, 0.0, rule_error, 1e-12, price);
        check_close("y(0, 0) against quadrature " + label, quadrature, price, 1e-10, price);
        BOOST_TEST_MESSAGE("price " << label << ": expected (quadrature) " << all_digits(quadrature) << ", got "
                                    << all_digits(price) << ", error " << scientific(std::fabs(price - quadrature))
                                    << " (relative " << scientific(std::fabs(price - quadrature) / price)
                                    << "); the quadrature's own error estimate " << scientific(rule_error));
    }
}

BOOST_AUTO_TEST_CASE(basket_of_one_asset) {
    BOOST_TEST_MESSAGE("geometric-basket with equal spots, vols and yields and rho_kl = 1 - 1e-12: G is the one asset, "
                       "y(0, 0) the Black-Scholes call (computed here), z_1 = sigma S dV/dS and sum_k dV/dS_k its delta; "
                       "rho = 1 itself is refused, and the limit moves the price by vega sigma 1e-12 / 3, below 1e-10");
    const double S = 100.0, sigma = 0.25, delta = 0.02, r = 0.05, rho = 1.0 - 1e-12;
    for (double K : {80.0, 100.0, 125.0})
        for (double T : {0.25, 1.0, 2.0}) {
            const geometric_basket basket(T, {{"S1", S}, {"S2", S}, {"S3", S}, {"strike", K}, {"r", r},
                                              {"delta1", delta}, {"delta2", delta}, {"delta3", delta},
                                              {"sigma1", sigma}, {"sigma2", sigma}, {"sigma3", sigma},
                                              {"rho12", rho}, {"rho13", rho}, {"rho23", rho}});
            const Vec3 origin{{0.0, 0.0, 0.0}};
            const std::string label = "K = " + std::to_string(K) + ", T = " + std::to_string(T);
            const double expected = black_scholes_call_price(S, K, r, delta, sigma, T);
            const double got = basket.exact_y(0.0, origin);
            check_close("price " + label, expected, got, 1e-10, expected);
            BOOST_TEST_MESSAGE("price " << label << ": expected (Black-Scholes) " << all_digits(expected) << ", got "
                                        << all_digits(got) << ", error " << scientific(std::fabs(got - expected)));
            const double delta_BS = black_scholes_call_delta(S, K, r, delta, sigma, T);
            const Vec3 z = basket.exact_z(0.0, origin), dV = basket.value_gradient(0.0, origin, z);
            check_close("z_1 " + label, sigma * S * delta_BS, z[0], 1e-10, sigma * S);
            check_close("dV/dS_1 + dV/dS_2 + dV/dS_3 " + label, delta_BS, dV[0] + dV[1] + dV[2], 1e-8);
            for (int k = 0; k < 3; ++k)
                check_close("dV/dS_" + std::to_string(k + 1) + " " + label, delta_BS / 3, dV[k], 1e-8);
        }
}

BOOST_AUTO_TEST_CASE(bad_parameters_are_refused) {
    BOOST_TEST_MESSAGE("correlations outside (-1, 1), a correlation matrix that is not positive definite, non-positive "
                       "spots, strike and vols, yields and rates out of range, and unknown names throw InputError: one "
                       "line naming the option");
    auto check_rejected = [](const ProblemParameters& p, const std::string& start) {
        try {
            geometric_basket(1.0, p);
            BOOST_ERROR("no InputError for " << start);
        } catch (const InputError& e) {
            const std::string message = e.what();
            BOOST_CHECK_MESSAGE(message.rfind(start, 0) == 0, "message '" << message << "' should start with " << start);
            BOOST_CHECK_MESSAGE(message.find('\n') == std::string::npos, "message '" << message << "': not one line");
            BOOST_TEST_MESSAGE("refused: " << message);
        }
    };
    check_rejected({{"rho12", 1.0}}, "--rho12 1: must lie in (-1, 1)");
    check_rejected({{"rho13", -1.5}}, "--rho13 -1.5: must lie in (-1, 1)");
    check_rejected({{"rho23", -1.0}}, "--rho23 -1: must lie in (-1, 1)");
    check_rejected({{"rho12", 0.9}, {"rho13", 0.9}, {"rho23", -0.9}},
                   "--rho12 0.9, --rho13 0.9, --rho23 -0.9: the correlation matrix is not positive definite");
    check_rejected({{"rho12", -0.5}, {"rho13", -0.5}, {"rho23", -0.5}},  // singular: (1, 1, 1) in its kernel
                   "--rho12 -0.5, --rho13 -0.5, --rho23 -0.5: the correlation matrix is not positive definite");
    check_rejected({{"sigma3", 0.0}}, "--sigma3 0: must be > 0");
    check_rejected({{"S2", -5.0}}, "--S2 -5: must be > 0");
    check_rejected({{"strike", 0.0}}, "--strike 0: must be > 0");
    check_rejected({{"delta3", -0.1}}, "--delta3 -0.1: must lie in [0, 1]");
    check_rejected({{"mu2", 1.5}}, "--mu2 1.5: must lie in [-1, 1]");
    check_rejected({{"rho", 0.2}}, "--rho: not a parameter of problem geometric-basket");
    check_rejected({{"K", 100.0}}, "--K: not a parameter of problem geometric-basket");
    BOOST_CHECK_THROW(sine_sum_3d_bsde(1.0, {{"rho", 0.5}}), InputError);
    BOOST_CHECK_NO_THROW(geometric_basket(1.0, {{"rho12", 0.99}, {"rho13", 0.99}, {"rho23", 0.99}}));
    BOOST_CHECK_NO_THROW(geometric_basket(1.0, {{"rho12", -0.49}, {"rho13", -0.49}, {"rho23", -0.49}}));
}

BOOST_AUTO_TEST_SUITE_END()
