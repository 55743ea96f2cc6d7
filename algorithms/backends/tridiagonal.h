// Tridiagonal solves of the host backends: the Thomas algorithm for one system per call, mapped over the
// right-hand sides with thrust::for_each, and the partition method (below), which
// splits a system into chunks solved at once where there are fewer systems than cores.
//   c'_0 = c_0 / b_0,  c'_i = c_i / (b_i - a_i c'_{i-1})
//   d'_0 = d_0 / b_0,  d'_i = (d_i - a_i d'_{i-1}) / (b_i - a_i c'_{i-1})
//   x_{m-1} = d'_{m-1},  x_i = d'_i - c'_i x_{i+1}
// No pivoting: meant for diagonally dominant systems such as the spline's.
#pragma once
#include "../core/host_device.h"

namespace bsde {

// count systems of m rows: one matrix's bands, shared by all, and the right-hand side of each, overwritten by its
// solution.
struct TridiagonalSystems {
    const double* lower;
    const double* diag;
    const double* upper;
    double* rhs;
    int m;
    struct System {
        const double *a, *b, *c;
        double* d;
    };
    __host__ __device__ System system(int s) const {
        return {lower, diag, upper, rhs + s * m};
    }
};

struct ThomasSolve {
    TridiagonalSystems systems;
    double* scratch;   // m per system: c'
    __host__ __device__ void operator()(int system) const {
        const int m = systems.m;
        const auto [a, b, c, d] = systems.system(system);
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

// The partition method: rows s_k = floor(k m / P), k = 1..P-1, separate a system into P chunks of consecutive
// rows. With its couplings to the separators moved to the right, chunk k (rows lo..hi) solves three systems with
// its own rows' matrix A_k:
//   A_k g = d,   A_k v = -a_lo e_lo (no v for the first chunk),   A_k w = -c_hi e_hi (no w for the last),
// so that x_i = g_i + v_i x_{s_k} + w_i x_{s_(k+1)}. Putting x_(s-1) and x_(s+1) of the chunks beside separator s
// into its row gives a tridiagonal system in the separators' P - 1 unknowns X_k (lower a_s v_hi, diagonal
// b_s + a_s w_hi + c_s v_lo, upper c_s w_lo, right side d_s - a_s g_hi - c_s g_lo; hi of chunk k - 1, lo of
// chunk k), solved by Thomas; then every chunk row adds its two separators' terms. A diagonally dominant system
// keeps the chunks' and the separators' systems diagonally dominant. Three passes: the chunks (in parallel),
// the separators (one thread per system), the rows (in parallel). Needs m >= 3 P.
struct TridiagonalPartition {
    int m, chunks;
    __host__ __device__ int separator(int k) const {  // s_k for k = 1..chunks-1
        return static_cast<int>(static_cast<long long>(k) * m / chunks);
    }
    __host__ __device__ int first_row(int chunk) const { return chunk == 0 ? 0 : separator(chunk) + 1; }
    __host__ __device__ int last_row(int chunk) const { return chunk == chunks - 1 ? m - 1 : separator(chunk + 1) - 1; }
};

// Pass 1, per (system, chunk) = task / chunks, task % chunks: g over the chunk's rows of rhs, v and w in the
// scratch arrays (m each per system), with c' in a third.
struct TridiagonalChunkSolve {
    TridiagonalSystems systems;
    double* c_prime;
    double* v;
    double* w;
    TridiagonalPartition partition;
    __host__ __device__ void operator()(int task) const {
        const int system = task / partition.chunks, chunk = task % partition.chunks, m = partition.m;
        const auto [a, b, c, d] = systems.system(system);
        double* cp = c_prime + system * m;
        double* vs = v + system * m;
        double* ws = w + system * m;
        const int lo = partition.first_row(chunk), hi = partition.last_row(chunk);
        const bool has_left = chunk > 0, has_right = chunk < partition.chunks - 1;
        cp[lo] = c[lo] / b[lo];
        d[lo] = d[lo] / b[lo];
        vs[lo] = has_left ? -a[lo] / b[lo] : 0.0;
        double pivot = b[lo];
        for (int i = lo + 1; i <= hi; ++i) {
            pivot = b[i] - a[i] * cp[i - 1];
            cp[i] = c[i] / pivot;
            d[i] = (d[i] - a[i] * d[i - 1]) / pivot;
            vs[i] = -a[i] * vs[i - 1] / pivot;
        }
        ws[hi] = has_right ? -c[hi] / pivot : 0.0;
        for (int i = hi - 1; i >= lo; --i) {
            d[i] -= cp[i] * d[i + 1];
            vs[i] -= cp[i] * vs[i + 1];
            ws[i] = -cp[i] * ws[i + 1];
        }
    }
};

// Pass 2, per system: the separators' system by Thomas, its c' kept in v and its solution X_k in rhs at s_k
// (rows no chunk uses).
struct TridiagonalSeparatorSolve {
    TridiagonalSystems systems;
    double* v;
    const double* w;
    TridiagonalPartition partition;
    __host__ __device__ void operator()(int system) const {
        const int m = partition.m;
        const auto [a, b, c, d] = systems.system(system);
        double* vs = v + system * m;
        const double* ws = w + system * m;
        int previous = -1;  // the separator before s, whose c' and X' the elimination carries
        for (int k = 1; k < partition.chunks; ++k) {
            const int s = partition.separator(k), hi = s - 1, lo = s + 1;
            const double reduced_lower = a[s] * vs[hi], reduced_upper = c[s] * ws[lo];
            const double reduced_diag = b[s] + a[s] * ws[hi] + c[s] * vs[lo];
            const double reduced_rhs = d[s] - a[s] * d[hi] - c[s] * d[lo];
            const double pivot = previous < 0 ? reduced_diag : reduced_diag - reduced_lower * vs[previous];
            vs[s] = reduced_upper / pivot;
            d[s] = (reduced_rhs - (previous < 0 ? 0.0 : reduced_lower * d[previous])) / pivot;
            previous = s;
        }
        for (int k = partition.chunks - 2; k >= 1; --k) {
            const int s = partition.separator(k);
            d[s] -= vs[s] * d[partition.separator(k + 1)];
        }
    }
};

// Pass 3, per (system, chunk) as pass 1: x_i = g_i + v_i X_left + w_i X_right on the chunk's rows.
struct TridiagonalChunkCombine {
    double* rhs;
    const double* v;
    const double* w;
    TridiagonalPartition partition;
    __host__ __device__ void operator()(int task) const {
        const int system = task / partition.chunks, chunk = task % partition.chunks, m = partition.m;
        double* d = rhs + system * m;
        const double* vs = v + system * m;
        const double* ws = w + system * m;
        const double left = chunk > 0 ? d[partition.separator(chunk)] : 0.0;
        const double right = chunk < partition.chunks - 1 ? d[partition.separator(chunk + 1)] : 0.0;
        for (int i = partition.first_row(chunk); i <= partition.last_row(chunk); ++i) d[i] += vs[i] * left + ws[i] * right;
    }
};

}  // namespace bsde
