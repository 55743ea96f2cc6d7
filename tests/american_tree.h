// The binomial tree the American options' tests price against (test_american_options.cpp, test_american_exchange.cpp):
// an option on one asset under Black-Scholes with dividend yield, independent of the scheme.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

namespace bsde::test {

struct Option {
    double sign;  // +1 call, -1 put
    double S0, K, r, delta, sigma, T;
};

inline double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// The European price by the Black-Scholes formula with dividend yield, tau to expiry.
inline double black_scholes(const Option& o, double S, double tau) {
    const double d1 = (std::log(S / o.K) + (o.r - o.delta + 0.5 * o.sigma * o.sigma) * tau) / (o.sigma * std::sqrt(tau));
    const double d2 = d1 - o.sigma * std::sqrt(tau), s = o.sign;
    return s * (S * std::exp(-o.delta * tau) * normal_cdf(s * d1) - o.K * std::exp(-o.r * tau) * normal_cdf(s * d2));
}

// The put's exercise boundary at one step of a tree, from c - h at its nodes j = 0..i (S0 u^(2j - i), rising): the
// zero of c - h between the largest exercised node (h > 0, c <= h) and the next, linear in log S; NaN where no node
// is exercised or the next lies beyond the tree.
inline double put_boundary_at_step(const std::vector<double>& gap, const std::vector<double>& h, double S0, double u,
                                   int i) {
    int last = -1;
    for (int j = 0; j <= i; ++j)
        if (h[j] > 0.0 && gap[j] <= 0.0) last = j;
    if (last < 0 || last == i) return std::nan("");
    const double fraction = gap[last] / (gap[last] - gap[last + 1]);
    return S0 * std::pow(u, 2 * (last + fraction) - i);
}

// Cox-Ross-Rubinstein tree of n steps, u = e^(sigma sqrt(dt)), d = 1 / u, p = (e^((r - delta) dt) - d) / (u - d),
// exercisable at every `every`-th step (1: American; n / N: Bermudan at the scheme's N dates), with the values one
// step before expiry the Black-Scholes prices over dt (the smoothed tree of Broadie and Detemple, whose error falls
// as 1/n without CRR's odd-even oscillation). With `put_boundary` (a put), its exercise boundary at each exercisable
// step i < n - 1, entry i / every (put_boundary_at_step).
inline double smoothed_tree(const Option& o, int n, int every, std::vector<double>* put_boundary = nullptr) {
    const double dt = o.T / n, u = std::exp(o.sigma * std::sqrt(dt)), disc = std::exp(-o.r * dt);
    const double p = (std::exp((o.r - o.delta) * dt) - 1.0 / u) / (u - 1.0 / u);
    const auto exercise = [&](double S) { return std::max(o.sign * (S - o.K), 0.0); };
    std::vector<double> v(n), gap(n), h(n);
    if (put_boundary) put_boundary->assign((n - 2) / every + 1, std::nan(""));
    for (int j = 0; j < n; ++j) {  // step n - 1, node j: S0 u^(2j - (n - 1))
        const double S = o.S0 * std::pow(u, 2 * j - (n - 1));
        v[j] = black_scholes(o, S, dt);
        if ((n - 1) % every == 0) v[j] = std::max(v[j], exercise(S));
    }
    for (int i = n - 2; i >= 0; --i) {
        double S = o.S0 * std::pow(u, -i);
        const double u2 = u * u;
        const bool exercisable = i % every == 0;
        for (int j = 0; j <= i; ++j, S *= u2) {
            v[j] = disc * (p * v[j + 1] + (1.0 - p) * v[j]);
            if (!exercisable) continue;
            h[j] = exercise(S);
            gap[j] = v[j] - h[j];
            v[j] = std::max(v[j], h[j]);
        }
        if (exercisable && put_boundary) (*put_boundary)[i / every] = put_boundary_at_step(gap, h, o.S0, u, i);
    }
    return v[0];
}

// The smoothed tree at 2n and n steps, Richardson-extrapolated: 2 V_2n - V_n (Broadie and Detemple's BBSR).
inline double tree_price(const Option& o, int n, int every_of_n = 1) {
    return 2.0 * smoothed_tree(o, 2 * n, 2 * every_of_n) - smoothed_tree(o, n, every_of_n);
}

constexpr int tree_steps = 5000;  // Richardson of 5000 and 10000 steps

// tree_price still errs by about c / n where early exercise pays (the reduced call of am-exchange's defaults,
// test_american_exchange.cpp: 5.6e-4, 2.8e-4, 1.4e-4, 6.6e-5 below its limit at n = 1250..10000, in units of S2 =
// 100): tree_price at 2n and n, Richardson-extrapolated once more, 2 V_2n - V_n (within 1e-5 from n = 1250).
inline double twice_extrapolated_tree(const Option& o, int n) { return 2.0 * tree_price(o, 2 * n) - tree_price(o, n); }

}  // namespace bsde::test
