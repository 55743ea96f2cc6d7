// __host__ __device__ qualifiers for headers that g++ compiles too (empty without nvcc).
#pragma once
#if !defined(__CUDACC__)
#ifndef __host__
#define __host__
#endif
#ifndef __device__
#define __device__
#endif
#endif
