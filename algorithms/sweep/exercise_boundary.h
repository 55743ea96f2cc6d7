// The early-exercise boundary of a 1D reflected BSDE (scheme.md, "Reflected BSDEs: American options"), recorded
// layer by layer on the backend and read back once. At layer t_n the step's value before the projection onto the
// obstacle is the continuation value c; ObstacleProjection writes c - h and h at each grid point (ObstacleGaps). The
// exercise region is where h > 0 and c <= h; where two neighbouring grid points lie one in it and one not, the zero
// of c - h, linearly interpolated between them, is an edge of it. A reduction keeps the edge whose exercised point
// has the smallest h (nearest the strike: the region's edge towards continuation, S* = the largest exercised S of a
// put) and counts the edges (several: the region has several pieces). Edges where the domain's truncation reaches,
// |w| > R - 6 sqrt(T - t_n) (spot_margin_deviations, spots.h), are not counted: nodes beyond R take the boundary's
// values, and an American call without dividends, never exercised, has c < h near w = R. No edge: no exercise on the
// layer (or exercise at every point counted), NaN. Problems without an obstacle, and 2D ones, record nothing and
// compile it away.
#pragma once
#include <cmath>
#include <vector>

#include <thrust/copy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "../core/raw_pointer.h"
#include "../scheme/grid.h"
#include "../scheme/obstacle.h"
#include "../scheme/settings.h"
#include "../../problems/spots.h"
#include "sweep_functors.h"

namespace bsde {

// The layer's chosen edge of the exercise region: w there, h at its exercised grid point, and the edges counted.
// ExerciseEdge{} (no edge) is the identity of NearestStrikeEdge.
struct ExerciseEdge {
    double w = 0.0;
    double obstacle = INFINITY;
    int edges = 0;
};

// Of two edges the one of smaller h (of equal h, of smaller w, so that the choice does not depend on the order of the
// reduction), with both counts.
struct NearestStrikeEdge {
    __host__ __device__ ExerciseEdge operator()(const ExerciseEdge& a, const ExerciseEdge& b) const {
        const bool first = a.obstacle < b.obstacle || (a.obstacle == b.obstacle && a.w < b.w);
        ExerciseEdge kept = first ? a : b;
        kept.edges = a.edges + b.edges;
        return kept;
    }
};

// The edge between grid points i and i + 1 (i = 0..M-1), both within |w| <= reach, if one of them is exercised
// (h > 0, c - h <= 0) and the other not: w where c - h, linear between them, is 0 (at the exercised point where c - h
// does not rise towards the other: its h <= 0 and c <= h there too).
struct ExerciseEdgeAt {
    ObstacleGaps gaps;
    GridPoints<1> grid;
    double reach;
    __host__ __device__ bool exercised(int i) const { return gaps.obstacle[i] > 0.0 && gaps.gap[i] <= 0.0; }
    __host__ __device__ ExerciseEdge operator()(int i) const {
        if (fabs(grid(i)) > reach || fabs(grid(i + 1)) > reach || exercised(i) == exercised(i + 1))
            return ExerciseEdge{};
        const int in = exercised(i) ? i : i + 1, out = in == i ? i + 1 : i;
        const double g_in = gaps.gap[in], g_out = gaps.gap[out];
        const double fraction = g_out > g_in ? g_in / (g_in - g_out) : 0.0;  // in [0, 1): from the exercised point
        ExerciseEdge edge;
        edge.w = grid(in) + fraction * (grid(out) - grid(in));
        edge.obstacle = gaps.obstacle[in];
        edge.edges = 1;
        return edge;
    }
};

// The records of one sweep: the projection's c - h and h of the latest step (gaps()), and each layer's edge, n =
// 0..N-1, on the backend until collect(). For a problem that records nothing every member does nothing.
template <class Problem, class Context, bool = records_exercise_boundary<Problem>>
class ExerciseBoundaryLog {
public:
    // Room for the layers of `time` on `points` grid points over [-R, R].
    void allocate(const TimeGrid& time, double R, int points) {
        gaps_.resize(2 * static_cast<std::size_t>(points));
        edges_.assign(time.N, ExerciseEdge{});
        time_ = time;
        R_ = R;
        points_ = points;
    }
    double storage_bytes() const { return sizeof(double) * gaps_.size() + sizeof(ExerciseEdge) * edges_.size(); }

    // Where the projection writes c - h and h (ObstacleProjection).
    ObstacleGaps gaps() { return {raw(gaps_), raw(gaps_) + points_}; }

    // Layer n's edge from the gaps of the step just done (a reduction left on the backend's queue).
    void record(Context& context, int n, const GridPoints<1>& grid) {
        const double reach = R_ - spot_margin_deviations * std::sqrt(time_.T - t(n));
        const auto edges =
            thrust::make_transform_iterator(thrust::counting_iterator<int>(0), ExerciseEdgeAt{gaps(), grid, reach});
        context.reduce_segments_into(edges, points_ - 1, 1, ExerciseEdge{}, NearestStrikeEdge{}, raw(edges_) + n);
    }

    // Layers first..last from the start-up's sweep (its grid's w are this one's).
    void continue_from(Context& context, const ExerciseBoundaryLog& startup, int first, int last) {
        if (first > last) return;
        thrust::copy(context.policy(), startup.edges_.begin() + first, startup.edges_.begin() + last + 1,
                     edges_.begin() + first);
    }

    // The boundary at t_n = T - (N - n) dt into the result: w*, and S* = state(t_n, w*) where the problem has a state
    // map (has_state_map); NaN where a layer has no edge.
    void collect(Context& context, const Problem& problem, SolveResult& result) const {
        std::vector<ExerciseEdge> host(edges_.size());
        context.copy_to_host(edges_.begin(), edges_.end(), host.begin());
        ExerciseBoundary& b = result.exercise_boundary;
        b = {};
        b.has_state = has_state_map<Problem>::value;
        for (int n = 0; n < static_cast<int>(host.size()); ++n) {
            const double w = host[n].edges > 0 ? host[n].w : std::nan("");
            b.t.push_back(t(n));
            b.w.push_back(w);
            b.edges.push_back(host[n].edges);
            if constexpr (has_state_map<Problem>::value) b.state.push_back(std::isnan(w) ? w : problem.state(t(n), w));
        }
        result.has_exercise_boundary = true;
    }

private:
    double t(int n) const { return time_.T - (time_.N - n) * time_.dt(); }  // as the sweep's steps take it

    typename Context::template vector<double> gaps_;  // c - h at the M + 1 points, then h
    typename Context::template vector<ExerciseEdge> edges_;
    TimeGrid time_{1, 1.0};
    double R_ = 0.0;
    int points_ = 0;
};

template <class Problem, class Context>
class ExerciseBoundaryLog<Problem, Context, false> {
public:
    void allocate(const TimeGrid&, double, int) {}
    double storage_bytes() const { return 0.0; }
    ObstacleGaps gaps() { return {}; }
    template <class Grid>
    void record(Context&, int, const Grid&) {}
    void continue_from(Context&, const ExerciseBoundaryLog&, int, int) {}
    void collect(Context&, const Problem&, SolveResult&) const {}
};

}  // namespace bsde
