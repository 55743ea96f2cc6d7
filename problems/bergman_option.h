// Pricing with different borrowing and lending rates (Bergman, "Option pricing with differential interest rates",
// Rev. Financial Studies 8 (1995); the configuration of E, Han, Jentzen (2017) on one asset): a call spread
//   g = (S_T - strike1)^+ - 2 (S_T - strike2)^+   (S0 = 100, strikes 120 and 150, mu = 0.06, sigma = 0.2,
//   R_l = 0.04, R_b = 0.06, T = 0.5),
// hedged by a portfolio that lends at R_l and borrows at R_b >= R_l. In W-space, S = S0 exp((mu - sigma^2/2) t +
// sigma w) and z = sigma S dV/dS, so the stock held is pi = S dV/dS = z / sigma and the money borrowed (pi - y)^+; the
// wealth y moves by
//   dy = (R_l (y - pi) + mu pi - (R_b - R_l) (pi - y)^+) dt + sigma pi dW,
// which is -dy = f dt - z dW with
//   f(t, w, y, z) = -(R_l y + (mu - R_l) z / sigma - (R_b - R_l) (z / sigma - y)^+).
// With R_b = R_l = r this is bs-call's driver with delta = 0: the price is that of two Black-Scholes calls,
// C(strike1) - 2 C(strike2) at rate r (tests/test_nonlinear_benchmarks.cpp). Otherwise there is no closed form.
//
// The payoff has two kinks, at S_T = strike1 and S_T = strike2; terminal_kink() names both (KinkPoints), and the sweep
// smooths the terminal values around each (docs/scheme.md "Kinked terminal data"). With R_b = R_l, y_0 and z_0 then
// fall at the scheme's order against Black-Scholes (docs/scheme.md, "The nonlinear benchmarks"). The driver's
// (z / sigma - y)^+ is only Lipschitz: with R_b > R_l the differences of y_0 and z_0 across N fall at order about 1.5.
#pragma once
#include <cmath>
#include <string>

#include "option_checks.h"
#include "problem_support.h"

namespace bsde {

// The rates and strikes of Bergman's problems (here and bergman_2d.h), after check_rates: 0 <= R_l <= R_b, and the
// call spread's strike1 < strike2.
inline void check_differential_rates(double Rl, double Rb) {
    if (!(Rl >= 0)) throw InputError("--Rl " + format_number(Rl) + ": the lending rate must be >= 0");
    if (!(Rb >= Rl))
        throw InputError("--Rb " + format_number(Rb) + ": the borrowing rate must be >= the lending rate --Rl " +
                         format_number(Rl));
}
inline void check_spread_strikes(double strike1, double strike2) {
    if (!(strike2 > strike1))
        throw InputError("--strike2 " + format_number(strike2) + ": must be above --strike1 " + format_number(strike1));
}

struct bergman_option {
    static constexpr const char* name = "bergman";
    static constexpr const char* alias = "rates";
    static constexpr const char* description =
        "call spread, borrowing rate Rb > lending rate Rl (Bergman 1995): f nonlinear in (y, z), no closed form";
    static constexpr int dimension = 1;
    static constexpr bool has_exact_solution = false;
    static constexpr double default_T = 0.5, default_R = 16.0;
    static constexpr int default_L = 32;

    static std::vector<ParameterInfo> parameters() {
        return {{"S0", "initial stock price", 100.0},
                {"strike1", "the long call's strike (payoff (S - strike1)^+ - 2 (S - strike2)^+)", 120.0},
                {"strike2", "the two short calls' strike, above strike1", 150.0},
                {"Rl", "lending rate", 0.04},
                {"Rb", "borrowing rate, >= Rl", 0.06},
                {"mu", "drift of the stock", 0.06},
                {"sigma", "volatility", 0.2}};
    }

    double T, S0, strike1, strike2, Rl, Rb, mu, sigma;

    bergman_option(double terminal_time, const ProblemParameters& p)
        : T(terminal_time), S0(parameter_value<bergman_option>(p, "S0")),
          strike1(parameter_value<bergman_option>(p, "strike1")), strike2(parameter_value<bergman_option>(p, "strike2")),
          Rl(parameter_value<bergman_option>(p, "Rl")), Rb(parameter_value<bergman_option>(p, "Rb")),
          mu(parameter_value<bergman_option>(p, "mu")), sigma(parameter_value<bergman_option>(p, "sigma")) {
        check_parameter_names<bergman_option>(p);
        check_positive({{"S0", S0}, {"strike1", strike1}, {"strike2", strike2}, {"sigma", sigma}});
        check_rates({{"Rl", Rl}, {"Rb", Rb}, {"mu", mu}});
        check_differential_rates(Rl, Rb);
        check_spread_strikes(strike1, strike2);
    }

    // The state S(t, w) of the forward process.
    __host__ __device__ double state(double t, double w) const {
        return S0 * exp((mu - 0.5 * sigma * sigma) * t + sigma * w);
    }
    // dV/dS from z = sigma S dV/dS.
    __host__ __device__ double value_gradient(double t, double w, double z) const { return z / (sigma * state(t, w)); }

    // df/dz: -(mu - R_l) / sigma where the hedge lends (z / sigma < y), -(mu - R_b) / sigma where it borrows.
    double lending_z_gradient() const { return -(mu - Rl) / sigma; }
    double borrowing_z_gradient() const { return -(mu - Rb) / sigma; }
    // For the stability analysis (problem_support.h): the larger in size of the two.
    double driver_z_gradient() const {
        return std::fabs(lending_z_gradient()) >= std::fabs(borrowing_z_gradient()) ? lending_z_gradient()
                                                                                     : borrowing_z_gradient();
    }

    // As bs-call's (option_checks.h): S over the domain, and the price, which grows like -S e^0 above strike2 (g
    // falls like 2 strike2 - strike1 - S there), resolved by the domain, the grid and the rule. Where it grows the
    // hedge is short the stock and lends (z / sigma - y = strike1 - 2 strike2 < 0 at T), so the lending rate's df/dz
    // moves its weight.
    void check_grid(const SchemeSettings& settings, double dx) const {
        check_asset_range({"S", "--S0", "--sigma", "--mu " + format_number(mu) + ", --sigma " + format_number(sigma), S0,
                           mu - 0.5 * sigma * sigma, sigma, sigma},
                          T, settings.R, dx);
        check_price_growth({"--sigma", "w", sigma, lending_z_gradient()}, settings, dx);
    }

    static constexpr const char* kink_advice = "the kinks are at w = (ln(strike / S0) - (mu - sigma^2 / 2) T) / sigma "
                                               "for strike1 and strike2; change --sigma, the strikes, --S0 or --mu";
    // both strikes' kinks; ln strike - ln S0, not ln(strike / S0), as bs-call's
    __host__ __device__ KinkPoints terminal_kink() const { return KinkPoints{2, {kink_at(strike1), kink_at(strike2)}}; }
    __host__ __device__ double kink_at(double strike) const {
        return (log(strike) - log(S0) - (mu - 0.5 * sigma * sigma) * T) / sigma;
    }

    __host__ __device__ double terminal_y(double w) const {
        const double S = state(T, w);
        return fmax(S - strike1, 0.0) - 2.0 * fmax(S - strike2, 0.0);
    }
    __host__ __device__ double terminal_z(double w) const {
        const double S = state(T, w);
        return sigma * S * ((S > strike1 ? 1.0 : 0.0) - (S > strike2 ? 2.0 : 0.0));
    }
    __host__ __device__ double driver(double, double, double y, double z) const {
        const double pi = z / sigma;
        return -(Rl * y + (mu - Rl) * pi - (Rb - Rl) * fmax(pi - y, 0.0));
    }
};

}  // namespace bsde
