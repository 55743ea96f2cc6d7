// e^x for drivers evaluated at every quadrature node (problems/): on the GPU without a branch.
//
// Why: CUDA's exp keeps a second path for large |x| behind a branch, and in ex2's fused pass (one exp per node,
// inside the node loop) that branch, its reconvergence and the constants rebuilt around it cost more than the
// arithmetic (docs/performance.md, "The driver's exp").
//
// How (the textbook reduction, coefficients computed for this file):
//   x clamped to [-746, 710] (beyond, e^x rounds to 0 or overflows; NaN passes the comparisons unchanged);
//   n = rint(x / ln 2), r = x - n ln 2 with ln 2 = ln2_hi + ln2_lo (two FMA), |r| <= ln 2 / 2 (1 + 1e-6);
//   e^r = the degree-11 polynomial interpolating e^r at the 12 Chebyshev points of that interval (coefficients
//         in 60 digits, rounded to double; relative truncation error 4.2e-18, well below the rounding of the
//         result), by Horner's rule;
//   e^x = (e^r 2^h) 2^(n - h), h = floor(n / 2): both powers of two normal for n in [-1076, 1025], the first
//         product exact, the second rounding once (to a subnormal, 0 or infinity where e^x is one).
// Accuracy: within 2 ulp of the C library's exp (tests/test_device_exp.cpp). On the host backends device_exp is
// the library's exp (as fast there, where fma is not an instruction of the default target); exp_by_polynomial is
// the polynomial on any backend, tested on the host.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "host_device.h"

namespace bsde {

// The bits of a double's low and high words, and a double with its high word replaced.
__host__ __device__ inline int low_word(double x) {
#if defined(__CUDA_ARCH__)
    return __double2loint(x);
#else
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    return static_cast<int>(static_cast<std::uint32_t>(bits));
#endif
}
__host__ __device__ inline double with_high_word(double x, int high) {
#if defined(__CUDA_ARCH__)
    return __hiloint2double(high, __double2loint(x));
#else
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    bits = (bits & 0xffffffffULL) | (static_cast<std::uint64_t>(static_cast<std::uint32_t>(high)) << 32);
    std::memcpy(&x, &bits, sizeof bits);
    return x;
#endif
}

// 2^k for -1022 <= k <= 1023, from its exponent bits.
__host__ __device__ inline double power_of_two(int k) { return with_high_word(0.0, (k + 1023) * 0x100000); }

// e^x by the reduction and polynomial above, for every x.
__host__ __device__ inline double exp_by_polynomial(double x) {
    constexpr double log2_e = 1.4426950408889634, ln2_hi = 0.6931471805599453, ln2_lo = 2.3190468138462996e-17;
    constexpr double round_to_integer = 6755399441055744.0;  // 2^52 + 2^51: adding it rounds to an integer
    constexpr double c[12] = {1.0,
                              1.0,
                              0.5000000000000019,
                              0.1666666666666668,
                              0.04166666666648809,
                              0.008333333333319601,
                              0.0013888888952315155,
                              0.00019841269890047406,
                              2.480148548192088e-05,
                              2.7557240918265525e-06,
                              2.7632639789868395e-07,
                              2.5110037721946562e-08};
    x = x < -746.0 ? -746.0 : (x > 710.0 ? 710.0 : x);
    const double shifted = fma(x, log2_e, round_to_integer);  // n in the low word
    const double n = shifted - round_to_integer;
    double r = fma(-n, ln2_hi, x);
    r = fma(-n, ln2_lo, r);
    double p = c[11];
    for (int k = 10; k >= 0; --k) p = fma(p, r, c[k]);
    const int n_int = low_word(shifted), half = n_int >> 1;
    return p * power_of_two(half) * power_of_two(n_int - half);
}

__host__ __device__ inline double device_exp(double x) {
#if defined(__CUDA_ARCH__)
    return exp_by_polynomial(x);
#else
    return exp(x);
#endif
}

}  // namespace bsde
