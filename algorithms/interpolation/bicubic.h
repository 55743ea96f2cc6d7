// Bicubic interpolation of a 2D layer (the paper's) on the uniform grid w = (x_min + i1 dx, x_min + i2 dx),
// i1, i2 = 0..M, point p = i1 (M+1) + i2. Derivatives are taken in the local coordinates of a cell,
// t = (x - x_i) / dx, so f_t = dx f_x and f_t1t2 = dx^2 f_x1x2.
//
// 1. f_t1, f_t2, f_t1t2 at every grid point by 4th-order differences over the 5 points first..first+4,
//    first = clamp(i - 2, 0, M - 4), s = i - first:
//      f_t(x_i) = 1/12 sum_j W[s][j] f_{first+j},
//      W[2] = (1, -8, 0, 8, -1) inside (central), W[0] = (-25, 48, -36, 16, -3) and W[1] = (-3, -10, 18, -6, 1)
//      on and next to the left edge (forward), W[4] and W[3] their mirror images on the right (backward).
//    Every row is exact for polynomials of degree <= 4. f_t1t2 is the axis-1 difference of the axis-2 ones.
// 2. On cell (c1, c2) the 16 coefficients of p(t1, t2) = sum_{i,j=0..3} a_ij t1^i t2^j that match f, f_t1,
//    f_t2, f_t1t2 at the four corners (c1 + a, c2 + b), a, b in {0, 1}: the standard bicubic Hermite matrix
//      a = A F A^T,  A = [1 0 0 0; 0 0 1 0; -3 3 -2 -1; 2 -2 1 1],
//      F = [f(0,0)    f(0,1)    f_t2(0,0)   f_t2(0,1);   f(1,0)    f(1,1)    f_t2(1,0)   f_t2(1,1);
//           f_t1(0,0) f_t1(0,1) f_t1t2(0,0) f_t1t2(0,1); f_t1(1,0) f_t1(1,1) f_t1t2(1,0) f_t1t2(1,1)],
//    where A maps (p0, p1, d0, d1) to the 1D cubic Hermite coefficients (p0, d0, -3 p0 + 3 p1 - 2 d0 - d1,
//    2 p0 - 2 p1 + d0 + d1): applied along axis 2 (rows of F), then along axis 1.
//    Data of one function: 16 M^2 doubles, cell (c1, c2) at 16 (c1 M + c2), a_ij at 4 i + j.
// 3. At a point: clamp it to [x_min, x_min + M dx]^2, cell = int((x - x_min) / dx) (the last cell on the
//    right edge), t = (x - x_min) / dx - cell; p(t1, t2) by Horner in t2, then in t1.
// Reproduces polynomials of degree <= 3 in each variable; the error is O(dx^4) for smooth functions.
#pragma once
#include <cstddef>
#include <string>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include "cubic_spline.h"
#include "../core/errors.h"
#include "../quadrature/grid_nodes.h"
#include "../core/host_device.h"
#include "../core/point.h"
#include "../core/raw_pointer.h"

namespace bsde {

// W[s][j] (times 12) of step 1: the 4th-order first difference at point s of 5 equally spaced points.
__host__ __device__ inline double fourth_order_difference_weight(int s, int j) {
    const double W[5][5] = {{-25, 48, -36, 16, -3},
                            {-3, -10, 18, -6, 1},
                            {1, -8, 0, 8, -1},
                            {-1, 6, -18, 10, 3},
                            {3, -16, 36, -48, 25}};
    return W[s][j];
}

// First of the 5 points of the difference at grid index i: clamp(i - 2, 0, M - 4).
__host__ __device__ inline int difference_stencil_first(int i, int M) {
    const int first = i - 2 < 0 ? 0 : i - 2;
    return first > M - 4 ? M - 4 : first;
}

// f_t1, f_t2, f_t1t2 at grid point p of one function (step 1):
//   g_k = 1/12 sum_j W[s2][j] f(first1 + k, first2 + j)  (f_t2 on the 5 rows around i1),
//   f_t2 = g_{s1},  f_t1t2 = 1/12 sum_k W[s1][k] g_k,  f_t1 = 1/12 sum_k W[s1][k] f(first1 + k, i2).
struct BicubicDerivatives {
    const double* f;
    double* f_t1;
    double* f_t2;
    double* f_t1t2;
    int M;
    __host__ __device__ void operator()(int p) const {
        const int n = M + 1, i1 = p / n, i2 = p % n;
        const int first1 = difference_stencil_first(i1, M), first2 = difference_stencil_first(i2, M);
        const int s1 = i1 - first1, s2 = i2 - first2;
        double g[5];
        double d1 = 0.0, d12 = 0.0;
        for (int k = 0; k < 5; ++k) {
            const double* row = f + (first1 + k) * n + first2;
            double sum = 0.0;
            for (int j = 0; j < 5; ++j) sum += fourth_order_difference_weight(s2, j) * row[j];
            g[k] = sum / 12.0;
            d1 += fourth_order_difference_weight(s1, k) * row[s2];
            d12 += fourth_order_difference_weight(s1, k) * g[k];
        }
        f_t1[p] = d1 / 12.0;
        f_t2[p] = g[s1];
        f_t1t2[p] = d12 / 12.0;
    }
};

// 1D cubic Hermite coefficients of (p0, p1, d0, d1) = (p(0), p(1), p'(0), p'(1)), i.e. A (p0, p1, d0, d1):
//   c = (p0, d0, -3 p0 + 3 p1 - 2 d0 - d1, 2 p0 - 2 p1 + d0 + d1).
__host__ __device__ inline void cubic_hermite_coefficients(double p0, double p1, double d0, double d1, double c[4]) {
    c[0] = p0;
    c[1] = d0;
    c[2] = -3.0 * p0 + 3.0 * p1 - 2.0 * d0 - d1;
    c[3] = 2.0 * p0 - 2.0 * p1 + d0 + d1;
}

// The 16 coefficients of cell (c1, c2), cell = c1 M + c2 (step 2): a = A F A^T, the rows of F A^T first.
struct BicubicCellCoefficients {
    const double* f;
    const double* f_t1;
    const double* f_t2;
    const double* f_t1t2;
    double* coefficients;
    int M;
    __host__ __device__ void operator()(int cell) const {
        const int n = M + 1, c1 = cell / M, c2 = cell % M;
        const int p0 = c1 * n + c2, p1 = p0 + n;  // corners (c1, c2) and (c1 + 1, c2); + 1 for c2 + 1
        double b[4][4];  // F A^T: Hermite along axis 2 of f and f_t1 on the edges t1 = 0 and t1 = 1
        cubic_hermite_coefficients(f[p0], f[p0 + 1], f_t2[p0], f_t2[p0 + 1], b[0]);
        cubic_hermite_coefficients(f[p1], f[p1 + 1], f_t2[p1], f_t2[p1 + 1], b[1]);
        cubic_hermite_coefficients(f_t1[p0], f_t1[p0 + 1], f_t1t2[p0], f_t1t2[p0 + 1], b[2]);
        cubic_hermite_coefficients(f_t1[p1], f_t1[p1 + 1], f_t1t2[p1], f_t1t2[p1 + 1], b[3]);
        double* a = coefficients + 16 * static_cast<std::size_t>(cell);
        for (int j = 0; j < 4; ++j) {  // A (F A^T): Hermite along axis 1 of each power of t2
            double column[4];
            cubic_hermite_coefficients(b[0][j], b[1][j], b[2][j], b[3][j], column);
            for (int i = 0; i < 4; ++i) a[4 * i + j] = column[i];
        }
    }
};

// Step 3: locates points and evaluates one function's bicubic there. Trivially copyable.
struct BicubicEvaluator {
    int M;
    double x_min, dx;

    struct Stencil {
        int cell;       // c1 M + c2
        double t1, t2;  // local coordinates in the cell, in [0, 1]
        Vec2 point;     // the query clamped to the domain
    };

    using Shift = CellShift;

    // Clamps to [x_min, x_min + M dx] (NaN to x_min), then the cell and local coordinates.
    __host__ __device__ Stencil locate(Vec2 x) const {
        const SquareGridLocator::Located at = SquareGridLocator{x_min, dx, M}(x);
        return {at.axis1.cell * M + at.axis2.cell, at.axis1.t, at.axis2.t, at.point};
    }

    __host__ __device__ Shift shift(double dW) const { return cell_shift(dW, dx); }

    __host__ __device__ Stencil at(const GridSite<2>& site, const AxisNode<Shift>& along1,
                                   const AxisNode<Shift>& along2) const {
        const Stencil shifted{(site.index[0] + along1.shift.cells) * M + site.index[1] + along2.shift.cells,
                              along1.shift.t, along2.shift.t, Vec2{{site.w[0] + along1.dW, site.w[1] + along2.dW}}};
        const bool inside = shifted_cell_inside(site.index[0], along1.shift.cells, M) &&
                            shifted_cell_inside(site.index[1], along2.shift.cells, M);
        return inside ? shifted : locate(shifted.point);
    }

    // p(t1, t2) = sum_i t1^i (sum_j a_ij t2^j), Horner in both; values are not needed.
    __host__ __device__ double operator()(const double* /*values*/, const double* data, const Stencil& s) const {
        const double* a = data + 16 * static_cast<std::size_t>(s.cell);
        double p = 0.0;
        for (int i = 3; i >= 0; --i) {
            const double* r = a + 4 * i;
            p = p * s.t1 + (((r[3] * s.t2 + r[2]) * s.t2 + r[1]) * s.t2 + r[0]);
        }
        return p;
    }
};

template <class Context>
class BicubicFitter {
public:
    BicubicFitter(Context& context, int M, double x_min, double dx)
        : context_(context), M_(M), x_min_(x_min), dx_(dx) {
        if (M < 4) throw InputError("bicubic grid of " + std::to_string(M) + " intervals: at least 4 are needed");
        const std::size_t points = static_cast<std::size_t>(M + 1) * (M + 1);
        f_t1_.resize(points);
        f_t2_.resize(points);
        f_t1t2_.resize(points);
    }

    std::size_t data_size() const { return 16 * static_cast<std::size_t>(M_) * M_; }

    // values: `functions` blocks of (M+1)^2; data: as many blocks of data_size(), overwritten.
    // One function at a time, through the derivative workspace.
    void fit(const double* values, double* data, int functions) {
        const std::size_t points = static_cast<std::size_t>(M_ + 1) * (M_ + 1);
        for (int k = 0; k < functions; ++k) {
            const double* f = values + k * points;
            thrust::for_each(context_.policy(), thrust::counting_iterator<int>(0),
                             thrust::counting_iterator<int>(static_cast<int>(points)),
                             BicubicDerivatives{f, raw(f_t1_), raw(f_t2_), raw(f_t1t2_), M_});
            thrust::for_each(context_.policy(), thrust::counting_iterator<int>(0),
                             thrust::counting_iterator<int>(M_ * M_),
                             BicubicCellCoefficients{f, raw(f_t1_), raw(f_t2_), raw(f_t1t2_), data + k * data_size(), M_});
        }
    }

    double storage_bytes() const { return 3.0 * (M_ + 1) * (M_ + 1) * sizeof(double); }

    BicubicEvaluator evaluator() const { return {M_, x_min_, dx_}; }

private:
    Context& context_;
    int M_;
    double x_min_, dx_;
    typename Context::template vector<double> f_t1_, f_t2_, f_t1t2_;  // one function's derivatives
};

}  // namespace bsde
