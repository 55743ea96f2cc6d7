// Tensor-product cubic spline (not-a-knot) of a 2D layer on the uniform grid w = (x_min + i1 dx,
// x_min + i2 dx), i1, i2 = 0..M, point p = i1 (M+1) + i2. In B-spline form
//   s(x1, x2) = sum_{j1, j2 = -1..M+1} d_{j1 j2} B((x1 - x_{j1}) / dx) B((x2 - x_{j2}) / dx),
// B the uniform cubic B-spline centred at 0, so that a 1D spline s(x) = sum_j c_j B((x - x_j) / dx) has
//   s(x_i) = (c_{i-1} + 4 c_i + c_{i+1}) / 6,   s''(x_i) = (c_{i-1} - 2 c_i + c_{i+1}) / dx^2.
// 1D fit through v_0..v_M: the not-a-knot moments m_i = s''(x_i) (cubic_spline.h, SplineFitter), then
//   c_i = v_i - dx^2 m_i / 6 (i = 0..M),  c_{-1} = dx^2 m_0 + 2 c_0 - c_1,  c_{M+1} = dx^2 m_M + 2 c_M - c_{M-1}.
// 2D, each pass one batched 1D moment fit over contiguous columns (SplineFitter: a tridiagonal solve or
// the inverse band, as SplineSolve says):
//   (a) along axis 2 through every row i1: c_{i1 j2}, j2 = -1..M+1, written transposed (j2 outer, i1 contiguous);
//   (b) along axis 1 through each of the M+3 columns c_{. j2}: d_{j1 j2}, j1 = -1..M+1.
//   Both passes are linear and reproduce cubics, so f = p(x1) q(x2) of degree <= 3 in each variable gives
//   d_{j1 j2} = alpha_{j1} gamma_{j2} (the 1D coefficients of p and q) and s = f exactly.
//   Data of one function: (M+3)^2 doubles, d_{j1 j2} at (j1 + 1)(M+3) + j2 + 1.
// At a point: clamp it to [x_min, x_min + M dx]^2, cell c = int((x - x_min) / dx) (the last cell on the right
// edge), t = (x - x_min) / dx - c in each axis; then with the uniform cubic B-spline weights
//   B0 = (1-t)^3/6, B1 = (3t^3 - 6t^2 + 4)/6, B2 = (-3t^3 + 3t^2 + 3t + 1)/6, B3 = t^3/6,
//   s = sum_{a,b=0..3} B_a(t1) B_b(t2) d_{c1-1+a, c2-1+b}   (16 coefficients, 4 contiguous rows).
#pragma once
#include <cstddef>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include "cubic_spline.h"
#include "../quadrature/grid_nodes.h"
#include "../core/host_device.h"
#include "../core/point.h"
#include "../core/raw_pointer.h"
#include "spline_fitter.h"
#include "../core/tiled_visits.h"

namespace bsde {

// B-spline coefficients c_{j-1}, j = 0..M+2, of `columns` 1D splines (values and moments column after
// column, M+1 each), written transposed: out[j * columns + column].
//   c_i = v_i - dx^2 m_i / 6,  c_{-1} = dx^2 m_0 + 2 c_0 - c_1,  c_{M+1} = dx^2 m_M + 2 c_M - c_{M-1}.
// Visit k takes one (j, column) of tiles of 8 j by 32 columns (TiledVisits): a warp writes 32 neighbouring columns of
// one j, and the warps of a block that read the next j of the same columns find their lines of values and moments in
// L1 (one visit after another in j, as in rows of `columns` visits, would read each line anew for every j).
struct BSplineCoefficients {
    using Visits = TiledVisits<8, 32>;
    const double* values;
    const double* moments;
    double* out;
    double dx2;
    int M, columns;
    static int visits(int M, int columns) { return Visits{M + 3, columns}.count(); }
    __host__ __device__ void operator()(int k) const {
        const auto [j, column, inside] = Visits{M + 3, columns}(k);
        if (!inside) return;  // a tile past the edge
        const double* v = values + column * (M + 1);
        const double* m = moments + column * (M + 1);
        const double h = dx2 / 6.0;
        double c;
        if (j == 0)
            c = dx2 * m[0] + 2.0 * (v[0] - h * m[0]) - (v[1] - h * m[1]);
        else if (j == M + 2)
            c = dx2 * m[M] + 2.0 * (v[M] - h * m[M]) - (v[M - 1] - h * m[M - 1]);
        else
            c = v[j - 1] - h * m[j - 1];
        out[j * columns + column] = c;
    }
};

// Uniform cubic B-spline weights at t in [0, 1]: B0 = (1-t)^3/6, B1 = (3t^3 - 6t^2 + 4)/6,
// B2 = (-3t^3 + 3t^2 + 3t + 1)/6, B3 = t^3/6.
__host__ __device__ inline void cubic_bspline_weights(double t, double w[4]) {
    const double u = 1.0 - t;
    w[0] = u * u * u / 6.0;
    w[1] = ((3.0 * t - 6.0) * t * t + 4.0) / 6.0;
    w[2] = (((-3.0 * t + 3.0) * t + 3.0) * t + 1.0) / 6.0;
    w[3] = t * t * t / 6.0;
}

// w[0] v[0] + w[1] v[stride] + w[2] v[2 stride] + w[3] v[3 stride]: four coefficients along one axis.
__host__ __device__ inline double weighted_four(const double w[4], const double* v, int stride) {
    return w[0] * v[0] + w[1] * v[stride] + w[2] * v[2 * stride] + w[3] * v[3 * stride];
}

// Locates points and evaluates one function's tensor spline there. Trivially copyable. Axis 1 has M1 intervals from
// x1_min (M and x_min on the whole grid, a slab's rows on a slab of it: slabs.h), axis 2 M from x_min.
struct TensorSplineEvaluator {
    int M;
    double x_min, dx;
    int M1;
    double x1_min;

    struct Stencil {
        int first;              // (c1 (M+3) + c2): index of d_{c1-1, c2-1}
        double w1[4], w2[4];    // B-spline weights in each axis
        Vec2 point;             // the query clamped to the domain
    };
    struct Shift {
        double w[4];  // B-spline weights of t
        int cells;
    };
    // A stencil along one axis: the cell, its B-spline weights and the coordinate (clamped to the domain).
    struct AxisStencil {
        double w[4];
        double x;
        int cell;
    };

    __host__ __device__ UniformGridLocator axis1() const { return {x1_min, dx, M1}; }
    __host__ __device__ UniformGridLocator axis() const { return {x_min, dx, M}; }  // axis 2 (and 3)

    // One coordinate on an axis clamped to it (NaN to its first), its cell and weights.
    __host__ __device__ static AxisStencil on(const UniformGridLocator& axis, double x) {
        const double x_max = axis.x_max();
        AxisStencil a;
        a.x = x > axis.x_min ? (x < x_max ? x : x_max) : axis.x_min;
        const CellPosition p = axis(a.x);
        a.cell = p.cell;
        cubic_bspline_weights(p.t, a.w);
        return a;
    }

    __host__ __device__ Stencil locate(Vec2 x) const {
        const AxisStencil a1 = on(axis1(), x[0]), a2 = on(axis(), x[1]);
        return combine(a1, a2);
    }

    __host__ __device__ Stencil combine(const AxisStencil& a1, const AxisStencil& a2) const {
        Stencil s;
        s.point = Vec2{{a1.x, a2.x}};
        s.first = a1.cell * (M + 3) + a2.cell;
        for (int k = 0; k < 4; ++k) {
            s.w1[k] = a1.w[k];
            s.w2[k] = a2.w[k];
        }
        return s;
    }

    __host__ __device__ Shift shift(double dW) const {
        const CellShift c = cell_shift(dW, dx);
        Shift s;
        s.cells = c.cells;
        cubic_bspline_weights(c.t, s.w);
        return s;
    }

    // Grid index `index` of an axis moved by a node: the node's shift where the moved cell exists, else the moved
    // coordinate clamped to the axis and located (as locate() does along each axis).
    __host__ __device__ static AxisStencil along(const UniformGridLocator& axis, int index, const AxisNode<Shift>& node) {
        if (!shifted_cell_inside(index, node.shift.cells, axis.M))
            return on(axis, axis.x_min + index * axis.dx + node.dW);
        AxisStencil a;
        a.x = axis.x_min + index * axis.dx + node.dW;
        a.cell = index + node.shift.cells;
        for (int k = 0; k < 4; ++k) a.w[k] = node.shift.w[k];
        return a;
    }
    __host__ __device__ AxisStencil along_axis1(int index, const AxisNode<Shift>& node) const {
        return along(axis1(), index, node);
    }
    __host__ __device__ AxisStencil along_axis(int index, const AxisNode<Shift>& node) const {  // axis 2 (and 3)
        return along(axis(), index, node);
    }

    __host__ __device__ Stencil at(const GridSite<2>& site, const AxisNode<Shift>& along1,
                                   const AxisNode<Shift>& along2) const {
        return combine(along_axis1(site.index[0], along1), along_axis(site.index[1], along2));
    }

    // s = sum_a B_a(t1) sum_b B_b(t2) d_{c1-1+a, c2-1+b}; values are not needed.
    __host__ __device__ double operator()(const double* /*values*/, const double* data, const Stencil& s) const {
        const double* d = data + s.first;
        double sum = 0.0;
        for (int a = 0; a < 4; ++a, d += M + 3)
            sum += s.w1[a] * weighted_four(s.w2, d, 1);
        return sum;
    }

    // The windows of a block of consecutive points first..last (row-major, p = i1 (M+1) + i2) for the staged form
    // below: the block lies in rows first_row..last_row, and a point of column c2 reads, for a node along axis 2
    // shifted by s cells, the ghosted columns c2 + s .. c2 + s + 3 (of 0..M+2). With the rule's shifts in
    // [low, high] a row's points c_lo..c_hi reach [c_lo + low, c_hi + high + 3] within [0, M+2]; each row's window
    // takes `stride` doubles of a buffer of the block's stage.
    struct RowWindows {
        int M, first_row, last_row, first_column, last_column;  // the block's points: (first_row, first_column) ..
        RowReach reach;
        __host__ __device__ int rows() const { return last_row - first_row + 1; }
        __host__ __device__ int stride() const { return reach.layout.stride; }
        __host__ __device__ int begin(int row) const {
            const int column = (row == first_row ? first_column : 0) + reach.low;
            return column > 0 ? column : 0;
        }
        __host__ __device__ int end(int row) const {
            const int column = (row == last_row ? last_column : M) + reach.high + 3;
            return column < M + 2 ? column : M + 2;
        }
    };
    __host__ __device__ RowWindows row_windows(int first, int last, const RowReach& reach) const {
        return {M, first / (M + 1), last / (M + 1), first % (M + 1), last % (M + 1), reach};
    }

    // The stage of a block of P consecutive points for `functions` functions, the rule's shifts along axis 2 in
    // [low, high]: the block lies in at most (M + P - 1) / (M + 1) + 1 rows, each window at most
    // min(P, M + 1) + high - low + 3 columns and at most the M + 3 ghosted ones (RowWindows). ex5 at K = 6, N = 64
    // (M = 1024, L = 8): 2 rows of 424, 20 KB for the three functions in a buffer.
    StageLayout stage_layout(int P, int low, int high, int functions) const {
        const int rows = (M + P - 1) / (M + 1) + 1;
        const int window = (P < M + 1 ? P : M + 1) + high - low + 3;
        const int stride = window < M + 3 ? window : M + 3;
        return {stride, functions * rows * stride};
    }

    // Sum factorisation, the staged form of the fused pass (expectation_rules.h, GaussHermiteOnGrid): for a node
    // along axis 1, a block of points stages the axis-1 sums of every function at the ghosted columns c of each
    // of its rows' windows (RowWindows),
    //   G_row(c) = sum_a B_a(t1) d_{c1-1+a, c-1}          (a1 = the row moved by the node along axis 1),
    // and then a point's node along axis 2 costs s = sum_b B_b(t2) G_row(c2 + b) (axis2_sum): 4 loads of the
    // stage instead of 16 of the layer. The stage: per function f and row p of the windows, `stride` doubles
    // from the row's first column, at (f rows + p) stride; thread `thread` of `threads` fills its share.
    __host__ __device__ void stage(const double* data, int data_size, int functions, const RowWindows& windows,
                                   const AxisNode<Shift>& along1, double* staged, int thread, int threads) const {
        const int rows = windows.rows();
        for (int p = 0; p < rows; ++p) {
            const int row = windows.first_row + p, begin = windows.begin(row), columns = windows.end(row) - begin + 1;
            const AxisStencil a1 = along_axis1(row, along1);
            const double* d = data + a1.cell * (M + 3) + begin;
            for (int f = 0; f < functions; ++f, d += data_size) {
                double* row_stage = staged + (f * rows + p) * windows.stride();
                for (int c = thread; c < columns; c += threads) row_stage[c] = weighted_four(a1.w, d + c, M + 3);
            }
        }
    }
    // The axis-1 sum G(c) = sum_a B_a(t1) d_{c1-1+a, c-1} of one function's data at ghosted column c (the separable
    // pass, separable_pass.h).
    __host__ __device__ double axis1_sum(const double* data, const AxisStencil& a1, int column) const {
        return weighted_four(a1.w, data + a1.cell * (M + 3) + column, M + 3);
    }
    // axis1_sum at R consecutive rows from the first's stencil a1, for a run that shifted_run_inside: the R + 3
    // coefficients of the column that the R sums read, loaded once.
    template <int R>
    __host__ __device__ void axis1_run_sums(const double* data, const AxisStencil& a1, int column, double sums[R]) const {
        const double* d = data + a1.cell * (M + 3) + column;
        double window[R + 3];
        for (int q = 0; q < R + 3; ++q) window[q] = d[q * (M + 3)];
        for (int r = 0; r < R; ++r) sums[r] = weighted_four(a1.w, window + r, 1);
    }
    // Whether the rows first..first+count-1 of axis 1, moved by a node, all land in cells of the grid: then row
    // first + r has the stencil along_axis1(first, node) moved by r cells, with the same weights (the node's shift).
    __host__ __device__ bool shifted_run_inside(int first, int count, const AxisNode<Shift>& node) const {
        return shifted_cell_inside(first, node.shift.cells, M1) &&
               shifted_cell_inside(first + count - 1, node.shift.cells, M1);
    }
    // s at a point from its row's stage of one function, indexed by ghosted column (the stage's row minus the
    // window's first column).
    __host__ __device__ static double axis2_sum(const double* row, const AxisStencil& a2) {
        return weighted_four(a2.w, row + a2.cell, 1);
    }
};

// One pass of a tensor spline's fit: the not-a-knot moments of `columns` contiguous columns of M+1 values in `in`
// (SplineFitter, into `moments`), then their B-spline coefficients c_{-1..M+1} written transposed into `out`
// (out[j * columns + column], BSplineCoefficients), so that the next axis's columns are contiguous.
template <class Context>
struct SplinePass {
    Context& context;
    SplineFitter<Context>& spline;
    double* moments;  // columns (M+1) doubles
    double dx2;
    int M;
    void operator()(const double* in, double* out, int columns) const {
        spline.fit(in, moments, columns);
        thrust::for_each(context.policy(), thrust::counting_iterator<int>(0),
                         thrust::counting_iterator<int>(BSplineCoefficients::visits(M, columns)),
                         BSplineCoefficients{in, moments, out, dx2, M, columns});
    }
};

// The fit of a grid of M1 intervals along axis 1 (M1 = M but on a slab of the grid, slabs.h) and M along axis 2:
// pass (a) fits the M1 + 1 rows along axis 2, pass (b) the M + 3 ghosted columns along axis 1.
template <class Context>
class TensorSplineFitter {
public:
    TensorSplineFitter(Context& context, int M, double x_min, double dx, SplineSolve solve)
        : TensorSplineFitter(context, M, x_min, dx, solve, M, x_min) {}
    TensorSplineFitter(Context& context, int M, double x_min, double dx, SplineSolve solve, int M1, double x1_min)
        : context_(context), M_(M), M1_(M1), x_min_(x_min), x1_min_(x1_min), dx_(dx),
          spline_(context, M, SplineBoundary::not_a_knot, dx, solve),
          spline1_(context, M1, SplineBoundary::not_a_knot, dx, solve) {
        const std::size_t size = static_cast<std::size_t>(M1 + 1) * (M + 3);
        moments_.resize(size);
        row_coefficients_.resize(size);
    }

    std::size_t data_size() const { return static_cast<std::size_t>(M1_ + 3) * (M_ + 3); }

    // values: `functions` blocks of (M1+1)(M+1); data: as many blocks of data_size(), overwritten.
    // One function at a time, through the workspace: (a) then (b) of the header.
    void fit(const double* values, double* data, int functions) {
        const int rows = M1_ + 1, ghosted = M_ + 3;
        const std::size_t points = static_cast<std::size_t>(rows) * (M_ + 1);
        const SplinePass<Context> along2{context_, spline_, raw(moments_), dx_ * dx_, M_};
        const SplinePass<Context> along1{context_, spline1_, raw(moments_), dx_ * dx_, M1_};
        for (int k = 0; k < functions; ++k) {
            along2(values + k * points, raw(row_coefficients_), rows);        // (a) rows i1, contiguous in i2
            along1(raw(row_coefficients_), data + k * data_size(), ghosted);  // (b) columns j2, contiguous in i1
        }
    }

    double storage_bytes() const {
        return spline_.storage_bytes() + spline1_.storage_bytes() + 2.0 * (M1_ + 1) * (M_ + 3) * sizeof(double);
    }

    TensorSplineEvaluator evaluator() const { return {M_, x_min_, dx_, M1_, x1_min_}; }

private:
    Context& context_;
    int M_, M1_;
    double x_min_, x1_min_, dx_;
    SplineFitter<Context> spline_, spline1_;  // the 1D not-a-knot moments, M+1 and M1+1 per column
    typename Context::template vector<double> moments_, row_coefficients_;  // (M1+1)(M+3) each
};

}  // namespace bsde
