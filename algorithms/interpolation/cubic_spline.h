// 1D cubic spline on a uniform grid, in moment form. On cell [x_i, x_{i+1}], t = (x - x_i) / dx,
//   s(x) = (1-t) v_i + t v_{i+1} + dx^2/6 [((1-t)^3 - (1-t)) m_i + (t^3 - t) m_{i+1}],
// with m_i = s''(x_i) from the tridiagonal system (rows i = 1..M-1)
//   m_{i-1} + 4 m_i + m_{i+1} = 6 / dx^2 (v_{i-1} - 2 v_i + v_{i+1})
// closed by m_0 = m_M = 0 (natural) or by s''' continuous at x_1 and x_{M-1} (not-a-knot), which on a
// uniform grid turns rows 1 and M-1 into 6 m_1 = rhs_1 and 6 m_{M-1} = rhs_{M-1}; m_0 = 2 m_1 - m_2 and
// m_M = 2 m_{M-1} - m_{M-2} follow after the solve.
// Several functions share one matrix: their values (and moments) lie column after column, M+1 each.
// SplineFitter (spline_fitter.h) gets the moments by this tridiagonal solve or, without a solve, as the
// product with the band of the inverse matrix (SplineSolve, spline_inverse_band.h).
#pragma once
#include <string>
#include <vector>

#include "../core/host_device.h"
#include "../core/point.h"

namespace bsde {

enum class SplineBoundary { natural, not_a_knot };

std::string to_string(SplineBoundary boundary);
SplineBoundary parse_spline_boundary(const std::string& name);  // throws InputError

// How the moments are computed (SplineFitter): the O(M) tridiagonal solve (Thomas on the host, cuSPARSE
// gtsv2_nopivot on cuda) or the solve-free product with the band of the inverse (spline_inverse_band.h),
// equal to rounding; automatic = inverse_band on the GPU (where the solve is latency bound), tridiagonal
// on the host backends.
enum class SplineSolve { automatic, tridiagonal, inverse_band };

std::string to_string(SplineSolve solve);                  // auto, tridiagonal, inverse-band
SplineSolve parse_spline_solve(const std::string& name);   // throws InputError

// A spline's end condition and how its moments are computed: what a family's fitter takes from the settings
// (make_fitter, interpolation.h).
struct SplineOptions {
    SplineBoundary boundary = SplineBoundary::not_a_knot;
    SplineSolve solve = SplineSolve::automatic;
};

// automatic resolved for a backend context: inverse_band where it runs on the GPU, else tridiagonal.
constexpr SplineSolve resolve_spline_solve(SplineSolve solve, bool runs_on_gpu) {
    return solve != SplineSolve::automatic ? solve
           : runs_on_gpu                   ? SplineSolve::inverse_band
                                           : SplineSolve::tridiagonal;
}

// The spline matrix of M+1 rows as lower, diagonal and upper bands (lower[0] = upper[M] = 0).
struct TridiagonalBands {
    std::vector<double> lower, diag, upper;
};
TridiagonalBands spline_system(int M, SplineBoundary boundary);

// Where a point falls: the cell index i in [0, M-1] and t in [0, 1]; points outside are clamped.
struct CellPosition {
    int cell;
    double t;
};

struct UniformGridLocator {
    double x_min, dx;
    int M;
    __host__ __device__ double x_max() const { return x_min + M * dx; }
    __host__ __device__ CellPosition operator()(double x) const {
        const double x_max = this->x_max();
        x = x < x_min ? x_min : (x > x_max ? x_max : x);
        // O(1) lookup on a uniform grid; times 1/dx, which the callers' node loops compute once, not a division
        const double position = (x - x_min) * (1.0 / dx);
        int cell = static_cast<int>(position);
        cell = cell > M - 1 ? M - 1 : cell;
        return {cell, position - cell};
    }
};

// Where a point of the square [x_min, x_min + M dx]^2 falls: the point clamped to the square (NaN to
// x_min) and its cell and local coordinate along each axis.
struct SquareGridLocator {
    double x_min, dx;
    int M;
    struct Located {
        Vec2 point;
        CellPosition axis1, axis2;
    };
    __host__ __device__ Located operator()(Vec2 x) const {
        const UniformGridLocator axis{x_min, dx, M};
        const double x_max = axis.x_max();
        Located at;
        for (int k = 0; k < 2; ++k) {
            const double above = x[k] > x_min ? x[k] : x_min;
            at.point[k] = above < x_max ? above : x_max;
        }
        at.axis1 = axis(at.point[0]);
        at.axis2 = axis(at.point[1]);
        return at;
    }
};

// A piecewise cubic on a uniform grid given on each cell by its two values and two data d (the spline's
// moments; the cubic Hermite's slopes, cubic_hermite.h), each times a weight depending on the local
// coordinate t: s(x) = v0 v_i + v1 v_{i+1} + d0 d_i + d1 d_{i+1}.
struct CellWeights {
    double v0, v1, d0, d1;
};

// The spline's weights: v0 = u = 1 - t, v1 = t, d0 = dx^2/6 (u^3 - u), d1 = dx^2/6 (t^3 - t).
__host__ __device__ inline CellWeights cubic_spline_weights(double t, double dx) {
    const double u = 1.0 - t, h = dx * dx / 6.0;
    return {u, t, h * (u * u * u - u), h * (t * t * t - t)};
}

// Evaluates one column (values and data) on a cell with its weights.
struct CellCubicColumn {
    const double* values;
    const double* data;
    __host__ __device__ double operator()(int cell, const CellWeights& w) const {
        return w.v0 * values[cell] + w.v1 * values[cell + 1] + w.d0 * data[cell] + w.d1 * data[cell + 1];
    }
    // The P cells cell .. cell + P - 1 at the same local coordinate (one set of weights) from the P + 1 entries
    // cell .. cell + P of values and data, each loaded once; each sum as operator() forms it.
    template <int P>
    struct Run {
        double at[P];
    };
    template <int P>
    __host__ __device__ Run<P> run(int cell, const CellWeights& w) const {
        double v[P + 1], d[P + 1];
        BSDE_DEVICE_UNROLL(P + 1)
        for (int k = 0; k <= P; ++k) {
            v[k] = values[cell + k];
            d[k] = data[cell + k];
        }
        Run<P> r;
        BSDE_DEVICE_UNROLL(P)
        for (int p = 0; p < P; ++p) r.at[p] = w.v0 * v[p] + w.v1 * v[p + 1] + w.d0 * d[p] + w.d1 * d[p + 1];
        return r;
    }
};

// The spline of one column at a point: s(x) with x clamped to the grid.
struct SplineAtPoint {
    UniformGridLocator locate;
    CellCubicColumn spline;
    __host__ __device__ double operator()(double x) const {
        const CellPosition p = locate(x);
        return spline(p.cell, cubic_spline_weights(p.t, locate.dx));
    }
};

// Right-hand side of the moment system, for entry k = column * (M+1) + row:
// rhs = 6 / dx^2 (v_{row-1} - 2 v_row + v_{row+1}) inside, 0 at rows 0 and M.
struct SplineRightHandSide {
    const double* values;
    double inv_dx2;
    int M;
    __host__ __device__ double operator()(int k) const {
        const int row = k % (M + 1);
        if (row == 0 || row == M) return 0.0;
        return 6.0 * inv_dx2 * (values[k - 1] - 2.0 * values[k] + values[k + 1]);
    }
};

// Not-a-knot end moments of one column: m_0 = 2 m_1 - m_2, m_M = 2 m_{M-1} - m_{M-2}.
struct NotAKnotEnds {
    double* moments;
    int M;
    __host__ __device__ void operator()(int column) const {
        double* m = moments + column * (M + 1);
        m[0] = 2.0 * m[1] - m[2];
        m[M] = 2.0 * m[M - 1] - m[M - 2];
    }
};

}  // namespace bsde
