#include "spline_inverse_band.h"

#include <algorithm>

namespace bsde {

namespace {

// A = spline_system(M, boundary) factored once by the Thomas recurrences of tridiagonal.h,
//   pivot_0 = b_0, pivot_i = b_i - a_i c'_{i-1},  c'_i = c_i / pivot_i,
// and its inverse's columns from the substitutions with e_j.
class FactoredSplineSystem {
public:
    FactoredSplineSystem(int M, SplineBoundary boundary)
        : M_(M), not_a_knot_(boundary == SplineBoundary::not_a_knot), bands_(spline_system(M, boundary)),
          c_prime_(M + 1), pivot_(M + 1) {
        for (int i = 0; i <= M; ++i) {
            pivot_[i] = i == 0 ? bands_.diag[0] : bands_.diag[i] - bands_.lower[i] * c_prime_[i - 1];
            c_prime_[i] = bands_.upper[i] / pivot_[i];
        }
    }

    // Column j of Q = X A^{-1}, rows i = lo..hi.
    //   forward:  d'_i = 0 (i < j),  d'_j = 1 / pivot_j,  d'_i = -a_i d'_{i-1} / pivot_i (i > j)
    //   backward: x_i = d'_i - c'_i x_{i+1}
    // The forward sweep stops at row `end` where d' underflows to exactly 0 (or at M): beyond it d' stays 0, so
    // the full solve's x is 0 there too and x below `end` equals the full solve's bit for bit.
    std::vector<double> q_column(int j, int lo, int hi) const {
        std::vector<double> d{1.0 / pivot_[j]};
        int end = j;
        while (end < M_ && d.back() != 0.0) {
            ++end;
            d.push_back((0.0 - bands_.lower[end] * d.back()) / pivot_[end]);
        }
        // rows of A^{-1} wanted: lo..hi and those the not-a-knot rows 0 and M extrapolate from
        const int bottom = not_a_knot_ && hi == M_ ? std::min(lo, M_ - 2) : lo;
        const int top = not_a_knot_ && lo == 0 ? std::max(hi, 2) : hi;
        std::vector<double> x(top - bottom + 1, 0.0);  // x_{bottom + r}
        double next = 0.0;                             // x_{i+1}
        for (int i = std::max(end, top); i >= bottom; --i) {
            const double d_i = i >= j && i <= end ? d[i - j] : 0.0;
            const double x_i = d_i - c_prime_[i] * next;
            if (i <= top) x[i - bottom] = x_i;
            next = x_i;
        }
        std::vector<double> q(hi - lo + 1);
        for (int i = lo; i <= hi; ++i) {
            const auto at = [&](int row) { return x[row - bottom]; };
            if (not_a_knot_ && i == 0)
                q[i - lo] = 2.0 * at(1) - at(2);
            else if (not_a_knot_ && i == M_)
                q[i - lo] = 2.0 * at(M_ - 1) - at(M_ - 2);
            else
                q[i - lo] = at(i);
        }
        return q;
    }

private:
    int M_;
    bool not_a_knot_;
    TridiagonalBands bands_;
    std::vector<double> c_prime_, pivot_;
};

}  // namespace

SplineInverseBand spline_inverse_band(int M, SplineBoundary boundary) {
    const FactoredSplineSystem A(M, boundary);  // throws InputError for M < 4
    SplineInverseBand band;
    band.W = std::min(spline_inverse_band_width, M);
    band.E = band.W;
    const int W = band.W, E = band.E, width = 2 * W + 1;
    band.left.assign(static_cast<std::size_t>(E) * width, 0.0);
    band.right.assign(static_cast<std::size_t>(E) * width, 0.0);
    band.kernel.assign(width, 0.0);

    // Rows first..last of Q into table (row i at (i - first) width, column j at j - i + W), column by column.
    const auto fill = [&](int first, int last, std::vector<double>& table) {
        for (int j = std::max(0, first - W); j <= std::min(M, last + W); ++j) {
            const int lo = std::max(first, j - W), hi = std::min(last, j + W);
            const std::vector<double> q = A.q_column(j, lo, hi);
            for (int i = lo; i <= hi; ++i) table[static_cast<std::size_t>(i - first) * width + j - i + W] = q[i - lo];
        }
    };
    fill(0, E - 1, band.left);
    fill(M - E + 1, M, band.right);

    // The kernel from column c = M/2: kernel[d + W] = Q_{c-d, c}, the rows c-W..c+W that exist (all of them
    // when M >= 2E, the only case where interior rows, and so the kernel, are used).
    const int c = M / 2, lo = std::max(0, c - W), hi = std::min(M, c + W);
    const std::vector<double> q = A.q_column(c, lo, hi);
    for (int i = lo; i <= hi; ++i) band.kernel[c - i + W] = q[i - lo];
    return band;
}

}  // namespace bsde
