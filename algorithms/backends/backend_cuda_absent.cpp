// Linked instead of backend_cuda.cu when the build has no nvcc: the binary has no cuda backend.
#include "backend.h"
#include "../core/errors.h"

namespace bsde {

std::string cuda_unavailable_reason() { return "this binary was built without CUDA (no nvcc at build time)"; }

const BackendOps* cuda_backend_ops() { return nullptr; }

Fp64Ceilings measure_cuda_fp64_ceilings() { throw DeviceError(cuda_unavailable_reason()); }

}  // namespace bsde
