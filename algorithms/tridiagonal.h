// Thomas algorithm for one tridiagonal system per call; the host backends map it over the
// right-hand sides (or the systems of a batch) with thrust::for_each.
//   c'_0 = c_0 / b_0,  c'_i = c_i / (b_i - a_i c'_{i-1})
//   d'_0 = d_0 / b_0,  d'_i = (d_i - a_i d'_{i-1}) / (b_i - a_i c'_{i-1})
//   x_{m-1} = d'_{m-1},  x_i = d'_i - c'_i x_{i+1}
// No pivoting: meant for diagonally dominant systems such as the spline's.
#pragma once
#include "host_device.h"

namespace bsde {

struct ThomasSolve {
    const double* lower;
    const double* diag;
    const double* upper;
    double* rhs;       // overwritten by the solution
    double* scratch;   // m per system: c'
    int m;
    int matrix_stride; // 0: one matrix shared by all right-hand sides; m: a batch of matrices
    __host__ __device__ void operator()(int system) const {
        const double* a = lower + system * matrix_stride;
        const double* b = diag + system * matrix_stride;
        const double* c = upper + system * matrix_stride;
        double* d = rhs + system * m;
        double* c_prime = scratch + system * m;
        c_prime[0] = c[0] / b[0];
        d[0] = d[0] / b[0];
        for (int i = 1; i < m; ++i) {
            const double pivot = b[i] - a[i] * c_prime[i - 1];
            c_prime[i] = c[i] / pivot;
            d[i] = (d[i] - a[i] * d[i - 1]) / pivot;
        }
        for (int i = m - 2; i >= 0; --i) d[i] -= c_prime[i] * d[i + 1];
    }
};

}  // namespace bsde
