// Cubic Hermite interpolation on a uniform grid with slopes from fourth-order differences: the solve-free
// alternative to the 1D cubic spline. Its data are a slope per point from 5 values, where the
// spline's moments need a tridiagonal solve or the 73-term band of its inverse (spline_inverse_band.h).
//   s(x) = h00(t) v_i + h01(t) v_{i+1} + dx h10(t) s_i + dx h11(t) s_{i+1},  t = (x - x_i) / dx,
//   h00 = (1 + 2t)(1 - t)^2,  h01 = t^2 (3 - 2t),  h10 = t (1 - t)^2,  h11 = t^2 (t - 1).
// Slopes, exact for polynomials of degree 4 (so the interpolant reproduces cubics, and its error is O(dx^4):
// the slopes' O(dx^4) error enters times dx):
//   inside:   s_i = (v_{i-2} - 8 v_{i-1} + 8 v_{i+1} - v_{i+2}) / (12 dx)
//   ends:     s_0 = (-25 v_0 + 48 v_1 - 36 v_2 + 16 v_3 - 3 v_4) / (12 dx),
//             s_1 = (-3 v_0 - 10 v_1 + 18 v_2 - 6 v_3 + v_4) / (12 dx), and mirrored (signs flipped) at M, M-1.
#pragma once
#include "cubic_spline.h"
#include "../core/host_device.h"

namespace bsde {

// The Hermite cubic's weights: v0 = h00, v1 = h01, d0 = dx h10, d1 = dx h11.
__host__ __device__ inline CellWeights cubic_hermite_weights(double t, double dx) {
    const double u = 1.0 - t;
    return {(1.0 + 2.0 * t) * u * u, t * t * (3.0 - 2.0 * t), dx * t * u * u, -dx * t * t * u};
}

// The slope at entry k = column (M+1) + i of columns of M+1 values (M >= 4), by the differences above.
struct FourthOrderSlopes {
    const double* values;
    double* slopes;
    int M;
    double inv_12dx;  // 1 / (12 dx)
    __host__ __device__ void operator()(int k) const {
        const int i = k % (M + 1);
        const double* v = values + (k - i);
        double difference;
        if (i >= 2 && i <= M - 2)
            difference = v[i - 2] - 8.0 * v[i - 1] + 8.0 * v[i + 1] - v[i + 2];
        else if (i == 0)
            difference = -25.0 * v[0] + 48.0 * v[1] - 36.0 * v[2] + 16.0 * v[3] - 3.0 * v[4];
        else if (i == 1)
            difference = -3.0 * v[0] - 10.0 * v[1] + 18.0 * v[2] - 6.0 * v[3] + v[4];
        else if (i == M - 1)
            difference = 3.0 * v[M] + 10.0 * v[M - 1] - 18.0 * v[M - 2] + 6.0 * v[M - 3] - v[M - 4];
        else
            difference = 25.0 * v[M] - 48.0 * v[M - 1] + 36.0 * v[M - 2] - 16.0 * v[M - 3] + 3.0 * v[M - 4];
        slopes[k] = difference * inv_12dx;
    }
};

}  // namespace bsde
