// The paper's Example 1: a nonlinear BSDE whose solution is the logistic function of w + t.
//   f(t, w, y, z) = -y^3 + 5/2 y^2 - 3/2 y,   g(w) = e^(w+T) / (e^(w+T) + 1)
//   y = e^(w+t) / (e^(w+t) + 1),   z = y (1 - y)
#pragma once
#include <cmath>

#include "problem_support.h"

namespace bsde {

struct logistic_bsde {
    static constexpr const char* name = "logistic";
    static constexpr const char* alias = "ex1";
    static constexpr const char* description =
        "paper's Example 1: f = -y^3 + 5/2 y^2 - 3/2 y, y = e^(w+t) / (e^(w+t) + 1)";
    static constexpr int dimension = 1;
    static constexpr bool has_exact_solution = true;
    static constexpr double default_T = 1.0, default_R = 16.0;
    static constexpr int default_L = 32;

    double T;

    logistic_bsde(double terminal_time, const ProblemParameters& given) : T(terminal_time) {
        check_parameter_names<logistic_bsde>(given);
    }

    __host__ __device__ double exact_y(double t, double w) const {
        return 1.0 / (1.0 + exp(-(w + t)));  // = e^(w+t) / (e^(w+t) + 1), without overflow
    }
    __host__ __device__ double exact_z(double t, double w) const {
        const double y = exact_y(t, w);
        return y * (1.0 - y);
    }
    __host__ __device__ double terminal_y(double w) const { return exact_y(T, w); }
    __host__ __device__ double terminal_z(double w) const { return exact_z(T, w); }
    __host__ __device__ double driver(double, double, double y, double) const {
        return -y * y * y + 2.5 * y * y - 1.5 * y;
    }
};

}  // namespace bsde
