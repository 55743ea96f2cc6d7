// The backend seam as the rest of the program sees it: plain C++, no Thrust, no CUDA.
// Each backend (cuda, omp, serial) implements these operations once from the same Thrust
// templates (backend_impl.h) in its own translation unit.
#pragma once
#include <string>
#include <vector>

#include "../scheme/settings.h"

namespace bsde {

enum class Backend { serial, omp, cuda };
std::string to_string(Backend backend);
Backend parse_backend(const std::string& name);  // throws InputError

class BackendOps {
public:
    virtual ~BackendOps() = default;
    virtual std::string description() const = 0;  // e.g. "cuda (<device name>)", "omp (16 threads)"

    // The product: a whole solve.
    virtual SolveResult solve(const std::string& problem, const SchemeSettings& settings) const = 0;
    // A batch: the problem with each member's parameters (settings.problem_parameters unused) in one sweep on one grid
    // (BackwardSweep's Members); SolveResult::members in their order. Throws InputError naming the first member
    // whose parameters the problem refuses ("member 3: ...", counted from 1).
    virtual SolveResult solve_batch(const std::string& problem, const SchemeSettings& settings,
                                    const std::vector<ProblemParameters>& members) const = 0;
    // The test seam of --gpus: the solve with its grid split along the first axis into `slabs` slabs, each run by a
    // thread of its own on this backend's one device, their halos exchanged by copies (copy_links.h); equal to solve()
    // to rounding (tests/test_slabs.cpp).
    virtual SolveResult solve_in_slabs(const std::string& problem, const SchemeSettings& settings, int slabs) const = 0;
    // The test seam of the links --gpus runs on (NCCL on cuda, copies on the host): `slabs` slabs, slab g on device g,
    // each holding values + g, send their values to slab g + 1 (mod slabs), receive slab g - 1's and add up what they
    // received over the slabs; slab 0's sums: slabs values + slabs (slabs - 1) / 2.
    virtual std::vector<double> pass_around_slabs(const std::vector<double>& values, int slabs) const = 0;

    // The test seam: the building blocks the solve runs on this backend, each on host vectors, so that the tests
    // check every backend's against formulas and against serial (tests/test_spline.cpp, test_interpolation_2d.cpp).
    // The solutions of one tridiagonal matrix (bands of m entries) with `count` right-hand sides (m each, one
    // after the other), as the spline fits solve them: cuSPARSE gtsv2_nopivot on cuda, Thomas or the partition
    // method on the host (tridiagonal.h). No pivoting: for diagonally dominant systems such as the spline's.
    virtual std::vector<double> solve_tridiagonal(const std::vector<double>& lower,
                                                  const std::vector<double>& diag,
                                                  const std::vector<double>& upper,
                                                  const std::vector<double>& rhs, int m, int count) const = 0;

    // Moments of `columns` splines on a uniform grid of M intervals (values column after column), by `solve`
    // (automatic: inverse band on cuda, tridiagonal on the host backends).
    virtual std::vector<double> spline_moments(const std::vector<double>& values, int M, int columns,
                                               double dx, SplineBoundary boundary, SplineSolve solve) const = 0;

    // The spline of one column (values, moments on x_min + i dx, i = 0..M) at each point.
    virtual std::vector<double> spline_evaluate(const std::vector<double>& values,
                                                const std::vector<double>& moments, double x_min,
                                                double dx, const std::vector<double>& points) const = 0;

    // The interpolant `kind` of one function's (M+1)^2 values on the grid (x_min + i1 dx, x_min + i2 dx),
    // point i1 (M+1) + i2, at the points (x1[k], x2[k]), clamped to the domain. spline_solve: how the tensor
    // spline's 1D moments are computed (bicubic ignores it).
    virtual std::vector<double> interpolate_2d(InterpolationKind kind, const std::vector<double>& values, int M,
                                               double x_min, double dx, const std::vector<double>& x1,
                                               const std::vector<double>& x2, SplineSolve spline_solve) const = 0;
    // The tensor spline (tensor_spline_3d.h) of one function's (M+1)^3 values on the grid (x_min + i1 dx,
    // x_min + i2 dx, x_min + i3 dx), point (i1 (M+1) + i2)(M+1) + i3, at the points (x1[k], x2[k], x3[k]), clamped
    // to the domain. spline_solve: how its 1D moments are computed.
    virtual std::vector<double> interpolate_3d(const std::vector<double>& values, int M, double x_min, double dx,
                                               const std::vector<double>& x1, const std::vector<double>& x2,
                                               const std::vector<double>& x3, SplineSolve spline_solve) const = 0;
};

// The GPUs the cuda backend sees (cudaGetDeviceCount), 0 where it is not available (no library, no device).
int cuda_device_count();

// Whether this binary has the backend and, for cuda, a device to run it on. Never touches the
// CUDA runtime for serial and omp; for cuda, opens the cuda backend's library on first use (cuda_entry.h).
bool backend_available(Backend backend);
Backend default_backend();  // cuda when a device is present, else omp

// The backend's operations; throws DeviceError when it is not available.
const BackendOps& backend_ops(Backend backend);

// The backends this binary runs on this machine, with cuda's device ("serial, omp, cuda (<device name>)"), or why
// cuda is not among them ("serial, omp; no cuda: ...").
std::string available_backends_text();

// The backends a command was asked for by name (--backends of bsde study and bench): one that this machine lacks is
// bad input, an InputError (exit code 2) naming it and what the machine runs. bsde solve's --backend cuda without a
// device is a device failure instead (backend_ops, exit code 4).
void check_backends_present(const std::vector<Backend>& backends);

// The FP64 rates of the cuda device, measured by kernels of independent chains of one operation that fill every SM
// (algorithms/backends/backend_cuda.cu): the ceilings `bsde bench` reads its rates and the pass's arithmetic floor against.
struct Fp64Ceilings {
    double flops_per_second = 0;  // fused multiply-adds, 2 flops each
    double exps_per_second = 0;   // CUDA's double exp, as the problems call it
    // Chains of one exp and 16 multiply-adds: their time over flops / flops_per_second + exps / exps_per_second.
    // Near 1 when the two rates add up (both run on the FP64 pipe), as the pass's floor assumes.
    double mix_over_floor = 0;
    bool measured() const { return flops_per_second > 0 && exps_per_second > 0; }  // false: not a GPU's (zero)
};
Fp64Ceilings measure_cuda_fp64_ceilings();  // throws DeviceError where cuda is not available

// Implemented by the host backends' translation units.
const BackendOps& serial_backend_ops();
const BackendOps& omp_backend_ops();
// The cuda backend, from its library libbsde_cuda.so beside the executable (/proc/self/exe's folder), opened on the
// first call of any of these (cuda_entry.h). nullptr where the library does not load or the machine has no device.
const BackendOps* cuda_backend_ops();
// Why cuda_backend_ops() is nullptr: the loader's reason (dlerror) where the library did not load (a build without
// nvcc has none), else the device's; "" where it is not.
std::string cuda_unavailable_reason();

}  // namespace bsde
