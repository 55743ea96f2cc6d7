// The OpenMP backend: the Thrust sources on all cores (thrust::omp).
#include <omp.h>
#include <thrust/system/omp/execution_policy.h>
#include <thrust/system/omp/vector.h>

#include "../algorithms/backend_impl.h"
#include "../algorithms/host_system.h"

namespace bsde {
namespace {

struct OmpSystem {
    template <class T>
    using vector = thrust::omp::vector<T>;
    static auto policy() { return thrust::omp::par; }
    static std::string description() {
        return "omp (" + std::to_string(omp_get_max_threads()) + " threads)";
    }
};

}  // namespace

const BackendOps& omp_backend_ops() {
    static const BackendImpl<HostContext<OmpSystem>> ops;
    return ops;
}

}  // namespace bsde
