// CUDA execution context for the backend seam: one stream, one cuSPARSE handle bound to it, and
// workspaces for the tridiagonal solves and CUB reductions, created once and reused.
// The only place besides backend_cuda.cu that names CUDA, cuSPARSE or CUB.
#pragma once
#include <string>

#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>
#include <cusparse.h>
#include <thrust/execution_policy.h>
#include <thrust/system/cuda/vector.h>

#include "backend.h"
#include "errors.h"
#include "lanes.h"

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

// G consecutive threads of a block (G a power of two, at most 32) sharing one grid point (lanes.h):
// lane = threadIdx.x mod G; sum() is a butterfly of G-wide warp shuffles over exactly the tile's threads,
// so tiles whose point lies past the end may have left the kernel.
template <int G>
struct TileLanes {
    static_assert(G >= 1 && G <= 32 && (G & (G - 1)) == 0, "lanes per point: a power of two up to 32");
    static constexpr int size = G;
    __host__ __device__ int lane() const {
#ifdef __CUDA_ARCH__
        return threadIdx.x % G;
#else
        return 0;
#endif
    }
    __host__ __device__ double sum(double x) const {
#ifdef __CUDA_ARCH__
        if constexpr (G > 1) {
            const unsigned tile = threadIdx.x % 32 / G;
            const unsigned mask = G == 32 ? 0xffffffffu : ((1u << G) - 1u) << (tile * G);
            for (int offset = G / 2; offset > 0; offset /= 2) x += __shfl_xor_sync(mask, x, offset, G);
        }
#endif
        return x;
    }
};

// body(i, TileLanes<G>) on the G threads of tile i, i = 0..count-1.
template <int G, class Body>
__global__ void for_each_group_kernel(int count, Body body) {
    const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (thread / G >= count) return;  // whole tiles leave together
    body(static_cast<int>(thread / G), TileLanes<G>{});
}

class CudaContext {
public:
    template <class T>
    using vector = thrust::cuda::vector<T>;
    static constexpr bool runs_on_gpu = true;

    CudaContext();
    ~CudaContext();
    CudaContext(const CudaContext&) = delete;
    CudaContext& operator=(const CudaContext&) = delete;

    auto policy() const { return thrust::cuda::par_nosync.on(stream_); }
    std::string description() const;

    void solve_tridiagonal(const double* lower, const double* diag, const double* upper, double* rhs,
                           int m, int count, TridiagonalLayout layout, bool pivoting);

    // body(i, lanes) for i = 0..count-1 with lanes_per_point threads per point, enqueued on the stream.
    template <int lanes_per_point, class Body>
    void for_each_group(int count, const Body& body) {
        constexpr int block = 256;
        const long long threads = static_cast<long long>(count) * lanes_per_point;
        if (threads == 0) return;
        for_each_group_kernel<lanes_per_point><<<static_cast<unsigned>((threads + block - 1) / block), block, 0, stream_>>>(
            count, body);
        BSDE_CUDA_CHECK(cudaGetLastError());
    }

    // CUB device reduction of n values into *out (device memory), enqueued on the stream.
    template <class T, class Iterator, class Op>
    void reduce_into(Iterator first, int n, T init, Op op, T* out) {
        std::size_t bytes = 0;
        BSDE_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, bytes, first, out, n, op, init, stream_));
        void* temp = workspace(reduce_workspace_, bytes);
        BSDE_CUDA_CHECK(cub::DeviceReduce::Reduce(temp, bytes, first, out, n, op, init, stream_));
    }

    template <class T, class Iterator, class Op>
    T reduce(Iterator first, int n, T init, Op op) {
        T* out = static_cast<T*>(workspace(reduce_result_, sizeof(T)));
        reduce_into(first, n, init, op, out);
        return read(out);
    }

    void synchronize() { BSDE_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

    void start_timer();
    double elapsed_seconds();  // since start_timer(), synchronizing; may be read repeatedly (the timer keeps running)

    double device_bytes_in_use() const;  // device memory taken since this context was created
    double free_bytes() const;           // device memory free now (cudaMemGetInfo)

private:
    template <class T>
    T read(const T* element) {
        T value;
        BSDE_CUDA_CHECK(cudaMemcpyAsync(&value, element, sizeof(T), cudaMemcpyDeviceToHost, stream_));
        synchronize();
        return value;
    }

    void* workspace(vector<char>& buffer, std::size_t bytes);

    cudaStream_t stream_ = nullptr;
    cusparseHandle_t cusparse_ = nullptr;
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
    std::size_t free_at_start_ = 0;
    vector<char> tridiagonal_workspace_, reduce_workspace_, reduce_result_;
};

}  // namespace bsde
