// The separable pass: a step's expectations in 2D (and 3D, below) taken axis by axis, for a driver affine in (y, z) and the same at
// every w (affine_driver.h) and an interpolation whose evaluator has the staged form (stages_rows: the tensor
// spline, tensor_spline.h). The fused pass (MultistepPointUpdate) evaluates y, z and f at each of a point's L^2
// nodes per layer; here f_j = a + b y + c . z is linear in the layer's functions, so each sum the step needs is
// the expectation of one linear combination of them, and with the tensor rule (omega_l omega_m at (dW_l, dW_m),
// grid_nodes.h) and the tensor spline every such expectation separates:
//   E_j[F](i1, i2) = sum_m omega_m sum_b B_b(t2) G(i1, c2 + b),   G(i1, c) = sum_l omega_l sum_a B_a(t1) d_F(c1 + a, c)
// (c1, t1 of row i1 moved by dW_l; c2, t2 of column i2 moved by dW_m; the moved coordinate clamped to the grid per
// axis as in the fused pass), and E_j[F dW_1] takes omega_l dW_l in G, E_j[F dW_2] omega_m dW_m in the outer sum.
// So a layer costs, per grid point, L axis-1 sums per function at each of its row's M + 3 ghosted columns and L
// axis-2 sums per staged combination, where the fused pass takes L^2 nodes; the same sums in another order (equal to
// rounding). The step's formulas (MultistepPointUpdate) with f_j = a_j + b_j y + c_j . z:
//   explicit y  = E_ky[y] + s sum_j gy_j E_j[f_j]               = sum_j (E_j[H_j] + s gy_j a_j)
//   g1_0 z_k    = E_1[z_k] + sum_j g1_j (E_j[f_j dW_k] - E_j[z_k]) = sum_j (([j = 1] - g1_j) E_j[z_k] + E_j[V_j dW_k])
//   H_j = ([j = ky] + s gy_j b_j) y + s gy_j c_j . z,   V_j = g1_j (b_j y + c_j . z)
// with s = ky dt, gy_j = 0 for j > ky, g1_j = 0 for j > kz; the term g1_j a_j E_j[dW_k] is zero (the rule's nodes
// are symmetric). Per layer two passes: SeparableAxis1Sums stages G of H, z_scale z_1 + V dW_1 (omega_l for z_1,
// omega_l dW_l for V), z_scale z_2 and V (omega_l), the four combinations whose axis-2 sums the point needs;
// SeparableAxis2Sums sums them at the grid points and adds the layer's part to the point's sums; the pass of the
// last layer read (j = 1) then solves the point (PointSolver: Picard, store, status).
// A kinked terminal layer (ex5) is read the same way, as the oldest layer of its steps, except in the band of points
// where its kink-line rule resolves the kink: there SeparableKinkBandSums evaluates that rule's nodes as the fused
// pass does and replaces the layer's sums.
// A batch (Members) runs each pass over every member's grid at once: each member has its own workspace (its part of
// one array), its own terms (its driver) and its own kink band. In 3D three passes, one an axis (below).
#pragma once
#include <cmath>
#include <cstddef>

#include "../core/affine_driver.h"
#include "../quadrature/grid_nodes.h"
#include "../core/host_device.h"
#include "../core/point.h"
#include "sweep_functors.h"
#include "../core/tiled_visits.h"
#include "../interpolation/tensor_spline.h"

namespace bsde {

// How stored layer n + j enters the step (the header's H_j, V_j and constants), in d = 2 or 3 dimensions.
template <int d>
struct SeparableLayerTerms {
    double h_y;         // [j = ky] + s gy_j b_j
    Point<d> h_z;       // s gy_j c_j
    double h_constant;  // s gy_j a_j (the rule's weights sum to 1)
    double z_scale;     // [j = 1] - g1_j
    double v_y;         // g1_j b_j
    Point<d> v_z;       // g1_j c_j
    // the layer's weights in the fused form (the kinked layer's band, SeparableKinkBandSums):
    //   explicit y: y_weight E_j[y] + f_weight E_j[f_j],   g1_0 z_k: z_scale E_j[z_k] + f_dw_weight E_j[f_j dW_k]
    double y_weight;     // [j = ky]
    double f_weight;     // s gy_j
    double f_dw_weight;  // g1_j

    template <class Driver>
    __host__ __device__ static SeparableLayerTerms of(int j, int ky, int kz, double dt, const double* gamma_y,
                                                      const double* gamma_z, const Driver& f) {
        const LayerWeights weights = LayerWeights::of(j, ky, kz, gamma_y, gamma_z);
        const double s = ky * dt, gy = weights.gy, g1 = weights.g1;
        const double y_weight = weights.expected_y ? 1.0 : 0.0;
        Point<d> h_z, v_z;
        for (int k = 0; k < d; ++k) {
            h_z[k] = s * gy * f.c[k];
            v_z[k] = g1 * f.c[k];
        }
        return {y_weight + s * gy * f.b, h_z, s * gy * f.a, (weights.expected_z ? 1.0 : 0.0) - g1, g1 * f.b, v_z,
                y_weight, s * gy, g1};
    }
};

// Entry (j - 1) B + b of a step's terms: member b's of stored layer n + j, SeparableLayerTerms::of with its driver at
// t_{n+j} (the rows of the weights in the backend's memory), made once a step for the passes to read.
template <class Problem>
struct MemberLayerTerms {
    Members<Problem> batch;
    int B, ky, kz;
    double dt, t_n;
    const double *gamma_y, *gamma_z;  // the rows gamma^{ky}_{ky,.} and gamma^1_{kz,.}
    __host__ __device__ SeparableLayerTerms<Problem::dimension> operator()(int k) const {
        const int j = 1 + k / B, b = k % B;
        return SeparableLayerTerms<Problem::dimension>::of(j, ky, kz, dt, gamma_y, gamma_z,
                                                           driver_at(batch.problems[b], t_n + j * dt));
    }
};

// A member's workspace of the separable pass in d dimensions: the staged sums of a layer and the points' sums over the
// layers read so far; member(b), sums_at(i), store_sums(i, y, z) and doubles(M) in either.
template <int d>
struct SeparableWorkspace;

// 2D: the staged combinations of one layer, each (M1+1) rows of M+3 ghosted columns (i1 (M+3) + c), and the points'
// sums over the layers read so far, each (M1+1)(M+1) (explicit y, g1_0 z_1, g1_0 z_2); M1 = M but on a slab (slabs.h).
template <>
struct SeparableWorkspace<2> {
    enum Staged { h, u1, u2, v, staged_arrays };  // SeparableAxis1Sums
    enum Sum { explicit_y, z1_sum, z2_sum, sums };
    double* base;
    int M, M1;
    __host__ __device__ std::size_t staged_size() const { return static_cast<std::size_t>(M1 + 1) * (M + 3); }
    __host__ __device__ std::size_t points() const { return static_cast<std::size_t>(M1 + 1) * (M + 1); }
    __host__ __device__ double* staged(int which) const { return base + which * staged_size(); }
    __host__ __device__ double* sum(int which) const { return base + staged_arrays * staged_size() + which * points(); }
    // Grid point i's sums: explicit y and g1_0 z.
    struct PointSums {
        double y;
        Vec2 z;
    };
    __host__ __device__ PointSums sums_at(int i) const {
        return {sum(explicit_y)[i], Vec2{{sum(z1_sum)[i], sum(z2_sum)[i]}}};
    }
    __host__ __device__ void store_sums(int i, double y, const Vec2& z) const {
        sum(explicit_y)[i] = y;
        sum(z1_sum)[i] = z[0];
        sum(z2_sum)[i] = z[1];
    }
    __host__ __device__ std::size_t member_doubles() const { return staged_arrays * staged_size() + sums * points(); }
    // member b's workspace: the b-th of the members' ones one after the other
    __host__ __device__ SeparableWorkspace member(int b) const { return {base + b * member_doubles(), M, M1}; }
    static std::size_t doubles(int M, int M1) { return SeparableWorkspace{nullptr, M, M1}.member_doubles(); }
};

// The stage of a layer at R consecutive rows i1 of one ghosted column c: with the layer's functions y, z_1, z_2 (F),
//   S0_F = sum_l omega_l sum_a B_a(t1) d_F(c1 + a, c),   S1_F the same with omega_l dW_l,
// and the combinations h = h_y S0_y + h_z . S0_z (to y), u1 = z_scale S0_z1 + v_y S1_y + v_z . S1_z (to z_1),
// u2 = z_scale S0_z2 and v = v_y S0_y + v_z . S0_z (to z_2: along axis 2 with omega_m and omega_m dW_m).
// Where a node moves all R rows into cells of the grid (the evaluator's shifted_run_inside), their stencils are one
// stencil moved a cell per row, so the R + 3 coefficients each function's R sums read are loaded once. The visits take
// the (run, column) places of tiles of 8 runs of R rows (of the rows first_row..last_row: a slab's owned rows) by 32
// columns (TiledVisits): on a GPU a warp loads 32
// neighbouring coefficients of a row, and the warps of a block share the rows their runs reach (the axis-1 stencils of
// neighbouring rows overlap), which a visit of row after row would fetch anew for each.
template <class Evaluator>
struct SeparableAxis1Sums {
    using Node = AxisNode<typename Evaluator::Shift>;
    static constexpr int R = 4;
    using Visits = TiledVisits<8, 32>;
    Evaluator evaluate;
    LayerView all;      // every member's layer (Members)
    int member_points, member_data;
    const Node* nodes;  // the rule's L nodes of the layer's variance (a row of the node table)
    int L;
    const SeparableLayerTerms<2>* member_terms;  // the layer's, member b's at b (MemberLayerTerms)
    SeparableWorkspace<2> members_work;       // member 0's; SeparableWorkspace::member
    int first_row, last_row;                  // the rows summed

    // runs of R of `rows` rows (the last may be shorter) by M + 3 ghosted columns, per member
    __host__ __device__ static Visits places(int rows, int M) { return {(rows + R - 1) / R, M + 3}; }
    __host__ __device__ static int visits(int rows, int M) { return places(rows, M).count(); }

    // visit k: member k / visits's place k % visits
    __host__ __device__ void operator()(int k) const {
        const int M = evaluate.M, columns = M + 3, count = last_row - first_row + 1, member_visits = visits(count, M);
        const int b = k / member_visits;
        const LayerView layer = all.member(b, member_points, member_data);
        const auto [run, column, inside] = places(count, M)(k - b * member_visits);
        if (!inside) return;  // a tile past the grid's edge
        const int run_row = first_row + run * R;
        const int rows = last_row + 1 - run_row < R ? last_row + 1 - run_row : R;
        double s0[3][R] = {}, s1[3][R] = {};
        for (int l = 0; l < L; ++l) {
            const Node node = nodes[l];
            const double omega_dw = node.omega * node.dW;
            if (rows == R && evaluate.shifted_run_inside(run_row, R, node)) {
                const auto a1 = evaluate.along_axis1(run_row, node);
                for (int f = 0; f < 3; ++f) {
                    double sums[R];
                    evaluate.template axis1_run_sums<R>(layer.data(f), a1, column, sums);
                    for (int r = 0; r < R; ++r) {
                        s0[f][r] += node.omega * sums[r];
                        s1[f][r] += omega_dw * sums[r];
                    }
                }
            } else {
                for (int r = 0; r < rows; ++r) {
                    const auto a1 = evaluate.along_axis1(run_row + r, node);
                    for (int f = 0; f < 3; ++f) {
                        const double sum = evaluate.axis1_sum(layer.data(f), a1, column);
                        s0[f][r] += node.omega * sum;
                        s1[f][r] += omega_dw * sum;
                    }
                }
            }
        }
        // the member's terms and workspace read after the sums: live through them, they would not fit the registers
        const SeparableLayerTerms<2> t = member_terms[b];
        const SeparableWorkspace<2> work = members_work.member(b);
        for (int r = 0; r < rows; ++r) {
            const std::size_t at = static_cast<std::size_t>(run_row + r) * columns + column;
            work.staged(SeparableWorkspace<2>::h)[at] = t.h_y * s0[0][r] + t.h_z[0] * s0[1][r] + t.h_z[1] * s0[2][r];
            work.staged(SeparableWorkspace<2>::u1)[at] =
                t.z_scale * s0[1][r] + t.v_y * s1[0][r] + t.v_z[0] * s1[1][r] + t.v_z[1] * s1[2][r];
            work.staged(SeparableWorkspace<2>::u2)[at] = t.z_scale * s0[2][r];
            work.staged(SeparableWorkspace<2>::v)[at] = t.v_y * s0[0][r] + t.v_z[0] * s0[1][r] + t.v_z[1] * s0[2][r];
        }
    }
};

// The members' solvers at their points (a batch: Members): sweep point g, member b = g / points's grid point
// i = g % points, with its problem and Picard scale.
template <class Problem>
struct MemberPointSolver {
    Members<Problem> members;
    PointSolver<Problem> solve;  // its problem and Picard scale replaced by the member's
    __host__ __device__ void operator()(int g, double explicit_y, const Point<Problem::dimension>& z) const {
        const int b = members.member(g);
        PointSolver<Problem> member = solve;
        member.problem = members.problems[b];
        member.picard = solve.picard.with_scale(members.picard_scales[b]);
        member(g, members.point(g), explicit_y, z);
    }
};

// A layer's part (y: to the explicit y, z: to g1_0 z) of member grid point i's sums, sweep point g: added to the sums of
// the layers read before (unless it is the first), then stored; at the last layer read z_k = sum / g1_0 and y by
// Picard (MemberPointSolver).
template <class Workspace, class Problem>
__host__ __device__ void add_layer_part(const Workspace& work, const MemberPointSolver<Problem>& solve, int g, int i,
                                        double y, Point<Problem::dimension> z, bool first_layer, bool last_layer,
                                        double gamma_z0) {
    if (!first_layer) {
        const auto before = work.sums_at(i);
        y += before.y;
        for (int k = 0; k < Problem::dimension; ++k) z[k] += before.z[k];
    }
    if (!last_layer) return work.store_sums(i, y, z);
    for (int k = 0; k < Problem::dimension; ++k) z[k] /= gamma_z0;
    solve(g, y, z);
}

// Grid point i = i1 (M+1) + i2 of a layer: from its row i1 of the stage, with E_m[u] = sum_m omega_m sum_b B_b(t2)
// u(i1, c2 + b) and E_m[u dW_2] the same with omega_m dW_m,
//   E[H] = E_m[h],   z_scale E[z_1] + E[V dW_1] = E_m[u1],   z_scale E[z_2] + E[V dW_2] = E_m[u2] + E_m[v dW_2];
// adds E[H] + h_constant to the explicit y and the others to g1_0 z_k (the first layer read sets them); at the last
// layer read, z_k = sum / g1_0 and y by Picard (PointSolver).
template <class Problem, class Evaluator>
struct SeparableAxis2Sums {
    using Node = AxisNode<typename Evaluator::Shift>;
    Evaluator evaluate;
    const Node* nodes;
    int L;
    const SeparableLayerTerms<2>* member_terms;  // the layer's, member b's at b (MemberLayerTerms)
    SeparableWorkspace<2> members_work;       // member 0's
    bool first_layer, last_layer;
    double gamma_z0;                  // g1_0
    MemberPointSolver<Problem> solve;  // at the last layer
    // sweep point g: member b's grid point i
    __host__ __device__ void operator()(int g) const {
        const int b = solve.members.member(g), i = solve.members.point(g);
        const SeparableLayerTerms<2> terms = member_terms[b];
        const SeparableWorkspace<2> work = members_work.member(b);
        const int columns = evaluate.M + 3, points_per_row = evaluate.M + 1;
        const int row = i / points_per_row, column = i % points_per_row;
        const std::size_t offset = static_cast<std::size_t>(row) * columns;
        const double* h = work.staged(SeparableWorkspace<2>::h) + offset;
        const double* u1 = work.staged(SeparableWorkspace<2>::u1) + offset;
        const double* u2 = work.staged(SeparableWorkspace<2>::u2) + offset;
        const double* v = work.staged(SeparableWorkspace<2>::v) + offset;
        double e_h = 0.0, e_u1 = 0.0, e_u2 = 0.0, e_vdw2 = 0.0;
        for (int m = 0; m < L; ++m) {
            const Node node = nodes[m];
            const auto a2 = evaluate.along_axis(column, node);
            e_h += node.omega * Evaluator::axis2_sum(h, a2);
            e_u1 += node.omega * Evaluator::axis2_sum(u1, a2);
            e_u2 += node.omega * Evaluator::axis2_sum(u2, a2);
            e_vdw2 += node.omega * node.dW * Evaluator::axis2_sum(v, a2);
        }
        add_layer_part(work, solve, g, i, e_h + terms.h_constant, Vec2{{e_u1, e_u2 + e_vdw2}}, first_layer, last_layer,
                       gamma_z0);
    }
};

// Grid point i from its sums over every layer read (a step that reads the kinked terminal layer alone, whose band
// replaces sums after the last axis's pass): z_k = sum / g1_0 and y by Picard, as the last axis's pass at its last
// layer.
template <class Problem>
struct SeparableSolve {
    SeparableWorkspace<Problem::dimension> members_work;  // member 0's
    double gamma_z0;                                      // g1_0
    MemberPointSolver<Problem> solve;
    __host__ __device__ void operator()(int g) const {
        auto sums = members_work.member(solve.members.member(g)).sums_at(solve.members.point(g));
        for (int k = 0; k < Problem::dimension; ++k) sums.z[k] /= gamma_z0;
        solve(g, sums.y, sums.z);
    }
};

// The grid points where the kink rule resolves the kink at a variance (KinkFlatExpectation::resolves, within
// h = resolved_half_width of the line or plane n . w = c), as visits k = 0 .. count() - 1 of lines of the grid: along
// the axis a with the largest |n_a| (>= 1/sqrt d), each line of the other axes meets the band in an interval of length
// 2 h / |n_a|, so `width` = ceil(2 h / (|n_a| dx)) + 2 visits (at most M + 1) from the first grid point below it (at
// least the grid's first) hold every grid point inside; visit k is point k % width of them on line k / width (its
// indices along the other axes, the last fastest), or -1 where that point lies off the grid or outside the band. A
// small share of the (M+1)^d points when the variance is small.
template <int d>
struct KinkBandVisits {
    KinkFlatExpectation<d> rule;
    double variance;
    GridPoints<d> grid;
    int along;  // a
    int width;  // visits per line, at most the axis's points

    static KinkBandVisits of(const KinkFlatExpectation<d>& rule, double variance, const GridPoints<d>& grid) {
        int along = 0;
        for (int k = 1; k < d; ++k)
            if (std::fabs(rule.kink.normal[k]) > std::fabs(rule.kink.normal[along])) along = k;
        const double length = 2.0 * rule.resolved_half_width(variance) / std::fabs(rule.kink.normal[along]);
        const double width = std::ceil(length / grid.dx) + 2.0;
        const int points = grid.intervals(along) + 1;
        return {rule, variance, grid, along, width < points ? static_cast<int>(width) : points};
    }
    __host__ __device__ int lines() const {
        int count = 1;
        for (int k = 0; k < d; ++k)
            if (k != along) count *= grid.intervals(k) + 1;
        return count;
    }
    __host__ __device__ int count() const { return lines() * width; }
    __host__ __device__ int operator()(int k) const {
        // the line's indices along the other axes, and the band on it: |n_a w_a + sum_o n_o w_o - c| < h,
        // w_a in (centre - h / |n_a|, centre + h / |n_a|)
        int index[d], line = k / width;
        double across = 0.0;
        for (int axis = d - 1; axis >= 0; --axis) {
            if (axis == along) continue;
            index[axis] = line % (grid.intervals(axis) + 1);
            line /= grid.intervals(axis) + 1;
            across += rule.kink.normal[axis] * (grid.axis_min(axis) + index[axis] * grid.dx);
        }
        const double n_along = rule.kink.normal[along];
        const double centre = (rule.kink.offset - across) / n_along;
        const double low = centre - rule.resolved_half_width(variance) / fabs(n_along);
        // a double: far lines pass the ints
        const double first = fmax(floor((low - grid.axis_min(along)) / grid.dx), 0.0);
        const double at = first + k % width;
        if (!(at <= grid.intervals(along))) return -1;
        index[along] = static_cast<int>(at);
        int i = 0;
        for (int axis = 0; axis < d; ++axis) i = i * (grid.intervals(axis) + 1) + index[axis];
        return rule.resolves(variance, grid(i)) ? i : -1;
    }
};

// The kinked terminal layer where its rule resolves the kink (KinkBandVisits), read by a step of the separable pass as
// its first layer (the oldest): the layer's part of the point's sums by the kink-line rule, f evaluated at each node as in the
// fused pass (LayerExpectations), in place of the part the axis-2 pass wrote there by the smooth rule,
//   explicit y = [j = ky] E_j[y] + s gy_j E_j[f_j],   g1_0 z_k = ([j = 1] - g1_j) E_j[z_k] + g1_j E_j[f_j dW_k]
// (the rule's increments are not symmetric about the point, so f's constant a stays in f). With lanes, the lanes of a
// visit share the rule's nodes across the line (every lane of a block sums, also at visits outside the band).
template <class Problem, class Evaluator>
struct SeparableKinkBandSums {
    static constexpr int d = Problem::dimension;
    Evaluator evaluate;
    LayerView layer;
    KinkBandVisits<d> band;
    DriverAtTime<Problem> driver;  // f(t_j, ., ., .)
    SeparableLayerTerms<d> terms;
    SeparableWorkspace<d> work;
    template <class Lanes>
    __host__ __device__ void operator()(int k, const Lanes& lanes) const {
        const int i = band(k);
        LayerExpectations<Problem, Evaluator> e{evaluate, layer, band.grid.site(i >= 0 ? i : 0), driver};
        if (i >= 0) band.rule.resolved(band.variance, e.site.w, e, lanes);
        const double y = lanes.sum(terms.y_weight * e.y + terms.f_weight * e.f);
        Point<d> z;
        for (int c = 0; c < d; ++c) z[c] = lanes.sum(terms.z_scale * e.z[c] + terms.f_dw_weight * e.f_dw[c]);
        if (i >= 0 && lanes.stores()) work.store_sums(i, y, z);
    }
};

// 3D, the same sums axis by axis over three passes, for the 3D tensor spline (TensorSpline3DEvaluator: data
// d_{j1 j2 j3} at (j1 (M+3) + j2)(M+3) + j3, ghosted indices). With E_l, E_m, E_o the rule along axes 1, 2, 3 (and
// E[. dW_k] taking omega dW along axis k), a layer's H_j, z_scale z_k and V_j (the 2D header's) become:
//   axis 1 at (i1, c2, c3):  H = E_l[H],  U1 = E_l[z_scale z_1] + E_l[V dW_1],  U2 = E_l[z_scale z_2],
//                            U3 = E_l[z_scale z_3],  V = E_l[V]                     (5 arrays of (M+1)(M+3)^2)
//   axis 2 at (i1, i2, c3):  H' = E_m[H],  W1 = E_m[U1],  W2 = E_m[U2] + E_m[V dW_2],  W3 = E_m[U3],  V' = E_m[V]
//                                                                                  (5 arrays of (M+1)^2 (M+3))
//   axis 3 at the points:    E[H] = E_o[H'],  g1_0 z_1 part = E_o[W1],  z_2: E_o[W2],  z_3: E_o[W3] + E_o[V' dW_3].
// A layer costs 3 L sums a point and array, where the fused pass takes L^3 nodes.
template <>
struct SeparableWorkspace<3> {
    enum Axis1 { h1, u1, u2, u3, v1, axis1_arrays };  // at (i1 (M+3) + c2)(M+3) + c3
    enum Axis2 { h2, w1, w2, w3, v2, axis2_arrays };  // at (i1 (M+1) + i2)(M+3) + c3
    enum Sum { explicit_y, z1_sum, z2_sum, z3_sum, sums };
    double* base;
    int M, M1;  // M1 + 1 rows i1: M1 = M but on a slab (slabs.h)
    __host__ __device__ std::size_t axis1_size() const { return static_cast<std::size_t>(M1 + 1) * (M + 3) * (M + 3); }
    __host__ __device__ std::size_t axis2_size() const { return static_cast<std::size_t>(M1 + 1) * (M + 1) * (M + 3); }
    __host__ __device__ std::size_t points() const { return static_cast<std::size_t>(M1 + 1) * (M + 1) * (M + 1); }
    __host__ __device__ double* axis1(int which) const { return base + which * axis1_size(); }
    __host__ __device__ double* axis2(int which) const {
        return base + axis1_arrays * axis1_size() + which * axis2_size();
    }
    __host__ __device__ double* sum(int which) const {
        return base + axis1_arrays * axis1_size() + axis2_arrays * axis2_size() + which * points();
    }
    struct PointSums {
        double y;
        Vec3 z;
    };
    __host__ __device__ PointSums sums_at(int i) const {
        return {sum(explicit_y)[i], Vec3{{sum(z1_sum)[i], sum(z2_sum)[i], sum(z3_sum)[i]}}};
    }
    __host__ __device__ void store_sums(int i, double y, const Vec3& z) const {
        sum(explicit_y)[i] = y;
        sum(z1_sum)[i] = z[0];
        sum(z2_sum)[i] = z[1];
        sum(z3_sum)[i] = z[2];
    }
    __host__ __device__ std::size_t member_doubles() const {
        return axis1_arrays * axis1_size() + axis2_arrays * axis2_size() + sums * points();
    }
    __host__ __device__ SeparableWorkspace member(int b) const { return {base + b * member_doubles(), M, M1}; }
    static std::size_t doubles(int M, int M1) { return SeparableWorkspace{nullptr, M, M1}.member_doubles(); }
};

// The axis-1 sums of a 3D layer: visit (i1, c2, c3) of a member, the ghosted index c = c2 (M+3) + c3 fastest, so that
// neighbouring visits read neighbouring coefficients of each plane j1.
//   S0_F = sum_l omega_l sum_a B_a(t1) d_F(c1 + a, c),   S1_F the same with omega_l dW_l,
// and the combinations H, U1, U2, U3, V of the header above.
template <class Evaluator>
struct SeparableAxis1Sums3D {
    using Node = AxisNode<typename Evaluator::Shift>;
    Evaluator evaluate;
    LayerView all;  // every member's layer (Members)
    int member_points, member_data;
    const Node* nodes;  // the rule's L nodes of the layer's variance
    int L;
    const SeparableLayerTerms<3>* member_terms;  // the layer's, member b's at b
    SeparableWorkspace<3> members_work;          // member 0's
    int first_row, last_row;                     // the rows i1 summed
    __host__ __device__ static int visits(int rows, int M) { return rows * (M + 3) * (M + 3); }
    __host__ __device__ void operator()(int k) const {
        const int M = evaluate.M, plane = (M + 3) * (M + 3), member_visits = visits(last_row - first_row + 1, M);
        const int b = k / member_visits, row = first_row + k % member_visits / plane, c = k % plane;
        const int place = row * plane + c;
        const LayerView layer = all.member(b, member_points, member_data);
        double s0[4] = {}, s1[4] = {};
        for (int l = 0; l < L; ++l) {
            const Node node = nodes[l];
            const auto a1 = evaluate.along_axis1(row, node);
            for (int f = 0; f < 4; ++f) {
                const double sum = weighted_four(a1.w, layer.data(f) + a1.cell * plane + c, plane);
                s0[f] += node.omega * sum;
                s1[f] += node.omega * node.dW * sum;
            }
        }
        const SeparableLayerTerms<3> t = member_terms[b];
        const SeparableWorkspace<3> work = members_work.member(b);
        double h = t.h_y * s0[0], u1 = t.z_scale * s0[1] + t.v_y * s1[0], v = t.v_y * s0[0];
        for (int m = 0; m < 3; ++m) {
            h += t.h_z[m] * s0[1 + m];
            u1 += t.v_z[m] * s1[1 + m];
            v += t.v_z[m] * s0[1 + m];
        }
        work.axis1(SeparableWorkspace<3>::h1)[place] = h;
        work.axis1(SeparableWorkspace<3>::u1)[place] = u1;
        work.axis1(SeparableWorkspace<3>::u2)[place] = t.z_scale * s0[2];
        work.axis1(SeparableWorkspace<3>::u3)[place] = t.z_scale * s0[3];
        work.axis1(SeparableWorkspace<3>::v1)[place] = v;
    }
};

// The axis-2 sums: visit (i1, i2, c3) of a member, c3 fastest; E_m[X] = sum_m omega_m sum_b B_b(t2) X(i1, c2 + b, c3).
template <class Evaluator>
struct SeparableAxis2Sums3D {
    using Node = AxisNode<typename Evaluator::Shift>;
    Evaluator evaluate;
    const Node* nodes;
    int L;
    SeparableWorkspace<3> members_work;  // member 0's
    int first_row, last_row;             // the rows i1 summed
    __host__ __device__ static int visits(int rows, int M) { return rows * (M + 1) * (M + 3); }
    __host__ __device__ void operator()(int k) const {
        using W = SeparableWorkspace<3>;
        const int M = evaluate.M, ghosted = M + 3, member_visits = visits(last_row - first_row + 1, M);
        const int b = k / member_visits, place = first_row * (M + 1) * ghosted + k % member_visits,
                  c3 = place % ghosted, i2 = place / ghosted % (M + 1), i1 = place / ghosted / (M + 1);
        const W work = members_work.member(b);
        const int row = i1 * ghosted * ghosted + c3;  // X(i1, c2, c3) at row + c2 (M+3)
        double h = 0.0, w1 = 0.0, w2 = 0.0, w3 = 0.0, v = 0.0;
        for (int m = 0; m < L; ++m) {
            const Node node = nodes[m];
            const auto a2 = evaluate.along_axis(i2, node);
            const int at = row + a2.cell * ghosted;
            const double e_v = weighted_four(a2.w, work.axis1(W::v1) + at, ghosted);
            h += node.omega * weighted_four(a2.w, work.axis1(W::h1) + at, ghosted);
            w1 += node.omega * weighted_four(a2.w, work.axis1(W::u1) + at, ghosted);
            w2 += node.omega * (weighted_four(a2.w, work.axis1(W::u2) + at, ghosted) + node.dW * e_v);
            w3 += node.omega * weighted_four(a2.w, work.axis1(W::u3) + at, ghosted);
            v += node.omega * e_v;
        }
        work.axis2(W::h2)[place] = h;
        work.axis2(W::w1)[place] = w1;
        work.axis2(W::w2)[place] = w2;
        work.axis2(W::w3)[place] = w3;
        work.axis2(W::v2)[place] = v;
    }
};

// The axis-3 sums at sweep point g (member b's grid point i = (i1 (M+1) + i2)(M+1) + i3): E_o[X] = sum_o omega_o
// sum_e B_e(t3) X(i1, i2, c3 + e); adds E[H] + h_constant to the explicit y and the z parts to g1_0 z_k (the first
// layer read sets them); at the last layer read, z_k = sum / g1_0 and y by Picard.
template <class Problem, class Evaluator>
struct SeparableAxis3Sums {
    using Node = AxisNode<typename Evaluator::Shift>;
    Evaluator evaluate;
    const Node* nodes;
    int L;
    const SeparableLayerTerms<3>* member_terms;
    SeparableWorkspace<3> members_work;  // member 0's
    bool first_layer, last_layer;
    double gamma_z0;                   // g1_0
    MemberPointSolver<Problem> solve;  // at the last layer
    __host__ __device__ void operator()(int g) const {
        using W = SeparableWorkspace<3>;
        const int b = solve.members.member(g), i = solve.members.point(g);
        const int M = evaluate.M, i3 = i % (M + 1), line = (i / (M + 1)) * (M + 3);  // X(i1, i2, c3) at line + c3
        const W work = members_work.member(b);
        double h = 0.0;
        Vec3 z{{0.0, 0.0, 0.0}};
        for (int o = 0; o < L; ++o) {
            const Node node = nodes[o];
            const auto a3 = evaluate.along_axis(i3, node);
            const int at = line + a3.cell;
            h += node.omega * weighted_four(a3.w, work.axis2(W::h2) + at, 1);
            z[0] += node.omega * weighted_four(a3.w, work.axis2(W::w1) + at, 1);
            z[1] += node.omega * weighted_four(a3.w, work.axis2(W::w2) + at, 1);
            z[2] += node.omega * (weighted_four(a3.w, work.axis2(W::w3) + at, 1) +
                                  node.dW * weighted_four(a3.w, work.axis2(W::v2) + at, 1));
        }
        add_layer_part(work, solve, g, i, h + member_terms[b].h_constant, z, first_layer, last_layer, gamma_z0);
    }
};

}  // namespace bsde
