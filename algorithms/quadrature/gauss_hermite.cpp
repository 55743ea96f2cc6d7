#include "gauss_hermite.h"

#include <cmath>
#include <string>

#include "../core/errors.h"

namespace bsde {
namespace {

// Orthonormal Hermite polynomials by their three-term recurrence
//   p_0 = pi^(-1/4),  p_j = x sqrt(2/j) p_{j-1} - sqrt((j-1)/j) p_{j-2},
// returning p_L(x) and p_L'(x) = sqrt(2L) p_{L-1}(x).
struct HermiteValue {
    long double value, derivative;
};

HermiteValue orthonormal_hermite(int L, long double x) {
    const long double pi = 3.141592653589793238462643383279502884L;
    long double previous = 0.0L;
    long double current = 1.0L / std::pow(pi, 0.25L);
    for (int j = 1; j <= L; ++j) {
        const long double next = x * std::sqrt(2.0L / j) * current - std::sqrt((j - 1.0L) / j) * previous;
        previous = current;
        current = next;
    }
    return {current, std::sqrt(2.0L * L) * previous};
}

// Starting guess for the k-th largest root (k = 0, 1, ...), from the asymptotic
// estimates of the largest roots and linear extrapolation for the others.
long double initial_root_guess(int L, int k, const std::vector<long double>& roots) {
    const long double n = L;
    if (k == 0) return std::sqrt(2 * n + 1) - 1.85575L * std::pow(2 * n + 1, -1.0L / 6);
    if (k == 1) return roots[0] - 1.14L * std::pow(n, 0.426L) / roots[0];
    if (k == 2) return 1.86L * roots[1] - 0.86L * roots[0];
    if (k == 3) return 1.91L * roots[2] - 0.91L * roots[1];
    return 2 * roots[k - 1] - roots[k - 2];
}

}  // namespace

GaussHermiteRule gauss_hermite(int L) {
    if (L < gauss_hermite_min_points || L > gauss_hermite_max_points)
        throw InputError("--L " + std::to_string(L) + ": Gauss-Hermite points must be in [" +
                         std::to_string(gauss_hermite_min_points) + ", " +
                         std::to_string(gauss_hermite_max_points) + "]");
    const int positive_roots = (L + 1) / 2;  // the middle root 0 included for odd L
    std::vector<long double> roots(positive_roots), weights(positive_roots);
    for (int k = 0; k < positive_roots; ++k) {
        long double x = initial_root_guess(L, k, roots);
        HermiteValue p{};
        for (int iteration = 0; iteration < 100; ++iteration) {  // Newton on p_L
            p = orthonormal_hermite(L, x);
            const long double step = p.value / p.derivative;
            x -= step;
            if (std::fabs(step) <= 1e-19L * (1 + std::fabs(x))) break;
        }
        p = orthonormal_hermite(L, x);
        roots[k] = x;
        weights[k] = 2.0L / (p.derivative * p.derivative);  // w = 2 / p_L'(x)^2 for orthonormal p
    }
    if (L % 2 == 1) roots[positive_roots - 1] = 0.0L;

    GaussHermiteRule rule;
    rule.nodes.resize(L);
    rule.weights.resize(L);
    for (int k = 0; k < positive_roots; ++k) {  // mirror: exact symmetry of the rule
        rule.nodes[k] = -static_cast<double>(roots[k]);
        rule.nodes[L - 1 - k] = static_cast<double>(roots[k]);
        rule.weights[k] = rule.weights[L - 1 - k] = static_cast<double>(weights[k]);
    }
    return rule;
}

}  // namespace bsde
