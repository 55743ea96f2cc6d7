// The spline moments without a solve ("inverse band"): m = Q r, r the right-hand side of cubic_spline.h
// (r_0 = r_M = 0) and Q = X A^{-1}, A the (M+1)-row matrix of spline_system(M, boundary) and X the end
// extrapolation (identity for natural; for not-a-knot rows 0 and M of X are 2 e_1 - e_2 and
// 2 e_{M-1} - e_{M-2}, the NotAKnotEnds step folded in).
//
// Why a band. A is strictly diagonally dominant and away from its ends it is the Toeplitz matrix (1, 4, 1),
// whose inverse (on the infinite grid) is
//   q_k = (-rho)^|k| / (2 sqrt 3),   rho = 2 - sqrt 3 ~ 0.268   (z^2 + 4 z + 1 = 0 at z = -rho, -1/rho),
// rho being the pole of the cubic B-spline prefilter. The end rows of A act as mirrors: with i, j at least
// one row from the ends, A^{-1}_{ij} = q_{i-j} + (images) with images of size q_0 rho^{i+j-2a} (left end,
// a = 0 natural, a = 1 not-a-knot, whose row 1 reads 6 m_1 = r_1) and likewise rho^{2M-i-j-2a} (right end).
// Over the columns 1..M-1 that r can fill, |Q_ij| <= q_0 rho^|i-j| (q_0 = 1 / (2 sqrt 3) ~ 0.289) except in
// the not-a-knot rows 0 and M, where |Q_ij| <= rho^{|i-j|-1} (checked against the dense inverse for
// M = 4..200). Hence, with W = 36 (rho^36 ~ 2.6e-21):
//   * truncation: dropping |i - j| > W changes m_i by at most 2 sum_{d > W} rho^{d-1} max|r|
//     = 2 rho^W / (1 - rho) max|r| ~ 7e-21 max|r|, far below the rounding of the sum itself
//     (~ 1e-16 sum_j |Q_ij| |r_j| <= 1e-16 * 0.75 max|r|; the row sums of |Q| are <= 0.75);
//   * interior rows: for E <= i <= M-E and |i - j| <= W the images are at most q_0 rho^{i+j-2} with
//     i + j >= 2E - W = W, and those in the kernel (column c = M/2, rows c-W..c+W) at most
//     q_0 rho^{M-W-3} <= q_0 rho^{W-3} (interior rows exist only for M >= 2E): every interior row equals
//     the kernel to ~ q_0 rho^{W-3} ~ 4e-20 (measured against the dense inverse: <= 1.1e-20).
// So Q is, to rounding, a band of half-width W whose rows are
//   rows 0..E-1:      `left`, exact rows of Q (row i: columns i-W..i+W, zero outside 0..M);
//   rows M-E+1..M:    `right`, exact rows likewise;
//   rows E..M-E:      the Toeplitz kernel q, Q_ij = kernel[j - i + W] (used only when M >= 2E).
// E = W = min(36, M): for M <= 36 every row is an explicit edge row covering every column, so Q is exact;
// left and right then overlap (both exact; the functor takes left first).
//
// Table entries are computed from the actual matrix of spline_system(M, boundary): A is factored once
// (Thomas: c'_i, pivot_i), then columns of A^{-1} come from the substitutions with e_j: for the edge rows
// the columns 0..E-1+W and M-E+1-W..M, for the kernel the column M/2 (Q_{M/2-d, M/2} = kernel[d + W]).
// Each column's forward sweep is zero above row j and below shrinks by ~rho a row until it underflows to
// exactly 0 (~570 rows); the back substitution starts there, where the full solve's x is exactly 0 too,
// so every column equals the full O(M) solve bit for bit at the cost of a few hundred rows. Set-up: O(M)
// for the factors.
#pragma once
#include <vector>

#include "cubic_spline.h"
#include "../core/host_device.h"

namespace bsde {

// Half-width of the band (and number of explicit edge rows) on large grids.
constexpr int spline_inverse_band_width = 36;

struct SplineInverseBand {
    int W = 0;  // half-width: row i holds columns i-W..i+W, 2W+1 entries
    int E = 0;  // explicit edge rows at each end
    std::vector<double> left;    // rows 0..E-1: left[i (2W+1) + j - i + W] = Q_ij
    std::vector<double> right;   // rows M-E+1..M: right[(i - (M-E+1)) (2W+1) + j - i + W] = Q_ij
    std::vector<double> kernel;  // rows E..M-E: Q_ij = kernel[j - i + W]
};

// The band tables of Q for the spline_system(M, boundary) (M >= 4; throws InputError otherwise).
SplineInverseBand spline_inverse_band(int M, SplineBoundary boundary);

// Spline moments by the inverse band, for entry k = column (M+1) + i of `columns` columns of M+1 values:
//   m_i = 6/dx^2 sum_{j = max(1, i-W)}^{min(M-1, i+W)} Q_ij (v_{j-1} - 2 v_j + v_{j+1})
// (r_j of SplineRightHandSide; r_0 = r_M = 0 drop out), Q_ij = row[j - i + W] with row = left + i (2W+1)
// for i < E, right + (i - (M-E+1)) (2W+1) for i > M-E, the kernel otherwise. The not-a-knot ends are in
// Q's rows 0 and M. values and moments must not overlap. The terms run as a sliding window over v (one new
// value per term). With lanes (lanes.h) lane r of G takes the r-th of G runs of consecutive terms and the lanes
// add up their partial sums: a 1D fit has only 2 (M+1) entries, too few for one thread each to hide the
// latency of 2W+1 terms. It reads the values only after the work before it is done (awaits_previous_work), so
// that on the GPU its blocks may take their places while that work (the fused pass) drains, and start as it ends
// (docs/performance.md, "Overlapped launches").
struct SplineMomentsByInverseBand {
    static constexpr bool awaits_previous_work = true;
    // The kernel held by value: on a GPU the launch's parameters, so that its terms come through the constant
    // cache, one broadcast to a warp's points (all at the same term), and not through L1 beside the values
    // (docs/performance.md, "The spline moments by the inverse band").
    struct Kernel {
        double q[2 * spline_inverse_band_width + 1];
    };
    const double* values;
    double* moments;
    const double* left;
    const double* right;
    Kernel kernel;
    double inv_dx2;
    int M, W, E;
    template <class Lanes>
    __host__ __device__ void operator()(int k, const Lanes& lanes) const {
        lanes.wait_for_previous_work();
        const int i = k % (M + 1);
        const double* v = values + (k - i);
        const int first = i - W > 1 ? i - W : 1, last = i + W < M - 1 ? i + W : M - 1;
        const int run = (last - first + Lanes::size) / Lanes::size;  // ceil(terms / G)
        const int begin = first + lanes.lane() * run, end = begin + run - 1 < last ? begin + run - 1 : last;
        double sum = 0.0;
        if (begin <= end) {
            if (i < E || i > M - E) {
                const double* row = i < E ? left + i * (2 * W + 1) : right + (i - (M - E + 1)) * (2 * W + 1);
                sum = terms(v, begin, end, [&](int j) { return row[j - i + W]; });
            } else {
                sum = terms(v, begin, end, [&](int j) { return kernel.q[j - i + W]; });
            }
        }
        sum = lanes.sum(sum);
        if (lanes.stores()) moments[k] = 6.0 * inv_dx2 * sum;
    }
    // sum_{j = begin..end} Q_ij (v_{j-1} - 2 v_j + v_{j+1}), Q_ij = row(j).
    template <class Row>
    __host__ __device__ static double terms(const double* v, int begin, int end, const Row& row) {
        double sum = 0.0, before = v[begin - 1], here = v[begin];
        BSDE_UNROLL(8)  // loads of 8 terms in flight
        for (int j = begin; j <= end; ++j) {
            const double after = v[j + 1];
            sum += row(j) * (before - 2.0 * here + after);
            before = here;
            here = after;
        }
        return sum;
    }
};

}  // namespace bsde
