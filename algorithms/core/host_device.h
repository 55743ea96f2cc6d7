// __host__ __device__ qualifiers for headers that g++ compiles too (empty without nvcc), and BSDE_UNROLL(n),
// a loop unrolling hint for the next loop that both compilers read (n a literal), BSDE_DEVICE_UNROLL(n) one for
// nvcc's device pass only (n may be a constant expression of template parameters, which g++'s pragma refuses).
#pragma once
#if !defined(__CUDACC__)
#ifndef __host__
#define __host__
#endif
#ifndef __device__
#define __device__
#endif
#endif

#define BSDE_PRAGMA(text) _Pragma(#text)
#if defined(__CUDA_ARCH__)  // nvcc's device pass
#define BSDE_UNROLL(n) BSDE_PRAGMA(unroll n)
#define BSDE_DEVICE_UNROLL(n) BSDE_PRAGMA(unroll n)
#elif defined(__CUDACC__)  // nvcc's host pass: the cuda translation unit runs no sweep on the host
#define BSDE_UNROLL(n)
#define BSDE_DEVICE_UNROLL(n)
#else
#define BSDE_UNROLL(n) BSDE_PRAGMA(GCC unroll n)
#define BSDE_DEVICE_UNROLL(n)
#endif
