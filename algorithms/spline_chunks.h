// The spline moments by the Thomas algorithm in chunks ("chunks"): each thread eliminates one chunk of rows of one
// column with the factors of A = spline_system(M, boundary), made once on the host and shared by every column,
// starting `margin` rows before its chunk and ending `margin` rows after it. O(1) work a row where the inverse band
// (spline_inverse_band.h) takes 2W + 1 = 73 terms an entry, and (M+1) / chunk_rows threads a column where the
// tridiagonal solve takes one.
//
// The recurrences (tridiagonal.h), with e_i = a_i / pivot_i:
//   forward:  d'_i = r_i / pivot_i - e_i d'_{i-1}            (d'_{-1} = 0; a_0 = 0)
//   backward: m_i = d'_i - c'_i m_{i+1}                      (m_{M+1} = 0; c'_M = 0)
// r_i = 6/dx^2 (v_{i-1} - 2 v_i + v_{i+1}) for 1 <= i <= M-1, r_0 = r_M = 0 (SplineRightHandSide); not-a-knot ends
// after the solve (NotAKnotEnds). Why a margin suffices: every e_i and c'_i of the spline's matrix lies in
// [0, rho], rho = 2 - sqrt 3 ~ 0.268, the limit their recurrences rise to from 0 (rows 1 and M-1) or 1/4 (natural:
// c'_1 = 1/4 < rho; the pivots fall from 4 to 2 + sqrt 3). So a d' started from 0 `margin` rows early differs from
// the full sweep's by at most rho^margin |d'| at the chunk's first row, and likewise m at its last row, and the
// difference shrinks by rho a row after that: with margin = 40, rho^40 ~ 1.4e-23 of the values, far below their
// rounding (the inverse band's truncation, rho^36, was chosen by the same bound). A chunk that starts within the
// margin of row 0 starts at row 0, one that ends within it of row M at row M: exactly the full sweep there.
// tests/test_spline.cpp checks the moments against the Thomas solve of tridiagonal.h for M = 4 .. 1000, both ends.
#pragma once
#include <vector>

#include "cubic_spline.h"
#include "host_device.h"

namespace bsde {

// The Thomas factors of spline_system(M, boundary) (M >= 4; throws InputError otherwise), M+1 each:
// scaled_lower_i = a_i / pivot_i, inverse_pivot_i = 1 / pivot_i, upper_prime_i = c'_i = c_i / pivot_i, with
// pivot_0 = b_0, pivot_i = b_i - a_i c'_{i-1}.
struct SplineThomasFactors {
    std::vector<double> scaled_lower, inverse_pivot, upper_prime;
};
SplineThomasFactors spline_thomas_factors(int M, SplineBoundary boundary);

// Moments of `columns` columns of M+1 values (moments likewise, not overlapping the values), task = chunk
// columns + column for chunk = 0..chunks-1 (neighbouring tasks: one chunk of neighbouring columns, so that on the
// GPU a warp reads the same row's factors). Chunk k holds the rows first(k)..first(k+1)-1, first(k) =
// floor(k (M+1) / chunks): at least 3 rows when chunks <= (M+1) / 3, as the not-a-knot ends need (chunks_for).
// The chunk's d' go to its moments, which the backward sweep then overwrites; the d' of the margin after it, which
// other chunks own, stay in the thread's own array. It reads the values only after the work before it is done
// (awaits_previous_work), as the inverse band does.
struct SplineMomentsByChunks {
    static constexpr bool awaits_previous_work = true;
    static constexpr int margin = 40;
    static constexpr int chunk_rows = 64;  // rows a chunk, at most (chunks_for)
    const double* values;
    double* moments;
    const double* scaled_lower;
    const double* inverse_pivot;
    const double* upper_prime;
    double inv_dx2;
    int M, columns, chunks;
    bool not_a_knot;

    // The chunks of a column of M+1 rows: as many as chunks of chunk_rows rows take, each at least 3 rows.
    static int chunks_for(int M) {
        const int chunks = (M + chunk_rows) / chunk_rows;  // ceil((M+1) / chunk_rows)
        return chunks < (M + 1) / 3 ? chunks : (M + 1) / 3;
    }
    __host__ __device__ int first(int chunk) const {
        return static_cast<int>(static_cast<long long>(chunk) * (M + 1) / chunks);
    }

    template <class Lanes>
    __host__ __device__ void operator()(int task, const Lanes& lanes) const {
        lanes.wait_for_previous_work();
        if (!lanes.stores()) return;  // a spare thread of the last block (cuda)
        const int column = task % columns, chunk = task / columns;
        const double* v = values + static_cast<long long>(column) * (M + 1);
        double* m = moments + static_cast<long long>(column) * (M + 1);
        const int begin = first(chunk), end = first(chunk + 1);  // the chunk's rows: begin..end-1
        const int from = begin - margin > 0 ? begin - margin : 0;
        const int to = end - 1 + margin < M ? end - 1 + margin : M;
        const double scale = 6.0 * inv_dx2;

        // forward over from..to: the margin before the chunk, the chunk (into m), the margin after it (into after)
        double after[margin];
        double d = 0.0;
        double before = from > 0 ? v[from - 1] : 0.0, here = v[from];
        for (int i = from; i <= to; ++i) {
            const double next = i < M ? v[i + 1] : 0.0;
            const double r = i == 0 || i == M ? 0.0 : scale * (before - 2.0 * here + next);
            d = r * inverse_pivot[i] - scaled_lower[i] * d;
            if (i >= end)
                after[i - end] = d;
            else if (i >= begin)
                m[i] = d;
            before = here;
            here = next;
        }
        // backward from `to` down to the chunk's first row
        double x = 0.0;  // m_{i+1}
        for (int i = to; i >= end; --i) x = after[i - end] - upper_prime[i] * x;
        for (int i = end - 1; i >= begin; --i) {
            x = m[i] - upper_prime[i] * x;
            m[i] = x;
        }
        if (not_a_knot && begin == 0) m[0] = 2.0 * m[1] - m[2];
        if (not_a_knot && end == M + 1) m[M] = 2.0 * m[M - 1] - m[M - 2];
    }
};

}  // namespace bsde
