// The OpenMP backend: the Thrust sources on all cores (thrust::omp).
#include <omp.h>
#include <thrust/system/omp/execution_policy.h>
#include <thrust/system/omp/vector.h>

#include "backend_impl.h"
#include "../core/errors.h"
#include "host_system.h"

namespace bsde {
namespace {

struct OmpSystem {
    template <class T>
    using vector = thrust::omp::vector<T>;
    static auto policy() { return thrust::omp::par; }
    static int threads() { return omp_get_max_threads(); }
    static constexpr bool parallel = true;  // threads() as OMP_NUM_THREADS allows
    // f(i) for i = 0..count-1, chunks of 16 indices to each thread as it becomes free, so that a core slowed by other
    // tenants does not hold up the whole call as with Thrust's even split (docs/performance.md, "omp").
    template <class F>
    static void for_each_balanced(int count, const F& f) {
#pragma omp parallel for schedule(dynamic, 16)
        for (int i = 0; i < count; ++i) f(i);
    }
    static std::string description() {
        return "omp (" + std::to_string(omp_get_max_threads()) + " threads)";
    }
};

// The most threads per processor omp runs: more gain nothing for the sweep's FP64 work and can take libgomp down
// before any of ours runs (OMP_NUM_THREADS=80000: a segmentation fault as it starts the team; 50000: "Thread creation
// failed" and exit code 1).
constexpr int most_threads_per_processor = 8;

}  // namespace

const BackendOps& omp_backend_ops() {
    const int threads = omp_get_max_threads(), processors = omp_get_num_procs();
    const long long most = static_cast<long long>(most_threads_per_processor) * processors;
    if (threads > most)
        throw InputError("OMP_NUM_THREADS: " + std::to_string(threads) + " threads for omp, more than " +
                         std::to_string(most_threads_per_processor) + " for each of this machine's " +
                         std::to_string(processors) + " processors; set at most " + std::to_string(most) +
                         ", or leave it unset for one thread a processor");
    static const BackendImpl<HostContext<OmpSystem>> ops;
    return ops;
}

}  // namespace bsde
