// Gauss-Hermite quadrature for the weight exp(-x^2):
//   integral f(x) exp(-x^2) dx ~= sum_l weight_l f(node_l), exact for polynomials of degree <= 2L-1.
#pragma once
#include <vector>

namespace bsde {

constexpr int gauss_hermite_min_points = 1;
constexpr int gauss_hermite_max_points = 128;

struct GaussHermiteRule {
    std::vector<double> nodes;    // ascending, symmetric about 0
    std::vector<double> weights;  // positive, sum to sqrt(pi)
};

// Nodes and weights of the L-point rule, L in [gauss_hermite_min_points, gauss_hermite_max_points].
GaussHermiteRule gauss_hermite(int L);

}  // namespace bsde
