// American options: a European option's equation, terminal data, state map, kink and checks, reflected on the
// obstacle of early exercise, y_t >= h(t, X_t) with h the option's payoff at t (scheme.md, "Reflected BSDEs: American
// options"): under Black-Scholes with dividends the put and the call, h = (sign (S - K))^+ (black_scholes_option.h),
// and on two assets the exchange option, h = (S1 - S2)^+ (exchange_option.h). The sweep projects each layer onto it,
// which prices the Bermudan option exercisable at the time grid; it tends to the American price as N grows. No closed
// form: without dividends the call equals the European call (never exercised early), and so does the exchange option
// without dividends on asset 1.
//
// The exchange option reduces to a call (Bjerksund and Stensland 1993, "American exchange options and a put-call
// transformation"): with asset 2 as numeraire, V(S1, S2, t) = S2 C(S1 / S2, t), C the American call on P = S1 / S2
// with strike 1, interest rate delta2, dividend yield delta1 and volatility sigma~ (Margrabe's), which
// tests/test_american_exchange.cpp prices by a binomial tree. Its default delta1 = 0.1 (asset 1 pays dividends,
// asset 2 none) makes early exercise worth 1.15 at ex5's other defaults: 11.6131 against Margrabe's 10.4603.
#pragma once
#include "black_scholes_option.h"
#include "exchange_option.h"

namespace bsde {

struct AmericanCallPayoff : CallPayoff {
    static constexpr const char* name = "am-call";
    static constexpr const char* alias = "american-call";
    static constexpr const char* description = "American call (exercise at the time grid), Black-Scholes with dividends";
};

struct AmericanPutPayoff : PutPayoff {
    static constexpr const char* name = "am-put";
    static constexpr const char* alias = "american-put";
    static constexpr const char* description = "American put (exercise at the time grid), Black-Scholes with dividends";
};

struct AmericanExchange {
    static constexpr const char* name = "am-exchange";
    static constexpr const char* alias = "american-exchange";
    static constexpr const char* description =
        "American exchange option (2D, exercise at the time grid) on two correlated GBMs with dividends";
    static constexpr double default_delta1 = 0.1;
};

template <class European>
struct american_option : European {
    static constexpr bool has_exact_solution = false;
    using Pt = Point<European::dimension>;

    using European::European;

    // h(t, w) = the payoff of exercise at (t, w), and its gradient in w where h > 0 (z where exercise binds).
    __host__ __device__ double obstacle(double t, Pt w) const { return this->payoff(t, w); }
    __host__ __device__ Pt obstacle_z(double t, Pt w) const { return this->payoff_gradient(t, w); }

    // The European closed form is not this option's price.
    double exact_y(double, Pt) const = delete;
    Pt exact_z(double, Pt) const = delete;
};

using american_call = american_option<black_scholes_option<AmericanCallPayoff>>;
using american_put = american_option<black_scholes_option<AmericanPutPayoff>>;
using american_exchange = american_option<exchange_option_of<AmericanExchange>>;

}  // namespace bsde
