#include "backend.h"

#include <dlfcn.h>
#include <unistd.h>

#include <vector>

#include "../core/errors.h"
#include "cuda_entry.h"

namespace bsde {
namespace {

// The folder of this process's executable, with its final '/', from /proc/self/exe; "" where that cannot be read.
std::string executable_folder() {
    std::vector<char> path(4096);
    const ssize_t length = ::readlink("/proc/self/exe", path.data(), path.size());
    if (length <= 0 || static_cast<std::size_t>(length) >= path.size()) return "";
    const std::string executable(path.data(), static_cast<std::size_t>(length));
    return executable.substr(0, executable.rfind('/') + 1);
}

// The cuda backend's library, opened once (and never closed: CUDA's runtime stays with the process), or why not.
struct CudaLibrary {
    const CudaEntry* entry = nullptr;
    std::string failure;  // where entry is nullptr
};

// The loader's reason where it fails, with what to do where the library is missing.
CudaLibrary open_cuda_library() {
    const std::string folder = executable_folder();
    if (folder.empty()) return {nullptr, "/proc/self/exe cannot be read to find " + std::string(cuda_library_name)};
    const std::string path = folder + cuda_library_name;
    const auto failure = [&path] {
        const char* reason = ::dlerror();
        const bool missing = ::access(path.c_str(), F_OK) != 0;
        return std::string(reason ? reason : "no reason given") +
               (missing ? " (make builds it beside bsde where nvcc is found: a build without nvcc has no cuda backend)"
                        : "");
    };
    void* library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) return {nullptr, failure()};
    const auto entry = reinterpret_cast<const CudaEntry* (*)()>(::dlsym(library, cuda_entry_symbol));
    if (!entry) return {nullptr, failure()};
    return {entry(), ""};
}

const CudaLibrary& cuda_library() {
    static const CudaLibrary library = open_cuda_library();
    return library;
}

}  // namespace

const BackendOps* cuda_backend_ops() {
    const CudaLibrary& library = cuda_library();
    return library.entry ? library.entry->ops() : nullptr;
}

std::string cuda_unavailable_reason() {
    const CudaLibrary& library = cuda_library();
    if (!library.entry) return "the cuda backend's library did not load: " + library.failure;
    return library.entry->unavailable_reason();
}

int cuda_device_count() {
    const CudaLibrary& library = cuda_library();
    return library.entry ? library.entry->device_count() : 0;
}

Fp64Ceilings measure_cuda_fp64_ceilings() {
    const CudaLibrary& library = cuda_library();
    if (!library.entry) throw DeviceError(cuda_unavailable_reason());
    return library.entry->measure_fp64_ceilings();
}

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
