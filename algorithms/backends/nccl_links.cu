// The slabs' links through NCCL (nccl_links.h): halos by grouped sends and receives, sums and largest values by
// all-reductions in place, each on the slab's stream.
#include "nccl_links.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda_runtime.h>
#include <nccl.h>

#include "../core/errors.h"

namespace bsde {
namespace {

// The NCCL functions the links call, typed from nccl.h's prototypes, from libnccl.so.2: opened once and never closed
// (NCCL's threads belong to the process from its first communicator on); `failure` is the loader's reason where the
// library or one of the functions is missing.
struct NcclLibrary {
    decltype(&::ncclCommInitAll) ncclCommInitAll = nullptr;
    decltype(&::ncclCommAbort) ncclCommAbort = nullptr;
    decltype(&::ncclCommDestroy) ncclCommDestroy = nullptr;
    decltype(&::ncclGroupStart) ncclGroupStart = nullptr;
    decltype(&::ncclGroupEnd) ncclGroupEnd = nullptr;
    decltype(&::ncclSend) ncclSend = nullptr;
    decltype(&::ncclRecv) ncclRecv = nullptr;
    decltype(&::ncclAllReduce) ncclAllReduce = nullptr;
    decltype(&::ncclGetErrorString) ncclGetErrorString = nullptr;
    std::string failure;
};

NcclLibrary open_nccl() {
    NcclLibrary nccl;
    const auto loader_reason = [] {
        const char* reason = ::dlerror();
        return std::string(reason ? reason : "no reason given");
    };
    void* library = ::dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        nccl.failure = loader_reason();
        return nccl;
    }
    const auto take = [&](auto& function, const char* name) {
        if (!nccl.failure.empty()) return;
        function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(::dlsym(library, name));
        if (!function) nccl.failure = loader_reason();
    };
    take(nccl.ncclCommInitAll, "ncclCommInitAll");
    take(nccl.ncclCommAbort, "ncclCommAbort");
    take(nccl.ncclCommDestroy, "ncclCommDestroy");
    take(nccl.ncclGroupStart, "ncclGroupStart");
    take(nccl.ncclGroupEnd, "ncclGroupEnd");
    take(nccl.ncclSend, "ncclSend");
    take(nccl.ncclRecv, "ncclRecv");
    take(nccl.ncclAllReduce, "ncclAllReduce");
    take(nccl.ncclGetErrorString, "ncclGetErrorString");
    return nccl;
}

const NcclLibrary& nccl() {
    static const NcclLibrary library = open_nccl();
    return library;
}

[[noreturn]] void throw_nccl_error(const char* call, const char* file, int line, ncclResult_t status) {
    throw DeviceError(std::string(file) + ":" + std::to_string(line) + ": " + call +
                      " failed: " + nccl().ncclGetErrorString(status));
}

// An NCCL call through the opened library, e.g. BSDE_NCCL_CHECK(ncclGroupEnd()); throws DeviceError naming it.
#define BSDE_NCCL_CHECK(call)                                                                 \
    do {                                                                                      \
        const ncclResult_t status_ = nccl().call;                                             \
        if (status_ != ncclSuccess) throw_nccl_error(#call, __FILE__, __LINE__, status_);    \
    } while (0)


// The calling thread's NCCL group, from ncclGroupStart() to end(); where a call inside it throws, the group is ended on
// leaving the scope (unchecked: the first failure is the one reported), so that it never stays open.
class NcclGroup {
public:
    NcclGroup() { BSDE_NCCL_CHECK(ncclGroupStart()); }
    ~NcclGroup() {
        if (open_) nccl().ncclGroupEnd();
    }
    NcclGroup(const NcclGroup&) = delete;
    NcclGroup& operator=(const NcclGroup&) = delete;
    void end() {
        open_ = false;
        BSDE_NCCL_CHECK(ncclGroupEnd());
    }

private:
    bool open_ = true;
};

// A slab's link: its GPU's communicator and its context's stream. Each operation checks the links' abort flag before
// and after it, so that an operation after an abort, or one that the abort cut short, throws.
class NcclSlabLink : public SlabLink {
public:
    NcclSlabLink(ncclComm_t comm, cudaStream_t stream, const std::atomic<bool>& aborted)
        : comm_(comm), stream_(stream), aborted_(aborted) {}

    void exchange(const std::vector<HaloTransfer>& transfers) override {
        check_not_aborted();
        NcclGroup group;  // the sends and receives progress together: each peer's matching pair is in its own group
        for (const HaloTransfer& t : transfers) {
            if (t.send) BSDE_NCCL_CHECK(ncclSend(t.send, t.count, ncclDouble, t.peer, comm_, stream_));
            else BSDE_NCCL_CHECK(ncclRecv(t.receive, t.count, ncclDouble, t.peer, comm_, stream_));
        }
        group.end();
        check_not_aborted();
    }
    void add_up(double* values, int count) override { reduce(values, count, ncclSum); }
    void take_largest(double* values, int count) override { reduce(values, count, ncclMax); }

private:
    void reduce(double* values, int count, ncclRedOp_t op) {
        check_not_aborted();
        BSDE_NCCL_CHECK(ncclAllReduce(values, values, static_cast<std::size_t>(count), ncclDouble, op, comm_, stream_));
        check_not_aborted();
    }
    void check_not_aborted() const {
        if (aborted_.load()) throw SlabAborted();
    }

    ncclComm_t comm_;
    cudaStream_t stream_;
    const std::atomic<bool>& aborted_;
};

// One communicator per GPU, made together by ncclCommInitAll, destroyed together, or aborted once (from any thread).
// The abort flag is raised before the communicators are aborted, so that a link's later operation throws instead of
// reaching a freed communicator; an operation already inside NCCL returns from the abort with an error.
class NcclSlabLinks : public SlabLinks {
public:
    explicit NcclSlabLinks(int gpus) : comms_(static_cast<std::size_t>(gpus), nullptr) {
        std::vector<int> devices(comms_.size());
        std::iota(devices.begin(), devices.end(), 0);
        // NVLink multicast (NVLS) stays off: the links make only point-to-point transfers and small reductions, which
        // it does not serve, and its buffers would take GPU memory from the grid
        ::setenv("NCCL_NVLS_ENABLE", "0", 0);
        BSDE_NCCL_CHECK(ncclCommInitAll(comms_.data(), gpus, devices.data()));
    }
    ~NcclSlabLinks() override {  // failures here cannot be acted on
        const std::lock_guard<std::mutex> lock(mutex_);
        for (ncclComm_t& comm : comms_)
            if (comm) nccl().ncclCommDestroy(comm);
    }
    NcclSlabLinks(const NcclSlabLinks&) = delete;
    NcclSlabLinks& operator=(const NcclSlabLinks&) = delete;

    int slabs() const override { return static_cast<int>(comms_.size()); }

    std::unique_ptr<SlabLink> link(int slab, const SlabEndpoint& endpoint) override {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (aborted_.load()) throw SlabAborted();
        return std::make_unique<NcclSlabLink>(comms_.at(static_cast<std::size_t>(slab)),
                                              static_cast<cudaStream_t>(endpoint.stream), aborted_);
    }

    void abort() override {  // unchecked: it runs where a slab has failed, whose failure is the one reported
        if (aborted_.exchange(true)) return;
        const std::lock_guard<std::mutex> lock(mutex_);
        for (ncclComm_t& comm : comms_) {
            if (comm) nccl().ncclCommAbort(comm);
            comm = nullptr;  // freed by the abort: the destructor leaves it
        }
    }

private:
    std::vector<ncclComm_t> comms_;  // comms_[g] on GPU g
    std::atomic<bool> aborted_{false};
    std::mutex mutex_;
};

}  // namespace

std::unique_ptr<SlabLinks> make_nccl_slab_links(int gpus) {
    const NcclLibrary& library = nccl();
    if (!library.failure.empty())
        throw DeviceError("--gpus " + std::to_string(gpus) + ": NCCL's library libnccl.so.2 did not load (" +
                          library.failure + "); install NCCL or run on one GPU");
    return std::make_unique<NcclSlabLinks>(gpus);
}

}  // namespace bsde
