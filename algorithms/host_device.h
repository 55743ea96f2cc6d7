// __host__ __device__ qualifiers for headers that g++ compiles too (empty without nvcc), and BSDE_UNROLL(n),
// a loop unrolling hint for the next loop that both compilers read.
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
#if defined(__CUDACC__)
#define BSDE_UNROLL(n) BSDE_PRAGMA(unroll n)
#else
#define BSDE_UNROLL(n) BSDE_PRAGMA(GCC unroll n)
#endif
