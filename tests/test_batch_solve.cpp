// Batched solves (BackendOps::solve_batch, the sweep's Members): a batch of parameter sets in one sweep gives what
// the same sets give one at a time (1D and 2D), its options' Greeks converge to Black-Scholes' and Margrabe's closed
// forms, and a member the problem refuses is named.
#include <cmath>
#include <string>
#include <vector>

#include "test_support.h"

using namespace bsde;
using namespace bsde::test;

namespace {

SchemeSettings batch_settings(int K, int N, double T, double R) {
    SchemeSettings s;
    s.Ky = s.Kz = K;
    s.N = N;
    s.T = T;
    s.R = R;
    return s;
}

// Every member of `members` solved alone against the batch: y_0, z_0 and (options) the Greeks to 1e-12 of their
// magnitude (at least 1).
void check_batch_equals_one_at_a_time(Backend backend, const std::string& problem, const SchemeSettings& settings,
                                      const std::vector<ProblemParameters>& members) {
    const SolveResult batch = backend_ops(backend).solve_batch(problem, settings, members);
    BOOST_REQUIRE_EQUAL(batch.members.size(), members.size());
    for (std::size_t b = 0; b < members.size(); ++b) {
        SchemeSettings alone = settings;
        alone.problem_parameters = members[b];
        const SolveResult one = backend_ops(backend).solve(problem, alone);
        BOOST_REQUIRE_EQUAL(one.members.size(), 1u);
        const MemberSolution &got = batch.members[b], &expected = one.members[0];
        const std::string what = problem + " member " + std::to_string(b + 1) + " on " + to_string(backend) + ": ";
        const auto same = [&](const std::string& name, double e, double g) {
            check_close(what + name, e, g, 1e-12, std::max(1.0, std::fabs(e)));
        };
        const auto same_components = [&](const std::string& name, const std::vector<double>& e,
                                          const std::vector<double>& g) {
            BOOST_REQUIRE_EQUAL(e.size(), g.size());
            for (std::size_t k = 0; k < e.size(); ++k) same(name + "[" + std::to_string(k + 1) + "]", e[k], g[k]);
        };
        same("y_0", expected.y0, got.y0);
        same_components("z_0", expected.z0, got.z0);
        same("y_0 against the solve's own", one.y0, got.y0);
        if (expected.has_greeks) {
            same_components("delta", expected.delta, got.delta);
            same_components("gamma", expected.gamma, got.gamma);
            same("theta", expected.theta, got.theta);
        }
    }
}

double normal_density(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2.0 * 3.14159265358979323846); }
double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// Black-Scholes' Greeks of a call with dividend yield q at spot S, time to expiry T (Hull, "Options, Futures and
// Other Derivatives", 17.13): delta = e^(-q T) N(d1), gamma = e^(-q T) N'(d1) / (S sigma sqrt T),
// theta = -S N'(d1) sigma e^(-q T) / (2 sqrt T) + q S N(d1) e^(-q T) - r K e^(-r T) N(d2) (dV/dt, t calendar time).
struct CallGreeks {
    double delta, gamma, theta;
};
CallGreeks black_scholes_call_greeks(double S, double K, double r, double q, double sigma, double T) {
    const double d1 = (std::log(S / K) + (r - q + 0.5 * sigma * sigma) * T) / (sigma * std::sqrt(T));
    const double d2 = d1 - sigma * std::sqrt(T);
    return {std::exp(-q * T) * normal_cdf(d1), std::exp(-q * T) * normal_density(d1) / (S * sigma * std::sqrt(T)),
            -S * normal_density(d1) * sigma * std::exp(-q * T) / (2 * std::sqrt(T)) +
                q * S * normal_cdf(d1) * std::exp(-q * T) - r * K * std::exp(-r * T) * normal_cdf(d2)};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(batch_solve)

BSDE_TEST_CASE_PER_BACKEND(a_batch_equals_its_members_one_at_a_time) {
    BOOST_TEST_MESSAGE("bs-call, K = 3, N = 16, T = 0.33: strikes 80, 100, 125 x sigma 0.15, 0.3 in one sweep (the "
                       "Feynman-Kac start-up) against each solved alone; bergman (nonlinear, kinked: the multistep "
                       "start-up on its finer grid), K = 3, N = 16, Rb 0.06, 0.1 x strike1 110, 120; exchange (2D; the "
                       "separable pass, then the fused one, each member's kink line its own), K = 2, N = 6, R = 5, "
                       "rho -0.5, 0.3 x sigma1 0.2, 0.3: y_0, z_0 and the Greeks to 1e-12");
    std::vector<ProblemParameters> calls;
    for (double sigma : {0.15, 0.3})
        for (double strike : {80.0, 100.0, 125.0}) calls.push_back({{"strike", strike}, {"sigma", sigma}});
    check_batch_equals_one_at_a_time(backend, "bs-call", batch_settings(3, 16, 0.33, 16), calls);
    std::vector<ProblemParameters> spreads;
    for (double Rb : {0.06, 0.1})
        for (double strike : {110.0, 120.0}) spreads.push_back({{"Rb", Rb}, {"strike1", strike}});
    check_batch_equals_one_at_a_time(backend, "bergman", batch_settings(3, 16, 0.5, 16), spreads);
    std::vector<ProblemParameters> exchanges;
    for (double sigma1 : {0.2, 0.3})
        for (double rho : {-0.5, 0.3}) exchanges.push_back({{"rho", rho}, {"sigma1", sigma1}});
    SchemeSettings exchange = batch_settings(2, 6, 1.0, 5);
    check_batch_equals_one_at_a_time(backend, "exchange", exchange, exchanges);
    exchange.separable_pass = false;
    check_batch_equals_one_at_a_time(backend, "exchange", exchange, exchanges);
}

BOOST_AUTO_TEST_CASE(greeks_converge_to_black_scholes) {
    BOOST_TEST_MESSAGE("bs-call members (strike 90, 110; sigma 0.2, r = 0.03, delta = 0.04, T = 0.33), K = 3, "
                       "N = 16, 32, 64 on omp: delta, gamma and theta against Black-Scholes' closed forms (independent "
                       "of the problem's), their errors falling at mean order >= 2.5 (z's order 3; gamma and theta "
                       "differentiate z on the grid with fourth-order differences; measured 2.7 to 3.6)");
    const std::vector<ProblemParameters> members{{{"strike", 90.0}}, {{"strike", 110.0}}};
    std::vector<std::vector<double>> errors(members.size() * 3);
    for (int N : {16, 32, 64}) {
        const SolveResult r = backend_ops(Backend::omp).solve_batch("bs-call", batch_settings(3, N, 0.33, 16), members);
        for (std::size_t b = 0; b < members.size(); ++b) {
            const MemberSolution& m = r.members[b];
            BOOST_REQUIRE(m.has_greeks);
            const CallGreeks exact = black_scholes_call_greeks(100.0, members[b].at("strike"), 0.03, 0.04, 0.2, 0.33);
            check_close("exact delta, strike " + std::to_string(b), exact.delta, m.delta_exact[0], 1e-9);
            check_close("exact gamma, strike " + std::to_string(b), exact.gamma, m.gamma_exact.at(0), 1e-9);
            check_close("exact theta, strike " + std::to_string(b), exact.theta, m.theta_exact, 1e-8,
                        std::fabs(exact.theta));
            errors[3 * b].push_back(std::fabs(m.delta[0] - exact.delta));
            errors[3 * b + 1].push_back(std::fabs(m.gamma.at(0) - exact.gamma));
            errors[3 * b + 2].push_back(std::fabs(m.theta - exact.theta));
        }
    }
    const char* names[] = {"delta", "gamma", "theta"};
    for (std::size_t k = 0; k < errors.size(); ++k) {
        const std::vector<double>& e = errors[k];
        const double order = observed_order(e[0], e[2]) / 2;
        const std::string what = std::string(names[k % 3]) + ", strike " + (k < 3 ? "90" : "110");
        BOOST_TEST_MESSAGE(what << ": errors " << scientific(e[0]) << ", " << scientific(e[1]) << ", "
                                << scientific(e[2]) << ", mean order " << order);
        BOOST_CHECK_MESSAGE(order >= 2.5, what << ": mean order expected >= 2.5, got " << order << " (errors "
                                               << scientific(e[0]) << ", " << scientific(e[1]) << ", "
                                               << scientific(e[2]) << ")");
    }
}

BOOST_AUTO_TEST_CASE(exchange_greeks_converge_to_margrabe) {
    BOOST_TEST_MESSAGE("exchange members rho = -0.5, 0.3 (S1 = S2 = 100, sigma 0.25, 0.3, no dividends, T = 1), K = 2, "
                       "R = 5, N = 8, 16 on omp, against Margrabe's formula V = S1 N(d1) - S2 N(d2) (Margrabe 1978; "
                       "sigma^2 = s1^2 + s2^2 - 2 rho s1 s2, d1 = (ln(S1/S2) + sigma^2 T / 2) / (sigma sqrt T)): delta "
                       "= (N(d1), -N(d2)), gamma_11 = N'(d1) / (S1 sigma sqrt T), gamma_12 = -N'(d1) / (S2 sigma sqrt "
                       "T), gamma_22 = S1 N'(d1) / (S2^2 sigma sqrt T), theta = -S1 N'(d1) sigma / (2 sqrt T); the "
                       "errors falling at order >= 1.5 (z's order 2 at K = 2)");
    const std::vector<double> rhos{-0.5, 0.3};
    std::vector<ProblemParameters> members;
    for (double rho : rhos) members.push_back({{"rho", rho}});
    const char* names[] = {"delta_1", "delta_2", "gamma_11", "gamma_12", "gamma_21", "gamma_22", "theta"};
    constexpr int greeks = 7;
    std::vector<std::vector<double>> errors(greeks * rhos.size());
    for (int N : {8, 16}) {
        const SolveResult r = backend_ops(Backend::omp).solve_batch("exchange", batch_settings(2, N, 1.0, 5), members);
        for (std::size_t b = 0; b < rhos.size(); ++b) {
            const double S = 100.0, sigma = std::sqrt(0.25 * 0.25 + 0.3 * 0.3 - 2 * rhos[b] * 0.25 * 0.3);
            const double d1 = 0.5 * sigma, d2 = d1 - sigma;  // ln(S1/S2) = 0, T = 1
            const double exact[greeks] = {normal_cdf(d1),
                                          -normal_cdf(d2),
                                          normal_density(d1) / (S * sigma),
                                          -normal_density(d1) / (S * sigma),
                                          -normal_density(d1) / (S * sigma),
                                          normal_density(d1) / (S * sigma),
                                          -S * normal_density(d1) * sigma / 2};
            const MemberSolution& m = r.members[b];
            BOOST_REQUIRE(m.has_greeks && m.delta.size() == 2 && m.gamma.size() == 4);
            const double got[greeks] = {m.delta[0], m.delta[1], m.gamma[0], m.gamma[1], m.gamma[2], m.gamma[3], m.theta};
            const double problem_exact[greeks] = {m.delta_exact[0], m.delta_exact[1], m.gamma_exact[0], m.gamma_exact[1],
                                                  m.gamma_exact[2], m.gamma_exact[3], m.theta_exact};
            for (int k = 0; k < greeks; ++k) {
                const std::string what = "rho = " + std::to_string(rhos[b]) + ", " + names[k];
                check_close(what + ", the problem's exact value", exact[k], problem_exact[k], 1e-8,
                            std::max(1.0, std::fabs(exact[k])));
                errors[greeks * b + k].push_back(std::fabs(got[k] - exact[k]));
            }
        }
    }
    for (std::size_t k = 0; k < errors.size(); ++k) {
        const double order = observed_order(errors[k][0], errors[k][1]);
        const std::string what = "rho = " + std::to_string(rhos[k / greeks]) + ", " + names[k % greeks];
        BOOST_TEST_MESSAGE(what << ": errors " << scientific(errors[k][0]) << ", " << scientific(errors[k][1])
                                << ", order " << order);
        BOOST_CHECK_MESSAGE(order >= 1.5, what << ": order expected >= 1.5, got " << order << " (errors "
                                               << scientific(errors[k][0]) << ", " << scientific(errors[k][1]) << ")");
    }
}

BOOST_AUTO_TEST_CASE(a_refused_member_is_named) {
    BOOST_TEST_MESSAGE("a batch whose second member has sigma = -0.2: InputError 'member 2: ...' before any solve");
    const std::vector<ProblemParameters> members{{{"sigma", 0.2}}, {{"sigma", -0.2}}};
    try {
        backend_ops(Backend::serial).solve_batch("bs-call", batch_settings(3, 16, 0.33, 16), members);
        BOOST_ERROR("expected an InputError naming member 2, got none");
    } catch (const InputError& e) {
        const std::string message = e.what();
        BOOST_CHECK_MESSAGE(message.rfind("member 2: ", 0) == 0 && message.find("sigma") != std::string::npos &&
                                message.find('\n') == std::string::npos,
                            "expected one line 'member 2: ...' naming sigma, got '" << message << "'");
    }
}

BOOST_AUTO_TEST_SUITE_END()
