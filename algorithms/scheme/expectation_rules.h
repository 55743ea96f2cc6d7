// Quadrature rules for the conditional expectations E[phi(w + dW)], dW ~ N(0, v), of one stored layer.
// A rule calls sink.add(dW, omega) for each of its increments, so that E[phi] ~= sum omega phi(w + dW);
// Sink::dimension is the dimension of dW. With lanes (lanes.h), lane r of a group of G takes the rule's
// nodes r, r + G, ... (of its innermost loop; GaussHermiteOnGrid in 1D: a run of nodes, LayerNodeShare) and the
// group's sums add up to the rule.
//
//   GaussHermiteExpectation: dW = sqrt(2 v) a_l, omega = omega_l / sqrt(pi) (scheme.md), the rule itself; in the
//     sweep the kink-line rule's part away from its band (KinkLineExpectation).
//   GaussHermiteOnGrid: the same nodes from a table made once per step size (grid_nodes.h), each with its
//     shift on the grid, for the smooth layers of the fused pass; the sink gets the nodes (sink.add_node).
//   CellGaussLegendreExpectation: for the terminal layer of kinked data, which Gauss-Hermite cannot resolve
//     (its nodes are sqrt(2 v) * ~0.4 apart, the kink or its Kreiss-smoothed form only a few dx wide; the
//     resulting error is O(v) pointwise, e.g. 1e-2 for Example 3 at N = 32). The integral of the layer's
//     spline, a cubic on each grid cell, times the normal density is taken cell by cell: w is a grid point,
//     so the cells [w + m dx, w + (m+1) dx] are the spline's pieces; each is cut into s equal parts,
//     s = ceil(2 dx / sqrt(v)), with 5-point Gauss-Legendre on each, over |dW| <= 8.5 sqrt(v) rounded
//     out to whole cells (the normal mass beyond is below 2e-17).
//   KinkLineExpectation: the same for the terminal layer of 2D data kinked along a line (Example 5): Gauss-
//     Hermite along the line, composite Gauss-Legendre across it, resolving a band of a few dx (below);
//     KinkPlaneExpectation the same in 3D across a plane (KinkFlatExpectation).
#pragma once
#include <cmath>
#include <type_traits>

#include "../quadrature/gauss_legendre.h"
#include "../quadrature/grid_nodes.h"
#include "../core/host_device.h"
#include "../core/lanes.h"
#include "../core/point.h"
#include "terminal_smoothing.h"

namespace bsde {

// In 2D and 3D the tensor product: dW = sqrt(2 v) (a_l, a_m(, a_o)), omega = omega_l omega_m (omega_o) / pi^(d/2)
// (Sink::dimension says which).
struct GaussHermiteExpectation {
    const double* nodes;    // a_l
    const double* weights;  // omega_l / sqrt(pi)
    int L;
    template <class Sink, class Lanes = SingleLane>
    __host__ __device__ void operator()(double variance, Sink& sink, const Lanes& lanes = Lanes{}) const {
        const double shift = sqrt(2.0 * variance);
        if constexpr (Sink::dimension == 1) {
            for (int l = lanes.lane(); l < L; l += Lanes::size) sink.add(shift * nodes[l], weights[l]);
        } else if constexpr (Sink::dimension == 2) {
            // nested, so that whatever depends on the first component only (where the sink's interpolant
            // locates it along axis 1) stays out of the inner loop; the lanes share the inner nodes
            for (int l = 0; l < L; ++l)
                for (int m = lanes.lane(); m < L; m += Lanes::size)
                    sink.add(Vec2{{shift * nodes[l], shift * nodes[m]}}, weights[l] * weights[m]);
        } else {
            for (int l = 0; l < L; ++l)
                for (int m = 0; m < L; ++m)
                    for (int o = lanes.lane(); o < L; o += Lanes::size)
                        sink.add(Vec3{{shift * nodes[l], shift * nodes[m], shift * nodes[o]}},
                                 weights[l] * weights[m] * weights[o]);
        }
    }
};

// The nodes begin..end-1 of one layer of a 1D rule that a lane takes (LayerNodeShare), and the cells of the first,
// which the caller reads before the layer's set-up (the driver's factors of t, the sinks), so that on the GPU the load
// overlaps that work instead of heading the first node's chain (docs/performance.md, "Each thread's fixed work").
struct NodeRun {
    int begin = 0, end = 0;
    int first_cells = 0;
    __host__ __device__ bool empty() const { return begin >= end; }
};

// How the lanes of a 1D point share the nodes of the smooth layers a call reads: the layers' L nodes each, in the
// order the layers are read, cut into one run of consecutive nodes per lane, lane r taking the r-th. A lane then sets
// up and starts only the layers its run reaches (with K = 6, L = 32 and 4 lanes two layers each): each layer's start
// and end in a thread, the driver's factors of t and the first node's exposed loads, come at most K + G - 1 times a
// point instead of K G times (docs/performance.md, "Each thread's fixed work"). With one lane the run is every node
// of every layer, in the rule's order.
struct LayerNodeShare {
    int first, last;  // the lane's nodes first..last-1 in the sequence of the layers' nodes
    int L;
    template <class Lanes>
    __host__ __device__ static LayerNodeShare of(const Lanes& lanes, int layers, int L) {
        const int nodes = layers * L;
        return {lanes.lane() * nodes / Lanes::size, (lanes.lane() + 1) * nodes / Lanes::size, L};
    }
    // the lane's nodes of the layer read q-th (q = 0: the first read): begin..end-1, empty where begin >= end
    __host__ __device__ NodeRun of_layer(int q) const {
        const int begin = first - q * L, end = last - q * L;
        return {begin > 0 ? begin : 0, end < L ? end : L};
    }
};

// The nodes of GaussHermiteExpectation for the layers j = 1..K of a step, variance j dt, from a table of
// AxisNode rows (row j - 1: dW = sqrt(2 j dt) a_l, omega_l / sqrt(pi) and the interpolation's shift of
// dW). In 2D and 3D the tensor product of a row with itself, axis 1 outer as in GaussHermiteExpectation.
//
// In 2D, where the sink's evaluator has the staged form (stages_rows: the tensor spline) and the lanes are a
// block that stages (cuda), and stage.stride > 0 (the sweep's choice: the block's stage fits), the rule runs by
// sum factorisation: per node along axis 1 the block stages the axis-1 sums over the windows of its rows once
// (LayerExpectations::stage), and each of its points' nodes along axis 2 reads 4 staged values per function
// instead of 16 coefficients of the layer (tensor_spline.h). The same sums in another order: equal to rounding.
// Two buffers: the block stages node l + 1 into one while its points read node l from the other, one
// lanes.sync() per node (every thread of the block runs the schedule alike).
template <class Shift>
struct GaussHermiteOnGrid {
    const AxisNode<Shift>* table;  // K rows of L nodes, ascending in dW (gauss_hermite.h)
    int L;
    StageLayout stage;  // of a block's stage (grid_nodes.h); stride 0: no staging
    // 1D: the nodes begin..end-1 of layer j (a lane's run, LayerNodeShare::of_layer) with the first one's cells.
    __host__ __device__ NodeRun run(int j, NodeRun nodes) const {
        if (!nodes.empty()) nodes.first_cells = table[(j - 1) * L + nodes.begin].shift.cells;
        return nodes;
    }

    // The rule of layer j into sink. 1D: the nodes of `nodes` (run()); 2D, 3D: every node (`nodes` unused), the
    // lanes taking the nodes along the last axis in turn.
    template <class Sink, class Lanes = SingleLane>
    __host__ __device__ void operator()(int j, Sink& sink, const Lanes& lanes, const NodeRun& nodes) const {
        const AxisNode<Shift>* row = table + (j - 1) * L;
        if constexpr (Sink::dimension == 1) {
            // Each node's cells are read one iteration ahead, so that they are at hand when the stencil's loads
            // are issued (on the GPU a dependent cache round trip less per node), and the loop of a single point is
            // unrolled by two (one node at a time for several points), so that a GPU thread has at least two
            // evaluations' loads and exp in flight (BackwardSweep::pass_blocks_per_sm; docs/performance.md,
            // "Registers and warps per SM").
            int next_cells = nodes.first_cells;
            BSDE_DEVICE_UNROLL((Sink::points == 1 ? 2 : 1))
            for (int l = nodes.begin; l < nodes.end; ++l) {
                AxisNode<Shift> node = row[l];
                node.shift.cells = next_cells;
                if (l + 1 < nodes.end) next_cells = row[l + 1].shift.cells;
                sink.add_node(node);
            }
        } else {
            if constexpr (Lanes::stages && Sink::stages_rows) {
                if (stage.stride > 0) {
                    const auto windows = sink.row_windows(
                        RowReach{row[0].shift.cells, row[L - 1].shift.cells, stage}, lanes);
                    // buffer 0 was last read before the last sync of the previous row (or never)
                    auto staged = sink.stage(row[0], windows, 0, lanes);
                    lanes.sync();
                    for (int l = 0; l < L; ++l) {
                        const auto next = l + 1 < L ? sink.stage(row[l + 1], windows, (l + 1) % 2, lanes) : staged;
                        for (int m = lanes.lane(); m < L; m += Lanes::size) sink.add_staged(staged, row[m]);
                        lanes.sync();  // node l + 1 staged, node l read
                        staged = next;
                    }
                    return;
                }
            }
            if constexpr (Sink::dimension == 2) {
                for (int l = 0; l < L; ++l) {
                    const AxisNode<Shift> along1 = row[l];
                    for (int m = lanes.lane(); m < L; m += Lanes::size) sink.add_node(along1, row[m]);
                }
            } else {
                for (int l = 0; l < L; ++l) {
                    const AxisNode<Shift> along1 = row[l];
                    for (int m = 0; m < L; ++m) {
                        const AxisNode<Shift> along2 = row[m];
                        for (int o = lanes.lane(); o < L; o += Lanes::size) sink.add_node(along1, along2, row[o]);
                    }
                }
            }
        }
    }
};

struct CellGaussLegendreExpectation {
    double dx;
    static constexpr double reach = 8.5;  // standard deviations covered on each side
    // The cells on each side and the parts of a cell at variance v; 2 cells parts pieces of 5 nodes each, so about
    // 85 sqrt(v) / dx nodes where sqrt(v) > 2 dx (the fine grids of a high --grid-order: settings.h, kinked_rule_evaluations).
    struct Pieces {
        int cells, parts;
        __host__ __device__ int count() const { return 2 * cells * parts; }  // m = -cells parts .. cells parts - 1
    };
    __host__ __device__ Pieces pieces(double variance) const {
        const double sd = sqrt(variance);
        return {static_cast<int>(ceil(reach * sd / dx)), static_cast<int>(ceil(2.0 * dx / sd))};
    }
    __host__ __device__ double nodes(double variance) const {
        return double(pieces(variance).count()) * GaussLegendre5::points;
    }
    template <class Sink, class Lanes = SingleLane>
    __host__ __device__ void operator()(double variance, Sink& sink, const Lanes& lanes = Lanes{}) const {
        const Pieces p = pieces(variance);
        const int cells = p.cells, parts = p.parts, increments = p.count() * GaussLegendre5::points;
        const double h = dx / parts, density = 1.0 / sqrt(2.0 * 3.14159265358979323846 * variance);
        for (int k = lanes.lane(); k < increments; k += Lanes::size) {
            const int m = k / GaussLegendre5::points - cells * parts, q = k % GaussLegendre5::points;
            const double dW = (m + 0.5 * (1.0 + GaussLegendre5::node(q))) * h;
            sink.add(dW, 0.5 * h * GaussLegendre5::weight(q) * density * exp(-0.5 * dW * dW / variance));
        }
    }
};

// 16-point Gauss-Legendre on [-1, 1]: node(q), q = 0..15 increasing, from the positive half (mirrored).
struct GaussLegendre16 {
    static constexpr int points = 16;
    __host__ __device__ static double node(int q) { return q < 8 ? -half_node(7 - q) : half_node(q - 8); }
    __host__ __device__ static double weight(int q) { return half_weight(q < 8 ? 7 - q : q - 8); }
    __host__ __device__ static double half_node(int k) {
        static constexpr double x[8] = {0.095012509837637441, 0.28160355077925892, 0.45801677765722737,
                                        0.61787624440264377,  0.755404408355003,   0.86563120238783176,
                                        0.9445750230732326,   0.98940093499164994};
        return x[k];
    }
    __host__ __device__ static double half_weight(int k) {
        static constexpr double w[8] = {0.18945061045506864,  0.18260341504492364, 0.16915651939500265,
                                        0.14959598881657671,  0.12462897125553407, 0.095158511682492605,
                                        0.062253523938647456, 0.027152459411754176};
        return w[k];
    }
};

// integral_lo^hi phi(u) p(u) du, p the N(0, v) density, in equal panels of width <= width with Rule on each:
// emit(u, omega) for each node, omega = the panel's Gauss-Legendre weight times p(u). The lanes share the nodes (panel
// m, node q: k = m Rule::points + q).
template <class Rule, class Emit, class Lanes>
__host__ __device__ void normal_density_panels(double lo, double hi, double width, double variance, const Emit& emit,
                                               const Lanes& lanes) {
    if (!(hi > lo)) return;
    const int pieces = static_cast<int>(ceil((hi - lo) / width - 1e-9));  // 4 band panels, not 5 by round-off
    const int count = pieces > 1 ? pieces : 1;
    const double h = (hi - lo) / count;
    const double density = 1.0 / sqrt(2.0 * 3.14159265358979323846 * variance);
    for (int k = lanes.lane(); k < count * Rule::points; k += Lanes::size) {
        const int m = k / Rule::points, q = k % Rule::points;
        const double u = lo + (m + 0.5 * (1.0 + Rule::node(q))) * h;
        emit(u, 0.5 * h * Rule::weight(q) * density * exp(-0.5 * u * u / variance));
    }
}

// 2D, the terminal layer of data kinked along the line {w : n . w = c} (KinkLine). The Gaussian is rotation
// invariant, so with the tangent t = (-n_2, n_1)
//   E[phi(w + dW)] = integral integral phi(w + u n + v t) p(u) p(v) du dv,   p the N(0, v) density:
// smooth in v (along the line) and non-smooth in u only near u* = c - n . w, in the band where the layer's
// interpolant bends (the Kreiss-smoothed data within 3 dx of the line, and the one or two cells over which
// a spline or the bicubic's differences carry the bend further). Gauss-Hermite in v would do there, but not
// in u: its nodes, ~0.4 sqrt(2v) apart, miss a band a few dx wide (an O(v) error, as in 1D, whence the
// non-convergence of plain tensor Gauss-Hermite on Example 5). So:
//   v: Gauss-Hermite, the L nodes of the smooth rule;
//   u: over [-8.5 sd, 8.5 sd] (the mass beyond is below 2e-17), cut at the band [u* - B, u* + B] (B = band dx,
//      4 dx for Phi_4, 6 dx for Phi_6):
//      each half of the band, [u* - B, u*] and [u*, u* + B], in panels of width min(dx, sd/2) with
//      5-point Gauss-Legendre (u* on a panel edge: exact for a kink of the data at u*); the two smooth
//      pieces outside it in panels of width <= 17/3 sd (at most 4 in all) with 16-point Gauss-Legendre
//      (for any cut, error below 1e-11 of E[|u|^k e^(u/sd)], k <= 4; 8.5 sd panels: 2e-8).
//   weights: Gauss-Legendre weight * p(u) * omega_l / sqrt(pi).
// Example 5's y_0, z_0 (K = 3, N = 16, errors ~1e-5) change by < 1e-8 with band panels of dx/2, a band of
// 6 dx or 5-point outer panels of sd (twice the nodes), by ~1e-6 with 5-point outer panels of 2 sd.
// (8 * 5 + 4 * 16) L = 104 L nodes at most (832 for L = 8) where dx <= sd/2 (K >= 3, where the grids are
// fine; more for K = 1, 2, whose grids are coarse and cheap), only at the points whose band reaches into
// [-8.5 sd, 8.5 sd] (a fifth to a quarter of the grid at N = 64); elsewhere the layer is smooth wherever
// the Gaussian has mass, and the plain tensor rule (L^2 nodes) is used. Only the K + 1 steps that read the
// terminal layer (K fine steps of the start-up, the first main step) use the rule, which costs the sweep
// little against the tensor rule everywhere. With the tensor rule on the smoothed terminal layer, Example 5's
// y errors (K = 3, N = 8, 16, 32, 64) go 4.2e-4, 8.2e-6, 1.2e-5, 1.4e-7; with this rule 1.2e-4, 8.2e-6,
// 6.2e-7, 6.1e-8 (z: 7.4e-4, 1.5e-5, 5.7e-6, 3.1e-7 against 1.6e-4, 1.8e-5, 2.1e-6, 2.9e-7).
// 3D, data kinked on the plane {w : n . w = c} (KinkPlane): the same with Gauss-Hermite over the plane's two tangent
// directions (PlaneTangents), (8 * 5 + 4 * 16) L^2 nodes at most. KinkLineExpectation and KinkPlaneExpectation.
template <int d>
struct KinkFlatExpectation {
    static_assert(d == 2 || d == 3, "a kink line in 2D, a kink plane in 3D");
    const double* nodes;    // a_l
    const double* weights;  // omega_l / sqrt(pi)
    int L;
    KinkFlat<d> kink;
    double dx;
    // half-width of the resolved band, in dx: the smoothing kernel's half-width and the cell over which the
    // interpolant carries the bend, at least 4 (KreissKernel::half_width() + 1: 4 for Phi_4, 6 for Phi_6)
    double band = 4.0;
    static constexpr double reach = 8.5;        // standard deviations covered on each side in u
    static constexpr double band_panel = 1.0;   // panel width in the band, in dx
    static constexpr double outer_panel = 17.0 / 3.0;  // panel width outside the band, in sd (<= 4 panels)

    template <class Sink, class Lanes = SingleLane>
    __host__ __device__ void operator()(double variance, const Point<d>& w, Sink& sink,
                                        const Lanes& lanes = Lanes{}) const {
        if (resolves(variance, w))
            resolved(variance, w, sink, lanes);
        else
            GaussHermiteExpectation{nodes, weights, L}(variance, sink, lanes);
    }

    // Whether the band reaches into [-8.5 sd, 8.5 sd] at w: |u*| < 8.5 sd + band dx, within resolved_half_width of the
    // kink.
    __host__ __device__ double resolved_half_width(double variance) const { return reach * sqrt(variance) + band * dx; }
    __host__ __device__ bool resolves(double variance, const Point<d>& w) const {
        return fabs(kink.distance(w)) < resolved_half_width(variance);
    }

    // The rule at a point w that it resolves: the panels in u times Gauss-Hermite along the kink.
    template <class Sink, class Lanes = SingleLane>
    __host__ __device__ void resolved(double variance, const Point<d>& w, Sink& sink,
                                      const Lanes& lanes = Lanes{}) const {
        const double sd = sqrt(variance);
        const double u_star = -kink.distance(w), U = reach * sd, B = band * dx;
        const double a = clamp(u_star - B, U), c = clamp(u_star, U), b = clamp(u_star + B, U);
        const double width = band_panel * dx < 0.5 * sd ? band_panel * dx : 0.5 * sd;
        const AlongTheKink<Sink> along{*this, sink, sqrt(2.0 * variance), tangents()};
        normal_density_panels<GaussLegendre5>(a, c, width, variance, along, lanes);
        normal_density_panels<GaussLegendre5>(c, b, width, variance, along, lanes);
        normal_density_panels<GaussLegendre16>(-U, a, outer_panel * sd, variance, along, lanes);
        normal_density_panels<GaussLegendre16>(b, U, outer_panel * sd, variance, along, lanes);
    }

private:
    __host__ __device__ static double clamp(double x, double U) { return x < -U ? -U : (x > U ? U : x); }

    struct NoTangents {};
    using Tangents = std::conditional_t<d == 2, NoTangents, PlaneTangents>;  // of the plane in 3D
    __host__ __device__ Tangents tangents() const {
        if constexpr (d == 2)
            return NoTangents{};
        else
            return PlaneTangents::of(kink.normal);
    }
    // A node u across the kink with its weight omega_u times the tensor Gauss-Hermite nodes along it: each lane takes
    // all L^(d-1) nodes along the kink of its nodes in u, so that a node's weight in u (its exp) is made once.
    template <class Sink>
    struct AlongTheKink {
        const KinkFlatExpectation& rule;
        Sink& sink;
        double shift;  // sqrt(2 v)
        Tangents tangents;
        __host__ __device__ void operator()(double u, double omega_u) const {
            for (int l = 0; l < rule.L; ++l) {
                if constexpr (d == 2) {
                    sink.add(across_and_along(rule.kink.normal, u, shift * rule.nodes[l]), omega_u * rule.weights[l]);
                } else {
                    for (int m = 0; m < rule.L; ++m)
                        sink.add(tangents.across_and_along(rule.kink.normal, u, shift * rule.nodes[l],
                                                           shift * rule.nodes[m]),
                                 omega_u * rule.weights[l] * rule.weights[m]);
                }
            }
        }
    };
};
using KinkLineExpectation = KinkFlatExpectation<2>;
using KinkPlaneExpectation = KinkFlatExpectation<3>;

}  // namespace bsde
