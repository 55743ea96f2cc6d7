// Host execution contexts for the backend seam: serial (thrust::cpp, one core) and omp
// (thrust::omp, all cores) share this template and differ only in their Thrust system.
#pragma once
#include <algorithm>
#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/system/cpp/execution_policy.h>
#include <thrust/system/cpp/vector.h>

#include "backend.h"
#include "copy_links.h"
#include "../core/input_file.h"
#include "../core/lanes.h"
#include "../scheme/run_time.h"
#include "thrust_calls.h"
#include "tridiagonal.h"

namespace bsde {

// Host memory a run can take: /proc/meminfo's MemAvailable, or less where a cgroup (v2) limit leaves less;
// -1 when neither can be read. Each file is read as an input file (read_regular_file): a folder or a FIFO in its place
// counts as unreadable.
inline double host_available_bytes() {
    const auto text_of = [](const char* path) {
        const InputFile file = read_regular_file(path, 1 << 16);
        return std::istringstream(file.read ? file.text : std::string());
    };
    double available = -1.0;
    std::istringstream meminfo = text_of("/proc/meminfo");
    for (std::string key; meminfo >> key;) {
        double kib = 0;
        if (!(meminfo >> kib)) break;
        if (key == "MemAvailable:") {
            available = kib * 1024.0;
            break;
        }
        meminfo.ignore(1 << 10, '\n');
    }
    std::istringstream limit_file = text_of("/sys/fs/cgroup/memory.max"),
                       current_file = text_of("/sys/fs/cgroup/memory.current");
    double limit = 0, current = 0;
    if (limit_file >> limit && current_file >> current) {  // "max" (no limit) does not read as a number
        const double left = std::max(0.0, limit - current);
        available = available < 0 ? left : std::min(available, left);
    }
    return available;
}

// count tridiagonal systems of m rows (rhs overwritten by the solutions): Thomas per system for chunks < 2,
// else the partition method with `chunks` chunks per system (m >= 3 chunks). scratch: m count doubles for
// Thomas, 3 m count for the partition method.
template <class Policy>
void solve_tridiagonal_in_chunks(Policy policy, const double* lower, const double* diag, const double* upper,
                                 double* rhs, double* scratch, int m, int count, int chunks) {
    const TridiagonalSystems systems{lower, diag, upper, rhs, m};
    if (chunks < 2) {
        thrust::for_each(policy, thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(count),
                         ThomasSolve{systems, scratch});
        return;
    }
    const TridiagonalPartition partition{m, chunks};
    double* c_prime = scratch;
    double* v = scratch + static_cast<std::size_t>(m) * count;
    double* w = v + static_cast<std::size_t>(m) * count;
    const thrust::counting_iterator<int> first(0);
    thrust::for_each(policy, first, first + count * chunks,
                     TridiagonalChunkSolve{systems, c_prime, v, w, partition});
    thrust::for_each(policy, first, first + count,
                     TridiagonalSeparatorSolve{systems, v, w, partition});
    thrust::for_each(policy, first, first + count * chunks, TridiagonalChunkCombine{rhs, v, w, partition});
}

template <class SystemTraits>
class HostContext : public ThrustCalls {
public:
    template <class T>
    using vector = typename SystemTraits::template vector<T>;
    static constexpr bool runs_on_gpu = false;
    static constexpr int block_threads = 1;  // for_each_group runs each point by itself (lanes.h)

    // The system's policy for a Thrust algorithm (recording where it is called: thrust_calls.h).
    auto policy(const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        record(file, line);
        return SystemTraits::policy();
    }
    std::string description() const { return SystemTraits::description(); }

    // Thomas per system; where the systems are fewer than the threads (the 1D fit: two), each split into chunks
    // for two tasks a thread (tridiagonal.h, the partition method).
    void solve_tridiagonal(const double* lower, const double* diag, const double* upper, double* rhs,
                           int m, int count) {
        const int threads = SystemTraits::threads();
        const int chunks = count < threads ? std::min((2 * threads + count - 1) / count, m / 3) : 1;
        scratch_.resize(static_cast<std::size_t>(m) * count * (chunks > 1 ? 3 : 1));
        solve_tridiagonal_in_chunks(policy(), lower, diag, upper, rhs, thrust::raw_pointer_cast(scratch_.data()), m,
                                    count, chunks);
    }

    // body(i, lanes) for i = 0..count-1: one lane per point on the host (lanes.h); the cuda context runs
    // up to max_lanes lanes, blocks_per_sm blocks of them on an SM. The points go to the threads in small chunks as
    // they become free, so that a core slowed by other work holds up no step (the work per point is long: the pass).
    template <int max_lanes, int blocks_per_sm, class Body>
    void for_each_group(int count, const Body& body, int /*stage_doubles: no blocks stage here*/ = 0) {
        SystemTraits::for_each_balanced(count, OnSingleLane<Body>{body});
    }
    // The same with `lanes` lanes per point on the cuda context: one here.
    template <int lanes, int blocks_per_sm, class Body>
    void for_each_group_of(int count, const Body& body) {
        for_each_group<lanes, blocks_per_sm>(count, body);
    }

    // out[s] = op-reduction of init and first[s size, (s+1) size) for s = 0..segments-1 (host memory here); first
    // an array or a Thrust iterator.
    template <class Iterator, class T, class Op>
    void reduce_segments_into(Iterator first, int size, int segments, T init, Op op, T* out) {
        for (int s = 0; s < segments; ++s) out[s] = thrust::reduce(policy(), first + s * size, first + (s + 1) * size, init, op);
    }

    template <class T, class Iterator, class Op>
    T reduce(Iterator first, int n, T init, Op op) {
        return thrust::reduce(policy(), first, first + n, init, op);
    }

    void synchronize() {}

    void start_timer() { started_ = std::chrono::steady_clock::now(); }
    // Seconds since start_timer(); may be read repeatedly, the timer keeps running.
    double elapsed_seconds() {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    }

    // Marks in the work (bsde bench's split of a step; the host's work is done when its call returns): mark()
    // reads the clock and returns the mark's number, seconds_between(a, b) the time between marks a and b.
    int mark() {
        marks_.push_back(elapsed_seconds());
        return static_cast<int>(marks_.size()) - 1;
    }
    double seconds_between(int from, int to) const { return marks_.at(to) - marks_.at(from); }
    void clear_marks() { marks_.clear(); }

    int threads_at_once(int /*blocks_per_sm: no blocks here*/) const { return SystemTraits::threads(); }
    RunPace pace() const { return host_pace(SystemTraits::threads(), SystemTraits::parallel); }  // run_time.h
    // The lanes for_each_group gives each group: one on the host.
    int lanes_for(long long /*count*/, int /*max_lanes*/, int /*blocks_per_sm*/) const { return 1; }
    double stage_bytes_per_block() const { return 0.0; }  // one lane per point: nothing to stage for (lanes.h)
    double device_bytes_in_use() const { return -1.0; }  // no device memory on the host backends
    double free_bytes() const { return host_available_bytes(); }  // checked before allocating

    // The slabs of a split grid (slab_link.h) on the host: one memory, so each slab's context is a context of this
    // host, their links copies (copy_links.h).
    static void select_device(int /*device: one memory*/) {}
    static std::unique_ptr<SlabLinks> slab_links(int slabs) { return std::make_unique<CopySlabLinks>(slabs); }
    SlabEndpoint endpoint() {
        return {nullptr, [] {}, [](const double* from, std::size_t count, double* to) { std::copy(from, from + count, to); }};
    }

private:
    vector<double> scratch_;
    std::chrono::steady_clock::time_point started_;
    std::vector<double> marks_;  // seconds since start_timer()
};

// The serial backend's system: thrust::cpp, one core.
struct SerialSystem {
    template <class T>
    using vector = thrust::cpp::vector<T>;
    static auto policy() { return thrust::cpp::par; }
    static int threads() { return 1; }
    static constexpr bool parallel = false;  // threads() is always 1
    template <class F>
    static void for_each_balanced(int count, const F& f) {
        for (int i = 0; i < count; ++i) f(i);
    }
    static std::string description() { return "serial (1 core)"; }
};

}  // namespace bsde
