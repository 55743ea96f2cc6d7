// What a sweep decides before it runs: the memory it takes (checked against what is free before anything is
// allocated) and the shapes of its launches (lanes, blocks per SM, points per call, steps per status reduction).
// BackwardSweep asks; nothing here touches a layer.
#pragma once
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "../core/errors.h"
#include "../scheme/grid.h"
#include "../scheme/settings.h"
#include "../scheme/slabs.h"
#include "separable_pass.h"
#include "sweep_functors.h"

namespace bsde {

// "12.3" (or "123" from 10 MiB on): bytes in MiB for the memory messages.
inline std::string mebibytes(double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, bytes >= 10 * 1048576.0 ? "%.0f" : "%.3g", bytes / 1048576.0);
    return text;
}

// Steps whose grid points' statuses are kept before they are reduced to one status per step in one launch (and
// before each check).
// 1D: 32 (24 bytes per point and step, 3.4x the ring of K = 6): on cuda a reduction is a launch as long as the 1D
// fit, so 32 steps share one (docs/performance.md, "The status reduction"). Fewer where 32 steps of grid points
// would pass the 32-bit offsets of the reduction's segments (M + 1 above 67 million).
// 2D: 1, since the pass takes milliseconds there.
inline int status_depth(int dimension, int points) { return dimension == 1 ? std::min(32, INT_MAX / points) : 1; }

// The memory of a sweep of dimension d with these settings: its rings (K + 1 layers of 1 + d functions, values and
// interpolation data), the separable pass's workspace, the statuses, and the start-up's ring and, on a grid r times
// finer (startup_refine > 1), its own sweep's arrays.
struct SweepMemory {
    const SchemeSettings& s;
    int d;
    double data_per_point;    // the interpolation's data per grid point and function (Fitter::data_size / points)
    double fitter_per_point;  // the fitter's workspace bytes per grid point
    double fitter_bytes;      // this grid's fitter's workspace, already taken
    bool separable;           // the steps run the separable pass (its workspace)
    int status_depth;         // status_depth() of this grid
    int startup_refine;       // startup_refinement(); 0 or 1: the start-up (if any) on this grid
    int members = 1;          // B, a batched solve's members (Members): B times the arrays, the fitter's workspace once
    int slabs = 1;            // G (settings.gpus): the largest slab's rows with their halos (slabs.h), on each GPU
    bool splits = false;      // the grid may be split over more GPUs (why_not_split): a refusal names the G that fits

    struct Estimate {
        double arrays, fitter;
        double function_values;  // the most values or interpolation data of one function of a layer, of any grid
    };

    // For N steps (M, and the start-up's substeps, follow N): the bytes allocated after the fitter, the fitter's bytes
    // and the most values of one function (the start-up's where it is on a finer grid), which 32-bit indices must
    // reach (LayerView).
    Estimate estimate(int N) const { return estimate(N, slabs); }
    // The same on G slabs.
    Estimate estimate(int N, int G) const {
        const int K = s.K(), functions = 1 + d;
        const int M = space_intervals(s.Ky, s.Kz, N, s.T, s.R, s.grid_order);
        int rows = M + 1;  // of the largest slab
        if (G > 1) {
            const int halo = slab_halo(s, N, d, s.terminal_kinked);
            rows = 0;
            for (int g = 0; g < G; ++g) rows = std::max(rows, slab_rows(M, G, g, halo).count());
        }
        const double points = members * rows * std::pow(M + 1.0, d - 1);
        const double S = startup_substeps(s, N);
        const double ring_values = (K + 1.0) * functions * points * (1.0 + data_per_point);
        const double separable_values =
            !separable ? 0.0
                       : members * double(d == 3 ? SeparableWorkspace<3>::doubles(M, rows - 1)
                                                 : SeparableWorkspace<2>::doubles(M, rows - 1));
        const double statuses = sizeof(StepStatus) * (points * status_depth + startup_fine_steps(K, S) + (N - K + 1.0));
        // The start-up's fine ring beside the run's; on a grid of r M intervals (r > 1) that and a ring of its own,
        // with their fitter, statuses and separable workspace, (r M + 1)^d / (M + 1)^d times as many values a layer.
        const double r = std::max(1, startup_refine);
        const double startup_points = members * std::pow(r * M + 1.0, d), finer = startup_points / points;
        double startup = 0;
        if (S > 0 && r == 1) startup = sizeof(double) * ring_values;
        if (S > 0 && r > 1)
            startup = sizeof(double) * (2 * ring_values + separable_values) * finer + fitter_per_point * startup_points +
                      statuses * finer;
        return Estimate{sizeof(double) * (ring_values + separable_values) + statuses + startup, fitter_per_point * points,
                        points * std::max(1.0, data_per_point) * (S > 0 ? finer : 1.0)};
    }

    // The bytes the run allocates after the fitter, on a grid of M intervals. Throws InputError before anything is
    // allocated where they exceed `free` (bytes; < 0: unknown) on `device`, naming both amounts and the largest N that
    // fits, and where a function of a layer has more values than 32-bit indices reach. Test hook (docs/cli.md,
    // "Errors and exit codes"): BSDE_TEST_FREE_BYTES=B takes B bytes as the memory free before the run.
    double check(double free, const std::string& device, int M) const {
        if (const char* test_free = std::getenv("BSDE_TEST_FREE_BYTES"))
            free = std::max(0.0, std::strtod(test_free, nullptr) - fitter_bytes);
        const Estimate now = estimate(s.N);
        const bool too_many_values = now.function_values > INT_MAX;
        if (!too_many_values && (free < 0 || now.arrays <= free)) return now.arrays;
        if (members > 1) {  // the arrays grow as B: the largest B that fits
            const double fitting = std::floor(members * std::min(free < 0 ? INFINITY : free / now.arrays,
                                                                 double(INT_MAX) / now.function_values));
            throw InputError("a batch of " + std::to_string(members) + " members needs " + mebibytes(now.arrays) +
                             " MiB of memory on " + device + " and " + mebibytes(free) + " MiB are free (N = " +
                             std::to_string(s.N) + ", M = " + std::to_string(M) + "): " +
                             (fitting >= 1 ? "the largest batch that fits has " + format_number(fitting, "%.0f") +
                                                 " members"
                                           : "not even one member fits; lower --N"));
        }

        // The largest N below this one whose arrays, with its own (smaller) fitter, fit in the memory this run has
        // (free and this fitter's), and whose functions 32-bit indices reach; M(N) never decreases.
        const auto fits = [&](int N, int G) {
            const Estimate e = estimate(N, G);
            return e.function_values <= INT_MAX && (free < 0 || e.arrays + e.fitter <= free + fitter_bytes);
        };
        const int K = s.K();
        int low = K + 1, high = s.N - 1;
        std::string largest;
        if (high >= low && fits(low, slabs)) {
            while (low < high) {
                const int middle = low + (high - low + 1) / 2;
                if (fits(middle, slabs)) low = middle;
                else high = middle - 1;
            }
            largest = "the largest N that fits is " + std::to_string(low) + "; lower --N";
        } else {
            largest = "not even N = K + 1 = " + std::to_string(K + 1) + " fits; lower --K or --R";
        }
        // the fewest GPUs of a split grid on which this N fits (each with this one's free memory)
        for (int G = slabs + 1; splits && G <= std::min(max_gpus, M + 1); ++G)
            if (fits(s.N, G)) {
                largest += ", or take --gpus " + std::to_string(G) + " (GPUs like this one)";
                break;
            }
        const std::string run = "(N = " + std::to_string(s.N) + ", M = " + std::to_string(M) + ", d = " +
                                std::to_string(d) + ", K = " + std::to_string(K) + ")";
        if (too_many_values)
            throw InputError("a function of the run's layers " + run + " holds " + format_number(now.function_values) +
                             " values, more than the sweep's 32-bit indices reach (2^31 - 1): " + largest);
        const std::string where = slabs == 1 ? device : "each of --gpus " + std::to_string(slabs) + " (" + device + ")";
        throw InputError("the run needs " + mebibytes(now.arrays) + " MiB of memory on " + where + " and " +
                         mebibytes(free) + " MiB are free " + run + ": " + largest);
    }
};

// The launch shapes of the passes of dimension d (on cuda; the host contexts run one lane per point).
template <int d>
struct LaunchShapes {
    // Most threads per call (a grid point or a run of them, points_per_call) in the fused pass on cuda (lanes.h; the
    // context takes the most that fit in one wave of the device, for_each_group). In 1D the grid alone
    // (M + 1 = 32769 points for ex2 at N = 1024) gives the SMs only 8 warps each, too few to hide the latency of
    // the K L dependent node evaluations per point; with G lanes each lane takes K L / G of them (of 1, 8 and 32
    // lanes, 8 in a warp ran fastest; docs/performance.md, "Lanes per point"). In 2D and 3D the (M+1)^d points are
    // enough.
    static constexpr int lanes_per_point = d == 1 ? 8 : 1;
    // Blocks of the fused pass on an SM of a GPU, which caps its registers (cuda_system.cuh): in 1D 2 blocks (128
    // registers) with two or three evaluations in flight per thread (a run's points', or two nodes' of a single point:
    // the node loop unrolled by two, GaussHermiteOnGrid), their loads and exp, faster than 3 blocks (80 registers)
    // with one node at a time (which spilled when unrolled); in 2D 4 blocks (64 registers, with the kinked rule's steps
    // in a kernel of their own), faster than 3 or 2 (docs/performance.md, "Registers and warps per SM"); in 3D 2 blocks,
    // the 64-coefficient stencil's three weight rows and the point's sums of four functions in 128 registers.
    static constexpr int pass_blocks_per_sm = d == 2 ? 4 : 2;
    // Lanes per point and blocks per SM of the kinked layer's band in the separable pass (SeparableKinkBandSums; on
    // cuda, in as many waves as the band's points take): each lane takes every eighth node across the line and all L
    // along it: 8 lanes and 3 blocks (80 registers) ran fastest of the shapes tried (docs/performance.md,
    // "The separable 2D pass").
    static constexpr int kink_band_lanes = 8, kink_band_blocks_per_sm = 3;
    // Blocks per SM of the separable pass's axis-1 and axis-2 sums (on cuda; one thread per visit): the axis-1 sums
    // at 2 (128 registers), the axis-2 sums at 4 (64 registers), each the fastest of 2, 3 and 4 blocks
    // (docs/performance.md, "Registers and warps per SM").
    static constexpr int axis1_blocks_per_sm = 2, axis2_blocks_per_sm = 4;

    // Grid points per call of the 1D fused pass with an evaluator of the run form (MultistepPointUpdate's P): the
    // settings' choice `chosen` (SchemeSettings::points_per_call) where > 0, else the P = 1, 2 or 3 whose calls,
    // B ceil(points / P) for B members of `member_points` points (Members), each with the lanes the context gives them
    // (lanes_for: a power of two up to lanes_per_point on cuda, one on the host, lanes.h), make the most threads
    // within the threads the context runs at once (on cuda a wave of the pass, on the host its threads); a P within
    // 1/16 of the most counts as equal, and of equals the
    // largest P is taken, since P points share a node's loads (2 P + 2 entries of each function's arrays for P points,
    // against 4 for each) and no second wave is started; where no P fits, pairs. On the host the threads are few, so
    // it is pairs unless a grid has at most three points per thread (docs/performance.md, "Points per call").
    template <class Context>
    static int points_per_call(const Context& context, int members, int member_points, int chosen) {
        if (chosen > 0) return chosen;
        const long long at_once = context.threads_at_once(pass_blocks_per_sm);
        long long most_threads = 0;
        int P_chosen = 2;
        for (int P = 1; P <= max_points_per_call; ++P) {
            const long long calls = members * ((member_points + P - 1LL) / P);
            const long long threads = calls * context.lanes_for(calls, lanes_per_point, pass_blocks_per_sm);
            if (threads > at_once) continue;
            if (16 * threads >= 15 * most_threads) P_chosen = P;
            most_threads = std::max(most_threads, threads);
        }
        return P_chosen;
    }
};

}  // namespace bsde
