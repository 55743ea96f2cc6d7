// What a solve takes and what it gives back: plain C++ shared by the front end and every backend.
#pragma once
#include <array>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "../interpolation/cubic_spline.h"
#include "../interpolation/interpolation_kind.h"
#include "terminal_smoothing.h"

namespace bsde {

enum class Startup {
    automatic,    // feynman_kac where it applies (feynman_kac_applies, obstacle.h), else multistep: resolved_startup
    multistep,    // layers N-1..N-K+1 by the same scheme on fine steps dt / S and dt / 2S, Richardson-extrapolated
    feynman_kac,  // an affine driver's layers from the terminal data by the Feynman-Kac formula (feynman_kac_layer.h)
    exact         // verification mode: the exact solution (only for problems that have one)
};
std::string to_string(Startup startup);
Startup parse_startup(const std::string& name);  // throws InputError
// The start-up a run takes: `requested`, or for automatic feynman_kac where it applies to the problem, else multistep.
inline Startup resolved_startup(Startup requested, bool feynman_kac_applies) {
    if (requested != Startup::automatic) return requested;
    return feynman_kac_applies ? Startup::feynman_kac : Startup::multistep;
}

std::string to_string(InterpolationKind interpolation);
InterpolationKind parse_interpolation(const std::string& name);  // throws InputError

using ProblemParameters = std::map<std::string, double>;

// Called by the sweep now and then with the steps done and the steps in all (start-up included).
using ProgressCallback = std::function<void(int steps_done, int steps_total)>;
using WarningCallback = std::function<void(const std::string& warning)>;

struct SchemeSettings {
    int Ky = 3, Kz = 3;          // multistep orders of y and z
    int N = 256;                 // time steps
    double T = 1.0;              // terminal time
    double R = 16.0;             // half-width of the space domain
    int L = 32;                  // Gauss-Hermite points per dimension
    int picard_iterations = 30;  // most Picard iterations per point and step
    // stop when |change| <= tolerance (s + |y|), s = E|g(W_T)| the terminal data's mean magnitude (PicardStop,
    // sweep_functors.h)
    double picard_tolerance = 1e-15;
    Startup startup = Startup::automatic;
    int startup_substeps = 0;    // S: the start-up's passes take S and 2 S fine steps per step; 0 = automatic
    int startup_refine = 0;      // r: the start-up runs on r M intervals per axis; 0 = automatic (startup_refinement)
    SplineBoundary spline = SplineBoundary::not_a_knot;
    // How the spline moments are computed (1D spline and 2D tensor spline): auto = inverse-band on cuda,
    // tridiagonal on omp/serial; the two give the same spline to rounding (cubic_spline.h, spline_fitter.h).
    SplineSolve spline_solve = SplineSolve::automatic;
    Smoothing smoothing = Smoothing::kreiss6;  // of kinked terminal data (problems with terminal_kink())
    int grid_order = 0;          // space grid matched to this order; 0 = min(Ky+1, Kz, 3) (the paper's)
    InterpolationKind interpolation = InterpolationKind::spline;
    ProblemParameters problem_parameters;
    // The problem's driver's gradient in z (per axis) where the driver is linear in z, else 0: for the stability
    // analysis (stability.h), which a large one makes unstable. Set from the problem and its parameters
    // (ProblemInfo::driver_z_gradient, problems/registry.h).
    std::array<double, 3> driver_z_gradient{0.0, 0.0, 0.0};  // components 0..d-1
    // What the problem's parameters can do about that term, for the stability refusal's remedy where it is the cause
    // (ProblemInfo::driver_z_advice); "" where the problem says nothing.
    std::string driver_z_advice;
    // Whether the problem's terminal data have a kink (ProblemInfo::terminal_kinked, set_problem_terms; the sweep sets it
    // from the problem): the multistep start-up's substeps follow it (startup_substeps).
    bool terminal_kinked = false;
    ProgressCallback progress;   // optional
    // optional: told a warning about the run before it starts, once its memory is known to fit (long_run_warning,
    // run_time.h)
    WarningCallback warn_before_run;
    // --strict: a step where Picard stops above its tolerance is an error (NumericalError, exit code 3);
    // otherwise it is reported in SolveResult::picard_warning and the run goes on.
    bool picard_strict = false;
    // --allow-unstable: run settings whose grid modes the von Neumann analysis finds growing by more than
    // stability_error_growth over the run (stability.h), which validate() otherwise refuses.
    bool allow_unstable = false;
    // Times the phases of every step (SolveResult::phase_seconds) by marks in the context's work (on cuda events
    // on the stream: nothing waits for them) (bsde bench).
    bool time_phases = false;
    // Grid points per call of the 1D fused pass with the cubic interpolations (a tuning and verification setting,
    // not on the command line): 0 = chosen to fill the device (BackwardSweep::points_per_call), else 1 to
    // max_points_per_call. Every choice gives the same results, operation for operation; other passes take one.
    int points_per_call = 0;
    // Whether the 2D steps take their expectations by the separable pass where it applies (separable_pass.h: an
    // affine driver and the tensor spline; a kinked terminal layer's band by the kink-line rule's nodes); false: the
    // fused pass everywhere. The two give the same results to rounding (a verification and benchmark setting: bsde
    // bench's key separable).
    bool separable_pass = true;
    // G: the grid split along its first axis over G GPUs (slab_link.h, slabs.h); 1 = one GPU, the whole grid.
    int gpus = 1;

    int K() const { return Ky > Kz ? Ky : Kz; }
};

// The largest multistep order accepted (--K, --Ky, --Kz).
constexpr int max_multistep_order = 32;

// Throws InputError "NAME K: must be in [1, 32]" for an order outside [1, max_multistep_order]; `name` is the
// option or key that gave it (--K, --Ky, --Kz, or a bench case's K).
void check_multistep_order(const std::string& name, int K);

// The most fine steps per step of the multistep start-up (SchemeSettings::startup_substeps): its (K - 1) S fine
// steps then cost at most as much as a main sweep of 31e4 steps, where the automatic ceil(dt^-1/2) is 32 at
// N = 1024, T = 1.
constexpr int max_startup_substeps = 10000;

// S, the fine steps per time step of the start-up's coarser pass (its finer one takes 2 S), with N steps: 0 where it
// has none (a start-up other than multistep, or K = 1; resolve Startup::automatic first, resolved_startup), else
// --startup-substeps or automatically the least multiple of Ky that is at least automatic_substeps_rule's count.
// A multiple of Ky: y's step reads E[y_{m+Ky}], so the fine layers form Ky chains by the fine steps taken mod Ky, each
// beginning with its own low-order steps; a coarse layer reached after q S fine steps lies on chain q S mod Ky in the
// coarser pass and 2 q S mod Ky in the finer, and only where both are 0 do the two begin alike, so that the
// extrapolation cancels their h^2 terms (docs/scheme.md, "Start-up values"). The count grows as sqrt(N / T): the
// finer pass's steps dt / 2S stay O(dt^(3/2)), so that its error stays below the scheme's as N grows; smooth data
// take 3/16 of it (the least that keeps Table 5's errors within 1.25x of the exact start-up's: each fine step adds
// the interpolation's error), kinked data 1/2 and at least 4 (near the kink the fine steps' time error outweighs
// the interpolation's). A double, as the count may pass int's range (validate() refuses that).
double startup_substeps(const SchemeSettings& settings, int N);
// The automatic count's rule, as the messages show it: ceil(3 sqrt(N / T) / 16), kinked data max(4, ceil(sqrt(N / T) /
// 2)).
inline std::string automatic_substeps_rule(bool terminal_kinked) {
    return terminal_kinked ? "max(4, ceil(sqrt(N / T) / 2))" : "ceil(3 sqrt(N / T) / 16)";
}
inline double startup_substeps(const SchemeSettings& settings) { return startup_substeps(settings, settings.N); }

// The fine steps of the start-up's two passes, (K - 1) S and (K - 1) 2 S.
inline double startup_fine_steps(int K, double S) { return (K - 1) * 3.0 * S; }

// The most refinement of the start-up's grid (SchemeSettings::startup_refine).
constexpr int max_startup_refine = 8;

// r, the refinement of the start-up's grid: its passes run on r M intervals per axis, and the main grid's points are
// every r-th of its points. Its 3 (K - 1) S fine steps over (K - 1) dt interpolate S times as often as the main
// steps, and each adds the interpolation's error; near kinked terminal data each fine step's z divides the
// interpolation's O(dx^2) miss of the narrow early layers by its h = dt / S (docs/scheme.md). 0 where there is no
// multistep start-up (substeps 0), else --startup-refine, or automatically 2 in 1D (a 16th of the cubic spline's
// error) and 1 in 2D, where r^2 times the points would make the start-up most of the run.
int startup_refinement(const SchemeSettings& settings, int dimension);

// Stored layers read in all by the main steps, K each.
long long main_layer_reads(int K, int N);
// Stored layers read in all by the start-up: each pass's j-th fine step reads min(j, K).
long long startup_layer_reads(int K, int substeps);
inline long long layer_reads(int K, int N, int substeps) {
    return main_layer_reads(K, N) + startup_layer_reads(K, substeps);
}
// Quadrature-node evaluations of a solve: points x L^d nodes per layer read, where the main steps' points are
// (M+1)^d and the start-up's (r M + 1)^d (r = refine, startup_refinement). The finer rule of a kinked terminal layer
// (options) is counted as L^d nodes.
double node_evaluations(int dimension, int M, int L, int K, int N, int substeps, int refine);
// node_evaluations of a run with these settings: its grid's M, its start-up's substeps and refinement.
double node_evaluations(const SchemeSettings& settings, int dimension);

// Node evaluations of the rule a kinked 1D terminal layer is read with (expectation_rules.h,
// CellGaussLegendreExpectation: about 85 sqrt(v) / dx nodes a grid point at variance v): its nodes on the M + 1 points
// at each read of the terminal layer by the first main step at K dt, and by each start-up pass's first
// min(K, (K - 1) S') fine steps at variance j dt / S' (S' = S, 2 S) on the r M + 1 points of the start-up's grid
// (startup_refinement), whose dx / r makes r times the nodes. The rule's nodes grow as 1/dx, so on fine grids (a high
// --grid-order) these reads can outweigh the run's other steps, whose work grows as M (long_run_warning, run_time.h).
double kinked_rule_evaluations(const SchemeSettings& settings);

// The most neighbouring grid points one call of the 1D fused pass takes (SchemeSettings::points_per_call).
constexpr int max_points_per_call = 3;

// Throws InputError naming the option for any setting outside its range, an interpolation that does not exist
// in this dimension, and a space grid whose (M+1)^dimension points the sweep cannot index (32-bit indices).
void validate(const SchemeSettings& settings, int dimension = 1);

// A vector's first `dimension` components as the messages print them: c_1 in 1D, "(c_1, ..., c_d)" else, each by
// format_number with `spec` (0 for -0).
std::string format_components(const std::array<double, 3>& c, int dimension, const char* spec = "%.15g");

// Throws InputError, the stability warning (stability.h) and then `advice`, where the settings' grid modes grow by
// more than stability_error_growth over the run: validate()'s check unless settings.allow_unstable, with
// allow_unstable_advice.
void require_stable(const SchemeSettings& settings, int dimension, const std::string& advice);
inline const std::string allow_unstable_advice = "--allow-unstable runs it anyway";

// Throws InputError where a spline's end condition or its moments' solve was given (by the caller's reckoning: an
// option or a bench key) for an interpolation that has none.
void check_spline_options(const SchemeSettings& settings, bool spline_given, bool spline_solve_given);

// Throws InputError, naming them as options, where the start-up's substeps or refinement were given (an option or a
// bench key) for a run with no multistep start-up: --startup exact, or largest_K = 1 (the run's K, or the largest of a
// study's list).
void check_startup_options(const SchemeSettings& settings, bool substeps_given, bool refine_given, int largest_K);

// Seconds spent in the phases of the steps (start-up and backward), with SchemeSettings::time_phases.
struct SweepPhaseSeconds {
    double expectation = 0;  // the fused expectation + Picard pass
    double status = 0;       // the reduction of the step status
    double fit = 0;          // the interpolation fit of the new layer (tridiagonal solves or the inverse band, coefficient functors)
};

// The early-exercise boundary of a 1D problem with an obstacle (algorithms/sweep/exercise_boundary.h), one entry per
// layer t_n, n = 0..N-1: w* (NaN where the layer has no edge of its exercise region), S* = state(t_n, w*) where the
// problem has a state map (has_state; else `state` is empty), and the edges the layer has (several: pieces).
struct ExerciseBoundary {
    bool has_state = false;
    std::vector<double> t, w, state;
    std::vector<int> edges;
};

// A member of a solve (a batch's, or the one of a solve; Members, BackwardSweep) at t = 0, w = 0, and for options
// (a state map) the price's Greeks at the spot S(0, 0) (member_solution.h), the exact values where the problem has
// them.
struct MemberSolution {
    double y0 = 0;
    std::vector<double> z0;  // d components
    bool has_exact = false;
    double y0_exact = 0;
    std::vector<double> z0_exact;
    bool has_greeks = false;                       // an option: its spot, delta, gamma and theta
    std::vector<double> spot, delta, delta_exact;  // per asset: S_k(0, 0), dV/dS_k
    std::vector<double> gamma, gamma_exact;        // d2V / dS_j dS_k, j d + k
    double theta = 0, theta_exact = 0;             // dV/dt at fixed S
    double z0_error() const;                       // the largest over the components
};

struct SolveResult {
    std::string problem, device;
    int dimension = 1;           // d: the grid has (M+1)^d points, point p = i_1 (M+1) + i_2 in 2D
    int M = 0;
    Startup startup = Startup::multistep;  // the start-up the run took (resolved_startup)
    int startup_substeps = 0;    // 0 when the start-up was not multistep
    int startup_refine = 0;      // startup_refinement: the start-up's grid has startup_refine M intervals per axis
    bool terminal_kinked = false;  // the problem's terminal data have a kink (smoothed by settings.smoothing)
    std::vector<double> w, y, z;                // t = 0 on the whole grid; w and z: d columns of (M+1)^d
    // problems with a state map (options): S(0, w), dV/dS = value_gradient(z) and its exact value, d columns each
    bool has_state = false;
    std::vector<double> state, gradient, gradient_exact;
    bool has_exact = false;
    std::vector<double> y_exact, z_exact;
    double y0 = 0, y0_exact = 0;                 // at w = 0
    std::vector<double> z0, z0_exact;            // at w = 0, d components
    double max_y_error_inner = 0, max_z_error_inner = 0; // largest error over |w| <= R/2
    int picard_most_iterations = 0;   // over every point and step, the start-up's fine steps included
    double picard_largest_change = 0; // largest last change over every point and step
    double picard_scale = 1.0;        // s of the tolerance (s + |y|): E|g(W_T)| (1 where 0)
    // Steps where Picard stopped with a change above picard_tolerance (s + |y|) at some point, and a
    // one-line description of the first of them and the largest remaining change (empty when none).
    int picard_unconverged_steps = 0;
    std::string picard_warning;
    std::string spline_solve;         // how the spline moments were computed: tridiagonal or inverse-band
                                      // (settings.spline_solve resolved for the backend); empty for bicubic
    double sweep_seconds = 0;         // start-up and backward sweep, after set-up
    // The staged 2D pass (sum factorisation: cuda with the tensor spline; expectation_rules.h): the axis-1 sums
    // of 4 coefficients its blocks staged, over the solve (bsde bench's operation count); 0 where it did not stage.
    double staged_axis_sums = 0;
    // The layers the steps read by the separable pass (2D, an affine driver; separable_pass.h), summed over the
    // steps: each is (M+1) (M+3) axis-1 points and (M+1)^2 axis-2 points of L nodes instead of (M+1)^2 L^2 node
    // evaluations (bsde bench's operation count).
    int separable_layers = 0;
    // Of those, the layers read on the start-up's grid of startup_refine M intervals (startup_refine > 1), each of
    // (r M + 1) (r M + 3) and (r M + 1)^2 points.
    int startup_grid_separable_layers = 0;
    bool has_exercise_boundary = false;  // a 1D problem with an obstacle: exercise_boundary holds its boundary
    ExerciseBoundary exercise_boundary;
    double storage_bytes = 0;         // the solver's own arrays
    double device_bytes_measured = -1;  // cuda: device memory taken during the solve; -1 elsewhere
    SweepPhaseSeconds phase_seconds;  // per phase where settings.time_phases (else 0); the rest of sweep_seconds:
                                      // terminal layer, start-up copies, checks
    // 1D: each member's (a batch's B, in their order; one for a solve of one problem). A batch's result holds these
    // and the run's facts; its grid vectors (w, y, z, ...), y0 and z0 are empty.
    std::vector<MemberSolution> members;

    double y0_error() const { return y0 > y0_exact ? y0 - y0_exact : y0_exact - y0; }
    double z0_error() const;  // largest |z_0 - exact| over the components
};

}  // namespace bsde
