// Whether instructions of other pipes take FP64 multiply-add throughput: the question behind the 1D pass's node loop,
// which issues more non-FP64 instructions (loads, integer address work, moves) than FP64 ones (sass_loops.py counts
// them). If the SM schedulers issue other instructions in the cycles a warp's DFMA leaves them (16 FP64 lanes a
// scheduler: 2 cycles a warp instruction), those cost the FP64 rate nothing up to one a DFMA; if each takes a cycle
// from the FP64 pipe, the rate falls as 2 / (2 + k / 8) with k of them a round of 8 DFMA.
// Every thread of 8 blocks of 256 on every SM runs 8 independent chains x <- x a + b and, each round, k integer
// multiply-adds (IMAD) or k xors (LOP3, the ALU) over 4 integer chains, each reading the next; a, b and the
// multiplier are kernel arguments. Printed: the FP64 rate and the time over the k = 0 time. The xors are linear, so
// ptxas folds a round's into fewer 3-input LOP3 (k = 2 into none): count the loop's instructions in the SASS before
// reading an "alu" row.
// Build: nvcc -O3 -arch=sm_90 tools/profiling/fp64_issue_share.cu -o build/bin/fp64_issue_share
// Run: build/bin/fp64_issue_share (and cuobjdump -sass build/bin/fp64_issue_share to count the loop's instructions)
#include <cstdio>

#include "launch_timing.cuh"

namespace {

constexpr int block_threads = 256, blocks_per_sm = 8, chains = 8, timed_rounds = 4096;

enum class Extra { imad, alu };

template <Extra extra, int k>
__global__ void __launch_bounds__(block_threads, blocks_per_sm)
    mixed_kernel(double* out, unsigned* out_int, int rounds, double a, double b, unsigned m) {
    double x[chains];
    unsigned u[4];
#pragma unroll
    for (int i = 0; i < chains; ++i) x[i] = 1e-3 * (threadIdx.x + i);
#pragma unroll
    for (int i = 0; i < 4; ++i) u[i] = threadIdx.x * 7u + i;
    for (int r = 0; r < rounds; ++r) {
#pragma unroll
        for (int i = 0; i < chains; ++i) x[i] = fma(x[i], a, b);
#pragma unroll
        for (int j = 0; j < k; ++j) {
            // the multiply-adds cannot be merged into fewer; the xors, being linear, can (see above)
            if (extra == Extra::imad) u[j % 4] = u[j % 4] * m + u[(j + 1) % 4];
            else u[j % 4] = u[j % 4] ^ u[(j + 1) % 4];
        }
    }
    double sum = 0;
#pragma unroll
    for (int i = 0; i < chains; ++i) sum += x[i];
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = sum;
    out_int[t] = u[0] ^ u[1] ^ u[2] ^ u[3];
}

// Seconds of one launch (launch_timing.cuh).
template <Extra extra, int k>
double seconds(int blocks, double* out, unsigned* out_int) {
    return best_launch_seconds([&] {
        mixed_kernel<extra, k><<<blocks, block_threads>>>(out, out_int, timed_rounds, 0.999999, 1e-6, 0x9E3779B1u);
    });
}

template <Extra extra, int k>
void row(const char* name, int blocks, double base, double* out, unsigned* out_int) {
    const double t = seconds<extra, k>(blocks, out, out_int);
    const double flops = double(blocks) * block_threads * chains * timed_rounds * 2;
    std::printf("%-5s %3d  %8.2f  %6.3f  %6.3f\n", name, k, flops / t / 1e12, t / base, 2.0 / (2.0 + k / 8.0));
}

}  // namespace

int main() {
    const DeviceShape device = current_device();
    const int sms = device.sms;
    const int blocks = sms * blocks_per_sm;
    double* out = nullptr;
    unsigned* out_int = nullptr;
    CHECK(cudaMalloc(&out, sizeof(double) * blocks * block_threads));
    CHECK(cudaMalloc(&out_int, sizeof(unsigned) * blocks * block_threads));
    std::printf("device: %s, %d SMs; 8 blocks of 256 an SM, 8 DFMA chains a thread, k integer instructions a round\n",
                device.properties.name, sms);
    std::printf("extra   k  TFLOP/s  time/k=0  if each took a DFMA issue cycle: rate ratio\n");
    const double base = seconds<Extra::imad, 0>(blocks, out, out_int);
    row<Extra::imad, 0>("none", blocks, base, out, out_int);
    row<Extra::imad, 2>("imad", blocks, base, out, out_int);
    row<Extra::imad, 4>("imad", blocks, base, out, out_int);
    row<Extra::imad, 8>("imad", blocks, base, out, out_int);
    row<Extra::imad, 16>("imad", blocks, base, out, out_int);
    row<Extra::alu, 2>("alu", blocks, base, out, out_int);
    row<Extra::alu, 4>("alu", blocks, base, out, out_int);
    row<Extra::alu, 8>("alu", blocks, base, out, out_int);
    row<Extra::alu, 16>("alu", blocks, base, out, out_int);
    CHECK(cudaFree(out));
    CHECK(cudaFree(out_int));
    return 0;
}
