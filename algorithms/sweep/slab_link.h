// The links between the slabs of a grid split along its first axis (--gpus G: slab g on GPU g; the host test: G slabs
// on one backend). Plain C++: the sweep (backward_sweep.h) calls these, the backends provide them (NCCL between GPUs,
// nccl_links.h; copies within one memory, copy_links.h).
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "../core/errors.h"

namespace bsde {

// What a slab's link operation throws once the links were aborted (SlabLinks::abort): another slab failed first.
struct SlabAborted : DeviceError {
    SlabAborted() : DeviceError("stopped: another slab of the split grid failed") {}
};

// One halo transfer of a slab: `count` doubles at `send` to slab `peer` (a send), or `count` doubles from slab `peer`
// into `receive` (a receive); the other pointer is nullptr. The k-th send of a slab to a peer is that peer's k-th
// receive from it.
struct HaloTransfer {
    int peer;
    const double* send;
    double* receive;
    std::size_t count;
};

// A slab's link to the others, used from the thread that runs the slab, in the order of its context's work (on cuda
// its stream: the link's operations wait for the work before them and the work after waits for them).
class SlabLink {
public:
    virtual ~SlabLink() = default;
    // Every transfer at once; each peer makes the matching transfer (its send to this slab, its receive from it).
    virtual void exchange(const std::vector<HaloTransfer>& transfers) = 0;
    // In place over all slabs: the sums of `values` (count doubles in the context's memory), or their largest.
    virtual void add_up(double* values, int count) = 0;
    virtual void take_largest(double* values, int count) = 0;
};

// What a slab's link needs of the slab's context: its stream (cuda; nullptr on the host), a wait for the context's
// work so far, and a copy of doubles within the context's memory.
struct SlabEndpoint {
    void* stream;
    std::function<void()> synchronize;
    std::function<void(const double* from, std::size_t count, double* to)> copy;
};

// The links of G slabs, made together (for NCCL one communicator). abort() makes every link's pending and later
// operations fail (throw), so that the failure of one slab leaves none of the others waiting; safe from any thread.
class SlabLinks {
public:
    virtual ~SlabLinks() = default;
    virtual int slabs() const = 0;
    virtual std::unique_ptr<SlabLink> link(int slab, const SlabEndpoint& endpoint) = 0;
    virtual void abort() = 0;
};

}  // namespace bsde
