// 5-point Gauss-Legendre quadrature on [-1, 1], exact for polynomials of degree <= 9, on the host and the device:
// the rules of the kinked terminal layers (expectation_rules.h) and the Kreiss average (terminal_smoothing.h).
#pragma once
#include "../core/host_device.h"

namespace bsde {

// The roots of P_5 and their weights.
struct GaussLegendre5 {
    static constexpr int points = 5;
    __host__ __device__ static double node(int q) {
        static constexpr double nodes[points] = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831,
                                                 0.9061798459386640};
        return nodes[q];
    }
    __host__ __device__ static double weight(int q) {
        static constexpr double weights[points] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
                                                   0.4786286704993665, 0.2369268850561891};
        return weights[q];
    }
};

}  // namespace bsde
