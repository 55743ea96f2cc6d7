// The cuda backend: the Thrust sources on the GPU, cuSPARSE for the tridiagonal solves and CUB for
// the reductions, all on one stream.
#include <string>

#include "../algorithms/backend_impl.h"
#include "../algorithms/cuda_system.cuh"

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
    BSDE_CUDA_CHECK(cudaStreamCreate(&stream_));
    BSDE_CUSPARSE_CHECK(cusparseCreate(&cusparse_));
    BSDE_CUSPARSE_CHECK(cusparseSetStream(cusparse_, stream_));
    BSDE_CUDA_CHECK(cudaEventCreate(&start_));
    BSDE_CUDA_CHECK(cudaEventCreate(&stop_));
}

CudaContext::~CudaContext() {  // release without throwing; failures here cannot be acted on
    for (cudaEvent_t mark : marks_) cudaEventDestroy(mark);
    cudaEventDestroy(stop_);
    cudaEventDestroy(start_);
    cusparseDestroy(cusparse_);
    cudaStreamDestroy(stream_);
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

std::string cuda_unavailable_reason() {
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

const BackendOps* cuda_backend_ops() {
    static const bool available = cuda_unavailable_reason().empty();
    static const BackendImpl<CudaContext> ops;
    return available ? &ops : nullptr;
}

}  // namespace bsde
