// The GPU's own FP64 ceilings, measured on the device the bench runs on: the figures `bsde bench` reads its pass
// against (src/bench.h) were measured once on an H200 (docs/performance.md, Ceilings); this checks them on the
// device at hand. Each kernel fills every SM (8 blocks of 256 threads each) and times itself with CUDA events,
// the median of 5 launches after a warm-up.
//   fma       independent chains x <- fma(x, a, b), 8 per thread: FP64 fused multiply-adds, counted 2 flops each;
//   exp       independent chains x <- exp(-x), 8 per thread: CUDA's double exp, as the problems call it;
//   node mix  one exp and 16 fused multiply-adds per round in each of 4 chains (ex2's node: 33 flops and one exp):
//             whether the two rates add up (the pass's floor is flops / fma rate + exps / exp rate, src/bench.cpp).
// Build (here): nvcc -O3 -arch=sm_90 scripts/fp64_ceilings.cu -o build/bin/fp64_ceilings
// Run: build/bin/fp64_ceilings [rounds = 4096]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

#define CHECK(call)                                                                                        \
    do {                                                                                                   \
        const cudaError_t status = (call);                                                                 \
        if (status != cudaSuccess) {                                                                       \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                      \
                         cudaGetErrorString(status));                                                      \
            std::exit(1);                                                                                  \
        }                                                                                                  \
    } while (0)

constexpr int block_threads = 256, blocks_per_sm = 8;

// 8 chains of x <- x a + b (a < 1: the chains stay finite); 16 flops a round.
__global__ void fma_chains(double* out, int rounds, double a, double b) {
    double x[8];
    for (int c = 0; c < 8; ++c) x[c] = 1e-3 * (threadIdx.x + c);
    for (int r = 0; r < rounds; ++r)
#pragma unroll
        for (int c = 0; c < 8; ++c) x[c] = fma(x[c], a, b);
    double sum = 0;
    for (int c = 0; c < 8; ++c) sum += x[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// 8 chains of x <- exp(-x) (x stays in (0.3, 1)); 8 exps a round.
__global__ void exp_chains(double* out, int rounds) {
    double x[8];
    for (int c = 0; c < 8; ++c) x[c] = 1e-3 * (threadIdx.x + c);
    for (int r = 0; r < rounds; ++r)
#pragma unroll
        for (int c = 0; c < 8; ++c) x[c] = exp(-x[c]);
    double sum = 0;
    for (int c = 0; c < 8; ++c) sum += x[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// 4 chains, each round x <- exp(-x) then 16 multiply-adds x <- x a + b: 4 exps and 4 x 32 flops a round.
__global__ void node_mix_chains(double* out, int rounds, double a, double b) {
    double x[4];
    for (int c = 0; c < 4; ++c) x[c] = 1e-3 * (threadIdx.x + c);
    for (int r = 0; r < rounds; ++r)
#pragma unroll
        for (int c = 0; c < 4; ++c) {
            x[c] = exp(-x[c]);
#pragma unroll
            for (int k = 0; k < 16; ++k) x[c] = fma(x[c], a, b);
        }
    double sum = 0;
    for (int c = 0; c < 4; ++c) sum += x[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Median seconds of 5 timed launches of `launch` after one warm-up.
template <class Launch>
double median_seconds(Launch launch) {
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    launch();
    CHECK(cudaGetLastError());
    std::vector<double> seconds;
    for (int repeat = 0; repeat < 5; ++repeat) {
        CHECK(cudaEventRecord(start));
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float milliseconds = 0;
        CHECK(cudaEventElapsedTime(&milliseconds, start, stop));
        seconds.push_back(milliseconds / 1e3);
    }
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    std::sort(seconds.begin(), seconds.end());
    return seconds[2];
}

}  // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 4096;
    if (rounds <= 0) {
        std::fprintf(stderr, "fp64_ceilings: rounds must be a positive integer, got '%s'\n", argv[1]);
        return 2;
    }
    int device = 0, multiprocessors = 0, clock_khz = 0;
    CHECK(cudaGetDevice(&device));
    cudaDeviceProp properties{};
    CHECK(cudaGetDeviceProperties(&properties, device));
    CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
    const int blocks = multiprocessors * blocks_per_sm;
    const double threads = static_cast<double>(blocks) * block_threads;
    double* out = nullptr;
    CHECK(cudaMalloc(&out, threads * sizeof(double)));

    const double a = 0.999999, b = 1e-6;
    const double fma_s = median_seconds([&] { fma_chains<<<blocks, block_threads>>>(out, rounds, a, b); });
    const double exp_s = median_seconds([&] { exp_chains<<<blocks, block_threads>>>(out, rounds); });
    const double mix_s = median_seconds([&] { node_mix_chains<<<blocks, block_threads>>>(out, rounds, a, b); });
    CHECK(cudaFree(out));

    const double flops_per_s = threads * rounds * 16 / fma_s;
    const double exps_per_s = threads * rounds * 8 / exp_s;
    const double mix_exps = threads * rounds * 4, mix_flops = mix_exps * 32;
    const double mix_floor = mix_flops / flops_per_s + mix_exps / exps_per_s;
    std::printf("device: %s, %d SMs, clock rate attribute %.0f MHz; %d blocks of %d threads, %d rounds\n",
                properties.name, multiprocessors, clock_khz / 1e3, blocks, block_threads, rounds);
    std::printf("FP64 fma:  %.4f ms, %.2f TFLOP/s (bsde bench reads against 30.7)\n", fma_s * 1e3,
                flops_per_s / 1e12);
    std::printf("FP64 exp:  %.4f ms, %.3e exp/s (bsde bench reads against 7.4e11)\n", exp_s * 1e3, exps_per_s);
    std::printf("node mix:  %.4f ms; floor from the two rates %.4f ms; time / floor %.3f\n", mix_s * 1e3,
                mix_floor * 1e3, mix_s / mix_floor);
    return 0;
}
