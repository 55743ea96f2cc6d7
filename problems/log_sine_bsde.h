// The paper's Example 2: a BSDE with a driver quadratic in z.
//   f(t, w, y, z) = 1/2 (e^(t^2) - 4 t y - 3 e^(t^2 - y e^(-t^2)) + z^2 e^(-t^2)),
//   g(w) = ln(sin w + 3) e^(T^2);  y = ln(sin w + 3) e^(t^2),  z = e^(t^2) cos w / (sin w + 3)
#pragma once
#include <cmath>

#include "../algorithms/core/device_exp.h"
#include "problem_support.h"

namespace bsde {

struct log_sine_bsde {
    static constexpr const char* name = "log-sine";
    static constexpr const char* alias = "ex2";
    static constexpr const char* description =
        "paper's Example 2: f quadratic in z, y = ln(sin w + 3) e^(t^2)";
    static constexpr int dimension = 1;
    static constexpr bool has_exact_solution = true;
    static constexpr double default_T = 1.0, default_R = 16.0;
    static constexpr int default_L = 32;

    double T;

    log_sine_bsde(double terminal_time, const ProblemParameters& given) : T(terminal_time) {
        check_parameter_names<log_sine_bsde>(given);
    }

    __host__ __device__ double exact_y(double t, double w) const { return log(sin(w) + 3.0) * exp(t * t); }
    __host__ __device__ double exact_z(double t, double w) const {
        return exp(t * t) * cos(w) / (sin(w) + 3.0);
    }
    __host__ __device__ double terminal_y(double w) const { return exact_y(T, w); }
    __host__ __device__ double terminal_z(double w) const { return exact_z(T, w); }
    // f at a fixed t, with e^(t^2) and e^(-t^2) computed once (sweep_functors.h, driver_at): one exp per call,
    // device_exp (on the GPU an exp without a branch; algorithms/core/device_exp.h).
    struct Driver {
        double t, t2, growth, decay;  // t^2, e^(t^2), e^(-t^2)
        __host__ __device__ double operator()(double, double y, double z) const {
            return 0.5 * (growth - 4.0 * t * y - 3.0 * device_exp(t2 - y * decay) + z * z * decay);
        }
    };
    __host__ __device__ Driver driver_at(double t) const { return {t, t * t, exp(t * t), exp(-t * t)}; }
    __host__ __device__ double driver(double t, double w, double y, double z) const { return driver_at(t)(w, y, z); }
};

}  // namespace bsde
