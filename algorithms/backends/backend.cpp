#include "backend.h"

#include "../core/errors.h"

namespace bsde {

std::string to_string(Backend backend) {
    switch (backend) {
        case Backend::serial: return "serial";
        case Backend::omp: return "omp";
        case Backend::cuda: return "cuda";
    }
    return "?";
}

Backend parse_backend(const std::string& name) {
    if (name == "serial") return Backend::serial;
    if (name == "omp") return Backend::omp;
    if (name == "cuda") return Backend::cuda;
    throw InputError("--backend " + quoted(name) + ": allowed values are cuda, omp, serial");
}

bool backend_available(Backend backend) {
    return backend != Backend::cuda || cuda_backend_ops() != nullptr;
}

std::string available_backends_text() {
    return backend_available(Backend::cuda) ? "serial, omp, " + backend_ops(Backend::cuda).description()
                                            : "serial, omp; no cuda: " + cuda_unavailable_reason();
}

void check_backends_present(const std::vector<Backend>& backends) {
    for (Backend b : backends)
        if (!backend_available(b))
            throw InputError("--backends " + to_string(b) + ": not available; this machine runs " +
                             available_backends_text());
}

Backend default_backend() { return backend_available(Backend::cuda) ? Backend::cuda : Backend::omp; }

const BackendOps& backend_ops(Backend backend) {
    switch (backend) {
        case Backend::serial: return serial_backend_ops();
        case Backend::omp: return omp_backend_ops();
        case Backend::cuda: break;
    }
    const BackendOps* cuda = cuda_backend_ops();
    if (cuda == nullptr) throw DeviceError("--backend cuda: " + cuda_unavailable_reason());
    return *cuda;
}

}  // namespace bsde
