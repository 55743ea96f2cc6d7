// CUDA execution context for the backend seam: one stream, one cuSPARSE handle bound to it, and
// workspaces for the tridiagonal solves and CUB reductions, created once and reused.
// The only place besides backend_cuda.cu that names CUDA, cuSPARSE or CUB.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda_runtime.h>
#include <cusparse.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/system/cuda/vector.h>

#include "backend.h"
#include "../core/errors.h"
#include "../core/lanes.h"
#include "../scheme/run_time.h"
#include "../sweep/slab_link.h"
#include "thrust_calls.h"

namespace bsde {

[[noreturn]] void throw_cuda_error(const char* call, const char* file, int line, const std::string& reason);

#define BSDE_CUDA_CHECK(call)                                                        \
    do {                                                                             \
        const cudaError_t status_ = (call);                                          \
        if (status_ != cudaSuccess)                                                  \
            ::bsde::throw_cuda_error(#call, __FILE__, __LINE__, cudaGetErrorString(status_)); \
    } while (0)

#define BSDE_CUSPARSE_CHECK(call)                                                    \
    do {                                                                             \
        const cusparseStatus_t status_ = (call);                                     \
        if (status_ != CUSPARSE_STATUS_SUCCESS)                                      \
            ::bsde::throw_cuda_error(#call, __FILE__, __LINE__, cusparseGetErrorString(status_)); \
    } while (0)

// Lanes of a block of 256 threads serving P = 256 / G grid points with G lanes each (lanes.h): thread t
// is lane t / P of the block's point t mod P, so a warp holds 32 neighbouring points at one lane and its
// loads at a quadrature node are coalesced (the lanes of a point read far-apart nodes). sum() adds the G
// lanes' values through shared memory in a fixed order (every lane gets the same total) and synchronizes
// the block: every thread of the block calls it equally often. Threads past the last point repeat the
// last point and do not store. The block also stages (lanes.h): `staged` is its dynamic shared memory (the
// launch's stage_doubles), first..last its points.
constexpr int group_block_threads = 256;

template <int G>
struct BlockLanes {
    static_assert(G >= 1 && G <= 8 && (G & (G - 1)) == 0, "lanes per point: a power of two up to 8 (warps of 32 points)");
    static constexpr int size = G;
    static constexpr int points = group_block_threads / G;  // per block
    static constexpr bool stages = true;
    double* partial;  // shared, one per thread
    double* staged;   // shared, the launch's stage
    int first, last;
    bool in_range;
    __host__ __device__ int lane() const {
#ifdef __CUDA_ARCH__
        return threadIdx.x / points;
#else
        return 0;
#endif
    }
    __host__ __device__ int thread() const {
#ifdef __CUDA_ARCH__
        return threadIdx.x;
#else
        return 0;
#endif
    }
    __host__ __device__ static constexpr int threads() { return group_block_threads; }
    __host__ __device__ void sync() const {
#ifdef __CUDA_ARCH__
        __syncthreads();
#endif
    }
    __host__ __device__ bool stores(int point = 0) const { return in_range && lane() == point % G; }
    // Waits for the previous kernel (a no-op where the launch was not programmatic), then lets the next one start
    // (for_each_group_kernel).
    __host__ __device__ void wait_for_previous_work() const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        asm volatile("griddepcontrol.wait;" ::: "memory");
        asm volatile("griddepcontrol.launch_dependents;");
#endif
    }
    __host__ __device__ double sum(double x) const {
#ifdef __CUDA_ARCH__
        if constexpr (G > 1) {
            partial[threadIdx.x] = x;
            __syncthreads();
            double total = 0.0;
            for (int r = 0; r < G; ++r) total += partial[r * points + threadIdx.x % points];
            __syncthreads();  // partial is reused by the next sum
            return total;
        }
#endif
        return x;
    }
};

// Where all blocks of a launch run at once (one wave), their points are taken from both ends of the range inwards:
// block b takes the (b / 2)-th block of points from the front (b even) or from the back (b odd). The GPU starts the
// blocks in the order of their index, and the points at the ends of a 1D grid carry the most work (their nodes move
// past the grid's ends), so the ends start first. With more blocks than a wave, the blocks keep their order, so that
// the blocks running at once read neighbouring data (docs/performance.md, "The grid's ends").
__device__ inline int block_from_the_ends(int b, int blocks) { return b % 2 == 0 ? b / 2 : blocks - 1 - b / 2; }

// body(i, BlockLanes<G>) for the grid points i = 0..count-1, registers capped so that blocks_per_sm blocks fit on an SM
// (4: 64 registers, 3: 80, 2: 128; the caller's choice, docs/performance.md, "Registers and warps per SM"). Each block
// lets the next work on the stream start, where that work was launched to overlap this one (awaits_previous_work,
// lanes.h: it waits for this kernel's end before it reads what this kernel writes): at once, or where the body itself
// awaits previous work, once it has waited (BlockLanes::wait_for_previous_work). Otherwise a chain of such kernels
// could run ahead of its own inputs: with pass, fit and pass overlapped, the second pass could read the layer the fit
// before the first pass writes while that fit still runs (on grids too small to fill the GPU; docs/performance.md,
// "Overlapped launches"). ends_first: block_from_the_ends.
template <int G, int blocks_per_sm, class Body>
__global__ void __launch_bounds__(group_block_threads, blocks_per_sm)
    for_each_group_kernel(int count, bool ends_first, Body body) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if constexpr (!awaits_previous_work<Body>::value) asm volatile("griddepcontrol.launch_dependents;");
#endif
    __shared__ double partial[group_block_threads];
    extern __shared__ double staged[];
    const int block = ends_first ? block_from_the_ends(blockIdx.x, gridDim.x) : blockIdx.x;
    const int first = block * BlockLanes<G>::points, i = first + threadIdx.x % BlockLanes<G>::points;
    const int last = first + BlockLanes<G>::points < count ? first + BlockLanes<G>::points - 1 : count - 1;
    body(i < count ? i : count - 1, BlockLanes<G>{partial, staged, first, last, i < count});
}

// Offset of segment s of equal segments of `size` values.
struct SegmentStart {
    int size;
    __host__ __device__ int operator()(int s) const { return s * size; }
};

class CudaContext : public ThrustCalls {
public:
    template <class T>
    using vector = thrust::cuda::vector<T>;
    static constexpr bool runs_on_gpu = true;
    static constexpr int block_threads = group_block_threads;  // of for_each_group (its points, with one lane each)

    CudaContext();
    ~CudaContext();
    CudaContext(const CudaContext&) = delete;
    CudaContext& operator=(const CudaContext&) = delete;

    // --gpus G: the calling thread's GPU (cudaSetDevice), which a slab's thread selects before it makes its context.
    static void select_device(int device);
    // The links of G slabs on GPUs 0..G-1 (NCCL: nccl_links.h), made by the main thread.
    static std::unique_ptr<SlabLinks> slab_links(int gpus);
    // This context as a slab's link sees it (slab_link.h): its stream, a wait for it, an asynchronous copy on it.
    SlabEndpoint endpoint();

    // The stream's policy for a Thrust algorithm (recording where it is called: thrust_calls.h).
    auto policy(const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        record(file, line);
        return thrust::cuda::par_nosync.on(stream_);
    }
    std::string description() const;

    void solve_tridiagonal(const double* lower, const double* diag, const double* upper, double* rhs,
                           int m, int count);

    // body(i, lanes) for i = 0..count-1, enqueued on the stream, blocks_per_sm blocks of 256 threads on an SM (the
    // registers capped accordingly), with the most lanes per point (a power of two up to max_lanes, at least one) whose
    // threads still fit in one wave, the threads that run at once (its blocks on every SM): a second wave, even a
    // partly filled one, costs about as long as the first (docs/performance.md, "Lanes per point"). A block's stage
    // (BlockLanes::staged) takes stage_doubles doubles of shared memory (at most stage_bytes_per_block()).
    template <int max_lanes, int blocks_per_sm, class Body>
    void for_each_group(int count, const Body& body, int stage_doubles = 0) {
        if (count == 0) return;
        if constexpr (max_lanes > 1) {
            if (lanes_for(count, max_lanes, blocks_per_sm) < max_lanes) {
                for_each_group<max_lanes / 2, blocks_per_sm>(count, body, stage_doubles);
                return;
            }
        }
        launch_groups<max_lanes, blocks_per_sm>(count, body, stage_doubles * sizeof(double));
    }

    // body(i, lanes) for i = 0..count-1 with `lanes` lanes per point, in as many waves as they take: for a body whose
    // points carry so much work that its lanes gain more than later waves cost (SeparableKinkBandSums).
    template <int lanes, int blocks_per_sm, class Body>
    void for_each_group_of(int count, const Body& body) {
        if (count > 0) launch_groups<lanes, blocks_per_sm>(count, body, 0);
    }

    // The lanes for_each_group gives each of `count` groups: max_lanes, halved while their threads pass one wave.
    int lanes_for(long long count, int max_lanes, int blocks_per_sm) const {
        int lanes = max_lanes;
        while (lanes > 1 && count * lanes > threads_at_once(blocks_per_sm)) lanes /= 2;
        return lanes;
    }

    // The threads of one wave of for_each_group with blocks_per_sm blocks on each SM.
    int threads_at_once(int blocks_per_sm) const { return blocks_per_sm * group_block_threads * multiprocessors_; }
    RunPace pace() const { return gpu_pace(); }  // run_time.h

    // The most shared memory a block of for_each_group may stage, in bytes (the device's opt-in limit per
    // block less the block's own lane sums).
    double stage_bytes_per_block() const { return stage_bytes_per_block_; }

    // out[s] = op-reduction of init and first[s size, (s+1) size) for s = 0..segments-1 (device memory),
    // enqueued on the stream: CUB's segmented reduction (a block per segment), or for one segment CUB's device
    // reduction (many blocks); first an array or a Thrust iterator.
    template <class Iterator, class T, class Op>
    void reduce_segments_into(Iterator first, int size, int segments, T init, Op op, T* out) {
        if (segments == 1) {
            device_reduce_into(first, size, init, op, out);
            return;
        }
        std::size_t bytes = 0;
        const auto starts = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), SegmentStart{size});
        BSDE_CUDA_CHECK(cub::DeviceSegmentedReduce::Reduce(nullptr, bytes, first, out, segments, starts, starts + 1, op,
                                                           init, stream_));
        void* temp = workspace(reduce_workspace_, bytes);
        BSDE_CUDA_CHECK(cub::DeviceSegmentedReduce::Reduce(temp, bytes, first, out, segments, starts, starts + 1, op,
                                                           init, stream_));
    }

    template <class T, class Iterator, class Op>
    T reduce(Iterator first, int n, T init, Op op) {  // CUB device reduction, read back
        T* out = static_cast<T*>(workspace(reduce_result_, sizeof(T)));
        device_reduce_into(first, n, init, op, out);
        return read(out);
    }

    void synchronize() { BSDE_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

    void start_timer();
    double elapsed_seconds();  // since start_timer(), synchronizing; may be read repeatedly (the timer keeps running)

    // Marks in the stream's work (bsde bench's split of a step into phases): mark() records the next event of a
    // pool on the stream and returns its number, without waiting; seconds_between(a, b) is the device time
    // between marks a and b (it waits for b); clear_marks() lets the next solve reuse the events.
    int mark();
    double seconds_between(int from, int to);
    void clear_marks() { marks_used_ = 0; }

    double device_bytes_in_use() const;  // device memory taken since this context was created
    double free_bytes() const;           // device memory free now (cudaMemGetInfo)

    // The device's FP64 rates (backend.h), each the best of 5 timed launches of independent chains after 20 ms of
    // warm-up launches.
    Fp64Ceilings measure_fp64_ceilings();

private:
    // Operations per second of `rounds` rounds of chains of `round` (algorithms/backends/backend_cuda.cu), `operations_per_round` each.
    template <class Round>
    double chain_rate(Round round, double operations_per_round, int rounds);

    // *out = op-reduction of init and first[0, n) (device memory): CUB's device reduction, enqueued on the stream.
    template <class T, class Iterator, class Op>
    void device_reduce_into(Iterator first, int n, T init, Op op, T* out) {
        std::size_t bytes = 0;
        BSDE_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, bytes, first, out, n, op, init, stream_));
        void* temp = workspace(reduce_workspace_, bytes);
        BSDE_CUDA_CHECK(cub::DeviceReduce::Reduce(temp, bytes, first, out, n, op, init, stream_));
    }

    template <int lanes_per_point, int blocks_per_sm, class Body>
    void launch_groups(int count, const Body& body, std::size_t stage_bytes) {
        constexpr int points_per_block = BlockLanes<lanes_per_point>::points;
        const unsigned blocks = static_cast<unsigned>((count + points_per_block - 1) / points_per_block);
        const auto kernel = for_each_group_kernel<lanes_per_point, blocks_per_sm, Body>;
        const bool one_wave = 1LL * blocks * group_block_threads <= threads_at_once(blocks_per_sm);
        if (stage_bytes > default_stage_bytes)  // beyond the default, a kernel must ask for it
            BSDE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 static_cast<int>(stage_bytes)));
        if (awaits_previous_work<Body>::value && programmatic_launch_) {
            // started while the previous kernel on the stream still runs (after all its blocks have started)
            cudaLaunchAttribute overlap{};
            overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
            overlap.val.programmaticStreamSerializationAllowed = 1;
            cudaLaunchConfig_t config{};
            config.gridDim = dim3(blocks);
            config.blockDim = dim3(group_block_threads);
            config.dynamicSmemBytes = stage_bytes;
            config.stream = stream_;
            config.attrs = &overlap;
            config.numAttrs = 1;
            BSDE_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, count, one_wave, body));
        } else {
            kernel<<<blocks, group_block_threads, stage_bytes, stream_>>>(count, one_wave, body);
            BSDE_CUDA_CHECK(cudaGetLastError());
        }
    }
    static constexpr std::size_t default_stage_bytes = 48 * 1024 - group_block_threads * sizeof(double);

    template <class T>
    T read(const T* element) {
        T value;
        BSDE_CUDA_CHECK(cudaMemcpyAsync(&value, element, sizeof(T), cudaMemcpyDeviceToHost, stream_));
        synchronize();
        return value;
    }

    void* workspace(vector<char>& buffer, std::size_t bytes);

    void release();  // what the constructor made (the destructor's work, and a failed constructor's)
    cudaStream_t stream_ = nullptr;
    cusparseHandle_t cusparse_ = nullptr;
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
    std::vector<cudaEvent_t> marks_;
    std::size_t marks_used_ = 0;
    std::size_t free_at_start_ = 0;
    int multiprocessors_ = 0;
    bool programmatic_launch_ = false;  // programmatic dependent launch (compute capability 9.0 on)
    double stage_bytes_per_block_ = 0;
    vector<char> tridiagonal_workspace_, reduce_workspace_, reduce_result_;
};

}  // namespace bsde
