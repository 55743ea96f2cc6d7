// bsde bench: a benchmark, not a test. Fixed cases are solved on each backend: one untimed warm-up, then
// --repeats timed solves (median, min, max of the sweep time), one more instrumented solve that times the
// phases of a step (only its proportions are used), and the achieved rates from an operation count per
// quadrature-node evaluation (node_cost below; docs/benchmarking.md, "Benchmark"). The table is a pure function of the
// results, so it is tested from known inputs; the study's writers (study.h) print it.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "../algorithms/backends/backend.h"
#include "../algorithms/scheme/settings.h"
#include "study.h"

namespace bsde {

struct Invocation;

// The default cases: ex2-k6-n1024, ex5-k6-n64, ex2-k3-n256, ex4-k3-n32.
const std::vector<std::string>& default_bench_cases();

// One case: its name as given, the problem's name and the settings of the solve.
struct BenchCase {
    std::string name, problem;
    SchemeSettings settings;
    std::vector<ProblemParameters> members;  // a surface case's batch (solve_batch); empty: one solve
};

// The keys of a case PROBLEM:KEY=VALUE:...: bsde solve's options of the scheme, '_' for '-' (K, N, ..., spline_solve,
// startup_substeps, gpus), the problem's parameters, and separable (on or off, 2D: SchemeSettings::separable_pass).
extern const char* const bench_case_keys;

// --cases: comma-separated cases, each PROBLEM-kK-nN (ex2-k6-n1024: K = Ky = Kz = 6, N = 1024),
// PROBLEM[:KEY=VALUE]... (ex1:K=2:N=8; the keys bench_case_keys, each at most once; also after the first form, except
// K and N: ex2-k3-n256:L=16), or a surface case[:KEY=VALUE]... (surface-bs-call: 1000 bs-call members, strike
// 60:140:100 x sigma 0.1:0.3:10, K = 3, N = 48; surface-exchange: 100 exchange members, rho -0.5:0.5:10 x sigma1
// 0.2:0.4:10, K = 3, N = 24; solved as one batch); everything else is the problem's default (R too: the bench
// prices at S0, where bsde surface takes R for the members' spot ranges). Empty text: the default cases. Throws
// InputError naming --cases and the case.
std::vector<BenchCase> parse_bench_cases(const std::string& text);

// The cases parse, --repeats in 1..1000. Throws InputError.
void validate_bench(const Invocation& invocation);

// --backends, or the fastest this machine has (cuda, else omp). Throws InputError (exit code 2) naming a
// requested backend that is not available.
std::vector<Backend> bench_backends(const Invocation& invocation);

// The cases of several GPUs (the key gpus, G > 1) run on the cuda backend alone (bench_backends: --backends cuda or,
// without --backends, the default where cuda runs here), on a machine with G GPUs or more. Throws InputError naming
// the case ("--cases 'ex4:gpus=2': this machine has 1 GPU").
void check_cases_gpus(const std::vector<BenchCase>& cases, const Invocation& invocation);

// The operation count of one quadrature-node evaluation of the fused pass (LayerExpectations::add_node in
// sweep_functors.h, with the rule's loop): flops by part and the problem's transcendental calls, which
// are not in the flops. Each FP64 +, -, *, / that depends on the node is one flop (a fused multiply-add
// is 2; a division, several instructions, 1); values that depend only on the grid, the layer or the node
// (the node table of grid_nodes.h: a node's increment, weight, cells and interpolation weights, made once
// per step size; x_min + M dx, t_j and functions of it), integer index arithmetic, comparisons, and the
// locating of the few points whose node falls off the grid are not counted. The per-point work after the
// nodes (z^n, Picard) is not counted either.
struct NodeCost {
    double rule = 0;           // the node's weight (2D: the product of the axes' weights)
    double interpolation = 0;  // y and the d components of z at the node
    double driver = 0;         // f(t, w, y, z), without its transcendental calls
    double accumulation = 0;   // the sums E[y], E[z], E[f], E[f dW]
    double transcendentals = 0;  // the driver's calls of exp, log, ...: not in the flops
    std::string transcendental_names;  // "exp", or empty
    bool driver_known = false;  // false: a problem missing from the driver table, its driver counted as 0
    bool kinked_terminal = false;  // terminal layer read with a finer rule near its kink (not counted)
    double staged_sums = 0;        // 2D tensor spline, staged pass: axis-1 sums staged per node (in interpolation)
    double flops() const { return rule + interpolation + driver + accumulation; }
};

// The count for a problem (name or alias), its dimension and, in 2D, the interpolation; for a 2D tensor spline
// run by the staged pass (sum factorisation, cuda), the axis-1 sums it staged per node evaluation
// (SolveResult::staged_axis_sums over node_evaluations), 0 for the direct pass.
NodeCost node_cost(const std::string& problem, int dimension, InterpolationKind interpolation,
                   double staged_sums_per_node = 0);

// Steps of a solve: (K-1) 3 S start-up steps (its passes of S and 2 S substeps; S = 0 for the exact start-up) and
// N - K + 1 more. (Its layer reads and node evaluations: layer_reads, node_evaluations in algorithms/scheme/settings.h.)
long long bench_steps(int K, int N, int substeps);

// The flops of the separable pass (an affine driver; separable_pass.h) for one layer it reads, counted as node_cost
// counts (what depends on the grid, the layer or the node alone is not counted). 2D:
//   axis-1 points, (M+1) rows x (M+3) ghosted columns: per node omega dW (1) and per function its axis-1 sum
//     (4 products, 3 sums: 7) added with omega and with omega dW (4): 34 L; the four combinations (h 5, u1 7, u2 1,
//     v 5: 18);
//   axis-2 points, (M+1)^2: per node omega dW (1), four axis-2 sums (28), three added with omega (6), one with
//     omega dW (2): 37 L; the layer's part (2) and its addition to the point's sums (3): 5;
// (M+1)(M+3)(34 L + 18) + (M+1)^2 (37 L + 5), and no transcendental calls. It replaces (M+1)^2 L^2 node evaluations.
// 3D, the same per function and sum over three passes:
//   axis 1 at (M+1)(M+3)^2: 1 + 4 (7 + 4) = 45 L, the five combinations (h 7, u1 9, u2 1, u3 1, v 7: 25);
//   axis 2 at (M+1)^2 (M+3): five axis-2 sums (35), four added with omega (8), w2 + dW v with omega (4): 47 L;
//   axis 3 at (M+1)^3: five sums (35), three added with omega (6), z_3 + dW v with omega (4): 45 L; the layer's part
//     and its addition to the point's sums: 10;
// (M+1)(M+3)^2 (45 L + 25) + (M+1)^2 (M+3) 47 L + (M+1)^3 (45 L + 10). It replaces (M+1)^3 L^3 node evaluations.
double separable_layer_flops(int dimension, int M, int L);

// One case on one backend.
struct BenchResult {
    std::string case_name, problem;
    Backend backend = Backend::omp;
    int dimension = 1, K = 0, N = 0, M = 0, L = 0, substeps = 0;
    int members = 1;                // a surface case's batch: points and node evaluations count every member's
    std::string interpolation;      // to_string(InterpolationKind): "spline", "hermite" (1D) or "bicubic" (2D)
    std::vector<double> seconds;    // the timed sweeps
    double instrumented_seconds = 0;  // the sweep of the instrumented run
    SweepPhaseSeconds phases;       // of the instrumented run
    bool has_exact = false;
    double y0_error = 0, z0_error = 0;
    double storage_bytes = 0, device_bytes = -1;  // device: -1 when not measured (host backends)
    NodeCost cost;                  // per node evaluation of the fused pass
    Fp64Ceilings ceilings;          // cuda: the device's, measured by the bench; zero on the host backends
    int separable_layers = 0;       // layers read by the separable pass (SolveResult::separable_layers)
    int startup_refine = 0;         // SolveResult::startup_refine
    int startup_grid_separable_layers = 0;  // SolveResult::startup_grid_separable_layers
};

// The node evaluations of a result's solve that the fused pass made: node_evaluations less those of the layers the
// separable pass read.
double fused_node_evaluations(const BenchResult& result);

// What the table shows, derived from a result.
struct BenchFigures {
    double median = 0, min = 0, max = 0;  // s
    long long steps = 0, points = 0;
    double ms_per_step = 0;
    double pass = 0, status = 0, fit = 0, rest = 0;  // fractions of the instrumented sweep
    double node_evaluations = 0, node_evaluations_per_second = 0;
    double flops = 0;  // the passes' counted flops: fused node evaluations x NodeCost::flops + the separable layers'
    double gflops = 0, percent_of_ceiling = 0;  // over the whole sweep (median); % of ceilings.flops_per_second
    double pass_seconds = 0;                    // the pass's own time in the instrumented sweep (its marks)
    double pass_gflops = 0;                     // over pass_seconds
    // The pass's arithmetic floor: flops / ceilings.flops_per_second + fused node evaluations x transcendentals /
    // ceilings.exps_per_second, in s, and pass_seconds over it.
    double pass_floor = 0, pass_over_floor = 0;
};
BenchFigures bench_figures(const BenchResult& result);

// display: the printed table; csv: machine names and every value to 17 digits.
Table bench_table(const std::vector<BenchResult>& results, TableStyle style);
// What the columns mean, the operation count of each case and the instrumented run's caveat.
std::string bench_notes(const std::vector<BenchResult>& results, int repeats);
void write_bench_markdown(std::ostream& out, const std::vector<BenchResult>& results, const std::string& command,
                          int repeats, const std::vector<std::string>& devices);

// bsde bench: runs every case on every backend, prints the table and the notes on out, and with --out
// writes DIR/bench.csv and DIR/bench.md. Returns the exit code.
int bench_command(const Invocation& invocation, const std::string& command, std::ostream& out, std::ostream& err,
                  bool show_progress);

}  // namespace bsde
