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
    static int threads() { return omp_get_max_threads(); }
    // f(i) for i = 0..count-1, chunks of 16 indices to each thread as it becomes free. On an H100 host's 16 cores,
    // ex2 K = 6, N = 256 ran 14-17 % faster so than with Thrust's even split (schedule(static)), and a little
    // faster than in chunks of 64 or guided (docs/performance.md, entry 18).
    template <class F>
    static void for_each_balanced(int count, const F& f) {
#pragma omp parallel for schedule(dynamic, 16)
        for (int i = 0; i < count; ++i) f(i);
    }
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
