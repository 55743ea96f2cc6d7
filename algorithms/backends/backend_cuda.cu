// The cuda backend: the Thrust sources on the GPU, cuSPARSE for the tridiagonal solves and CUB for
// the reductions, all on one stream.
#include <algorithm>
#include <string>

#include "backend_impl.h"
#include "cuda_entry.h"
#include "cuda_system.cuh"
#include "nccl_links.h"

namespace bsde {

void throw_cuda_error(const char* call, const char* file, int line, const std::string& reason) {
    throw DeviceError(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " + reason);
}

CudaContext::CudaContext() {
    BSDE_CUDA_CHECK(cudaFree(nullptr));  // create the context before measuring free memory
    std::size_t total = 0;
    BSDE_CUDA_CHECK(cudaMemGetInfo(&free_at_start_, &total));
    int device = 0;
    BSDE_CUDA_CHECK(cudaGetDevice(&device));
    BSDE_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors_, cudaDevAttrMultiProcessorCount, device));
    int major = 0;
    BSDE_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    programmatic_launch_ = major >= 9;
    int shared_per_block = 0;
    BSDE_CUDA_CHECK(cudaDeviceGetAttribute(&shared_per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    stage_bytes_per_block_ = shared_per_block - group_block_threads * sizeof(double);
    try {  // a constructor that throws runs no destructor: what was made so far is released here
        BSDE_CUDA_CHECK(cudaStreamCreate(&stream_));
        BSDE_CUSPARSE_CHECK(cusparseCreate(&cusparse_));
        BSDE_CUSPARSE_CHECK(cusparseSetStream(cusparse_, stream_));
        BSDE_CUDA_CHECK(cudaEventCreate(&start_));
        BSDE_CUDA_CHECK(cudaEventCreate(&stop_));
    } catch (...) {
        release();
        throw;
    }
}

CudaContext::~CudaContext() { release(); }

void CudaContext::release() {  // without throwing; failures here cannot be acted on
    for (cudaEvent_t mark : marks_) cudaEventDestroy(mark);
    if (stop_) cudaEventDestroy(stop_);
    if (start_) cudaEventDestroy(start_);
    if (cusparse_) cusparseDestroy(cusparse_);
    if (stream_) cudaStreamDestroy(stream_);
}

void CudaContext::select_device(int device) { BSDE_CUDA_CHECK(cudaSetDevice(device)); }

std::unique_ptr<SlabLinks> CudaContext::slab_links(int gpus) { return make_nccl_slab_links(gpus); }

SlabEndpoint CudaContext::endpoint() {
    const auto copy = [this](const double* from, std::size_t count, double* to) {
        BSDE_CUDA_CHECK(cudaMemcpyAsync(to, from, count * sizeof(double), cudaMemcpyDefault, stream_));
    };
    return {stream_, [this] { synchronize(); }, copy};
}

std::string CudaContext::description() const {
    int device = 0;
    cudaDeviceProp properties{};
    BSDE_CUDA_CHECK(cudaGetDevice(&device));
    BSDE_CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
    return std::string("cuda (") + properties.name + ")";
}

void* CudaContext::workspace(vector<char>& buffer, std::size_t bytes) {
    if (buffer.size() < bytes) buffer.resize(bytes);
    return thrust::raw_pointer_cast(buffer.data());
}

void CudaContext::solve_tridiagonal(const double* lower, const double* diag, const double* upper, double* rhs,
                                    int m, int count) {
    std::size_t bytes = 0;
    BSDE_CUSPARSE_CHECK(
        cusparseDgtsv2_nopivot_bufferSizeExt(cusparse_, m, count, lower, diag, upper, rhs, m, &bytes));
    void* buffer = workspace(tridiagonal_workspace_, bytes);
    BSDE_CUSPARSE_CHECK(cusparseDgtsv2_nopivot(cusparse_, m, count, lower, diag, upper, rhs, m, buffer));
}

void CudaContext::start_timer() { BSDE_CUDA_CHECK(cudaEventRecord(start_, stream_)); }

double CudaContext::elapsed_seconds() {
    BSDE_CUDA_CHECK(cudaEventRecord(stop_, stream_));
    BSDE_CUDA_CHECK(cudaEventSynchronize(stop_));
    float milliseconds = 0;
    BSDE_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start_, stop_));
    return milliseconds / 1000.0;
}

int CudaContext::mark() {
    if (marks_used_ == marks_.size()) {
        marks_.push_back(nullptr);
        BSDE_CUDA_CHECK(cudaEventCreate(&marks_.back()));
    }
    BSDE_CUDA_CHECK(cudaEventRecord(marks_[marks_used_], stream_));
    return static_cast<int>(marks_used_++);
}

double CudaContext::seconds_between(int from, int to) {
    BSDE_CUDA_CHECK(cudaEventSynchronize(marks_.at(to)));
    float milliseconds = 0;
    BSDE_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, marks_.at(from), marks_.at(to)));
    return milliseconds / 1000.0;
}

double CudaContext::device_bytes_in_use() const {
    std::size_t free = 0, total = 0;
    BSDE_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    return static_cast<double>(free_at_start_) - static_cast<double>(free);
}

double CudaContext::free_bytes() const {
    std::size_t free = 0, total = 0;
    BSDE_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    return static_cast<double>(free);
}

namespace {

int device_count() {
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

std::string unavailable_reason() {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status == cudaErrorInsufficientDriver) {
        int driver = 0, runtime = 0;
        cudaDriverGetVersion(&driver);
        cudaRuntimeGetVersion(&runtime);
        const auto version = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
        if (driver <= 0) return "no usable CUDA device: no NVIDIA driver is installed (use --backend omp or serial)";
        return "no usable CUDA device: the driver is too old (it supports CUDA " + version(driver) +
               ", this binary needs CUDA " + version(runtime) + "); update the NVIDIA driver or use --backend omp";
    }
    if (status != cudaSuccess) return std::string("no usable CUDA device: ") + cudaGetErrorString(status);
    if (count == 0) return "no CUDA device on this machine";
    return "";
}

// The ceilings' kernels: every thread runs `chains` independent chains x <- round(x), `rounds` times, so that the
// rate is the operation's throughput and not its latency (8 blocks of 256 threads on every SM).
constexpr int ceiling_chains = 8, ceiling_block_threads = 256, ceiling_blocks_per_sm = 8;

// x <- x a + b (a < 1, so the chain stays finite): one fused multiply-add, 2 flops.
struct MultiplyAddRound {
    double a, b;
    __device__ double operator()(double x) const { return fma(x, a, b); }
};

// x <- e^(-x) (x stays within (0.3, 1)): one exp, the negation a free operand modifier.
struct NegativeExpRound {
    __device__ double operator()(double x) const { return exp(-x); }
};

// One exp and 16 multiply-adds (32 flops: about ex2's node, 33 flops and one exp).
struct NodeMixRound {
    MultiplyAddRound multiply_add;
    __device__ double operator()(double x) const {
        x = exp(-x);
#pragma unroll
        for (int k = 0; k < 16; ++k) x = multiply_add(x);
        return x;
    }
};

template <class Round>
__global__ void independent_chains(double* out, int rounds, Round round) {
    double x[ceiling_chains];
#pragma unroll
    for (int c = 0; c < ceiling_chains; ++c) x[c] = 1e-3 * (threadIdx.x + c);
    for (int r = 0; r < rounds; ++r)
#pragma unroll
        for (int c = 0; c < ceiling_chains; ++c) x[c] = round(x[c]);
    double sum = 0;  // stored, so that the chains are not optimised away
#pragma unroll
    for (int c = 0; c < ceiling_chains; ++c) sum += x[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

}  // namespace

template <class Round>
double CudaContext::chain_rate(Round round, double operations_per_round, int rounds) {
    const int blocks = multiprocessors_ * ceiling_blocks_per_sm;
    vector<double> out(static_cast<std::size_t>(blocks) * ceiling_block_threads);
    const auto launch = [&] {
        independent_chains<<<blocks, ceiling_block_threads, 0, stream_>>>(thrust::raw_pointer_cast(out.data()),
                                                                          rounds, round);
        BSDE_CUDA_CHECK(cudaGetLastError());
    };
    // warm-up: at least 20 ms of launches, so that an idle GPU's clocks have risen before the timed ones
    start_timer();
    for (int warm = 0; warm < 100 && elapsed_seconds() < 0.02; ++warm) launch();
    double fastest = 0;  // the ceiling: the best of 5 timed launches
    for (int repeat = 0; repeat < 5; ++repeat) {
        start_timer();
        launch();
        const double seconds = elapsed_seconds();
        fastest = repeat == 0 ? seconds : std::min(fastest, seconds);
    }
    return double(blocks) * ceiling_block_threads * ceiling_chains * rounds * operations_per_round / fastest;
}

Fp64Ceilings CudaContext::measure_fp64_ceilings() {
    const MultiplyAddRound multiply_add{0.999999, 1e-6};
    Fp64Ceilings ceilings;
    // rounds for about 1-3 ms a launch at 7.5e12 multiply-adds and 8e11 exps per second
    ceilings.flops_per_second = chain_rate(multiply_add, 2.0, 8192);
    ceilings.exps_per_second = chain_rate(NegativeExpRound{}, 1.0, 1024);
    // the mix's time per round over the time its exp and 32 flops take at these two rates
    const double mix_rounds_per_second = chain_rate(NodeMixRound{multiply_add}, 1.0, 1024);
    ceilings.mix_over_floor =
        1.0 / (mix_rounds_per_second * (32.0 / ceilings.flops_per_second + 1.0 / ceilings.exps_per_second));
    return ceilings;
}

namespace {

const BackendOps* available_ops() {
    static const bool available = unavailable_reason().empty();
    static const BackendImpl<CudaContext> ops;
    return available ? &ops : nullptr;
}

Fp64Ceilings measure_ceilings() {
    if (!available_ops()) throw DeviceError(unavailable_reason());
    return CudaContext().measure_fp64_ceilings();
}

}  // namespace
}  // namespace bsde

extern "C" const bsde::CudaEntry* bsde_cuda_entry() {
    static const bsde::CudaEntry entry{bsde::unavailable_reason, bsde::available_ops, bsde::measure_ceilings,
                                       bsde::device_count};
    return &entry;
}
