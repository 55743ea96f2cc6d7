// The separable pass: a step's expectations in 2D taken axis by axis, for a driver affine in (y, z) and the same at
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
// one array), its own terms (its driver) and its own kink band.
#pragma once
#include <cmath>
#include <cstddef>

#include "../core/affine_driver.h"
#include "../quadrature/grid_nodes.h"
#include "../core/host_device.h"
#include "../core/point.h"
#include "sweep_functors.h"
#include "../core/tiled_visits.h"

namespace bsde {

// How stored layer n + j enters the step (the header's H_j, V_j and constants).
struct SeparableLayerTerms {
    double h_y;         // [j = ky] + s gy_j b_j
    Vec2 h_z;           // s gy_j c_j
    double h_constant;  // s gy_j a_j (the rule's weights sum to 1)
    double z_scale;     // [j = 1] - g1_j
    double v_y;         // g1_j b_j
    Vec2 v_z;           // g1_j c_j
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
        return {y_weight + s * gy * f.b,
                Vec2{{s * gy * f.c[0], s * gy * f.c[1]}},
                s * gy * f.a,
                (weights.expected_z ? 1.0 : 0.0) - g1,
                g1 * f.b,
                Vec2{{g1 * f.c[0], g1 * f.c[1]}},
                y_weight,
                s * gy,
                g1};
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
    __host__ __device__ SeparableLayerTerms operator()(int k) const {
        const int j = 1 + k / B, b = k % B;
        return SeparableLayerTerms::of(j, ky, kz, dt, gamma_y, gamma_z, driver_at(batch.problems[b], t_n + j * dt));
    }
};

// The staged combinations of one layer, each (M+1) rows of M+3 ghosted columns (i1 (M+3) + c), and the points' sums
// over the layers read so far, each (M+1)^2 (explicit y, g1_0 z_1, g1_0 z_2).
struct SeparableWorkspace {
    enum Staged { h, u1, u2, v, staged_arrays };  // SeparableAxis1Sums
    enum Sum { explicit_y, z1_sum, z2_sum, sums };
    double* base;
    int M;
    __host__ __device__ std::size_t staged_size() const { return static_cast<std::size_t>(M + 1) * (M + 3); }
    __host__ __device__ std::size_t points() const { return static_cast<std::size_t>(M + 1) * (M + 1); }
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
    __host__ __device__ SeparableWorkspace member(int b) const { return {base + b * member_doubles(), M}; }
    static std::size_t doubles(int M) { return SeparableWorkspace{nullptr, M}.member_doubles(); }
};

// The stage of a layer at R consecutive rows i1 of one ghosted column c: with the layer's functions y, z_1, z_2 (F),
//   S0_F = sum_l omega_l sum_a B_a(t1) d_F(c1 + a, c),   S1_F the same with omega_l dW_l,
// and the combinations h = h_y S0_y + h_z . S0_z (to y), u1 = z_scale S0_z1 + v_y S1_y + v_z . S1_z (to z_1),
// u2 = z_scale S0_z2 and v = v_y S0_y + v_z . S0_z (to z_2: along axis 2 with omega_m and omega_m dW_m).
// Where a node moves all R rows into cells of the grid (the evaluator's shifted_run_inside), their stencils are one
// stencil moved a cell per row, so the R + 3 coefficients each function's R sums read are loaded once. The visits take
// the (run, column) places of tiles of 8 runs of R rows by 32 columns (TiledVisits): on a GPU a warp loads 32
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
    const SeparableLayerTerms* member_terms;  // the layer's, member b's at b (MemberLayerTerms)
    SeparableWorkspace members_work;          // member 0's; SeparableWorkspace::member

    // runs of R rows (the last may be shorter) by M + 3 ghosted columns, per member
    __host__ __device__ static Visits places(int M) { return {(M + R) / R, M + 3}; }
    __host__ __device__ static int visits(int M) { return places(M).count(); }

    // visit k: member k / visits(M)'s place k % visits(M)
    __host__ __device__ void operator()(int k) const {
        const int M = evaluate.M, columns = M + 3;
        const int b = k / visits(M);
        const LayerView layer = all.member(b, member_points, member_data);
        const auto [run, column, inside] = places(M)(k - b * visits(M));
        if (!inside) return;  // a tile past the grid's edge
        const int first_row = run * R;
        const int rows = M + 1 - first_row < R ? M + 1 - first_row : R;
        double s0[3][R] = {}, s1[3][R] = {};
        for (int l = 0; l < L; ++l) {
            const Node node = nodes[l];
            const double omega_dw = node.omega * node.dW;
            if (rows == R && evaluate.shifted_run_inside(first_row, R, node)) {
                const auto a1 = evaluate.along_axis(first_row, node);
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
                    const auto a1 = evaluate.along_axis(first_row + r, node);
                    for (int f = 0; f < 3; ++f) {
                        const double sum = evaluate.axis1_sum(layer.data(f), a1, column);
                        s0[f][r] += node.omega * sum;
                        s1[f][r] += omega_dw * sum;
                    }
                }
            }
        }
        // the member's terms and workspace read after the sums: live through them, they would not fit the registers
        const SeparableLayerTerms t = member_terms[b];
        const SeparableWorkspace work = members_work.member(b);
        for (int r = 0; r < rows; ++r) {
            const std::size_t at = static_cast<std::size_t>(first_row + r) * columns + column;
            work.staged(SeparableWorkspace::h)[at] = t.h_y * s0[0][r] + t.h_z[0] * s0[1][r] + t.h_z[1] * s0[2][r];
            work.staged(SeparableWorkspace::u1)[at] =
                t.z_scale * s0[1][r] + t.v_y * s1[0][r] + t.v_z[0] * s1[1][r] + t.v_z[1] * s1[2][r];
            work.staged(SeparableWorkspace::u2)[at] = t.z_scale * s0[2][r];
            work.staged(SeparableWorkspace::v)[at] = t.v_y * s0[0][r] + t.v_z[0] * s0[1][r] + t.v_z[1] * s0[2][r];
        }
    }
};

// The members' solvers at their points (a batch: Members): sweep point g, member b = g / points's grid point
// i = g % points, with its problem and Picard scale.
template <class Problem>
struct MemberPointSolver {
    Members<Problem> members;
    PointSolver<Problem> solve;  // its problem and Picard scale replaced by the member's
    __host__ __device__ void operator()(int g, double explicit_y, const Vec2& z) const {
        const int b = members.member(g);
        PointSolver<Problem> member = solve;
        member.problem = members.problems[b];
        member.picard = solve.picard.with_scale(members.picard_scales[b]);
        member(g, members.point(g), explicit_y, z);
    }
};

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
    const SeparableLayerTerms* member_terms;  // the layer's, member b's at b (MemberLayerTerms)
    SeparableWorkspace members_work;          // member 0's
    bool first_layer, last_layer;
    double gamma_z0;                  // g1_0
    MemberPointSolver<Problem> solve;  // at the last layer
    // sweep point g: member b's grid point i
    __host__ __device__ void operator()(int g) const {
        const int b = solve.members.member(g), i = solve.members.point(g);
        const SeparableLayerTerms terms = member_terms[b];
        const SeparableWorkspace work = members_work.member(b);
        const int columns = evaluate.M + 3, points_per_row = evaluate.M + 1;
        const int row = i / points_per_row, column = i % points_per_row;
        const std::size_t offset = static_cast<std::size_t>(row) * columns;
        const double* h = work.staged(SeparableWorkspace::h) + offset;
        const double* u1 = work.staged(SeparableWorkspace::u1) + offset;
        const double* u2 = work.staged(SeparableWorkspace::u2) + offset;
        const double* v = work.staged(SeparableWorkspace::v) + offset;
        double e_h = 0.0, e_u1 = 0.0, e_u2 = 0.0, e_vdw2 = 0.0;
        for (int m = 0; m < L; ++m) {
            const Node node = nodes[m];
            const auto a2 = evaluate.along_axis(column, node);
            e_h += node.omega * Evaluator::axis2_sum(h, a2);
            e_u1 += node.omega * Evaluator::axis2_sum(u1, a2);
            e_u2 += node.omega * Evaluator::axis2_sum(u2, a2);
            e_vdw2 += node.omega * node.dW * Evaluator::axis2_sum(v, a2);
        }
        double y = e_h + terms.h_constant;
        Vec2 z{{e_u1, e_u2 + e_vdw2}};
        if (!first_layer) {
            const auto before = work.sums_at(i);
            y += before.y;
            z[0] += before.z[0];
            z[1] += before.z[1];
        }
        if (last_layer)
            solve(g, y, Vec2{{z[0] / gamma_z0, z[1] / gamma_z0}});
        else
            work.store_sums(i, y, z);
    }
};

// Grid point i from its sums over every layer read (a step that reads the kinked terminal layer alone, whose band
// replaces sums after the axis-2 pass): z_k = sum / g1_0 and y by Picard, as SeparableAxis2Sums at its last layer.
template <class Problem>
struct SeparableSolve {
    SeparableWorkspace members_work;  // member 0's
    double gamma_z0;  // g1_0
    MemberPointSolver<Problem> solve;
    __host__ __device__ void operator()(int g) const {
        const auto sums = members_work.member(solve.members.member(g)).sums_at(solve.members.point(g));
        solve(g, sums.y, Vec2{{sums.z[0] / gamma_z0, sums.z[1] / gamma_z0}});
    }
};

// The grid points where the kink-line rule resolves the kink at a variance (KinkLineExpectation::resolves, within
// h = resolved_half_width of the line n . w = c), as visits k = 0 .. count() - 1 of lines of the grid: along the axis
// a with the larger |n_a| (>= 1/sqrt 2), each line of the other axis meets the band in an interval of length
// 2 h / |n_a|, so `width` = ceil(2 h / (|n_a| dx)) + 2 visits (at most M + 1) from the first grid point below it (at
// least the grid's first) hold every grid point inside; visit k is point k % width of them on line k / width, or -1
// where that point lies off the grid or outside the band. A small share of the (M+1)^2 points when the variance is
// small.
struct KinkBandVisits {
    KinkLineExpectation rule;
    double variance;
    GridPoints<2> grid;
    int along;  // a
    int width;  // visits per line, at most M + 1

    static KinkBandVisits of(const KinkLineExpectation& rule, double variance, const GridPoints<2>& grid) {
        const int along = std::fabs(rule.kink.normal[0]) >= std::fabs(rule.kink.normal[1]) ? 0 : 1;
        const double length = 2.0 * rule.resolved_half_width(variance) / std::fabs(rule.kink.normal[along]);
        const double width = std::ceil(length / grid.dx) + 2.0;
        return {rule, variance, grid, along, width < grid.M + 1 ? static_cast<int>(width) : grid.M + 1};
    }
    __host__ __device__ int count() const { return (grid.M + 1) * width; }
    __host__ __device__ int operator()(int k) const {
        const int line = k / width, across = 1 - along;
        // the band on this line: |n_a w_a + n_o w_o - c| < h, w_a in (centre - h / |n_a|, centre + h / |n_a|)
        const double w_across = grid.x_min + line * grid.dx;
        const double n_along = rule.kink.normal[along];
        const double centre = (rule.kink.offset - rule.kink.normal[across] * w_across) / n_along;
        const double low = centre - rule.resolved_half_width(variance) / fabs(n_along);
        const double first = fmax(floor((low - grid.x_min) / grid.dx), 0.0);  // a double: far lines pass the ints
        const double at = first + k % width;
        if (!(at <= grid.M)) return -1;
        const int index_along = static_cast<int>(at);
        const int i = along == 0 ? index_along * (grid.M + 1) + line : line * (grid.M + 1) + index_along;
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
    Evaluator evaluate;
    LayerView layer;
    KinkBandVisits band;
    DriverAtTime<Problem> driver;  // f(t_j, ., ., .)
    SeparableLayerTerms terms;
    SeparableWorkspace work;
    template <class Lanes>
    __host__ __device__ void operator()(int k, const Lanes& lanes) const {
        const int i = band(k);
        LayerExpectations<Problem, Evaluator> e{evaluate, layer, band.grid.site(i >= 0 ? i : 0), driver};
        if (i >= 0) band.rule.resolved(band.variance, e.site.w, e, lanes);
        const double y = lanes.sum(terms.y_weight * e.y + terms.f_weight * e.f);
        const double z1 = lanes.sum(terms.z_scale * e.z[0] + terms.f_dw_weight * e.f_dw[0]);
        const double z2 = lanes.sum(terms.z_scale * e.z[1] + terms.f_dw_weight * e.f_dw[1]);
        if (i >= 0 && lanes.stores()) work.store_sums(i, y, Vec2{{z1, z2}});
    }
};

}  // namespace bsde
