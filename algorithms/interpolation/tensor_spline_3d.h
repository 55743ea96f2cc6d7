// Tensor-product cubic spline (not-a-knot) of a 3D layer on the uniform grid w = (x_min + i1 dx, x_min + i2 dx,
// x_min + i3 dx), i1, i2, i3 = 0..M, point p = (i1 (M+1) + i2)(M+1) + i3. In B-spline form
//   s(x) = sum_{j1, j2, j3 = -1..M+1} d_{j1 j2 j3} B((x1 - x_{j1}) / dx) B((x2 - x_{j2}) / dx) B((x3 - x_{j3}) / dx),
// B the uniform cubic B-spline centred at 0; the 1D fit (not-a-knot moments, then the M+3 coefficients c_{-1..M+1})
// and the weights B0..B3 are the 2D spline's (tensor_spline.h: SplineFitter, BSplineCoefficients,
// cubic_bspline_weights).
// Fit: three passes, each one batched 1D fit over contiguous columns of M+1 values, whose coefficients
// BSplineCoefficients writes transposed (out[j * columns + column]), so that the next axis is contiguous:
//   (a) along axis 3, columns (i1, i2), (M+1)^2 of them:    A[j3][i1][i2],   column i1 (M+1) + i2;
//   (b) along axis 2 of A, columns (j3, i1), (M+3)(M+1):   B[j2][j3][i1],   column j3 (M+1) + i1;
//   (c) along axis 1 of B, columns (j2, j3), (M+3)^2:      D[j1][j2][j3],   column j2 (M+3) + j3,
// and D is the data: d_{j1 j2 j3} at ((j1+1)(M+3) + j2+1)(M+3) + j3+1, (M+3)^3 doubles per function. Each pass is
// linear and reproduces cubics, so f = p(x1) q(x2) r(x3) of degree <= 3 in each variable gives
// d_{j1 j2 j3} = alpha_{j1} beta_{j2} gamma_{j3} (the 1D coefficients of p, q, r) and s = f exactly.
// At a point: clamp it to [x_min, x_min + M dx]^3 (NaN to x_min), then in each axis the cell c = int((x - x_min) / dx)
// (the last cell on the right edge) and t = (x - x_min) / dx - c, and
//   s = sum_{a,b,e=0..3} B_a(t1) B_b(t2) B_e(t3) d_{c1-1+a, c2-1+b, c3-1+e}   (64 coefficients, 16 rows of 4).
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
#include "tensor_spline.h"

namespace bsde {

// Locates points and evaluates one function's 3D tensor spline there. Trivially copyable. Along each axis it is
// the 2D spline's (its Shift, AxisStencil and axes: axis 1 of M1 intervals from x1_min, the others of M from x_min).
struct TensorSpline3DEvaluator {
    int M;
    double x_min, dx;
    int M1;
    double x1_min;

    using Shift = TensorSplineEvaluator::Shift;
    using AxisStencil = TensorSplineEvaluator::AxisStencil;
    struct Stencil {
        int first;                  // ((c1 (M+3) + c2)(M+3) + c3): index of d_{c1-1, c2-1, c3-1}
        double w1[4], w2[4], w3[4]; // B-spline weights in each axis
        Vec3 point;                 // the query clamped to the domain
    };

    __host__ __device__ TensorSplineEvaluator axes() const { return {M, x_min, dx, M1, x1_min}; }

    // The stencil of three axis stencils: first = (c1 (M+3) + c2)(M+3) + c3.
    __host__ __device__ Stencil combine(const AxisStencil& a1, const AxisStencil& a2, const AxisStencil& a3) const {
        Stencil s;
        s.point = Vec3{{a1.x, a2.x, a3.x}};
        s.first = (a1.cell * (M + 3) + a2.cell) * (M + 3) + a3.cell;
        for (int k = 0; k < 4; ++k) {
            s.w1[k] = a1.w[k];
            s.w2[k] = a2.w[k];
            s.w3[k] = a3.w[k];
        }
        return s;
    }

    // Each coordinate clamped to its axis (NaN to its first), its cell and weights.
    __host__ __device__ Stencil locate(Vec3 x) const {
        const TensorSplineEvaluator a = axes();
        return combine(TensorSplineEvaluator::on(a.axis1(), x[0]), TensorSplineEvaluator::on(a.axis(), x[1]),
                       TensorSplineEvaluator::on(a.axis(), x[2]));
    }

    __host__ __device__ Shift shift(double dW) const { return axes().shift(dW); }

    // Grid index `index` of axis 1, or of axis 2 or 3, moved by a node (TensorSplineEvaluator::along).
    __host__ __device__ AxisStencil along_axis1(int index, const AxisNode<Shift>& node) const {
        return axes().along_axis1(index, node);
    }
    __host__ __device__ AxisStencil along_axis(int index, const AxisNode<Shift>& node) const {
        return axes().along_axis(index, node);
    }

    __host__ __device__ Stencil at(const GridSite<3>& site, const AxisNode<Shift>& along1, const AxisNode<Shift>& along2,
                                   const AxisNode<Shift>& along3) const {
        return combine(along_axis1(site.index[0], along1), along_axis(site.index[1], along2),
                       along_axis(site.index[2], along3));
    }

    // s = sum_a B_a(t1) sum_b B_b(t2) sum_e B_e(t3) d_{c1-1+a, c2-1+b, c3-1+e}; values are not needed.
    __host__ __device__ double operator()(const double* /*values*/, const double* data, const Stencil& s) const {
        const int row = M + 3, plane = (M + 3) * (M + 3);
        const double* d = data + s.first;
        double sum = 0.0;
        for (int a = 0; a < 4; ++a, d += plane) {
            double plane_sum = 0.0;
            for (int b = 0; b < 4; ++b) plane_sum += s.w2[b] * weighted_four(s.w3, d + b * row, 1);
            sum += s.w1[a] * plane_sum;
        }
        return sum;
    }
};

// The fit of a grid of M1 intervals along axis 1 (M1 = M but on a slab of the grid, slabs.h) and M along axes 2, 3.
template <class Context>
class TensorSpline3DFitter {
public:
    TensorSpline3DFitter(Context& context, int M, double x_min, double dx, SplineSolve solve)
        : TensorSpline3DFitter(context, M, x_min, dx, solve, M, x_min) {}
    TensorSpline3DFitter(Context& context, int M, double x_min, double dx, SplineSolve solve, int M1, double x1_min)
        : context_(context), M_(M), M1_(M1), x_min_(x_min), x1_min_(x1_min), dx_(dx),
          spline_(context, M, SplineBoundary::not_a_knot, dx, solve),
          spline1_(context, M1, SplineBoundary::not_a_knot, dx, solve) {
        const std::size_t size = static_cast<std::size_t>(M1 + 1) * (M + 3) * (M + 3);  // the largest pass, (c)
        moments_.resize(size);
        plane_coefficients_.resize(size);
    }

    std::size_t data_size() const { return static_cast<std::size_t>(M1_ + 3) * (M_ + 3) * (M_ + 3); }

    // values: `functions` blocks of (M1+1)(M+1)^2; data: as many blocks of data_size(), overwritten. One function at a
    // time, passes (a), (b), (c) of the header (with M1 + 1 rows i1); A, (M+3)(M1+1)(M+1) doubles, is held in the
    // function's data block until (c) writes the data there.
    void fit(const double* values, double* data, int functions) {
        const int rows = M1_ + 1, n = M_ + 1, ghosted = M_ + 3;
        const std::size_t points = static_cast<std::size_t>(rows) * n * n;
        const SplinePass<Context> along_other{context_, spline_, raw(moments_), dx_ * dx_, M_};
        const SplinePass<Context> along1{context_, spline1_, raw(moments_), dx_ * dx_, M1_};
        for (int k = 0; k < functions; ++k) {
            const double* f = values + k * points;
            double* d = data + k * data_size();
            along_other(f, d, rows * n);                                  // (a) A[j3][i1][i2]
            along_other(d, raw(plane_coefficients_), ghosted * rows);     // (b) B[j2][j3][i1]
            along1(raw(plane_coefficients_), d, ghosted * ghosted);       // (c) D[j1][j2][j3]
        }
    }

    double storage_bytes() const {
        return spline_.storage_bytes() + spline1_.storage_bytes() + 2.0 * (M1_ + 1) * (M_ + 3) * (M_ + 3) * sizeof(double);
    }

    TensorSpline3DEvaluator evaluator() const { return {M_, x_min_, dx_, M1_, x1_min_}; }

private:
    Context& context_;
    int M_, M1_;
    double x_min_, x1_min_, dx_;
    SplineFitter<Context> spline_, spline1_;  // the 1D not-a-knot moments, M+1 and M1+1 per column
    typename Context::template vector<double> moments_, plane_coefficients_;  // (M1+1)(M+3)^2 each; the second B
};

}  // namespace bsde
