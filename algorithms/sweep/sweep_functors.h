// The device functors of the backward sweep (scheme.md, "One backward step"), for problems of dimension
// d = 1, 2 or 3 and any interpolation family (interpolation.h).
#pragma once
#include <climits>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "../scheme/expectation_rules.h"
#include "../scheme/obstacle.h"
#include "../core/point.h"
#include "../scheme/terminal_smoothing.h"

namespace bsde {

// A stored time layer of 1 + d functions (y, z_1..z_d): their grid values, then their interpolation data,
//   [values y | values z_1 | ... | data y | data z_1 | ...]   (in 1D with the spline: [y | z | y'' | z'']).
// In a batch of B members (Members) each function's part holds the members' one after the other: points = B member
// points, data_size = B member data; member(b) views member b's part alone, with the same strides.
// Indices within one function's values or data are 32-bit (the sweep's points and a function's data are at most
// 2^31 - 1: validate, BackwardSweep::checked_points); offsets across functions, members and layers are 64-bit, since a
// layer's 1 + d functions and the K + 1 layers of a ring pass 2^31 values first.
struct LayerView {
    double* base;       // function k's values at base + k points
    int points, data_size, functions;
    double* data_base;  // function k's interpolation data at data_base + k data_size
    __host__ __device__ static LayerView of(double* base, int points, int data_size, int functions) {
        return {base, points, data_size, functions, base + std::ptrdiff_t(functions) * points};
    }
    __host__ __device__ double* values(int k) const { return base + std::ptrdiff_t(k) * points; }
    __host__ __device__ double* data(int k) const { return data_base + std::ptrdiff_t(k) * data_size; }
    __host__ __device__ LayerView member(int b, int member_points, int member_data) const {
        return {base + std::ptrdiff_t(b) * member_points, points, data_size, functions,
                data_base + std::ptrdiff_t(b) * member_data};
    }
};

// K+1 layers in a ring: layer n lives in slot n mod (K+1), so the step that writes layer n never
// touches the K layers n+1..n+K it reads, and no layer is ever copied.
struct LayerRingView {
    double* base;
    int slots, points, data_size, functions;
    __host__ __device__ std::ptrdiff_t slot_size() const {
        return std::ptrdiff_t(functions) * (std::ptrdiff_t(points) + data_size);
    }
    __host__ __device__ std::ptrdiff_t offset(int n) const { return n % slots * slot_size(); }  // of layer n's slot
    __host__ __device__ LayerView layer(int n) const {
        return LayerView::of(base + offset(n), points, data_size, functions);
    }
};

// The members of a batched solve (BackwardSweep): B parameter sets of one problem on one grid, each with its own copy
// of the grid's points. Sweep point g is member g / points's grid point g % points; a layer holds each function's
// values of the members one after the other, then their data (LayerView). A solve of one problem is a batch of one.
template <class Problem>
struct Members {
    const Problem* problems;      // B, in the backend's memory
    const double* picard_scales;  // B: each member's PicardStop scale (BackwardSweep::set_picard_scales)
    int points, data;             // a member's grid points, and its interpolation data per function
    __host__ __device__ int member(int g) const { return g / points; }
    __host__ __device__ int point(int g) const { return g % points; }
    __host__ __device__ LayerView layer(const LayerView& all, int b) const { return all.member(b, points, data); }
};

// Grid point i of the uniform grid in W-space: w = x_min + (r + i) dx in 1D, (x_min + (r + i_1) dx, x_min + i_2 dx)
// with i = i_1 (M+1) + i_2 in 2D, (x_min + (r + i_1) dx, x_min + i_2 dx, x_min + i_3 dx) with
// i = (i_1 (M+1) + i_2)(M+1) + i_3 in 3D: M intervals along axes 2..d, M1 along axis 1 from its row r = first_row,
// which are M and 0 on the whole grid and a slab's rows on a slab of it (slabs.h).
template <int d>
struct GridPoints {
    double x_min, dx;
    int M;
    int first_row, M1;
    __host__ __device__ GridPoints(double x_min, double dx, int M) : GridPoints(x_min, dx, M, 0, M) {}
    __host__ __device__ GridPoints(double x_min, double dx, int M, int first_row, int M1)
        : x_min(x_min), dx(dx), M(M), first_row(first_row), M1(M1) {}
    // The intervals along axis `axis` (0-based), and its first coordinate.
    __host__ __device__ int intervals(int axis) const { return axis == 0 ? M1 : M; }
    __host__ __device__ double axis_min(int axis) const { return axis == 0 ? x_min + first_row * dx : x_min; }
    __host__ __device__ Point<d> operator()(int i) const { return site(i).w; }
    __host__ __device__ GridSite<d> site(int i) const {
        if constexpr (d == 1) {
            return {x_min + (first_row + i) * dx, {i}};
        } else if constexpr (d == 2) {
            const int i1 = i / (M + 1), i2 = i % (M + 1);
            return {Vec2{{x_min + (first_row + i1) * dx, x_min + i2 * dx}}, {i1, i2}};
        } else {
            const int i3 = i % (M + 1), rest = i / (M + 1), i2 = rest % (M + 1), i1 = rest / (M + 1);
            return {Vec3{{x_min + (first_row + i1) * dx, x_min + i2 * dx, x_min + i3 * dx}}, {i1, i2, i3}};
        }
    }
};

// The order in which the fused pass visits the grid rows first_row..last_row (all M1 + 1 but on a slab, whose
// owned rows alone are computed): row after row, each of (M+1)^(d-1) points, in 1D and 3D. In 2D the rows are cut
// into tiles of `tile` x `tile` points visited tile after tile (tile^2 consecutive k per tile, row after row inside),
// so that the threads that run together read one neighbourhood of each stored layer: with tiles of 16 x 16 about
// 19 x 19 coefficients per node and function instead of 4 rows of 259 for 256 points of one grid row. Tiles of
// 1 x 1 are the rows one after the other, the order of the staged pass, whose blocks share rows
// (expectation_rules.h). Visits past the rows' or the grid's edge in the last tiles of each axis map to -1. A batch
// (Members, on the whole grid) visits its members one after the other.
template <int d>
struct PointOrder {
    int first_row, last_row;  // of axis 1
    int M, tile;
    int member_points;        // (M1+1)(M+1)^(d-1)
    __host__ __device__ int rows() const { return last_row - first_row + 1; }
    __host__ __device__ int row_points() const {
        int points = 1;
        for (int axis = 1; axis < d; ++axis) points *= M + 1;
        return points;
    }
    __host__ __device__ int tiles_along(int count) const { return (count + tile - 1) / tile; }
    // a member's visits
    __host__ __device__ int visits() const {
        if constexpr (d == 2) return tiles_along(rows()) * tiles_along(M + 1) * tile * tile;
        return rows() * row_points();
    }
    // the sweep point of visit k: member b = k / visits()'s grid point, member_points b + its index in the member's grid
    __host__ __device__ int operator()(int k) const {
        const int member = k / visits();
        k -= member * visits();
        if constexpr (d != 2) {
            return member * member_points + first_row * row_points() + k;
        } else {
            const int t = k / (tile * tile), in_tile = k % (tile * tile), across = tiles_along(M + 1);
            const int i1 = first_row + t / across * tile + in_tile / tile;
            const int i2 = t % across * tile + in_tile % tile;
            return i1 <= last_row && i2 <= M ? member * member_points + i1 * (M + 1) + i2 : -1;
        }
    }
};

// body(i, lanes) for the grid point i of visit k (PointOrder), nothing past the grid's edge (2D, where
// the pass runs one lane per point: no lanes.sum() is skipped for a group that others wait on).
template <int d, class Body>
struct VisitInOrder {
    PointOrder<d> order;
    Body body;
    static constexpr bool awaits_previous_work = bsde::awaits_previous_work<Body>::value;
    template <class Lanes>
    __host__ __device__ void operator()(int k, const Lanes& lanes) const {
        const int i = order(k);
        if constexpr (Lanes::stages) {
            // a staging block's points first..last (the staged order: tiles of one point, so visits map in order)
            Lanes points = lanes;
            points.first = order(lanes.first);
            points.last = order(lanes.last);
            if (i >= 0) body(i, points);
        } else {
            if (i >= 0) body(i, lanes);
        }
    }
};

// y and the d components of z at grid point i of a layer.
template <class Gradient>
__host__ __device__ void store_point(const LayerView& layer, int i, double y, const Gradient& z) {
    layer.values(0)[i] = y;
    for (int k = 0; k < layer.functions - 1; ++k) layer.values(1 + k)[i] = component(z, k);
}

// Largest Picard change, most Picard iterations and first non-finite grid index of one step (or of one grid
// point in a step), reduced over the grid points by CombineStepStatus; StepStatus{} is its identity.
struct StepStatus {
    double picard_change = 0.0;
    int picard_iterations = 0;
    int first_nonfinite = INT_MAX;  // INT_MAX when every value is finite
    int picard_unconverged = 0;     // points where Picard ended with a change above its tolerance (PicardStop)
};

__host__ __device__ inline bool is_finite(double x) { return x - x == 0.0; }  // false for inf and NaN

struct CombineStepStatus {
    __host__ __device__ StepStatus operator()(const StepStatus& a, const StepStatus& b) const {
        return {a.picard_change > b.picard_change ? a.picard_change : b.picard_change,
                a.picard_iterations > b.picard_iterations ? a.picard_iterations : b.picard_iterations,
                a.first_nonfinite < b.first_nonfinite ? a.first_nonfinite : b.first_nonfinite,
                a.picard_unconverged + b.picard_unconverged};
    }
};

// Picard's stopping rule: at most `iterations`, ending early once |change| <= tolerance (scale + |y|), where scale is
// the terminal data's mean magnitude E|g(W_T)| (BackwardSweep::picard_scale). The test is the same in any units
// of y (y -> c y scales both sides), and where y crosses 0, or lies far below the problem's values (a price 1e-43 deep
// out of the money, whose driver's terms cancel), it ends at a change of tolerance scale, above the rounding there.
struct PicardStop {
    int iterations;
    double tolerance, scale;
    __host__ __device__ bool above_tolerance(double change, double y) const {
        return change > tolerance * (scale + fabs(y));
    }
    __host__ __device__ PicardStop with_scale(double member_scale) const { return {iterations, tolerance, member_scale}; }
};

// y^n at sweep point g (grid point i of its member, Members) of layer n by Picard from its explicit part and z^n,
//   y <- explicit_y + implicit_step f(t_n, w_i, y, z^n),   implicit_step = ky dt gy_0,
// from y^{n+1} at the same point; stores y, z and the point's status (y and z finite? Picard's last change and
// iterations), which the sweep reduces over the grid later (BackwardSweep::reduce_statuses). `problem` and `picard`
// are the member's.
template <class Problem>
struct PointSolver {
    static constexpr int d = Problem::dimension;
    Problem problem;
    LayerRingView ring;
    GridPoints<d> grid;
    int n;
    double t_n, implicit_step;
    PicardStop picard;
    StepStatus* point_status;  // sweep point g's at g
    __host__ __device__ void operator()(int g, int i, double explicit_y, const Point<d>& z) const;
};

// The step's equation (scheme.md, "One backward step"), for the layer n being computed from the stored n+1..n+K:
//   g1_0 z^n = E_1[z_{n+1}] + sum_{j<=kz} g1_j (E_j[f_j dW] - E_j[z_{n+j}])                     (each component)
//   y^n      = E_ky[y_{n+ky}] + s sum_{j<=ky} gy_j E_j[f_j] + s gy_0 f(t_n, w, y^n, z^n),   s = ky dt   (Picard)
// with E_j over dW ~ N(0, j dt I_d), f_j = f(t_{n+j}, w + dW, y_{n+j}, z_{n+j}), gy the row gamma^{ky}_{ky,.} and g1
// the row gamma^1_{kz,.} (multistep_weights.h). LayerWeights are stored layer n + j's part of it; both passes take
// them from here: the fused pass (MultistepPointUpdate) and the separable one (SeparableLayerTerms).
struct LayerWeights {
    bool expected_y;   // j = ky: E_j[y] is y^n's expectation term
    bool expected_z;   // j = 1: E_j[z] is z^n's
    double gy;         // gy_j for j <= ky, else 0
    double g1;         // g1_j for j <= kz, else 0
    __host__ __device__ static LayerWeights of(int j, int ky, int kz, const double* gamma_y, const double* gamma_z) {
        return {j == ky, j == 1, j <= ky ? gamma_y[j] : 0.0, j <= kz ? gamma_z[j] : 0.0};
    }
};

// Coefficients of one step: the rows of gamma^{ky}_{ky,.} and gamma^1_{kz,.}, and the rules (the smooth
// layers' nodes with the interpolation's shifts, for an Evaluator of interpolation.h).
template <class Evaluator, int d>
struct StepCoefficients {
    int ky, kz;
    const double* gamma_y;  // ky + 1 entries
    const double* gamma_z;  // kz + 1 entries
    GaussHermiteOnGrid<typename Evaluator::Shift> smooth_rule;
    CellGaussLegendreExpectation kinked_rule;        // 1D
    KinkFlatExpectation<d == 3 ? 3 : 2> kink_rule;  // 2D (its line), 3D (its plane)
    int kinked_layer;  // the terminal layer when its data have a kink (read with the kinked rule), else -1
    // The young layers, kinked_layer - young_layers .. kinked_layer - 1, are read with young_rule, Gauss-Hermite of
    // twice the nodes (young_rule.L, per axis in 2D): a layer j steps from the kink is the kink smoothed over
    // sqrt(j dt), read at a variance up to K dt, where L nodes can fall badly against it. Their few reads make the cost
    // negligible. 0 where there are none: smooth data.
    GaussHermiteOnGrid<typename Evaluator::Shift> young_rule;
    int young_layers;
    __host__ __device__ bool young(int layer) const {
        return layer < kinked_layer && layer >= kinked_layer - young_layers;
    }
};

// The driver at a fixed time t, f(t, ., ., .), as a functor of (w, y, z). A problem whose driver has factors
// of t alone (e.g. e^(t^2)) may define driver_at(t) returning such a functor with them computed once, as
// the sweep evaluates the driver at one t for every node of a layer and every Picard iteration; for the
// others DriverAt calls driver(t, w, y, z).
template <class Problem>
struct DriverAt {
    Problem problem;
    double t;
    template <class P, class G>
    __host__ __device__ double operator()(const P& w, double y, const G& z) const { return problem.driver(t, w, y, z); }
};
template <class P, class = void>
struct has_driver_at : std::false_type {};
template <class P>
struct has_driver_at<P, std::void_t<decltype(std::declval<const P&>().driver_at(0.0))>> : std::true_type {};
template <class Problem>
__host__ __device__ auto driver_at(const Problem& problem, double t) {
    if constexpr (has_driver_at<Problem>::value)
        return problem.driver_at(t);
    else
        return DriverAt<Problem>{problem, t};
}
template <class Problem>
using DriverAtTime = decltype(driver_at(std::declval<const Problem&>(), 0.0));

template <class Problem>
__host__ __device__ void PointSolver<Problem>::operator()(int g, int i, double explicit_y, const Point<d>& z) const {
    const Point<d> w = grid(i);
    const DriverAtTime<Problem> driver_n = driver_at(problem, t_n);
    double y = ring.layer(n + 1).values(0)[g];  // start Picard from y^{n+1} at the same point
    double change = 0.0;
    int used = 0;
    while (used < picard.iterations) {
        const double next = explicit_y + implicit_step * driver_n(w, y, z);
        change = fabs(next - y);
        y = next;
        ++used;
        if (!picard.above_tolerance(change, y)) break;
    }
    store_point(ring.layer(n), g, y, z);
    bool finite = is_finite(y);
    for (int k = 0; k < d; ++k) finite = finite && is_finite(component(z, k));
    const bool unconverged = picard.above_tolerance(change, y);
    point_status[g] = {change, used, finite ? INT_MAX : g, unconverged ? 1 : 0};
}

// Sums E_j[y], E_j[z], E_j[f_j], E_j[f_j dW] of one stored layer at the grid point `site` over a rule's
// increments dW (a double in 1D, a Vec2 in 2D, a Vec3 in 3D): given as dW (add: located) or as one table node per axis
// (add_node: the node's shifts on the grid, grid_nodes.h).
template <class Problem, class Evaluator>
struct LayerExpectations {
    static constexpr int dimension = Problem::dimension;
    static constexpr int points = 1;  // grid points the sink sums for
    static constexpr bool stages_rows = bsde::stages_rows<Evaluator>::value;
    using P = Point<dimension>;
    using Node = AxisNode<typename Evaluator::Shift>;
    const Evaluator& evaluate;
    LayerView layer;
    GridSite<dimension> site;
    DriverAtTime<Problem> driver;  // f(t_j, ., ., .)
    double y = 0.0, f = 0.0;
    P z{}, f_dw{};

    __host__ __device__ void add(const P& dW, double omega) {
        accumulate(evaluate.locate(site.w + dW), dW, omega);  // clamped to the domain
    }
    __host__ __device__ void add_node(const Node& node) { accumulate(evaluate.at(site, node), node.dW, node.omega); }
    __host__ __device__ void add_node(const Node& along1, const Node& along2) {
        accumulate(evaluate.at(site, along1, along2), Vec2{{along1.dW, along2.dW}}, along1.omega * along2.omega);
    }
    __host__ __device__ void add_node(const Node& along1, const Node& along2, const Node& along3) {
        accumulate(evaluate.at(site, along1, along2, along3), Vec3{{along1.dW, along2.dW, along3.dW}},
                   along1.omega * along2.omega * along3.omega);
    }

    // The staged form (an evaluator with stages_rows, on a context whose blocks stage, lanes.h; the schedule and
    // its lanes.sync() are the rule's, expectation_rules.h): stage() is called by every thread of the block alike;
    // it fills buffer `buffer` of the block's stage with the axis-1 sums of every function for the node along1
    // over the windows of the block's rows (Evaluator::stage; row_windows(), once per rule row) and returns this
    // point's view of it; add_staged() adds the point's node (along1, along2) from that view.
    struct StagedRow {
        const double* row;  // y's stage of this point's row, indexed by ghosted column
        int function_stride;
        double x1;  // the moved coordinate along axis 1, clamped
        double dW1, omega1;
    };
    template <class Lanes>
    __host__ __device__ auto row_windows(const RowReach& reach, const Lanes& lanes) const {
        return evaluate.row_windows(lanes.first, lanes.last, reach);
    }
    template <class RowWindows, class Lanes>
    __host__ __device__ StagedRow stage(const Node& along1, const RowWindows& windows, int buffer,
                                        const Lanes& lanes) const {
        double* staged = lanes.staged + buffer * windows.reach.layout.buffer;
        evaluate.stage(layer.data(0), layer.data_size, layer.functions, windows, along1, staged, lanes.thread(),
                       lanes.threads());
        const int row = site.index[0];
        return {staged + (row - windows.first_row) * windows.stride() - windows.begin(row),
                windows.rows() * windows.stride(), evaluate.along_axis1(row, along1).x, along1.dW, along1.omega};
    }
    __host__ __device__ void add_staged(const StagedRow& staged, const Node& along2) {
        const auto a2 = evaluate.along_axis(site.index[1], along2);
        const double y_at = Evaluator::axis2_sum(staged.row, a2);
        P z_at{};
        for (int k = 0; k < dimension; ++k)
            component(z_at, k) = Evaluator::axis2_sum(staged.row + (1 + k) * staged.function_stride, a2);
        accumulate_values(Vec2{{staged.x1, a2.x}}, y_at, z_at, Vec2{{staged.dW1, along2.dW}},
                          staged.omega1 * along2.omega);
    }

    // y, z and f at the moved point `point` (y_at, z_at interpolated there) into the sums.
    __host__ __device__ void accumulate_values(const P& point, double y_at, const P& z_at, const P& dW, double omega) {
        const double f_at = driver(point, y_at, z_at);
        y += omega * y_at;
        f += omega * f_at;
        for (int k = 0; k < dimension; ++k) {
            component(z, k) += omega * component(z_at, k);
            component(f_dw, k) += omega * f_at * component(dW, k);
        }
    }

private:
    __host__ __device__ void accumulate(const typename Evaluator::Stencil& s, const P& dW, double omega) {
        const double y_at = evaluate(layer.values(0), layer.data(0), s);
        P z_at{};
        for (int k = 0; k < dimension; ++k) component(z_at, k) = evaluate(layer.values(1 + k), layer.data(1 + k), s);
        accumulate_values(s.point, y_at, z_at, dW, omega);
    }
};

// Whether a 1D evaluator has the run form (interpolation.h): neighbouring grid points at once.
template <class Evaluator, class = void>
struct has_run_form : std::false_type {};
template <class Evaluator>
struct has_run_form<Evaluator, std::void_t<decltype(&Evaluator::run_inside)>> : std::true_type {};

// The sums of LayerExpectations for P neighbouring points of a 1D grid in one sink, at[p] for the grid point
// first + p: where a node moves all of them into cells of the grid, the evaluator's run form interpolates each
// function at all P from the P + 1 entries of cells c .. c + P - 1 (the same weights), loaded once, instead of four
// entries for each point; elsewhere (a node past the grid's edge) each point by itself. The same sums as P
// LayerExpectations, operation for operation.
template <class Problem, class Evaluator, int P>
struct NeighbourExpectations {
    static constexpr int dimension = 1;
    static constexpr int points = P;
    using Node = AxisNode<typename Evaluator::Shift>;
    using Layer = LayerExpectations<Problem, Evaluator>;
    Layer at[P];

    // The sinks of the points first .. first + P - 1 of `grid` for one layer.
    __host__ __device__ static NeighbourExpectations of(const Evaluator& evaluate, const LayerView& layer,
                                                        const GridPoints<1>& grid, int first,
                                                        const DriverAtTime<Problem>& driver) {
        return of(evaluate, layer, grid, first, driver, std::make_integer_sequence<int, P>{});
    }
    __host__ __device__ void add(double dW, double omega) {
        BSDE_DEVICE_UNROLL(P)
        for (Layer& point : at) point.add(dW, omega);
    }
    __host__ __device__ void add_node(const Node& node) {
        const Layer& first = at[0];
        if (first.evaluate.run_inside(first.site, node, P)) {
            const auto y = first.evaluate.template run<P>(first.layer.values(0), first.layer.data(0), first.site, node);
            const auto z = first.evaluate.template run<P>(first.layer.values(1), first.layer.data(1), first.site, node);
            BSDE_DEVICE_UNROLL(P)
            for (int p = 0; p < P; ++p)
                at[p].accumulate_values(at[p].site.w + node.dW, y.at[p], z.at[p], node.dW, node.omega);
        } else {
            BSDE_DEVICE_UNROLL(P)
            for (Layer& point : at) point.add_node(node);
        }
    }

private:
    template <int... p>
    __host__ __device__ static NeighbourExpectations of(const Evaluator& evaluate, const LayerView& layer,
                                                        const GridPoints<1>& grid, int first,
                                                        const DriverAtTime<Problem>& driver,
                                                        std::integer_sequence<int, p...>) {
        return {{Layer{evaluate, layer, grid.site(first + p), driver}...}};
    }
};

// One step at grid point i (or at P neighbouring points per call): the fused pass over the
// K stored layers and their rules' nodes, then z^n and y^n by the step's equation (LayerWeights), with E_j
// (expectation_rules.h) read off the interpolant of layer n+j.
// With lanes (lanes.h) the lanes of the point share the layers' nodes (in 1D each lane a run of them,
// LayerNodeShare) and add up their partial sums;
// then one lane per point (lanes.stores) computes z^n and y^n and stores them with the point's status (y and z
// finite? Picard's last change and iterations), which the sweep reduces over the grid later
// (BackwardSweep::reduce_statuses).
// The layers are read from the oldest, n+K, to the newest, n+1, whose interpolation data the work just before
// (the fit of layer n+1) writes: the pass waits for it only there (lanes.h, wait_for_previous_work), so that on
// the GPU its reads of the older layers overlap the end of that fit.
// reads_kinked_layer: whether the step reads the kinked terminal layer (c.kinked_layer), with its own rule; the
// steps that do not are compiled without that rule, so that its registers do not weigh on their kernel (on cuda
// each is a kernel of its own; docs/performance.md, "Registers and warps per SM").
// P, grid points per call g: P = 2 or 3 (where runs_possible) takes the neighbours i = P c .. P c + P - 1 of member
// g / C, c = g % C, C = ceil((M + 1) / P) calls a member (NeighbourExpectations; where M + 1 is no multiple of P, a
// member's last call takes its last P points and stores those the call before did not), so that a node's loads and
// the shared entries of the P stencils serve all of them, with 1/P of the calls; 1 takes the sweep point g. Each P is
// a kernel of its own on cuda, for the same reason as the kinked rule (docs/performance.md, "Points per call").
template <class Problem, class Evaluator, bool reads_kinked_layer = false, int P = 1>
struct MultistepPointUpdate {
    static constexpr int d = Problem::dimension;
    static constexpr bool awaits_previous_work = true;
    // Whether a call may take several neighbouring grid points (1D with an evaluator of the run form).
    static constexpr bool runs_possible = d == 1 && has_run_form<Evaluator>::value;
    static_assert(P == 1 || (P > 1 && runs_possible), "several points per call: 1D with an evaluator of the run form");
    static constexpr int points_per_call = P;
    Members<Problem> members;
    Evaluator evaluate;
    LayerRingView ring;
    GridPoints<d> grid;
    StepCoefficients<Evaluator, d> c;
    int n;             // the layer being computed
    double t_n, dt;
    PicardStop picard;         // its iterations and tolerance; each member's scale from members
    StepStatus* point_status;  // sweep point g's at g

    // The calls a member takes (points_per_call each).
    __host__ __device__ static int calls_per_member(int member_points) { return (member_points + P - 1) / P; }

    // What a point takes from the stored layers.
    struct PointSums {
        double expected_y = 0.0;   // E_ky[y_{n+ky}]
        double driver_sum = 0.0;   // sum_{j<=ky} gy_j E_j[f_j]
        Point<d> expected_z1{};    // E_1[z_{n+1}]
        Point<d> z_sum{};          // sum_{j<=kz} g1_j (E_j[f_j dW] - E_j[z_{n+j}])
        __host__ __device__ void add_layer(int j, const LayerExpectations<Problem, Evaluator>& e,
                                           const StepCoefficients<Evaluator, d>& c) {
            const LayerWeights weights = LayerWeights::of(j, c.ky, c.kz, c.gamma_y, c.gamma_z);
            if (weights.expected_y) expected_y = e.y;
            if (weights.expected_z) expected_z1 = e.z;
            driver_sum += weights.gy * e.f;
            for (int k = 0; k < d; ++k) component(z_sum, k) += weights.g1 * (component(e.f_dw, k) - component(e.z, k));
        }
    };

    template <class Lanes>
    __host__ __device__ void operator()(int g, const Lanes& lanes) const {
        if constexpr (P == 1)
            update(g, lanes);
        else
            update_run(g, lanes);
    }

private:
    using Kink = KinkFlat<d == 3 ? 3 : 2>;  // of the kinked rule (StepCoefficients): 2D a line, 3D a plane
    // The rule of layer n + j into sink: the kinked terminal layer's where it is read (every node, the lanes taking
    // them in turn; 2D, 3D: across the member's kink `kink`), else the smooth one's nodes `nodes` (1D: the lane's
    // run, LayerNodeShare).
    template <class Sink, class Lanes>
    __host__ __device__ void apply_rule(int j, const Point<d>& w, Sink& sink, const Lanes& lanes, const NodeRun& nodes,
                                        const Kink& kink) const {
        if constexpr (reads_kinked_layer) {
            if (reads_kinked(j)) {
                if constexpr (d == 1) {
                    c.kinked_rule(j * dt, sink, lanes);
                } else {
                    auto rule = c.kink_rule;  // the member's kink
                    rule.kink = kink;
                    rule(j * dt, w, sink, lanes);
                }
                return;
            }
        }
        if constexpr (reads_kinked_layer) {
            if (c.young(n + j)) return c.young_rule(j, sink, lanes, nodes);
        }
        c.smooth_rule(j, sink, lanes, nodes);
    }
    __host__ __device__ bool reads_kinked(int j) const { return reads_kinked_layer && n + j == c.kinked_layer; }
    __host__ __device__ bool reads_young(int j) const { return reads_kinked_layer && d == 1 && c.young(n + j); }

    // Call g of P points per call: member b's points P c .. P c + P - 1, or at its grid's end its last P points, of
    // which it stores those from P c on.
    template <class Lanes>
    __host__ __device__ void update_run(int g, const Lanes& lanes) const {
        const int calls = calls_per_member(members.points), b = g / calls, c = g % calls;
        const int first = P * c + P <= members.points ? P * c : members.points - P;
        update(b * members.points + first, lanes, P * c - first);
    }

    // The sweep points first .. first + P - 1 (of one member): every lane sums its nodes of every layer, the lanes add
    // up; then each point's storing lane solves and stores it (from the point first + stored_from on: the call before
    // stored the others); with lanes, the points' Picard iterations run on as many lanes at once.
    template <class Lanes>
    __host__ __device__ void update(int first, const Lanes& lanes, int stored_from = 0) const {
        const int K = c.ky > c.kz ? c.ky : c.kz;
        const int member = members.member(first), first_point = members.point(first);
        const Problem problem = members.problems[member];
        Kink kink = c.kink_rule.kink;  // 2D, 3D: where the member's terminal data bend
        if constexpr (d > 1 && has_terminal_kink<Problem>::value) kink = problem.terminal_kink();
        // 1D: the lanes share the smooth layers' nodes in runs (LayerNodeShare), each lane taking only the layers its
        // run reaches, so that only the lanes that read layer n + 1 wait for the work before; 2D: every lane every
        // layer (the staged rule's schedule is the whole block's).
        // (a young layer's nodes, young_rule's, are cut into one run per lane of their own)
        int other_reads = 0;
        for (int j = 1; j <= K; ++j) other_reads += reads_kinked(j) || reads_young(j);
        const LayerNodeShare share = LayerNodeShare::of(lanes, K - other_reads, c.smooth_rule.L);
        PointSums sums[P];
        for (int j = K, smooth_read = 0; j >= 1; --j) {
            NodeRun nodes;  // 1D: the lane's run of a smooth or young layer (the kinked layer's rule takes none); 2D: unused
            if constexpr (d == 1) {
                if (reads_young(j)) {
                    const int L = c.young_rule.L;
                    nodes = c.young_rule.run(j, {lanes.lane() * L / Lanes::size, (lanes.lane() + 1) * L / Lanes::size});
                    if (nodes.empty()) continue;
                } else if (!reads_kinked(j)) {
                    nodes = c.smooth_rule.run(j, share.of_layer(smooth_read++));  // its first cells before the set-up
                    if (nodes.empty()) continue;
                }
            }
            if (j == 1) lanes.wait_for_previous_work();
            const LayerView layer = members.layer(ring.layer(n + j), member);
            const DriverAtTime<Problem> driver = driver_at(problem, t_n + j * dt);
            if constexpr (P == 1) {
                LayerExpectations<Problem, Evaluator> e{evaluate, layer, grid.site(first_point), driver};
                apply_rule(j, e.site.w, e, lanes, nodes, kink);
                sums[0].add_layer(j, e, c);
            } else {
                auto run = NeighbourExpectations<Problem, Evaluator, P>::of(evaluate, layer, grid, first_point, driver);
                apply_rule(j, run.at[0].site.w, run, lanes, nodes, kink);
                BSDE_DEVICE_UNROLL(P)
                for (int p = 0; p < P; ++p) sums[p].add_layer(j, run.at[p], c);
            }
        }
        // The lanes add up what y^n and z^n take, each a linear combination of a point's sums (1 + d sums a point
        // instead of 2 + 2 d, each a synchronisation of the block on cuda; docs/performance.md,
        // "Each thread's fixed work").
        const double step = c.ky * dt;
        double explicit_y[P];  // E_ky[y] + ky dt sum_j gy_j E_j[f_j]
        Point<d> z[P];
        BSDE_DEVICE_UNROLL(P)
        for (int p = 0; p < P; ++p) {
            explicit_y[p] = lanes.sum(sums[p].expected_y + step * sums[p].driver_sum);
            for (int k = 0; k < d; ++k)
                component(z[p], k) =
                    lanes.sum(component(sums[p].expected_z1, k) + component(sums[p].z_sum, k)) / c.gamma_z[0];
        }
        const PointSolver<Problem> solve{problem,      ring, grid, n, t_n, c.ky * dt * c.gamma_y[0],
                                         picard.with_scale(members.picard_scales[member]), point_status};
        BSDE_DEVICE_UNROLL(P)
        for (int p = 0; p < P; ++p)
            if (p >= stored_from && lanes.stores(p)) solve(first + p, first_point + p, explicit_y[p], z[p]);
    }
};

// The terminal y (component 0) or z_k (component 1 + k) of a problem as a function of w alone, for the
// smoothing's averages.
template <class Problem>
struct TerminalComponent {
    Problem problem;
    int component;
    __host__ __device__ double operator()(const Point<Problem::dimension>& w) const {
        return component == 0 ? problem.terminal_y(w) : bsde::component(problem.terminal_z(w), component - 1);
    }
};

// At each grid point of a layer, c - h (the continuation value, the step's y before the projection, less the obstacle)
// and h, for the exercise boundary (exercise_boundary.h); gap == nullptr: not recorded.
struct ObstacleGaps {
    double* gap = nullptr;
    double* obstacle = nullptr;
};

// The projection of layer t's grid point i onto the obstacle h (a problem's obstacle(t, w); obstacle.h): the layer
// the step computed is the continuation value, and where exercise pays more the reflected solution takes its value,
//   y <- max(y, h(t, w)),   z <- grad_w h(t, w) where the constraint binds (y < h; with obstacle_z, else z stays).
// With `gaps`, it first writes what the exercise boundary is found from (ObstacleGaps).
template <class Problem>
struct ObstacleProjection {
    static constexpr int d = Problem::dimension;
    Members<Problem> members;
    LayerView layer;
    GridPoints<d> grid;
    double t;
    ObstacleGaps gaps;
    __host__ __device__ void operator()(int g) const {
        const Problem& problem = members.problems[members.member(g)];
        const Point<d> w = grid(members.point(g));
        const double h = problem.obstacle(t, w);
        if (gaps.gap) {
            gaps.gap[g] = layer.values(0)[g] - h;
            gaps.obstacle[g] = h;
        }
        if (!(layer.values(0)[g] < h)) return;
        layer.values(0)[g] = h;
        if constexpr (has_obstacle_z<Problem>::value) {
            const Point<d> z = problem.obstacle_z(t, w);
            for (int k = 0; k < d; ++k) layer.values(1 + k)[g] = component(z, k);
        }
    }
};

// Terminal layer at sweep point g: g and grad g of its member, smoothed near a kink (terminal_smoothing.h): in 1D
// within half_width() cells of any of its kink points, in 2D within half_width() dx of the kink line, along its normal.
template <class Problem>
struct TerminalLayer {
    static constexpr int d = Problem::dimension;
    Members<Problem> members;
    LayerView layer;
    GridPoints<d> grid;
    KreissKernel kernel;
    __host__ __device__ void operator()(int i) const {
        const Problem problem = members.problems[members.member(i)];
        const Point<d> w = grid(members.point(i));
        store_point(layer, i, problem.terminal_y(w), problem.terminal_z(w));
        if constexpr (has_terminal_kink<Problem>::value) {
            const auto kinks = kinks_of(problem.terminal_kink());
            if (kernel.smoothing != Smoothing::none && kernel.reaches(w, grid.dx, kinks)) {
                Point<d> z{};
                for (int k = 0; k < d; ++k)
                    component(z, k) = kernel.average(TerminalComponent<Problem>{problem, 1 + k}, w, grid.dx, kinks);
                store_point(layer, i, kernel.average(TerminalComponent<Problem>{problem, 0}, w, grid.dx, kinks), z);
            }
        }
    }
};

// Richardson extrapolation of a value whose error is c h^2 + O(h^3), from its values on the steps h (coarse) and
// h / 2 (fine): (4 fine - coarse) / 3 (the multistep start-up, BackwardSweep::multistep_startup).
struct RichardsonSquare {
    __host__ __device__ double operator()(double fine, double coarse) const { return (4.0 * fine - coarse) / 3.0; }
};

// One function's value at sweep point g (P = B (M+1)^d points, Members) from the same function on a grid of r M
// intervals over the same domain (the start-up's, BackwardSweep::take_startup): a member's grid point
// (i_1, .., i_d) is its point (r i_1, .., r i_d) there, in GridPoints' order.
template <int d>
struct CoarseGridValues {
    const double* fine;  // the function at the fine sweep points
    int M, r;
    int member_points, fine_member_points;
    __host__ __device__ double operator()(int g) const {
        const int b = g / member_points;
        int i = g % member_points, j = 0, fine_stride = 1;
        for (int axis = 0; axis < d; ++axis, i /= M + 1, fine_stride *= r * M + 1) j += (i % (M + 1)) * r * fine_stride;
        return fine[std::ptrdiff_t(b) * fine_member_points + j];
    }
};

// The exact solution at time t at sweep point g, its member's (the exact start-up of verification runs).
template <class Problem>
struct ExactLayer {
    Members<Problem> members;
    LayerView layer;
    GridPoints<Problem::dimension> grid;
    double t;
    __host__ __device__ void operator()(int g) const {
        if constexpr (Problem::has_exact_solution) {
            const Problem& problem = members.problems[members.member(g)];
            const auto w = grid(members.point(g));
            store_point(layer, g, problem.exact_y(t, w), problem.exact_z(t, w));
        }
    }
};

// |numerical - exact| of y (component 0) or z_k (component 1 + k) at t = 0 for grid point i inside the
// box |w|_max <= inner_half_width, 0 elsewhere (the truncated domain's edges are not the scheme's error).
template <class Problem>
struct InnerError {
    Problem problem;
    LayerView layer;
    GridPoints<Problem::dimension> grid;
    double inner_half_width;
    int component;
    __host__ __device__ double operator()(int i) const {
        const auto w = grid(i);
        for (int k = 0; k < Problem::dimension; ++k)
            if (fabs(bsde::component(w, k)) > inner_half_width) return 0.0;
        const double exact = component == 0 ? problem.exact_y(0.0, w)
                                            : bsde::component(problem.exact_z(0.0, w), component - 1);
        return fabs(layer.values(component)[i] - exact);
    }
};

// Problems whose forward process is a state S(t, w) with a value gradient dV/dS (the options: bs-call, bs-put,
// exchange), value_gradient(t, w, z) taking and giving points of the problem's dimension.
template <class P, class = void>
struct has_state_map : std::false_type {};
template <class P>
struct has_state_map<P, std::void_t<decltype(std::declval<const P&>().value_gradient(
                            0.0, std::declval<Point<P::dimension>>(), std::declval<Point<P::dimension>>()))>>
    : std::true_type {};

struct Maximum {
    __host__ __device__ double operator()(double a, double b) const { return a > b ? a : b; }
};

struct Sum {
    __host__ __device__ double operator()(double a, double b) const { return a + b; }
};

struct AbsoluteValue {
    __host__ __device__ double operator()(double x) const { return fabs(x); }
};

// A member's terminal data's mean magnitude E|g(W_T)| over the grid, as sum_i |g_i| rho_i / sum_i rho_i with the
// density of W_T at grid point i, rho_i = e^(-|w_i|^2 / (2T)) (its normalisation cancels): the terms of both sums by
// sweep point g (grid point g % member_points), |g_i| rho_i with the terminal values, rho_i alone without (nullptr).
// PicardStop's scale.
template <int d>
struct TerminalMagnitude {
    GridPoints<d> grid;
    double T;
    const double* terminal_y;  // nullptr: the weight alone
    int member_points;
    __host__ __device__ double operator()(int g) const {
        const int i = g % member_points;
        const Point<d> w = grid(i);
        double squared = 0.0;
        for (int k = 0; k < d; ++k) squared += component(w, k) * component(w, k);
        const double density = exp(-squared / (2.0 * T));
        return terminal_y ? density * fabs(terminal_y[g]) : density;
    }
};

}  // namespace bsde
