// Lanes: the threads that share the work of one grid point in the fused pass. A quadrature rule gives
// lane r of a group of `size` lanes its nodes r, r + size, r + 2 size, ... (the 1D pass's smooth layers: the r-th
// run of consecutive nodes, LayerNodeShare in expectation_rules.h), so all lanes evaluate at once; sum(x) adds x
// over the group and gives every lane the total; stores(p) says which one lane writes the results of the call's
// p-th point (p = 0 .. P - 1: lane p mod size, so that the points' lanes work at once).
// The host backends run one lane per point (SingleLane); the cuda backend spreads a point's lanes over the warps
// of a block (cuda_system.cuh, BlockLanes). Lanes that are a block of threads
// may also stage (stages = true): its threads share a buffer `staged` of shared memory, which thread() of
// threads() fill in turn between sync()s, for the points first..last of the block (the staged 2D rule,
// expectation_rules.h).
// wait_for_previous_work() returns once the work enqueued before this call's is complete and its writes are
// visible: a body that declares awaits_previous_work = true reads nothing that work writes before calling it
// (each lane that reads it; a block's first call counts for the block), and the cuda context may then start it
// while that work still runs (programmatic dependent launch, cuda_system.cuh). It may read what earlier work wrote
// (the pass reads the older layers first): the context lets such a body's own successor start only after the body
// has waited, so that the work before that is complete by then too. On the host the previous work is always done.
#pragma once
#include <type_traits>

#include "host_device.h"

namespace bsde {

struct SingleLane {
    static constexpr int size = 1;
    static constexpr bool stages = false;  // no block to stage for (expectation_rules.h, GaussHermiteOnGrid)
    __host__ __device__ int lane() const { return 0; }
    __host__ __device__ double sum(double x) const { return x; }
    __host__ __device__ bool stores(int /*point*/ = 0) const { return true; }
    __host__ __device__ void wait_for_previous_work() const {}
};

// Whether a body of for_each_group waits for the previous work itself (lanes.wait_for_previous_work()).
template <class Body, class = void>
struct awaits_previous_work : std::false_type {};
template <class Body>
struct awaits_previous_work<Body, std::enable_if_t<Body::awaits_previous_work>> : std::true_type {};

// A body of one visit, body(k), run by for_each_group with one lane per visit: the visit's lane calls it, and no thread
// past the visits (on cuda a last block's spare threads, which for_each_group gives the last visit).
template <class Body>
struct EachVisit {
    Body body;
    template <class Lanes>
    __host__ __device__ void operator()(int k, const Lanes& lanes) const {
        if (lanes.stores()) body(k);
    }
};

// body(first + k) for the visits k = 0..count-1 of a pass over the sweep points first.. (a slab's owned rows,
// slabs.h; first = 0 on the whole grid).
template <class Body>
struct FromPoint {
    int first;
    Body body;
    __host__ __device__ void operator()(int k) const { body(first + k); }
};

// Visits point body(i, lanes) for i = 0..count-1 with one lane per point: the host contexts' for_each_group.
template <class Body>
struct OnSingleLane {
    Body body;
    __host__ __device__ void operator()(int i) const { body(i, SingleLane{}); }
};

}  // namespace bsde
