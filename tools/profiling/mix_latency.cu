// How far from its floor a node's arithmetic alone runs with few warps and few independent chains: the question
// behind the 1D pass's distance to its floor. ex2's pass runs 16 warps an SM (two
// blocks of 256 at 127 registers) with about two evaluations in flight a thread (a pair of points). Here every
// thread runs `chains` independent chains of rounds of one exp and 16 multiply-adds (about ex2's node: one exp,
// 33 flops), no loads, with 1, 2, 4 or 8 blocks of 256 threads on each SM, and each time is read against the floor
// of the rates `bsde bench` measures, measured here the same way (8 blocks an SM, 8 chains of one operation a thread).
// Build: nvcc -O3 -arch=sm_90 tools/profiling/mix_latency.cu -o build/bin/mix_latency
// Run: build/bin/mix_latency
#include <cstdio>

#include "launch_timing.cuh"

namespace {

constexpr int block_threads = 256;

enum class Round { multiply_add, exp, mix };

// a and b are the kernel's arguments, as in the kernels with which bsde bench measures its ceilings: compile-time
// constants give the compiler other code, and so another rate.
template <Round round>
__device__ double step(double x, double a, double b) {
    if (round == Round::multiply_add) return fma(x, a, b);
    if (round == Round::exp) return exp(-x);
    x = exp(-x);
#pragma unroll
    for (int k = 0; k < 16; ++k) x = fma(x, a, b);
    return x;
}

template <Round round, int chains>
__global__ void chains_kernel(double* out, int rounds, double a, double b) {
    double x[chains];
#pragma unroll
    for (int c = 0; c < chains; ++c) x[c] = 1e-3 * (threadIdx.x + c);
    for (int r = 0; r < rounds; ++r)
#pragma unroll
        for (int c = 0; c < chains; ++c) x[c] = step<round>(x[c], a, b);
    double sum = 0;
#pragma unroll
    for (int c = 0; c < chains; ++c) sum += x[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Seconds of one launch (launch_timing.cuh).
template <Round round, int chains>
double seconds(int blocks, int rounds, double* out) {
    return best_launch_seconds(
        [&] { chains_kernel<round, chains><<<blocks, block_threads>>>(out, rounds, 0.999999, 1e-6); });
}

template <int chains>
void mix_row(int sms, double flops_per_s, double exps_per_s, double* out) {
    const int rounds = 256;
    std::printf("%6d", chains);
    for (int blocks_per_sm : {1, 2, 4, 8}) {
        const int blocks = sms * blocks_per_sm;
        const double evaluations = double(blocks) * block_threads * chains * rounds;
        const double floor = evaluations * (32.0 / flops_per_s + 1.0 / exps_per_s);
        std::printf("  %9.2f", seconds<Round::mix, chains>(blocks, rounds, out) / floor);
    }
    std::printf("\n");
}

}  // namespace

int main() {
    const DeviceShape device = current_device();
    const int sms = device.sms;
    double* out = nullptr;
    CHECK(cudaMalloc(&out, sizeof(double) * sms * 8 * block_threads));
    const int full = sms * 8;
    const double threads = double(full) * block_threads;
    const double flops_per_s = threads * 8 * 8192 * 2 / seconds<Round::multiply_add, 8>(full, 8192, out);
    const double exps_per_s = threads * 8 * 1024 / seconds<Round::exp, 8>(full, 1024, out);
    std::printf("device: %s, %d SMs; multiply-add %.2f TFLOP/s, exp %.3e per second (8 blocks an SM, 8 chains)\n",
                device.properties.name, sms, flops_per_s / 1e12, exps_per_s);
    std::printf("mix of one exp and 16 multiply-adds a round: time over its floor\n");
    std::printf("chains  warps/SM 8  warps/SM 16  warps/SM 32  warps/SM 64\n");
    mix_row<1>(sms, flops_per_s, exps_per_s, out);
    mix_row<2>(sms, flops_per_s, exps_per_s, out);
    mix_row<3>(sms, flops_per_s, exps_per_s, out);
    mix_row<4>(sms, flops_per_s, exps_per_s, out);
    mix_row<8>(sms, flops_per_s, exps_per_s, out);
    CHECK(cudaFree(out));
    return 0;
}
