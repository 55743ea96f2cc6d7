// What a solve takes and what it gives back: plain C++ shared by the front end and every backend.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cubic_spline.h"
#include "terminal_smoothing.h"

namespace bsde {

enum class Startup {
    multistep,  // layers N-1..N-K+1 by the same scheme on a finer step, orders raised one by one
    exact       // verification mode: the exact solution (only for problems that have one)
};
std::string to_string(Startup startup);
Startup parse_startup(const std::string& name);  // throws InputError

// Interpolation of a 2D layer (1D layers use the cubic spline).
enum class Interpolation2D {
    spline,  // tensor-product cubic spline (not-a-knot), one B-spline coefficient per point and function
    bicubic  // the paper's: values, first and mixed derivatives by 4th-order differences, 16 coefficients per cell
};
std::string to_string(Interpolation2D interpolation);
Interpolation2D parse_interpolation(const std::string& name);  // throws InputError

using ProblemParameters = std::map<std::string, double>;

// Called by the sweep now and then with the steps done and the steps in all (start-up included).
using ProgressCallback = std::function<void(int steps_done, int steps_total)>;

struct SchemeSettings {
    int Ky = 3, Kz = 3;          // multistep orders of y and z
    int N = 256;                 // time steps
    double T = 1.0;              // terminal time
    double R = 16.0;             // half-width of the space domain
    int L = 32;                  // Gauss-Hermite points per dimension
    int picard_iterations = 30;  // most Picard iterations per point and step
    double picard_tolerance = 1e-15;  // stop when |change| <= tolerance * (1 + |y|)
    Startup startup = Startup::multistep;
    int startup_substeps = 0;    // fine steps per step in the start-up; 0 = ceil(dt^(-1/2))
    SplineBoundary spline = SplineBoundary::not_a_knot;
    Smoothing smoothing = Smoothing::kreiss4;  // of kinked terminal data (problems with terminal_kink())
    int grid_order = 0;          // space grid matched to this order; 0 = min(Ky+1, Kz, 3) (the paper's)
    Interpolation2D interpolation = Interpolation2D::spline;  // 2D problems only
    ProblemParameters problem_parameters;
    ProgressCallback progress;   // optional

    int K() const { return Ky > Kz ? Ky : Kz; }
};

// Throws InputError naming the option for any setting outside its range.
void validate(const SchemeSettings& settings);

struct SolveResult {
    std::string problem, device;
    int dimension = 1;           // d: the grid has (M+1)^d points, point p = i_1 (M+1) + i_2 in 2D
    int M = 0;
    double dx = 0, dt = 0;
    int startup_substeps = 0;    // 0 when the start-up was exact
    std::vector<double> w, y, z;                // t = 0 on the whole grid; w and z: d columns of (M+1)^d
    // problems with a state map (options): S(0, w), dV/dS = value_gradient(z) and its exact value
    bool has_state = false;
    std::vector<double> state, gradient, gradient_exact;
    bool has_exact = false;
    std::vector<double> y_exact, z_exact;
    double y0 = 0, y0_exact = 0;                 // at w = 0
    std::vector<double> z0, z0_exact;            // at w = 0, d components
    double max_y_error_inner = 0, max_z_error_inner = 0; // largest error over |w| <= R/2
    int picard_most_iterations = 0;   // over every point and step of the main sweep
    double picard_largest_change = 0; // largest last change over every point and step
    double sweep_seconds = 0;         // start-up and backward sweep, after set-up
    double storage_bytes = 0;         // the solver's own arrays
    double device_bytes_measured = -1;  // cuda: device memory taken during the solve; -1 elsewhere

    double y0_error() const { return y0 > y0_exact ? y0 - y0_exact : y0_exact - y0; }
    double z0_error() const;  // largest |z_0 - exact| over the components
};

}  // namespace bsde
