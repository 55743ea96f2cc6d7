// The Feynman-Kac start-up (algorithms/sweep/feynman_kac_layer.h): its time integrals of an affine driver and its
// Gaussian integral of kinked, growing data against closed forms, and its layers of the options against their
// closed-form prices at every grid point.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "../algorithms/sweep/feynman_kac_layer.h"
#include "../algorithms/quadrature/gauss_hermite.h"
#include "../problems/black_scholes_option.h"
#include "../problems/exchange_option.h"
#include "test_support.h"

using namespace bsde;
using bsde::test::check_close;

namespace {

// f = a(t) + b(t) y + c(t) . z with a = 1 + t, b = -t, c = (t^2, 3): B = -(T^2 - t^2) / 2, C = ((T^3 - t^3) / 3,
// 3 (T - t)), A = int_t^T (1 + s) e^(-(s^2 - t^2) / 2) ds
//   = e^(t^2 / 2) (sqrt(pi / 2) (erf(T / sqrt 2) - erf(t / sqrt 2)) + e^(-t^2 / 2) - e^(-T^2 / 2)).
struct TimeDependentAffine {
    AffineDriver<2> driver_at(double t) const { return {1.0 + t, -t, Vec2{{t * t, 3.0}}}; }
};

// 1D terminal data: a ladder of calls (u - k)^+ (kinked at the strikes) plus a e^(sigma u), which grows.
struct CallsAndGrowth {
    static constexpr int dimension = 1;
    std::vector<double> strikes;
    double a, sigma;
    double terminal_y(double u) const {
        double g = a * std::exp(sigma * u);
        for (double k : strikes) g += std::fmax(u - k, 0.0);
        return g;
    }
};

// E[g(x + dW)] and E[g(x + dW) dW], dW ~ N(0, v), of CallsAndGrowth in closed form: per call, with m = x - k,
// sd phi(m / sd) + m N(m / sd) and v N(m / sd); for the growth e^(sigma x + sigma^2 v / 2) and sigma v times that.
std::pair<double, double> calls_and_growth_moments(const CallsAndGrowth& g, double x, double v) {
    const double sd = std::sqrt(v), pi = 3.14159265358979323846;
    const double growth = g.a * std::exp(g.sigma * x + g.sigma * g.sigma * v / 2);
    double y = growth, y_dw = g.sigma * v * growth;
    for (double k : g.strikes) {
        const double m = x - k, N = 0.5 * std::erfc(-m / (sd * std::sqrt(2.0)));
        y += sd * std::exp(-m * m / (2 * v)) / std::sqrt(2 * pi) + m * N;
        y_dw += v * N;
    }
    return {y, y_dw};
}

// The layer at t = T - tau of `problem` by FeynmanKacLayer on a grid of M intervals over [-R, R]^d, against the
// problem's exact_y and exact_z at every grid point whose Gaussian reach, 8.5 sd, stays on the grid: the largest
// difference relative to the largest |y| (|z|) there.
template <class Problem>
void check_layer(const std::string& what, const Problem& problem, int M, double R, double tau, int L, double tolerance) {
    constexpr int d = Problem::dimension;
    const int points = d == 1 ? M + 1 : (M + 1) * (M + 1);
    std::vector<double> values((1 + d) * points);
    const LayerView layer = LayerView::of(values.data(), points, 0, 1 + d);
    const GridPoints<d> grid{-R, 2 * R / M, M};
    const GaussHermiteRule rule = gauss_hermite(L);
    std::vector<double> weights(rule.weights);
    for (double& omega : weights) omega /= std::sqrt(3.14159265358979323846);
    const double picard_scale = 1.0;  // unused by the layer
    const AffineFlow<d> flow = AffineFlow<d>::over(problem, problem.T - tau, problem.T);
    const FeynmanKacLayer<Problem> fill{{&problem, &picard_scale, points, 0}, &flow, layer, grid, tau,
                                        {rule.nodes.data(), weights.data(), L}};
    double y_error = 0, y_scale = 0, z_error = 0, z_scale = 0;
    const double t = problem.T - tau, inner = R - 8.5 * std::sqrt(tau) - 1.0;
    for (int i = 0; i < points; ++i) {
        const Point<d> w = grid(i);
        bool inside = true;
        for (int k = 0; k < d; ++k) inside = inside && std::fabs(component(w, k)) <= inner;
        if (!inside) continue;
        fill(i);
        const double y = problem.exact_y(t, w);
        y_error = std::fmax(y_error, std::fabs(layer.values(0)[i] - y));
        y_scale = std::fmax(y_scale, std::fabs(y));
        const Point<d> z = problem.exact_z(t, w);
        for (int k = 0; k < d; ++k) {
            z_error = std::fmax(z_error, std::fabs(layer.values(1 + k)[i] - component(z, k)));
            z_scale = std::fmax(z_scale, std::fabs(component(z, k)));
        }
    }
    check_close(what + ": largest y difference over the largest |y|", 0.0, y_error / y_scale, tolerance, 1.0);
    check_close(what + ": largest z difference over the largest |z|", 0.0, z_error / z_scale, tolerance, 1.0);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(feynman_kac_startup)

BOOST_AUTO_TEST_CASE(affine_flow_integrates_time_dependent_coefficients) {
    BOOST_TEST_MESSAGE("B, C, A of f = (1 + t) - t y + (t^2, 3) . z over [t, T] against their closed forms to 1e-14");
    const double pi = 3.14159265358979323846;
    for (const double t : {0.0, 0.3, 0.9}) {
        const double T = 1.0;
        const AffineFlow<2> flow = AffineFlow<2>::over(TimeDependentAffine{}, t, T);
        const double A = std::exp(t * t / 2) * (std::sqrt(pi / 2) * (std::erf(T / std::sqrt(2.0)) - std::erf(t / std::sqrt(2.0))) +
                                                std::exp(-t * t / 2) - std::exp(-T * T / 2));
        const std::string at = "t = " + std::to_string(t);
        check_close(at + ": B", -(T * T - t * t) / 2, flow.B, 1e-14, 1.0);
        check_close(at + ": C_1", (T * T * T - t * t * t) / 3, flow.C[0], 1e-14, 1.0);
        check_close(at + ": C_2", 3 * (T - t), flow.C[1], 1e-14, 1.0);
        check_close(at + ": A", A, flow.A, 1e-14, 1.0);
    }
}

BOOST_AUTO_TEST_CASE(line_integral_cuts_at_kinks_and_follows_growth) {
    BOOST_TEST_MESSAGE("NormalLineIntegral in 1D: E[g(x + dW)] and E[g(x + dW) dW] of calls with 1 to 4 strikes inside, "
                       "outside and at the edge of [-8.5 sd, 8.5 sd] about x, plus e^(sigma u) with sigma sqrt(v) up to "
                       "12 (its weight 12 sd from x), against their closed forms to 1e-13 of sd + the value (E[g dW]: of the "
                       "value + sd (sd + |E[g]|))");
    const std::vector<std::vector<double>> ladders{{0.0}, {-0.3, 0.45}, {1.2, -0.05, 0.0, 0.9}, {0.849999, -2.0}};
    for (const double v : {1e-4, 0.01, 0.02})
        for (const double growth_sd : {0.0, 3.0, 12.0})
            for (const double x : {0.0, 0.013, -0.2})
                for (const std::vector<double>& strikes : ladders) {
                    const double sd = std::sqrt(v);
                    const CallsAndGrowth g{strikes, growth_sd > 0 ? 1e-3 : 0.0, growth_sd / sd};
                    TerminalMomentsAbout<CallsAndGrowth> moments{g, x};
                    NormalLineIntegral<CallsAndGrowth> line{moments, 1.0, {nullptr, nullptr, 0}, {}, 0, v};
                    for (double k : strikes) line.add_cut(k - x);
                    line.integrate();
                    const auto [y, y_dw] = calls_and_growth_moments(g, x, v);
                    const std::string at = "v = " + std::to_string(v) + ", growth " + std::to_string(growth_sd) +
                                           " sd, x = " + std::to_string(x) + ", strikes from " + std::to_string(strikes[0]);
                    check_close(at + ": E[g]", y, moments.y, 1e-13, sd + std::fabs(y));
                    check_close(at + ": E[g dW]", y_dw, moments.y_dw, 1e-13, std::fabs(y_dw) + sd * (sd + std::fabs(y)));
                }
}

BOOST_AUTO_TEST_CASE(call_layers_equal_black_scholes) {
    BOOST_TEST_MESSAGE("bs-call (the default drift, and mu = 0.05 whose driver has a z term) at tau = dt .. 5 dt, dt = "
                       "0.33 / 64, on 512 intervals of [-16, 16]: y and z equal Black-Scholes' to 1e-12 of their largest "
                       "values at every grid point 8.5 sd inside the domain");
    const std::vector<ProblemParameters> cases{{}, {{"mu", 0.05}}};
    for (const ProblemParameters& p : cases) {
        const black_scholes_call call(0.33, p);
        for (int j = 1; j <= 5; ++j)
            check_layer("bs-call mu = " + std::to_string(call.mu) + ", tau = " + std::to_string(j) + " dt", call, 512, 16.0,
                        j * 0.33 / 64, 32, 1e-12);
    }
}

BOOST_AUTO_TEST_CASE(exchange_layers_equal_margrabe) {
    BOOST_TEST_MESSAGE("exchange (the paper's drifts mu = 0.1, whose driver has a z term; and rho = 0.5) at tau = dt .. 3 "
                       "dt, dt = 1/16, on 64 intervals of [-8, 8]^2, L = 8 along the kink line: y and z equal Margrabe's to "
                       "1e-12 of their largest values at every grid point 8.5 sd inside the domain");
    const std::vector<ProblemParameters> cases{{{"mu1", 0.1}, {"mu2", 0.1}}, {{"rho", 0.5}}};
    for (const ProblemParameters& p : cases) {
        const exchange_option exchange(1.0, p);
        for (int j = 1; j <= 3; ++j)
            check_layer("exchange " + std::string(p.count("rho") ? "rho = 0.5" : "mu = 0.1") + ", tau = " +
                            std::to_string(j) + " dt",
                        exchange, 64, 8.0, j / 16.0, 8, 1e-12);
    }
}

BOOST_AUTO_TEST_SUITE_END()
