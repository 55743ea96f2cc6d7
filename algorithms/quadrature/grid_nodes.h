// Rule nodes on the uniform grid. A grid point w_i = x_min + i dx moved by an increment dW lies at
// position i + dW / dx: in cell i + floor(dW / dx), at the local coordinate t = dW / dx - floor(dW / dx),
// the same t for every grid point. So the interpolation weights of a rule's node (its dW for a layer)
// are computed once per step size for all points (the sweep's node table), and at a point only the cell
// index is added up; a point whose shifted cell falls off the grid is located and clamped as any other.
#pragma once
#include <type_traits>

#include "../core/host_device.h"
#include "../core/point.h"

namespace bsde {

// A grid point: its coordinates w and its index along each axis.
template <int d>
struct GridSite {
    Point<d> w;
    int index[d];
};

// Whole cells and the local coordinate of an increment dW along one axis of spacing dx. The position is clamped
// to 2^30 cells either way, far past any grid the sweep indexes (validate()), so that the cast, and a grid index
// plus the cells, stay within int on every backend (such a node is clamped to the grid's end, interpolation.h).
struct CellShift {
    double t;
    int cells;
};
__host__ __device__ inline CellShift cell_shift(double dW, double dx) {
    const double farthest = 1073741824.0;  // 2^30
    const double position = fmin(fmax(dW * (1.0 / dx), -farthest), farthest);
    const int cells = static_cast<int>(floor(position));
    return {position - cells, cells};
}

// Whether cell index + cells exists on a grid of M cells.
__host__ __device__ inline bool shifted_cell_inside(int index, int cells, int M) {
    const int cell = index + cells;
    return cell >= 0 && cell < M;
}

// A rule's node along one axis: its increment dW, its weight omega and what the interpolation makes
// of dW on the grid (the evaluator's Shift: the weights of t and the cells; aligned, and the cells last, so
// that a node is read with a few wide loads).
template <class Shift>
struct alignas(16) AxisNode {
    double dW, omega;
    Shift shift;
};

// The staged 2D pass (expectation_rules.h, GaussHermiteOnGrid): a block of points stages, per node along axis 1,
// sums over windows of its rows' columns, each window `stride` doubles of a buffer of the block's stage, which has
// two buffers of `buffer` doubles. Which columns a window holds is the evaluator's (its row_windows(); the tensor
// spline's in tensor_spline.h), from the cell shifts [low, high] of a rule's nodes along axis 2.
struct StageLayout {
    int stride, buffer;  // doubles per row window and per buffer of a block's stage; stride 0: no staging
};
struct RowReach {
    int low, high;
    StageLayout layout;
};

// Whether an evaluator has the staged form of a 2D rule, told by its axis2_sum; such an evaluator also has
// stage_layout, row_windows, along_axis and stage (tensor_spline.h).
template <class Evaluator, class = void>
struct stages_rows : std::false_type {};
template <class Evaluator>
struct stages_rows<Evaluator, std::void_t<decltype(&Evaluator::axis2_sum)>> : std::true_type {};

}  // namespace bsde
