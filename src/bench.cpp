#include "bench.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <set>

#include "../algorithms/core/errors.h"
#include "../algorithms/scheme/stability.h"
#include "../problems/registry.h"
#include "batch_spec.h"
#include "build_info.h"
#include "options.h"
#include "progress.h"
#include "repeats.h"
#include "report.h"

#include "text.h"

namespace bsde {
namespace {

const double nan = std::numeric_limits<double>::quiet_NaN();

// A case's name PROBLEM-kK-nN in its parts, K and N as their digits.
struct PresetName {
    std::string problem, K, N;
};

// The digits that end text[0, end) and the marker ("-k", "-n") before them: their start, or npos where text[0, end)
// does not end in marker and one digit or more.
std::size_t digits_after_marker(const std::string& text, std::size_t end, const char* marker) {
    std::size_t begin = end;
    while (begin > 0 && text[begin - 1] >= '0' && text[begin - 1] <= '9') --begin;
    if (begin == end || begin < 2 || text.compare(begin - 2, 2, marker) != 0) return std::string::npos;
    return begin;
}

// name as PROBLEM-kK-nN, PROBLEM not empty, K and N digits; false for any other text. Read from the end, in one pass
// over the text: K and N are the digits before the last "-n" and after it, so the split is unique.
bool split_preset_name(const std::string& name, PresetName& parts) {
    const std::size_t N_begin = digits_after_marker(name, name.size(), "-n");
    if (N_begin == std::string::npos) return false;
    const std::size_t K_begin = digits_after_marker(name, N_begin - 2, "-k");
    if (K_begin == std::string::npos || K_begin == 2) return false;
    parts = {name.substr(0, K_begin - 2), name.substr(K_begin, N_begin - 2 - K_begin), name.substr(N_begin)};
    return true;
}

// The surface cases: a batch of members (bsde surface's product of lists) in one sweep, K and N chosen so that every
// member errs by less than the issue's targets (bs-call 1e-8, exchange 1e-6; docs/results/surface).
struct SurfaceCase {
    const char* name;
    const char* problem;
    int K, N;
    std::vector<BatchParameter> lists;
};
const std::vector<SurfaceCase>& surface_cases() {
    static const std::vector<SurfaceCase> cases{
        {"surface-bs-call", "bs-call", 3, 48,
         {{"strike", parse_value_list("--strike", "60:140:100")}, {"sigma", parse_value_list("--sigma", "0.1:0.3:10")}}},
        {"surface-exchange", "exchange", 3, 24,
         {{"rho", parse_value_list("--rho", "-0.5:0.5:10")}, {"sigma1", parse_value_list("--sigma1", "0.2:0.4:10")}}},
    };
    return cases;
}

const SurfaceCase* surface_case_named(const std::string& name) {
    for (const SurfaceCase& c : surface_cases())
        if (name == c.name) return &c;
    return nullptr;
}

BenchCase parse_case(const std::string& item) {
    const std::string where = "--cases " + quoted(item) + ": ";
    const std::vector<std::string> parts = split(item, ':');
    const std::string head = trim(parts.front());
    const SurfaceCase* surface = surface_case_named(head);
    const ProblemInfo* problem = problem_named(surface ? surface->problem : head);
    int K = surface ? surface->K : 3, N = surface ? surface->N : 256;
    const bool preset = problem == nullptr;
    if (preset) {  // PROBLEM-kK-nN
        PresetName name;
        if (!split_preset_name(head, name) || (problem = problem_named(name.problem)) == nullptr) {
            throw InputError(where + quoted(head) + " is neither a problem (`bsde problems` lists them), PROBLEM-kK-nN, "
                             "surface-bs-call nor surface-exchange");
        }
        K = parse_integer(where + "K", name.K);  // digits: refused only beyond int's range
        N = parse_integer(where + "N", name.N);
        check_multistep_order(where + "K", K);
    }
    BenchCase c;
    c.name = item;
    c.problem = problem->name;
    SchemeSettings& s = c.settings;
    s.T = problem->default_T;
    s.R = problem->default_R;
    s.L = problem->default_L;
    s.Ky = s.Kz = K;
    s.N = N;
    std::set<std::string> given;
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const std::string setting = trim(parts[i]);
        const std::size_t equals = setting.find('=');
        const std::string key = trim(setting.substr(0, equals));
        const std::string value = equals == std::string::npos ? "" : trim(setting.substr(equals + 1));
        if (equals == std::string::npos || value.empty())
            throw InputError(where + quoted(setting) + " is not KEY=VALUE");
        if (!given.insert(key).second) throw InputError(where + key + " is given twice");
        if (preset && (key == "K" || key == "N"))
            throw InputError(where + key + " is set by the name " + head + "; give " + problem->alias +
                             ":K=..:N=.. instead");
        const auto integer = [&](int& target) { target = parse_integer(where + key, value); };
        const auto real = [&](double& target) { target = parse_real(where + key, value); };
        const auto dimension_only = [&](int dimension) {
            if (problem->dimension != dimension)
                throw InputError(where + key + " is only for " + std::to_string(dimension) + "D problems (" +
                                 problem->alias + " is " + std::to_string(problem->dimension) + "D)");
        };
        try {
            if (key == "K") {
                integer(s.Ky);
                check_multistep_order("K", s.Ky);
                s.Kz = s.Ky;
            } else if (key == "N") integer(s.N);
            else if (key == "L") integer(s.L);
            else if (key == "picard") integer(s.picard_iterations);
            else if (key == "picard_tol") real(s.picard_tolerance);
            else if (key == "startup_substeps") integer(s.startup_substeps);
            else if (key == "startup_refine") integer(s.startup_refine);
            else if (key == "grid_order") integer(s.grid_order);
            else if (key == "gpus") {
                integer(s.gpus);
                check_gpus_value(key, s.gpus);
            }
            else if (key == "T") real(s.T);
            else if (key == "R") real(s.R);
            else if (key == "interp") s.interpolation = parse_interpolation(value);
            else if (key == "spline") {
                dimension_only(1);
                s.spline = parse_spline_boundary(value);
            } else if (key == "spline_solve") s.spline_solve = parse_spline_solve(value);
            else if (key == "smoothing") s.smoothing = parse_smoothing(value);
            else if (key == "startup") s.startup = parse_startup(value);
            else if (key == "separable") {
                if (problem->dimension == 1)
                    throw InputError(where + "separable is only for 2D and 3D problems (" + problem->alias + " is 1D)");
                if (value != "on" && value != "off")
                    throw InputError(where + "separable " + quoted(value) + ": on or off");
                s.separable_pass = value == "on";
            } else if (is_problem_parameter(key))  // the case's problem refuses another's (set_problem_terms below)
                s.problem_parameters[key] = parse_real(where + key, value);
            else
                throw InputError(where + "unknown key " + quoted(key) + " (keys: " + bench_case_keys + ")");
        } catch (const InputError& e) {
            const std::string message = e.what();
            throw InputError(message.compare(0, where.size(), where) == 0 ? message : where + message);
        }
    }
    if (surface && given.count("gpus"))
        throw InputError(where + "gpus is not for the surface cases (as bsde surface takes no --gpus)");
    if (surface) {  // the case's parameter keys reach every member; a varied one is the case's own
        c.members = batch_product(surface->lists).members;
        for (const auto& [name, value] : s.problem_parameters) {
            if (c.members.front().count(name))
                throw InputError(where + name + " is varied by the case " + head + " (" + format_number(
                                 c.members.front().at(name)) + " to " + format_number(c.members.back().at(name)) + ")");
            for (ProblemParameters& member : c.members) member[name] = value;
        }
    }
    try {
        check_spline_options(s, given.count("spline") > 0, given.count("spline_solve") > 0);
        s.startup = resolved_startup(s.startup, problem->feynman_kac_startup);
        check_startup_options(s, given.count("startup_substeps") > 0, given.count("startup_refine") > 0, s.K());
        set_problem_terms(s, *problem);
        // before any case is solved (problem_grid_checks.h); bench does not take --allow-unstable
        validate_for_problem(s, *problem, "bench runs stable cases only (the case's keys L, K and N set these)");
        for (std::size_t b = 0; b < c.members.size(); ++b)
            in_context("member " + std::to_string(b + 1) + ": ", [&] {
                validate_for_problem(member_settings(s, *problem, c.members[b]), *problem,
                                     "bench runs stable cases only");
            });
    } catch (const InputError& e) {
        throw InputError(where + e.what());
    }
    return c;
}

// The operations of the driver of each problem per node (the rule of node_cost), keyed by name.
struct DriverCount {
    const char* problem;
    double flops, transcendentals;
    const char* names;
    bool kinked_terminal;
};
const DriverCount driver_counts[] = {
    // -y y y + 5/2 y y - 3/2 y: 5 multiplications, 2 additions
    {"logistic", 7, 0, "", false},
    // 1/2 (e^(t^2) - 4 t y - 3 e^(t^2 - y e^(-t^2)) + z^2 e^(-t^2)): e^(t^2), e^(-t^2) and 4 t depend on the
    // layer only; per node y e^(-t^2), t^2 - ., 3 e^., (4t) y, z z, . e^(-t^2), three +/-, 1/2 . and one exp
    {"log-sine", 10, 1, "exp", false},
    // -(r y + ((mu - r + delta) z) / sigma)
    {"bs-call", 4, 0, "", true},
    {"bs-put", 4, 0, "", true},
    // y - (z_1 + z_2) / 2
    {"sine-sum", 3, 0, "", false},
    // -(r y + z_1 lambda_1 + z_2 lambda_2)
    {"exchange", 5, 0, "", true},
    // 3/2 y - (z_1 + z_2 + z_3) / 3, an AffineDriver<3>: a + b y + c . z
    {"sine-sum-3d", 7, 0, "", false},
    // -(r y + z . lambda), an AffineDriver<3>
    {"geometric-basket", 7, 0, "", true},
};

std::string interpolation_name(const BenchResult& r) {
    if (r.dimension == 1) return r.interpolation == "hermite" ? "cubic Hermite" : "cubic spline";
    return r.interpolation == "bicubic" ? "bicubic" : "tensor spline";
}

}  // namespace

const char* const bench_case_keys = "K, N, L, T, R, interp, spline, spline_solve, smoothing, startup, "
                                    "startup_substeps, startup_refine, picard, picard_tol, grid_order, separable, gpus and the "
                                    "problem's parameters";

const std::vector<std::string>& default_bench_cases() {
    static const std::vector<std::string> cases{"ex2-k6-n1024", "ex5-k6-n64", "ex2-k3-n256", "ex4-k3-n32"};
    return cases;
}

std::vector<BenchCase> parse_bench_cases(const std::string& text) {
    // blanks beside the commas, not around the whole list (as --K and --N lists)
    if (trim(text) != text) throw InputError("--cases " + quoted(text) + ": blanks around the value");
    std::vector<std::string> items;
    if (trim(text).empty()) items = default_bench_cases();
    else
        for (const std::string& raw : split(text, ',')) {
            const std::string item = trim(raw);
            if (item.empty())
                throw InputError("--cases " + quoted(text) + ": an empty case (cases are separated by commas)");
            items.push_back(item);
        }
    std::vector<BenchCase> cases;
    for (const std::string& item : items) cases.push_back(parse_case(item));
    return cases;
}

void validate_bench(const Invocation& invocation) {
    parse_bench_cases(invocation.cases);
    validate_repeats(invocation.repeats);
}

std::vector<Backend> bench_backends(const Invocation& invocation) {
    check_backends_present(invocation.backends);
    return invocation.backends.empty() ? std::vector<Backend>{default_backend()} : invocation.backends;
}

void check_cases_gpus(const std::vector<BenchCase>& cases, const Invocation& invocation) {
    for (const BenchCase& c : cases) {
        const std::string subject = "--cases " + quoted(c.name);
        check_gpus_backends(subject, c.settings.gpus, "--backends", invocation.backends);
        check_gpus_present(subject, c.settings.gpus);
    }
}

// The count, part by part (the rule of bench.h; docs/benchmarking.md, "Benchmark"). A node's cell and weights come from
// the node table (grid_nodes.h); w + dW is formed only for drivers that read w (none of the paper's), as
// part of the driver.
//   1D, cubic spline or Hermite cubic (CellCubicEvaluator), 23 + driver:
//     rule 0          omega_l from the table
//     interpolation 14  per column v0 v_i + v1 v_{i+1} + d0 d_i + d1 d_{i+1}: 4 products, 3 sums (a multiply and 3
//                       multiply-adds, 7), 2 columns
//     accumulation 9  y, z, f += omega . (2 each); f dW += (omega f) dW (3)
//   2D, tensor spline (TensorSplineEvaluator), 122 + driver (the rule's nodes in nested loops, l outer):
//     rule 1          omega_l omega_m
//     interpolation 108  per function 16 coefficients: 4 rows of 4 products and 3 sums, times the row weight
//                        and added (9 per row, 36 per function), 3 functions
//     accumulation 13 y, f (2 each), z_k (2 each), omega f (1), f dW_k (2 each)
//     staged (sum factorisation, the cuda pass; expectation_rules.h): interpolation 21 + 7 s, per function the
//                        axis-2 sum of 4 staged values (4 products, 3 sums), and s staged axis-1 sums (7 each) per
//                        node evaluation, s = SolveResult::staged_axis_sums / node evaluations (0.50 for ex5 at
//                        K = 6, N = 64: per node along axis 1, 3 functions x a block's windows of up to 256 + 170
//                        columns in one or two rows, for 256 points x L = 8 nodes along axis 2).
//   2D, bicubic (BicubicEvaluator), 110 + driver: rule 1, interpolation 3 x 32 (Horner in t2 then t1: 4 x (3 + 1)
//     multiply-adds), accumulation 13.
//   3D, tensor spline (TensorSpline3DEvaluator), 627 + driver:
//     rule 2          omega_l omega_m omega_o
//     interpolation 608  per function 64 coefficients: 4 planes of 4 rows (9 per row, as in 2D), each plane's sum
//                        times its weight and added (38 per plane, 152 per function), 4 functions
//     accumulation 17 y, f (2 each), z_k (2 each), omega f (1), f dW_k (2 each)
NodeCost node_cost(const std::string& problem, int dimension, InterpolationKind interpolation,
                   double staged_sums_per_node) {
    NodeCost cost;
    if (dimension == 1) {
        cost.rule = 0;
        cost.interpolation = 2 * 7;
        cost.accumulation = 9;
    } else if (dimension == 3) {
        cost.rule = 2;
        cost.interpolation = 4 * 152;
        cost.accumulation = 17;
    } else {
        cost.rule = 1;
        cost.interpolation = interpolation == InterpolationKind::bicubic ? 3 * 32
                             : staged_sums_per_node > 0               ? 3 * 7 + 7 * staged_sums_per_node
                                                                      : 3 * 36;
        if (interpolation != InterpolationKind::bicubic) cost.staged_sums = staged_sums_per_node;
        cost.accumulation = 13;
    }
    const ProblemInfo* info = problem_named(problem);
    const std::string name = info ? info->name : problem;
    for (const DriverCount& d : driver_counts)
        if (name == d.problem) {
            cost.driver = d.flops;
            cost.transcendentals = d.transcendentals;
            cost.transcendental_names = d.names;
            cost.kinked_terminal = d.kinked_terminal;
            cost.driver_known = true;
        }
    return cost;
}

long long bench_steps(int K, int N, int substeps) {
    return static_cast<long long>(startup_fine_steps(K, substeps)) + (N - K + 1);
}

double separable_layer_flops(int dimension, int M, int L) {
    const double n = M + 1.0, ghosted = M + 3.0;
    if (dimension == 3)
        return n * ghosted * ghosted * (45.0 * L + 25.0) + n * n * ghosted * 47.0 * L + n * n * n * (45.0 * L + 10.0);
    return n * ghosted * (34.0 * L + 18.0) + n * n * (37.0 * L + 5.0);
}

double fused_node_evaluations(const BenchResult& r) {
    const int main_grid_layers = r.separable_layers - r.startup_grid_separable_layers;
    return r.members * node_evaluations(r.dimension, r.M, r.L, r.K, r.N, r.substeps, r.startup_refine) -
           main_grid_layers * std::pow((r.M + 1.0) * r.L, r.dimension) -
           r.startup_grid_separable_layers * std::pow((r.startup_refine * double(r.M) + 1.0) * r.L, r.dimension);
}

static double separable_flops(const BenchResult& r) {
    const int main_grid_layers = r.separable_layers - r.startup_grid_separable_layers;
    return main_grid_layers * separable_layer_flops(r.dimension, r.M, r.L) +
           r.startup_grid_separable_layers * separable_layer_flops(r.dimension, r.startup_refine * r.M, r.L);
}

BenchFigures bench_figures(const BenchResult& r) {
    BenchFigures f;
    f.median = median_of(r.seconds);
    f.min = r.seconds.empty() ? nan : *std::min_element(r.seconds.begin(), r.seconds.end());
    f.max = r.seconds.empty() ? nan : *std::max_element(r.seconds.begin(), r.seconds.end());
    f.steps = bench_steps(r.K, r.N, r.substeps);
    f.points = static_cast<long long>(std::llround(r.members * std::pow(r.M + 1.0, r.dimension)));
    f.ms_per_step = 1000.0 * f.median / f.steps;
    if (r.instrumented_seconds > 0) {
        f.pass = r.phases.expectation / r.instrumented_seconds;
        f.status = r.phases.status / r.instrumented_seconds;
        f.fit = r.phases.fit / r.instrumented_seconds;
        f.rest = 1.0 - f.pass - f.status - f.fit;
    } else {
        f.pass = f.status = f.fit = f.rest = nan;
    }
    f.node_evaluations = r.members * node_evaluations(r.dimension, r.M, r.L, r.K, r.N, r.substeps, r.startup_refine);
    f.node_evaluations_per_second = f.node_evaluations / f.median;
    const double fused = fused_node_evaluations(r);
    f.flops = fused * r.cost.flops() + separable_flops(r);
    f.gflops = f.flops / f.median / 1e9;
    f.pass_seconds = r.instrumented_seconds > 0 ? r.phases.expectation : nan;
    f.pass_gflops = f.pass_seconds > 0 ? f.flops / f.pass_seconds / 1e9 : nan;
    // The ceilings are the GPU's, measured where cuda ran: the figures against them only there.
    const Fp64Ceilings& c = r.ceilings;
    const bool gpu = c.measured();
    f.percent_of_ceiling = gpu ? 100.0 * f.gflops * 1e9 / c.flops_per_second : nan;
    f.pass_floor = gpu ? f.flops / c.flops_per_second + fused * r.cost.transcendentals / c.exps_per_second : nan;
    f.pass_over_floor = gpu && f.pass_seconds > 0 ? f.pass_seconds / f.pass_floor : nan;
    return f;
}

Table bench_table(const std::vector<BenchResult>& results, TableStyle style) {
    const bool csv = style == TableStyle::csv;
    Table table;
    if (csv)
        table.header = {"case", "problem", "backend", "dimension", "K", "N", "M", "L", "interpolation", "members", "points",
                        "steps", "startup_substeps", "repeats", "median_s", "min_s", "max_s", "seconds",
                        "ms_per_step", "instrumented_s", "pass_fraction", "status_fraction", "fit_fraction",
                        "rest_fraction", "node_evaluations", "node_evaluations_per_s", "flops_per_node",
                        "transcendentals_per_node", "separable_layers", "flops", "gflops", "percent_of_fp64_ceiling",
                        "pass_gflops", "pass_floor_s", "pass_over_floor", "y0_error", "z0_error", "arrays_MiB",
                        "device_MiB", "ceiling_flops_per_s", "ceiling_exps_per_s"};
    else
        table.header = {"case",   "backend", "M",        "points",       "steps",   "median s",
                        "min s",  "max s",   "ms/step",  "pass %",       "status %", "fit %",
                        "rest %", "node evals/s", "GFLOP/s", "% peak", "pass GFLOP/s", "pass/floor", "y_0 error",
                        "z_0 error", "device MiB"};
    const auto cell = [&](const char* display_spec, double value) { return table_cell(style, display_spec, value); };
    for (const BenchResult& r : results) {
        const BenchFigures f = bench_figures(r);
        const auto error = [&](double e) { return r.has_exact ? e : nan; };
        const double device = r.device_bytes >= 0 ? r.device_bytes / 1048576.0 : nan;
        std::vector<std::string> row;
        if (csv) {
            std::string runs;
            for (double s : r.seconds) runs += (runs.empty() ? "" : ";") + format_number(s, "%.17g");
            row = {r.case_name, r.problem, to_string(r.backend), std::to_string(r.dimension), std::to_string(r.K),
                   std::to_string(r.N), std::to_string(r.M), std::to_string(r.L), interpolation_name(r),
                   std::to_string(r.members), std::to_string(f.points), std::to_string(f.steps), std::to_string(r.substeps),
                   std::to_string(r.seconds.size()), cell("", f.median), cell("", f.min),
                   cell("", f.max), runs, cell("", f.ms_per_step), cell("", r.instrumented_seconds),
                   cell("", f.pass), cell("", f.status), cell("", f.fit), cell("", f.rest),
                   cell("", f.node_evaluations), cell("", f.node_evaluations_per_second),
                   cell("", r.cost.flops()), cell("", r.cost.transcendentals),
                   std::to_string(r.separable_layers), cell("", f.flops), cell("", f.gflops),
                   cell("", f.percent_of_ceiling), cell("", f.pass_gflops),
                   cell("", f.pass_floor), cell("", f.pass_over_floor), cell("", error(r.y0_error)), cell("", error(r.z0_error)),
                   cell("", r.storage_bytes / 1048576.0), cell("", device),
                   cell("", r.ceilings.measured() ? r.ceilings.flops_per_second : nan),
                   cell("", r.ceilings.measured() ? r.ceilings.exps_per_second : nan)};
        } else {
            row = {r.case_name, to_string(r.backend), std::to_string(r.M), std::to_string(f.points),
                   std::to_string(f.steps), cell("%.4g", f.median), cell("%.4g", f.min),
                   cell("%.4g", f.max), cell("%.4g", f.ms_per_step), cell("%.1f", 100 * f.pass),
                   cell("%.1f", 100 * f.status), cell("%.1f", 100 * f.fit),
                   cell("%.1f", 100 * f.rest), cell("%.3e", f.node_evaluations_per_second),
                   cell("%.4g", f.gflops), cell("%.3g", f.percent_of_ceiling),
                   cell("%.4g", f.pass_gflops), cell("%.2f", f.pass_over_floor),
                   cell("%.3e", error(r.y0_error)),
                   cell("%.3e", error(r.z0_error)), cell("%.1f", device)};
        }
        table.rows.push_back(row);
    }
    return table;
}

namespace {

// The ceilings of the first result that has them (the bench measures them once, before the cases), or "".
std::string ceilings_note(const std::vector<BenchResult>& results) {
    for (const BenchResult& r : results) {
        const Fp64Ceilings& c = r.ceilings;
        if (!c.measured()) continue;
        return "ceilings (cuda): measured on the device before the cases, by independent chains of one operation in "
               "every thread of 8 blocks of 256 on every SM (the best of 5 launches after 20 ms of warm-up): FP64 "
               "multiply-add " +
               format_number(c.flops_per_second / 1e12, "%.2f") + " TFLOP/s, FP64 exp " +
               format_number(c.exps_per_second, "%.3e") +
               " per second; chains of one exp and 32 flops ran at " + format_number(c.mix_over_floor, "%.3f") +
               "x the floor these two rates give them (1: the rates add up, as the pass's floor assumes).\n";
    }
    return "";
}

}  // namespace

std::string bench_notes(const std::vector<BenchResult>& results, int repeats) {
    std::string notes =
        "times: the sweep (start-up and backward steps, after set-up) in s: median, min and max of " +
        std::to_string(repeats) + " timed solve" + (repeats == 1 ? "" : "s") +
        " after one untimed warm-up; CUDA events on cuda, the steady clock on serial and omp; ms/step over every "
        "step, start-up included.\n"
        "split of the sweep (pass: the fused expectation + Picard pass; status: the reduction of the step status; "
        "fit: the interpolation fit of the new layer, tridiagonal solves or the inverse band, and coefficient "
        "functors; rest: terminal layer, start-up copies, status read-backs, gaps): from one more, instrumented solve that marks the start and "
        "end of every phase of every step in the work (CUDA events on the stream, nothing waits; the steady clock "
        "on the host) (its sweep over the median:";
    for (std::size_t i = 0; i < results.size(); ++i) {
        const BenchResult& r = results[i];
        notes += (i ? ", " : " ") + format_number(r.instrumented_seconds / median_of(r.seconds), "%.2fx");
    }
    notes +=
        "; the marks themselves cost time, so the small phases read high); the pass's own time is the sum of its spans.\n"
        "rates: node evaluations = (M+1)^d points x L^d nodes x the stored layers each step reads, summed over "
        "the steps; GFLOP/s = the passes' flops / median, the flops being the fused pass's node evaluations x flops "
        "per node and the separable pass's per layer (below); % peak (cuda only): of the device's FP64 "
        "multiply-add rate (ceilings, below); pass GFLOP/s: the same over the pass's own "
        "time (its per-point Picard work is not counted); pass/floor (cuda only): the pass's own time over its "
        "arithmetic floor, flops / the multiply-add rate + the fused node evaluations' transcendental calls / the "
        "exp rate.\n" + ceilings_note(results) +
        "operation count per node evaluation (each FP64 +, -, *, / that depends on the node is one flop, a "
        "multiply-add two; the problem's transcendental calls are counted apart, not in the flops; docs/benchmarking.md, "
        "Benchmark):\n";
    std::vector<std::string> seen;
    for (const BenchResult& r : results) {
        if (std::find(seen.begin(), seen.end(), r.case_name) != seen.end()) continue;
        seen.push_back(r.case_name);
        const NodeCost& c = r.cost;
        notes += "  " + r.case_name + " (" + r.problem + ", " + std::to_string(r.dimension) + "D " +
                 interpolation_name(r) + ", L = " + std::to_string(r.L) + "): " + format_number(c.flops(), "%g") +
                 " flops = rule " + format_number(c.rule, "%g") + " + interpolation " +
                 format_number(c.interpolation, "%.4g") +
                 (c.staged_sums > 0
                      ? " (staged: 21 + 7 x " + format_number(c.staged_sums, "%.3g") + " axis-1 sums per node)"
                      : std::string()) +
                 " + driver " + format_number(c.driver, "%g") + " + accumulation " +
                 format_number(c.accumulation, "%g") + "; " +
                 (c.transcendentals > 0 ? format_number(c.transcendentals, "%g") + " " + c.transcendental_names
                                        : std::string("no transcendental calls")) +
                 (c.driver_known ? "" : " (driver not in the table: counted as 0)") +
                 (c.kinked_terminal ? "; the steps that read the kinked terminal layer use a finer rule there, "
                                      "and those that read the K - 1 layers after it twice the nodes (a direction) there, "
                                      "whose extra nodes are not counted"
                                    : "") +
                 "\n";
        if (r.separable_layers > 0)
            notes += "    separable pass (an affine driver) for " + std::to_string(r.separable_layers) + " of the " +
                     std::to_string(layer_reads(r.K, r.N, r.substeps)) +
                     " layer reads: " +
                     (r.dimension == 3 ? "(M+1)(M+3)^2 (45 L + 25) + (M+1)^2 (M+3) 47 L + (M+1)^3 (45 L + 10)"
                                       : "(M+1)(M+3)(34 L + 18) + (M+1)^2 (37 L + 5)") +
                     " = " + format_number(separable_layer_flops(r.dimension, r.M, r.L), "%.4g") + " flops per layer, " +
                     format_number(separable_layer_flops(r.dimension, r.M, r.L) / std::pow((r.M + 1.0) * r.L, r.dimension),
                                   "%.3g") +
                     " per node evaluation it replaces\n";
    }
    return notes;
}

void write_bench_markdown(std::ostream& out, const std::vector<BenchResult>& results, const std::string& command,
                          int repeats, const std::vector<std::string>& devices) {
    out << "# bsde bench\n\n";
    if (!command.empty()) out << "- command: `" << command << "`\n";
    out << "- devices:";
    for (std::size_t i = 0; i < devices.size(); ++i) out << (i ? ";" : "") << " " << devices[i];
    out << "\n- build: bsde at commit `" << build_commit() << "`";
    out << "\n- a benchmark, not a test: nothing is compared with a target\n\n";
    write_markdown_table(out, bench_table(results, TableStyle::display));
    out << "\n";
    for (const std::string& note : split(bench_notes(results, repeats), '\n'))
        if (!note.empty()) out << (note.compare(0, 2, "  ") == 0 ? "  - " + trim(note) : "- " + note) << "\n";
}

int bench_command(const Invocation& invocation, const std::string& command, std::ostream& out, std::ostream& err,
                  bool show_progress) {
    const std::vector<BenchCase> cases = parse_bench_cases(invocation.cases);
    const std::vector<Backend> backends = bench_backends(invocation);  // before anything runs or is written
    check_cases_gpus(cases, invocation);
    const int repeats = invocation.repeats;

    const std::string& dir = invocation.out;
    std::optional<OutputFolder> folder;
    std::unique_ptr<AtomicOutputFile> csv, markdown;
    if (!dir.empty()) {
        folder.emplace(dir);
        csv = folder->file("bench.csv");
        markdown = folder->file("bench.md");
    }

    std::vector<std::string> devices;
    for (Backend b : backends) devices.push_back(backend_ops(b).description());
    const bool on_cuda = std::find(backends.begin(), backends.end(), Backend::cuda) != backends.end();
    const Fp64Ceilings ceilings = on_cuda ? measure_cuda_fp64_ceilings() : Fp64Ceilings{};
    ProgressLine progress(show_progress);
    std::vector<BenchResult> results;
    std::vector<std::string> warnings;  // as bsde solve and bsde study give them, on err before the table
    for (const BenchCase& c : cases) {
        const std::string unstable = stability_warning(c.settings, find_problem(c.problem).dimension);
        if (!unstable.empty()) warnings.push_back(c.name + ": " + unstable);
        for (Backend b : backends) {
            const BackendOps& ops = backend_ops(b);
            const std::string label = "bench " + c.name + " on " + to_string(b);
            const auto solve = [&](const std::string& what, bool time_phases) {
                SchemeSettings s = c.settings;
                s.time_phases = time_phases;
                if (progress.enabled()) s.progress = progress.for_solve(label + ": " + what);
                return in_context(c.name + " on " + to_string(b) + ": ", [&] {
                    return c.members.empty() ? ops.solve(c.problem, s) : ops.solve_batch(c.problem, s, c.members);
                });
            };
            solve("warm-up", false);
            BenchResult r;
            SolveResult last;
            for (int i = 0; i < repeats; ++i) {
                last = solve("run " + std::to_string(i + 1) + "/" + std::to_string(repeats), false);
                r.seconds.push_back(last.sweep_seconds);
            }
            const SolveResult instrumented = solve("instrumented run", true);
            r.case_name = c.name;
            r.problem = c.problem;
            r.backend = b;
            r.dimension = last.dimension;
            r.K = c.settings.K();
            r.N = c.settings.N;
            r.M = last.M;
            r.L = c.settings.L;
            r.substeps = last.startup_substeps;
            r.interpolation = to_string(c.settings.interpolation);
            r.instrumented_seconds = instrumented.sweep_seconds;
            r.phases = instrumented.phase_seconds;
            r.members = static_cast<int>(last.members.size());
            r.has_exact = !last.members.empty() && last.members.front().has_exact;
            for (const MemberSolution& m : last.members) {  // the largest errors over the members
                r.y0_error = std::max(r.y0_error, std::fabs(m.y0 - m.y0_exact));
                r.z0_error = std::max(r.z0_error, m.z0_error());
            }
            r.storage_bytes = last.storage_bytes;
            r.device_bytes = last.device_bytes_measured;
            r.separable_layers = last.separable_layers;
            r.startup_grid_separable_layers = last.startup_grid_separable_layers;
            r.startup_refine = last.startup_refine;
            if (b == Backend::cuda) r.ceilings = ceilings;
            const double fused = fused_node_evaluations(r);
            r.cost = node_cost(c.problem, last.dimension, c.settings.interpolation,
                               fused > 0 ? last.staged_axis_sums / fused : 0.0);
            results.push_back(r);
            if (!last.picard_warning.empty())
                warnings.push_back(c.name + " on " + to_string(b) + ": " + last.picard_warning);
        }
    }
    progress.clear();

    for (const std::string& warning : warnings) err << "bsde: warning: " << warning << "\n";
    if (!dir.empty()) {  // the files first: a run that fails to write them prints nothing on out
        write_csv(csv->stream(), bench_table(results, TableStyle::csv));
        write_bench_markdown(markdown->stream(), results, command, repeats, devices);
        commit_together({csv.get(), markdown.get()});
    }
    write_text_table(out, bench_table(results, TableStyle::display));
    out << bench_notes(results, repeats);
    out << "devices:";
    for (std::size_t i = 0; i < devices.size(); ++i) out << (i ? ";" : "") << " " << devices[i];
    out << "\nbuild: bsde at commit " << build_commit() << "\n";
    if (!dir.empty()) out << "files: " << dir << "/bench.csv, " << dir << "/bench.md\n";
    return 0;
}

}  // namespace bsde
