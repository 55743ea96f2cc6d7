// The serial backend: the Thrust sources on one core (thrust::cpp), the speedup baseline.
#include "backend_impl.h"
#include "host_system.h"

namespace bsde {

const BackendOps& serial_backend_ops() {
    static const BackendImpl<HostContext<SerialSystem>> ops;
    return ops;
}

}  // namespace bsde
