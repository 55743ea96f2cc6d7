// Host execution contexts for the backend seam: serial (thrust::cpp, one core) and omp
// (thrust::omp, all cores) share this template and differ only in their Thrust system.
#pragma once
#include <chrono>
#include <string>

#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/system/cpp/execution_policy.h>
#include <thrust/system/cpp/vector.h>

#include "backend.h"
#include "tridiagonal.h"

namespace bsde {

template <class SystemTraits>
class HostContext {
public:
    template <class T>
    using vector = typename SystemTraits::template vector<T>;

    auto policy() const { return SystemTraits::policy(); }
    std::string description() const { return SystemTraits::description(); }

    void solve_tridiagonal(const double* lower, const double* diag, const double* upper, double* rhs,
                           int m, int count, TridiagonalLayout layout, bool /*pivoting*/) {
        scratch_.resize(static_cast<std::size_t>(m) * count);
        const int matrix_stride = layout == TridiagonalLayout::batch ? m : 0;
        thrust::for_each(policy(), thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(count),
                         ThomasSolve{lower, diag, upper, rhs, thrust::raw_pointer_cast(scratch_.data()), m,
                                     matrix_stride});
    }

    // Reduces n values into *out (host memory on these backends).
    template <class T, class Iterator, class Op>
    void reduce_into(Iterator first, int n, T init, Op op, T* out) {
        *out = thrust::reduce(policy(), first, first + n, init, op);
    }

    template <class T, class Iterator, class Op>
    T reduce(Iterator first, int n, T init, Op op) {
        return thrust::reduce(policy(), first, first + n, init, op);
    }

    void synchronize() {}

    void start_timer() { started_ = std::chrono::steady_clock::now(); }
    double elapsed_seconds() {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    }

    double device_bytes_in_use() const { return -1.0; }  // no device memory on the host backends

private:
    vector<double> scratch_;
    std::chrono::steady_clock::time_point started_;
};

// The serial backend's system: thrust::cpp, one core.
struct SerialSystem {
    template <class T>
    using vector = thrust::cpp::vector<T>;
    static auto policy() { return thrust::cpp::par; }
    static std::string description() { return "serial (1 core)"; }
};

}  // namespace bsde
