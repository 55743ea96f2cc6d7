// Quadrature rules for the conditional expectations E[phi(w + dW)], dW ~ N(0, v), of one stored layer.
// A rule calls sink.add(dW, omega) for each of its increments, so that E[phi] ~= sum omega phi(w + dW).
//
//   GaussHermiteExpectation: dW = sqrt(2 v) a_l, omega = omega_l / sqrt(pi) (scheme.md), for smooth layers.
//   CellGaussLegendreExpectation: for the terminal layer of kinked data, which Gauss-Hermite cannot resolve
//     (its nodes are sqrt(2 v) * ~0.4 apart, the kink or its Kreiss-smoothed form only a few dx wide; the
//     resulting error is O(v) pointwise, e.g. 1e-2 for Example 3 at N = 32). The integral of the layer's
//     spline, a cubic on each grid cell, times the normal density is taken cell by cell: w is a grid point,
//     so the cells [w + m dx, w + (m+1) dx] are the spline's pieces; each is cut into s equal parts,
//     s = ceil(2 dx / sqrt(v)), with 5-point Gauss-Legendre on each, over |dW| <= 8.5 sqrt(v) rounded
//     out to whole cells (the normal mass beyond is below 2e-17).
#pragma once
#include <cmath>

#include "host_device.h"

namespace bsde {

// 5-point Gauss-Legendre on [-1, 1]: roots of P_5 and their weights.
struct GaussLegendre5 {
    static constexpr int points = 5;
    __host__ __device__ static double node(int q) {
        const double nodes[points] = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831,
                                      0.9061798459386640};
        return nodes[q];
    }
    __host__ __device__ static double weight(int q) {
        const double weights[points] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
                                        0.4786286704993665, 0.2369268850561891};
        return weights[q];
    }
};

struct GaussHermiteExpectation {
    const double* nodes;    // a_l
    const double* weights;  // omega_l / sqrt(pi)
    int L;
    template <class Sink>
    __host__ __device__ void operator()(double variance, Sink& sink) const {
        const double shift = sqrt(2.0 * variance);
        for (int l = 0; l < L; ++l) sink.add(shift * nodes[l], weights[l]);
    }
};

struct CellGaussLegendreExpectation {
    double dx;
    static constexpr double reach = 8.5;  // standard deviations covered on each side
    template <class Sink>
    __host__ __device__ void operator()(double variance, Sink& sink) const {
        const double sd = sqrt(variance);
        const int cells = static_cast<int>(ceil(reach * sd / dx));
        const int parts = static_cast<int>(ceil(2.0 * dx / sd));
        const double h = dx / parts, density = 1.0 / sqrt(2.0 * 3.14159265358979323846 * variance);
        for (int m = -cells * parts; m < cells * parts; ++m)
            for (int q = 0; q < GaussLegendre5::points; ++q) {
                const double dW = (m + 0.5 * (1.0 + GaussLegendre5::node(q))) * h;
                sink.add(dW, 0.5 * h * GaussLegendre5::weight(q) * density * exp(-0.5 * dW * dW / variance));
            }
    }
};

}  // namespace bsde
