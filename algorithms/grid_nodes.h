// Rule nodes on the uniform grid. A grid point w_i = x_min + i dx moved by an increment dW lies at
// position i + dW / dx: in cell i + floor(dW / dx), at the local coordinate t = dW / dx - floor(dW / dx),
// the same t for every grid point. So the interpolation weights of a rule's node (its dW for a layer)
// are computed once per step size for all points (the sweep's node table), and at a point only the cell
// index is added up; a point whose shifted cell falls off the grid is located and clamped as any other.
#pragma once
#include "host_device.h"
#include "point.h"

namespace bsde {

// A grid point: its coordinates w and its index along each axis.
template <int d>
struct GridSite {
    Point<d> w;
    int index[d];
};

// Whole cells and the local coordinate of an increment dW along one axis of spacing dx.
struct CellShift {
    double t;
    int cells;
};
__host__ __device__ inline CellShift cell_shift(double dW, double dx) {
    const double position = dW * (1.0 / dx);
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

}  // namespace bsde
