// The interpolation seam. A family names, for a backend context, the fitter that builds a layer's
// interpolation data from its grid values and the evaluator the fused pass calls, and whether it solves for
// spline moments (solves_spline_moments: the report then names how, settings.spline_solve):
//   Fitter:    data_size() (doubles per function), fit(values, data, functions), storage_bytes(), evaluator()
//   Evaluator: Stencil locate(point) (clamped to the domain; stencil.point is the clamped point),
//              Shift shift(dW) (what an increment along one axis does on the grid, grid_nodes.h),
//              Stencil at(site, axis nodes...) (the grid point `site` moved by one AxisNode per axis: the
//              shifts' weights where the cell exists, else the point clamped to the grid as by locate) and
//              double operator()(values, data, stencil) for one function; optionally (1D) the run form
//              run_inside(site, node, P), run<P>(values, data, site, node): the points site .. site + P - 1 at once;
//              optionally (2D) the staged form (sum factorisation, grid_nodes.h stages_rows): stage_layout,
//              row_windows, along_axis, stage and axis2_sum (tensor_spline.h). The sweep uses either where present.
// 1D: the cubic spline (natural or not-a-knot; cubic_spline.h) and the cubic Hermite with fourth-order
// slopes (cubic_hermite.h). 2D: tensor-product spline and the paper's bicubic (tensor_spline.h, bicubic.h). 3D: the
// tensor-product spline (tensor_spline_3d.h).
// Both splines take their moments from SplineFitter, by the settings' spline_solve (tridiagonal solve or
// inverse band).
#pragma once
#include <cmath>
#include <complex>
#include <cstddef>
#include <string>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include "bicubic.h"
#include "cubic_hermite.h"
#include "cubic_spline.h"
#include "../core/errors.h"
#include "interpolation_kind.h"
#include "../quadrature/grid_nodes.h"
#include "spline_fitter.h"
#include "tensor_spline.h"
#include "tensor_spline_3d.h"

namespace bsde {

// One function of a 1D piecewise cubic given on each cell by two values and two data (cubic_spline.h,
// CellWeights): Cubic::weights(t, dx) names the cubic (the spline, the Hermite cubic).
template <class Cubic>
struct CellCubicEvaluator {
    UniformGridLocator grid;
    struct Stencil {
        int cell;
        CellWeights weights;
        double point;
    };
    struct Shift {
        CellWeights weights;
        int cells;
    };
    __host__ __device__ Stencil locate(double x) const {
        const CellPosition p = grid(x);
        return {p.cell, Cubic::weights(p.t, grid.dx), grid.x_min + (p.cell + p.t) * grid.dx};
    }
    __host__ __device__ Shift shift(double dW) const {
        const CellShift s = cell_shift(dW, grid.dx);
        return {Cubic::weights(s.t, grid.dx), s.cells};
    }
    // A grid point moved past an end of the grid is clamped to that end (as locate() clamps), where the cubic is
    // the end value: the stencil of cell 0 at t = 0 or of cell M - 1 at t = 1, whose weights are (1, 0, 0, 0) and
    // (0, 1, 0, 0) (a cell's cubic takes its two values at the cell's ends), without locating the point.
    __host__ __device__ Stencil at(const GridSite<1>& site, const AxisNode<Shift>& node) const {
        if (shifted_cell_inside(site.index[0], node.shift.cells, grid.M))
            return {site.index[0] + node.shift.cells, node.shift.weights, site.w + node.dW};
        if (node.shift.cells < 0) return {0, {1.0, 0.0, 0.0, 0.0}, grid.x_min};
        return {grid.M - 1, {0.0, 1.0, 0.0, 0.0}, grid.x_max()};
    }
    __host__ __device__ double operator()(const double* values, const double* data, const Stencil& s) const {
        return CellCubicColumn{values, data}(s.cell, s.weights);
    }
    // The run form (NeighbourExpectations, sweep_functors.h): whether the P grid points site .. site + P - 1 moved
    // by the node all land in cells of the grid, and then one function at all of them from the cells c .. c + P - 1
    // (c the first point's, the node's weights).
    __host__ __device__ bool run_inside(const GridSite<1>& site, const AxisNode<Shift>& node, int P) const {
        return shifted_cell_inside(site.index[0], node.shift.cells, grid.M - (P - 1));
    }
    template <int P>
    __host__ __device__ CellCubicColumn::Run<P> run(const double* values, const double* data, const GridSite<1>& site,
                                                    const AxisNode<Shift>& node) const {
        return CellCubicColumn{values, data}.run<P>(site.index[0] + node.shift.cells, node.shift.weights);
    }
};

// The piecewise cubic of a cell, along one axis: its weights (v0, v1, d0, d1) at t, and its symbol on a grid mode
// e^(i theta i), D(theta), the factor that turns the mode's values into its data (the stability analysis's,
// stability.h). A family names its cell (AxisCell), so that its stability verdict is its own.
struct SplineCell {
    __host__ __device__ static CellWeights weights(double t, double dx) { return cubic_spline_weights(t, dx); }
    // the periodic spline's moments
    static std::complex<double> mode_data_factor(double theta, double dx) {
        return {6.0 / (dx * dx) * (2.0 * std::cos(theta) - 2.0) / (2.0 * std::cos(theta) + 4.0), 0.0};
    }
};
struct HermiteCell {
    __host__ __device__ static CellWeights weights(double t, double dx) { return cubic_hermite_weights(t, dx); }
    // the fourth-order slopes
    static std::complex<double> mode_data_factor(double theta, double dx) {
        return {0.0, (8.0 * std::sin(theta) - std::sin(2.0 * theta)) / (6.0 * dx)};
    }
};
using CubicSplineEvaluator = CellCubicEvaluator<SplineCell>;    // data: the moments
using CubicHermiteEvaluator = CellCubicEvaluator<HermiteCell>;  // data: the slopes (cubic_hermite.h)

// Layers of 1D problems: the data of a function are its spline moments (M+1).
template <class Context>
class CubicSplineLayers {
public:
    CubicSplineLayers(Context& context, int M, double x_min, double dx, SplineBoundary boundary, SplineSolve solve)
        : spline_(context, M, boundary, dx, solve), M_(M), x_min_(x_min), dx_(dx) {}
    std::size_t data_size() const { return M_ + 1; }
    void fit(const double* values, double* data, int functions) { spline_.fit(values, data, functions); }
    double storage_bytes() const { return spline_.storage_bytes(); }
    CubicSplineEvaluator evaluator() const { return {UniformGridLocator{x_min_, dx_, M_}}; }

private:
    SplineFitter<Context> spline_;
    int M_;
    double x_min_, dx_;
};

// Layers of 1D problems with the Hermite cubic: the data of a function are its slopes (M+1), from fourth-order
// differences (cubic_hermite.h), one functor over the entries.
template <class Context>
class CubicHermiteLayers {
public:
    CubicHermiteLayers(Context& context, int M, double x_min, double dx)
        : context_(context), M_(M), x_min_(x_min), dx_(dx) {}
    std::size_t data_size() const { return M_ + 1; }
    void fit(const double* values, double* data, int functions) {
        thrust::for_each(context_.policy(), thrust::counting_iterator<int>(0),
                         thrust::counting_iterator<int>(functions * (M_ + 1)),
                         FourthOrderSlopes{values, data, M_, 1.0 / (12.0 * dx_)});
    }
    double storage_bytes() const { return 0.0; }
    CubicHermiteEvaluator evaluator() const { return {UniformGridLocator{x_min_, dx_, M_}}; }

private:
    Context& context_;
    int M_;
    double x_min_, dx_;
};

// A family: Fitter<Context>, make_fitter, solves_spline_moments (the report then names how the moments were solved)
// and AxisCell, its cell along each axis (a 2D family's symbol is the product of its axes').
struct CubicSpline1D {
    static constexpr bool solves_spline_moments = true;  // by SplineFitter (settings.spline_solve)
    static constexpr bool splits_rows = false;
    using AxisCell = SplineCell;
    template <class Context>
    using Fitter = CubicSplineLayers<Context>;
    template <class Context>
    static Fitter<Context> make_fitter(Context& context, int M, double x_min, double dx, SplineOptions spline) {
        return Fitter<Context>(context, M, x_min, dx, spline.boundary, spline.solve);
    }
};

// The tensor-product splines, whose fitters take the spline's solve: FitterOf<Context>(context, M, x_min, dx, solve),
// and a slab's rows (splits_rows: M1 intervals along axis 1 from x1_min; slabs.h).
template <template <class> class FitterOf>
struct TensorSplineFamily {
    static constexpr bool solves_spline_moments = true;
    static constexpr bool splits_rows = true;
    using AxisCell = SplineCell;
    template <class Context>
    using Fitter = FitterOf<Context>;
    template <class Context>
    static Fitter<Context> make_fitter(Context& context, int M, double x_min, double dx, SplineOptions spline) {
        return Fitter<Context>(context, M, x_min, dx, spline.solve);
    }
    template <class Context>
    static Fitter<Context> make_fitter(Context& context, int M, double x_min, double dx, SplineOptions spline, int M1,
                                       double x1_min) {
        return Fitter<Context>(context, M, x_min, dx, spline.solve, M1, x1_min);
    }
};
using TensorSpline2D = TensorSplineFamily<TensorSplineFitter>;
using TensorSpline3D = TensorSplineFamily<TensorSpline3DFitter>;

// A family whose fitter takes no spline options: Fitter<Context>(context, M, x_min, dx).
template <template <class> class FitterOf, class Cell>
struct FamilyWithoutSettings {
    static constexpr bool solves_spline_moments = false;
    static constexpr bool splits_rows = false;
    using AxisCell = Cell;
    template <class Context>
    using Fitter = FitterOf<Context>;
    template <class Context>
    static Fitter<Context> make_fitter(Context& context, int M, double x_min, double dx, SplineOptions) {
        return Fitter<Context>(context, M, x_min, dx);
    }
};
using CubicHermite1D = FamilyWithoutSettings<CubicHermiteLayers, HermiteCell>;
using Bicubic2D = FamilyWithoutSettings<BicubicFitter, HermiteCell>;  // per axis the Hermite cubic's slopes

// f(Family{}) for the family of `kind` in dimension d, the one place a kind meets its type (the backends' sweep and
// the stability analysis). No default case: a new kind without its family is a -Wswitch warning. A kind that has no
// family in d (validate() refuses it before) throws DefinitionError.
template <int d, class F>
decltype(auto) with_interpolation_family(InterpolationKind kind, F&& f) {
    switch (kind) {
    case InterpolationKind::spline:
        if constexpr (d == 1) return f(CubicSpline1D{});
        else if constexpr (d == 2) return f(TensorSpline2D{});
        else return f(TensorSpline3D{});
    case InterpolationKind::hermite:
        if constexpr (d == 1) return f(CubicHermite1D{});
        else break;
    case InterpolationKind::bicubic:
        if constexpr (d == 2) return f(Bicubic2D{});
        else break;
    }
    throw DefinitionError("an interpolation with no family in " + std::to_string(d) + "D");
}

}  // namespace bsde
