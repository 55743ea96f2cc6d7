__global__ void k_args(double* out, int rounds, double a, double b) {
    double x[8];
#pragma unroll
    for (int c = 0; c < 8; ++c) x[c] = 1e-3 * (threadIdx.x + c);
    for (int r = 0; r < rounds; ++r)
#pragma unroll
        for (int c = 0; c < 8; ++c) x[c] = fma(x[c], a, b);
    double s = 0;
#pragma unroll
    for (int c = 0; c < 8; ++c) s += x[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
__global__ void k_consts(double* out, int rounds) {
    double x[8];
#pragma unroll
    for (int c = 0; c < 8; ++c) x[c] = 1e-3 * (threadIdx.x + c);
    for (int r = 0; r < rounds; ++r)
#pragma unroll
        for (int c = 0; c < 8; ++c) x[c] = fma(x[c], 0.999999, 1e-6);
    double s = 0;
#pragma unroll
    for (int c = 0; c < 8; ++c) s += x[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
