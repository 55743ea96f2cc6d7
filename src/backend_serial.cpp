// The serial backend: the Thrust sources on one core (thrust::cpp), the speedup baseline.
#include <thrust/system/cpp/execution_policy.h>
#include <thrust/system/cpp/vector.h>

#include "../algorithms/backend_impl.h"
#include "../algorithms/host_system.h"

namespace bsde {
namespace {

struct SerialSystem {
    template <class T>
    using vector = thrust::cpp::vector<T>;
    static auto policy() { return thrust::cpp::par; }
    static std::string description() { return "serial (1 core)"; }
};

}  // namespace

const BackendOps& serial_backend_ops() {
    static const BackendImpl<HostContext<SerialSystem>> ops;
    return ops;
}

}  // namespace bsde
