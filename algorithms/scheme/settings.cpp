#include "settings.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include "../core/errors.h"
#include "expectation_rules.h"
#include "../quadrature/gauss_hermite.h"
#include "grid.h"
#include "stability.h"

namespace bsde {

std::string to_string(Startup startup) {
    switch (startup) {
        case Startup::automatic: return "auto";
        case Startup::multistep: return "multistep";
        case Startup::feynman_kac: return "feynman-kac";
        case Startup::exact: return "exact";
    }
    return "?";
}

std::string to_string(InterpolationKind interpolation) {
    return interpolation == InterpolationKind::bicubic   ? "bicubic"
           : interpolation == InterpolationKind::hermite ? "hermite"
                                                         : "spline";
}

InterpolationKind parse_interpolation(const std::string& name) {
    if (name == "spline") return InterpolationKind::spline;
    if (name == "bicubic") return InterpolationKind::bicubic;
    if (name == "hermite") return InterpolationKind::hermite;
    throw InputError("--interp " + quoted(name) + ": allowed values are spline, hermite (1D), bicubic (2D)");
}

Startup parse_startup(const std::string& name) {
    if (name == "auto") return Startup::automatic;
    if (name == "multistep") return Startup::multistep;
    if (name == "exact") return Startup::exact;
    if (name == "feynman-kac") return Startup::feynman_kac;
    throw InputError("--startup " + quoted(name) + ": allowed values are auto, multistep, feynman-kac, exact");
}

std::string to_string(Smoothing smoothing) {
    switch (smoothing) {
        case Smoothing::none: return "none";
        case Smoothing::kreiss2: return "kreiss2";
        case Smoothing::kreiss4: return "kreiss4";
        case Smoothing::kreiss6: return "kreiss6";
    }
    return "?";
}

Smoothing parse_smoothing(const std::string& name) {
    for (Smoothing s : {Smoothing::none, Smoothing::kreiss2, Smoothing::kreiss4, Smoothing::kreiss6})
        if (name == to_string(s)) return s;
    throw InputError("--smoothing " + quoted(name) + ": allowed values are kreiss6, kreiss4, kreiss2, none");
}

namespace {
void require(bool ok, const std::string& message) {
    if (!ok) throw InputError(message);
}

// A large count for a message: "about" its value, or "more than 1e308" where it overflowed a double.
std::string approximate_count(double count) { return (std::isfinite(count) ? "about " : "") + format_large(count); }
}  // namespace

void check_multistep_order(const std::string& name, int K) {
    require(K >= 1 && K <= max_multistep_order,
            name + " " + std::to_string(K) + ": must be in [1, " + std::to_string(max_multistep_order) + "]");
}

void validate(const SchemeSettings& s, int dimension) {
    require(s.interpolation != InterpolationKind::bicubic || dimension == 2,
            std::string("--interp bicubic: only for 2D problems (") +
                (dimension == 1 ? "1D problems take spline or hermite" : "3D problems take spline") + ")");
    require(s.interpolation != InterpolationKind::hermite || dimension == 1,
            std::string("--interp hermite: only for 1D problems (") +
                (dimension == 2 ? "2D problems take spline or bicubic" : "3D problems take spline") + ")");
    check_multistep_order("--Ky", s.Ky);
    check_multistep_order("--Kz", s.Kz);
    require(s.N >= s.K() + 1, "--N " + std::to_string(s.N) + ": must be >= K + 1 = " + std::to_string(s.K() + 1) +
                                  (s.Ky == s.Kz ? "" : " (K = max(Ky, Kz))"));
    require(std::isfinite(s.T) && s.T > 0, "--T " + format_number(s.T) + ": must be a finite number > 0");
    require(std::isfinite(s.R) && s.R > 0, "--R " + format_number(s.R) + ": must be a finite number > 0");
    // One node (dW = 0) is a rule (gauss_hermite.h) but no scheme: E[f dW] and the spread of every expectation
    // vanish, so the sweep needs two at least.
    require(s.L >= 2 && s.L <= gauss_hermite_max_points,
            "--L " + std::to_string(s.L) + ": must be in [2, " + std::to_string(gauss_hermite_max_points) + "]");
    require(s.picard_iterations >= 1 && s.picard_iterations <= 100000,
            "--picard " + std::to_string(s.picard_iterations) + ": must be in [1, 100000]");
    require(std::isfinite(s.picard_tolerance) && s.picard_tolerance >= 0,
            "--picard-tol " + format_number(s.picard_tolerance) + ": must be a finite number >= 0");
    require(s.grid_order >= 0 && s.grid_order <= 8, "--grid-order " + std::to_string(s.grid_order) +
                                                        ": must be in [0, 8] (0 = the paper's rule)");
    require(s.points_per_call >= 0 && s.points_per_call <= max_points_per_call,
            "points_per_call " + std::to_string(s.points_per_call) + ": must be in [0, " +
                std::to_string(max_points_per_call) + "] (0 = automatic)");
    require(s.startup_substeps >= 0 && s.startup_substeps <= max_startup_substeps,
            "--startup-substeps " + std::to_string(s.startup_substeps) + ": must be in [0, " +
                std::to_string(max_startup_substeps) + "] (0 = automatic)");
    require(s.startup_refine >= 0 && s.startup_refine <= max_startup_refine,
            "--startup-refine " + std::to_string(s.startup_refine) + ": must be in [0, " +
                std::to_string(max_startup_refine) + "] (0 = automatic)");

    // The start-up's fine steps, N S, are counted in 32-bit integers.
    if (s.startup == Startup::multistep && s.K() > 1) {
        if (s.startup_substeps > 0)
            require(2.0 * s.startup_substeps * s.N <= INT_MAX,
                    "--N " + std::to_string(s.N) + " with --startup-substeps " + std::to_string(s.startup_substeps) +
                        ": more than 2^31 - 1 fine steps in the start-up; lower --startup-substeps or --N");
        else {
            const double S = startup_substeps(s);  // automatic: grows as sqrt(N / T)
            require(2.0 * S * s.N <= INT_MAX,
                    "--N " + std::to_string(s.N) + ", --T " + format_number(s.T) +
                        ": the start-up's automatic substeps per step in its finer pass, 2 S with S the least multiple "
                        "of Ky at least " + automatic_substeps_rule(s.terminal_kinked) + ", " +
                        approximate_count(2 * S) +
                        ", make more than 2^31 - 1 fine steps; raise --T, lower --N or set --startup-substeps");
        }
    }

    // The space grid: M = 2 ceil(R / dt^((q+1)/4)), computed in floating point first so that a huge grid is
    // reported rather than overflowing; then one function's values and its interpolation data must each be indexable
    // with 32-bit integers (LayerView; the layers and rings beyond are 64-bit offsets). Interpolation data per
    // function as in interpolation.h: 1D spline M+1 moments, 2D tensor spline (M+3)^2 coefficients, bicubic 16 M^2,
    // 3D tensor spline (M+3)^3.
    const int q = s.grid_order > 0 ? s.grid_order : matched_order(s.Ky, s.Kz);
    const double cells = s.R / std::pow(s.T / s.N, (q + 1) / 4.0);
    const std::string grid = "--N " + std::to_string(s.N) + ", --R " + format_number(s.R) + ", --T " +
                             format_number(s.T) + ": the space grid ";
    require(std::isfinite(cells) && cells < 1e9,
            grid + "would have " + approximate_count(2 * std::ceil(cells)) +
                " intervals; lower --N or --R, or raise --T");
    const int M = space_intervals(s.Ky, s.Kz, s.N, s.T, s.R, s.grid_order);
    require(M >= 4, grid + "has M = " + std::to_string(M) +
                        " intervals, at least 4 are needed; raise --R or --N, or lower --T");
    const double points = std::pow(M + 1.0, dimension);
    const double data = dimension == 1 ? M + 1.0
                        : s.interpolation == InterpolationKind::bicubic ? 16.0 * M * M
                                                                       : std::pow(M + 3.0, dimension);
    const double function_values = std::max(points, data);
    require(function_values <= INT_MAX,
            grid + "has M = " + std::to_string(M) + " intervals: a function of a layer holds " +
                format_number(function_values) + (points >= data ? " values" : " interpolation data") +
                ", more than the sweep's 32-bit indices reach (2^31 - 1); lower --N or --R" +
                (s.interpolation == InterpolationKind::bicubic
                     ? ", or take --interp spline (bicubic holds 16 coefficients a cell, the tensor spline one)"
                     : ""));

    // The fully discrete scheme's stability on this grid (stability.h).
    if (!std::isfinite(s.driver_z_gradient[0] + s.driver_z_gradient[1] + s.driver_z_gradient[2])) {
        std::string given;
        for (const auto& [name, value] : s.problem_parameters)
            given += (given.empty() ? "" : ", ") + ("--" + name + " " + format_number(value));
        throw InputError("the problem's parameters" + (given.empty() ? "" : " (" + given + ")") +
                         " make its driver's gradient in z, df/dz = " +
                         format_components(s.driver_z_gradient, dimension) +
                         ", infinite");
    }
    if (!s.allow_unstable) require_stable(s, dimension, allow_unstable_advice);
}

std::string format_components(const std::array<double, 3>& c, int dimension, const char* spec) {
    std::string text;
    for (int k = 0; k < dimension; ++k) text += (k > 0 ? ", " : "") + format_number(c[k] + 0.0, spec);
    return dimension == 1 ? text : "(" + text + ")";
}

void require_stable(const SchemeSettings& s, int dimension, const std::string& advice) {
    const StabilityEstimate stability = estimate_stability(s, dimension);
    require(stability.growth_over_run <= stability_error_growth,
            stability_warning(stability, s, dimension) + "; " + advice);
}

void check_spline_options(const SchemeSettings& s, bool spline_given, bool spline_solve_given) {
    require(!spline_given || s.interpolation == InterpolationKind::spline,
            "--spline: only for --interp spline (the " + to_string(s.interpolation) + " interpolation has no end "
            "condition)");
    require(!spline_solve_given || s.interpolation == InterpolationKind::spline,
            "--spline-solve: only for the spline interpolations (--interp spline); --interp " +
                to_string(s.interpolation) + " computes no spline moments");
}

void check_startup_options(const SchemeSettings& s, bool substeps_given, bool refine_given, int largest_K) {
    if (!substeps_given && !refine_given) return;
    const std::string given = std::string(substeps_given ? "--startup-substeps" : "") +
                              (substeps_given && refine_given ? ", " : "") + (refine_given ? "--startup-refine" : "");
    require(s.startup == Startup::multistep,
            given + ": only for --startup multistep; this run's start-up, " + to_string(s.startup) +
                (s.startup == Startup::feynman_kac ? " (the default for a driver affine in y and z)" : "") +
                ", takes no fine steps and no grid of its own");
    require(largest_K > 1, given + ": only for K >= 2 (K = 1 needs no start-up layers)");
}

double startup_substeps(const SchemeSettings& s, int N) {
    if (s.startup != Startup::multistep || s.K() == 1) return 0.0;
    if (s.startup_substeps > 0) return s.startup_substeps;
    const double steps = std::sqrt(N / s.T);
    const double least = s.terminal_kinked ? std::max(4.0, std::ceil(0.5 * steps)) : std::ceil(0.1875 * steps);
    return s.Ky * std::ceil(least / s.Ky);
}

int startup_refinement(const SchemeSettings& s, int dimension) {
    if (startup_substeps(s) == 0) return 0;
    return s.startup_refine > 0 ? s.startup_refine : dimension == 1 ? 2 : 1;
}

long long main_layer_reads(int K, int N) { return static_cast<long long>(N - K + 1) * K; }

long long startup_layer_reads(int K, int substeps) {
    const auto pass = [K](long long fine) {  // sum_{j <= fine} min(j, K)
        const long long ramp = std::min<long long>(fine, K);
        return ramp * (ramp + 1) / 2 + (fine - ramp) * K;
    };
    const long long fine = static_cast<long long>(K - 1) * substeps;
    return pass(fine) + pass(2 * fine);
}

double node_evaluations(int dimension, int M, int L, int K, int N, int substeps, int refine) {
    const double startup_points = std::pow(std::max(1, refine) * double(M) + 1.0, dimension);
    return std::pow(double(L), dimension) * (std::pow(M + 1.0, dimension) * double(main_layer_reads(K, N)) +
                                             startup_points * double(startup_layer_reads(K, substeps)));
}

double node_evaluations(const SchemeSettings& s, int dimension) {
    const int M = space_intervals(s.Ky, s.Kz, s.N, s.T, s.R, s.grid_order);
    return node_evaluations(dimension, M, s.L, s.K(), s.N, static_cast<int>(startup_substeps(s)),
                            startup_refinement(s, dimension));
}

double kinked_rule_evaluations(const SchemeSettings& s) {
    const int K = s.K(), M = space_intervals(s.Ky, s.Kz, s.N, s.T, s.R, s.grid_order);
    const int r = std::max(1, startup_refinement(s, 1));
    const CellGaussLegendreExpectation rule{SpaceGrid{M, s.R}.dx()}, startup_rule{SpaceGrid{r * M, s.R}.dx()};
    const double dt = s.T / s.N, S = startup_substeps(s);
    double startup_nodes = 0;
    for (const double passes : {S, 2 * S})
        for (int j = 1; S > 0 && j <= std::min<double>(K, (K - 1) * passes); ++j)
            startup_nodes += startup_rule.nodes(j * dt / passes);
    return (M + 1.0) * rule.nodes(K * dt) + (r * double(M) + 1.0) * startup_nodes;
}

// The largest |a_k - b_k| over the components both have.
static double largest_difference(const std::vector<double>& a, const std::vector<double>& b) {
    double largest = 0;
    for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) largest = std::max(largest, std::fabs(a[k] - b[k]));
    return largest;
}

double MemberSolution::z0_error() const { return largest_difference(z0, z0_exact); }

double SolveResult::z0_error() const { return largest_difference(z0, z0_exact); }

}  // namespace bsde
