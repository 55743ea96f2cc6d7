// What the programs here that time kernels share (mix_latency.cu, fp64_issue_share.cu): a status check that names
// the file, line and reason, the time of one launch as bsde bench measures its ceilings, and the device.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                        \
    do {                                                                                                   \
        const cudaError_t status = (call);                                                                 \
        if (status != cudaSuccess) {                                                                       \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                      \
                         cudaGetErrorString(status));                                                      \
            std::exit(1);                                                                                  \
        }                                                                                                  \
    } while (0)

// Seconds of one call of launch() (which launches one kernel on the default stream): the best of 5 after at least
// 20 ms of warm-up calls (an idle GPU's clocks rise over the first milliseconds).
template <class Launch>
double best_launch_seconds(const Launch& launch) {
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    const auto timed_launch = [&] {
        CHECK(cudaEventRecord(start));
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        return ms / 1e3;
    };
    double warm = 0;
    for (int call = 0; call < 100 && warm < 0.02; ++call) warm += timed_launch();
    double fastest = timed_launch();
    for (int repeat = 1; repeat < 5; ++repeat) fastest = std::min(fastest, timed_launch());
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    return fastest;
}

// The current device's name and SM count.
struct DeviceShape {
    cudaDeviceProp properties;
    int sms;
};

inline DeviceShape current_device() {
    int device = 0;
    DeviceShape shape{};
    CHECK(cudaGetDevice(&device));
    CHECK(cudaDeviceGetAttribute(&shape.sms, cudaDevAttrMultiProcessorCount, device));
    CHECK(cudaGetDeviceProperties(&shape.properties, device));
    return shape;
}
