// American options under Black-Scholes with dividend yield: the European option's equation, terminal data, state map,
// kink and checks (black_scholes_option.h), reflected on the obstacle of early exercise, y_t >= h(t, X_t) with h the
// payoff (sign (S - K))^+ (scheme.md, "Reflected BSDEs: American options"). The sweep projects each layer onto it,
// which prices the Bermudan option exercisable at the time grid; it tends to the American price as N grows. No closed
// form: without dividends the call equals the European call (never exercised early).
#pragma once
#include "black_scholes_option.h"

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

template <class Payoff>
struct american_option : black_scholes_option<Payoff> {
    using European = black_scholes_option<Payoff>;
    static constexpr bool has_exact_solution = false;

    american_option(double terminal_time, const ProblemParameters& given) : European(terminal_time, given) {}

    // h(t, w) = (sign (S(t, w) - K))^+ and dh/dw = sign sigma S where h > 0 (z where exercise binds).
    __host__ __device__ double obstacle(double t, double w) const { return this->payoff(t, w); }
    __host__ __device__ double obstacle_z(double t, double w) const { return this->payoff_gradient(t, w); }

    // The European closed form is not this option's price.
    double exact_y(double, double) const = delete;
    double exact_z(double, double) const = delete;
};

using american_call = american_option<AmericanCallPayoff>;
using american_put = american_option<AmericanPutPayoff>;

}  // namespace bsde
