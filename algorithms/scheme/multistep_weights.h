// Multistep coefficients by not-a-knot spline quadrature (scheme.md, "Coefficients for any K"):
// a not-a-knot cubic spline through K+1 equally spaced points (a line for K = 1, the parabola for
// K = 2) integrated exactly.
//   gamma^K_{K,j} (paper's Table 1): integral over [0, K] divided by K,
//   gamma^1_{K,j} (paper's Table 2): integral over [0, 1].
#pragma once
#include <string>
#include <vector>

namespace bsde {

// The weights w_j, j = 0..K, with integral_a^b s(x) dx = sum_j w_j y_j for the spline s through (j, y_j),
// computed in long double and rounded:
std::vector<double> gamma_y_weights(int K);  // gamma^K_{K,j} = w_j over [0, K], divided by K
std::vector<double> gamma_z_weights(int K);  // gamma^1_{K,j} = w_j over [0, 1]

// The same weights as exact fractions ("p/q", or "p" for an integer), computed in rational arithmetic: their
// denominators reach about 10^18 at K = 32, more than a double's 53 bits pin down.
std::vector<std::string> gamma_y_fractions(int K);
std::vector<std::string> gamma_z_fractions(int K);

}  // namespace bsde
