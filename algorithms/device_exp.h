// e^x for drivers evaluated at every quadrature node (problems/), with its constants where a GPU's FP64
// instructions read them for free.
//
// Why: in CUDA's exp each of the polynomial's double constants is moved into a uniform register by two UMOV
// instructions at every call; in ex2's fused pass (one exp per node) that was 25 of the ~158 instructions a
// warp issued per node (ncu on an H200, docs/performance.md entry 14), in a pass bound by instruction issue.
// Read from __constant__ memory, the same constants are operands of the DFMA instructions themselves.
//
// How (the textbook reduction, coefficients computed for this file):
//   n = rint(x / ln 2), r = x - n ln 2 with ln 2 = ln2_hi + ln2_lo (two FMA), |r| <= ln 2 / 2 (1 + 1e-6);
//   e^r = the degree-11 polynomial interpolating e^r at the 12 Chebyshev points of that interval (coefficients
//         in 60 digits, rounded to double; relative truncation error 4.2e-18, well below the rounding of the
//         result);
//   e^x = e^r 2^n, by adding n to the exponent of e^r (|x| < 707: n in [-1020, 1020], the result normal).
// Outside |x| < 707, and for NaN, the library's exp. Accuracy: tests/test_device_exp.cpp (against std::exp).
// On the host backends device_exp is the library's exp (as fast there); exp_by_polynomial is the polynomial on
// any backend (tested on the host).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "host_device.h"

namespace bsde {

// log2(e), ln2_hi, ln2_lo, 2^52 + 2^51 (adding it rounds to an integer), then the polynomial's c_0 .. c_11.
#define BSDE_EXP_CONSTANTS                                                                            \
    {1.4426950408889634, 0.6931471805599453, 2.3190468138462996e-17, 6755399441055744.0, 1.0, 1.0,  \
     0.5000000000000019, 0.1666666666666668, 0.04166666666648809, 0.008333333333319601,              \
     0.0013888888952315155, 0.00019841269890047406, 2.480148548192088e-05, 2.7557240918265525e-06,   \
     2.7632639789868395e-07, 2.5110037721946562e-08}
constexpr int exp_constant_count = 16;
constexpr double exp_constants_on_host[exp_constant_count] = BSDE_EXP_CONSTANTS;
#if defined(__CUDACC__)
static __constant__ double exp_constants_on_device[exp_constant_count] = BSDE_EXP_CONSTANTS;
#endif

// The bits of a double's high word, and a double with its high word changed.
__host__ __device__ inline int high_word(double x) {
#if defined(__CUDA_ARCH__)
    return __double2hiint(x);
#else
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    return static_cast<int>(bits >> 32);
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
__host__ __device__ inline int low_word(double x) {
#if defined(__CUDA_ARCH__)
    return __double2loint(x);
#else
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    return static_cast<int>(static_cast<std::uint32_t>(bits));
#endif
}

// e^x by the reduction and polynomial above, the constants from c (BSDE_EXP_CONSTANTS' order), |x| < 707.
__host__ __device__ inline double exp_by_polynomial_in_range(double x, const double* c) {
    const double shifted = fma(x, c[0], c[3]);  // 2^52 + 2^51 + rint(x / ln 2): n in the low word
    const double n = shifted - c[3];
    double r = fma(-n, c[1], x);
    r = fma(-n, c[2], r);
    double p = c[15];
    for (int k = 14; k >= 4; --k) p = fma(p, r, c[k]);  // Horner, c_10 .. c_0
    return with_high_word(p, high_word(p) + low_word(shifted) * 0x100000);  // p 2^n
}

__host__ __device__ inline double exp_by_polynomial(double x, const double* c) {
    return fabs(x) < 707.0 ? exp_by_polynomial_in_range(x, c) : exp(x);
}

__host__ __device__ inline double device_exp(double x) {
#if defined(__CUDA_ARCH__)
    return exp_by_polynomial(x, exp_constants_on_device);
#else
    return exp(x);
#endif
}

}  // namespace bsde
