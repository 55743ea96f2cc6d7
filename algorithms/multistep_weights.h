// Multistep coefficients by not-a-knot spline quadrature (scheme.md, "Coefficients for any K"):
// a not-a-knot cubic spline through K+1 equally spaced points (a line for K = 1, the parabola for
// K = 2) integrated exactly.
//   gamma^K_{K,j} (paper's Table 1): integral over [0, K] divided by K,
//   gamma^1_{K,j} (paper's Table 2): integral over [0, 1].
#pragma once
#include <string>
#include <vector>

namespace bsde {

// Weights w_j, j = 0..K, with integral_a^b s(x) dx = sum_j w_j y_j for the spline s through (j, y_j).
std::vector<double> spline_quadrature_weights(int K, double a, double b);

std::vector<double> gamma_y_weights(int K);  // gamma^K_{K,j}, j = 0..K
std::vector<double> gamma_z_weights(int K);  // gamma^1_{K,j}, j = 0..K

// "p/q" when a fraction with denominator <= 10^9 reproduces x to 1e-15 relative, else empty.
std::string as_fraction(double x);

}  // namespace bsde
