// The cuda backend as a library of its own, libbsde_cuda.so (backend_cuda.cu), which the seam opens with dlopen on
// first use (backend.cpp), so that the serial and omp paths start without any CUDA library: its one C symbol,
// bsde_cuda_entry, gives these functions. The rest of the solver the library takes from the executable that opens it.
#pragma once
#include <string>

#include "backend.h"

namespace bsde {

struct CudaEntry {
    std::string (*unavailable_reason)();       // "" where a device runs the backend, else why not
    const BackendOps* (*ops)();                // nullptr where unavailable_reason() is not ""
    Fp64Ceilings (*measure_fp64_ceilings)();   // throws DeviceError where the backend is unavailable
    int (*device_count)();                     // cudaGetDeviceCount, 0 where it fails
};

constexpr const char* cuda_library_name = "libbsde_cuda.so";
constexpr const char* cuda_entry_symbol = "bsde_cuda_entry";

}  // namespace bsde

extern "C" const bsde::CudaEntry* bsde_cuda_entry();
