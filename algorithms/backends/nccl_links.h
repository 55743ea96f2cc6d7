// The links between slabs on the GPUs of one host (--gpus G; slab_link.h), through NCCL. Plain C++: NCCL is opened
// with dlopen on first use (nccl_links.cu), so that the cuda backend's library runs without it on one GPU.
#pragma once
#include <memory>

#include "../sweep/slab_link.h"

namespace bsde {

// The links of `gpus` slabs, slab g on GPU g (0..gpus-1): one NCCL communicator per GPU, made together by the calling
// thread; slab g's link runs on its endpoint's stream (a cudaStream_t of GPU g). The links must not outlive these.
// Throws DeviceError where NCCL's library does not load or an NCCL call fails.
std::unique_ptr<SlabLinks> make_nccl_slab_links(int gpus);

}  // namespace bsde
