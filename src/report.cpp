#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>

#include "../algorithms/core/errors.h"
#include "../algorithms/scheme/grid.h"
#include "../algorithms/scheme/multistep_weights.h"
#include "../problems/registry.h"
#include "exercise_boundary_files.h"

namespace bsde {
namespace {

// One table: for each k = 1..K its weights as exact fractions and as the doubles the solver uses.
void print_weight_table(std::ostream& out, const std::string& title, int K, std::vector<std::string> (*fractions)(int),
                        std::vector<double> (*weights)(int)) {
    out << title << "\n";
    for (int k = 1; k <= K; ++k) {
        const std::vector<std::string> exact = fractions(k);
        const std::vector<double> row = weights(k);
        out << "  K = " << k << ":";
        for (int j = 0; j <= k; ++j) out << "  " << exact[j] << " = " << std::setprecision(17) << row[j];
        out << "\n";
    }
}

}  // namespace

void print_coefficients(std::ostream& out, int K) {
    print_weight_table(out, "gamma^K_{K,j}, j = 0..K (the y equation; paper's Table 1):", K, gamma_y_fractions,
                       gamma_y_weights);
    out << "\n";
    print_weight_table(out, "gamma^1_{K,j}, j = 0..K (the z equation; paper's Table 2):", K, gamma_z_fractions,
                       gamma_z_weights);
}

void print_grid(std::ostream& out, const Invocation& invocation, const ProblemInfo& problem) {
    const SchemeSettings& s = invocation.settings;
    const int dimension = problem.dimension;
    const SpaceGrid space{space_intervals(s.Ky, s.Kz, s.N, s.T, s.R, s.grid_order), s.R};
    const StabilityEstimate stability = estimate_stability(s, dimension);
    out << "Ky = " << s.Ky << ", Kz = " << s.Kz << ", N = " << s.N << ", T = " << s.T << ", R = " << s.R
        << " (q = " << (s.grid_order > 0 ? s.grid_order : matched_order(s.Ky, s.Kz)) << ")\n"
        << std::setprecision(10) << "M  = " << space.M << "\n"
        << "dx = " << space.dx() << "\n"
        << "dt = " << s.T / s.N << "\n"
        << (invocation.domain.empty() ? "" : "domain: " + invocation.domain + "\n")
        << "stability with L = " << s.L << " and the " << to_string(s.interpolation) << " interpolation: "
        << describe(stability, s) << "\n";
    if (stability.growth_over_run > stability_warning_growth)
        out << "UNSTABLE: bsde solve "
            << (stability.growth_over_run > stability_error_growth ? "refuses these settings unless --allow-unstable"
                                                                   : "warns of these settings")
            << "; " << stability_remedy(s, dimension) << "\n";
    const std::string refused = "REFUSED: bsde solve refuses these settings: ";
    try {
        problem.check_grid(s);
        if (!invocation.spots_refusal.empty()) out << refused << invocation.spots_refusal << "\n";
    } catch (const InputError& e) {
        out << refused << e.what() << "\n";
    }
}

void print_problems(std::ostream& out) {
    std::size_t alias_width = 0, name_width = 0, defaults_width = 0;
    std::vector<std::string> defaults;  // "T = 1, R = 16, L = 32"
    for (const ProblemInfo& p : problem_infos()) {
        alias_width = std::max(alias_width, p.alias.size() + 2);
        name_width = std::max(name_width, p.name.size() + 2);
        defaults.push_back("T = " + format_number(p.default_T, "%g") + ", R = " + format_number(p.default_R, "%g") +
                           ", L = " + std::to_string(p.default_L));
        defaults_width = std::max(defaults_width, defaults.back().size() + 2);
    }
    for (std::size_t i = 0; i < problem_infos().size(); ++i) {
        const ProblemInfo& p = problem_infos()[i];
        out << std::left << std::setw(static_cast<int>(alias_width)) << p.alias
            << std::setw(static_cast<int>(name_width)) << p.name << p.dimension << "D  "
            << std::setw(static_cast<int>(defaults_width)) << defaults[i] << std::right << p.description << "\n";
        const std::string indent(alias_width + name_width, ' ');
        if (p.spot_domain)
            out << indent << "spots: 0.5 to 2 times each initial price (--spots); R is chosen to hold them, at least "
                << format_number(p.default_R, "%g") << "\n";
        if (p.feynman_kac_startup)
            out << indent << "start-up: feynman-kac (its driver is affine in y and z), exact in time\n";
        if (p.parameters.empty()) continue;
        out << indent << "parameters:";
        std::string drifts;
        for (std::size_t k = 0; k < p.parameters.size(); ++k) {
            const ParameterInfo& parameter = p.parameters[k];
            out << (k ? "," : "") << " --" << parameter.name << " ";
            if (parameter.removing_default) {
                out << "(" << parameter.removing_default << ")";
                drifts += (drifts.empty() ? "--" : " and --") + std::string(parameter.name);
            } else
                out << format_number(parameter.default_value, "%g");
        }
        out << "\n";
        const bool several = drifts.find(" and ") != std::string::npos;
        if (!drifts.empty())
            out << indent << drifts << ": the price does not depend on " << (several ? "them; their defaults remove"
                                                                                     : "it; its default removes")
                << " the driver's z term, another value adds it and the scheme's error grows with it\n";
    }
}

// "label value   exact ...   error ..." with 12 significant digits and a 3-digit error.
void print_value(std::ostream& out, const char* label, double value, bool has_exact, double exact) {
    out << label << " " << std::defaultfloat << std::setprecision(12) << value;
    if (has_exact)
        out << "   exact " << exact << "   error " << std::scientific << std::setprecision(3) << std::fabs(value - exact);
    out << std::defaultfloat << "\n";
}

bool in_spots(const SolveResult& r, std::size_t i, const std::vector<SpotRange>& spots) {
    const std::size_t points = r.y.size();
    if (!r.has_state || spots.size() != std::size_t(r.dimension)) return false;
    for (int k = 0; k < r.dimension; ++k) {
        const double S = r.state[k * points + i];
        if (!(S >= spots[k].low && S <= spots[k].high)) return false;
    }
    return true;
}

SpotErrors spot_errors(const SolveResult& r, const std::vector<SpotRange>& spots) {
    SpotErrors e;
    const std::size_t points = r.y.size();
    for (std::size_t i = 0; i < points; ++i) {
        if (!in_spots(r, i, spots)) continue;
        ++e.points;
        e.price = std::max(e.price, std::fabs(r.y[i] - r.y_exact[i]));
        e.largest_price = std::max(e.largest_price, std::fabs(r.y_exact[i]));
        for (int k = 0; k < r.dimension; ++k)
            e.delta = std::max(e.delta, std::fabs(r.gradient[k * points + i] - r.gradient_exact[k * points + i]));
    }
    return e;
}

namespace {

// "max error over spots [50, 200] (1046 grid points): price 1.010e-07 (1.17e-09 of the largest price there, 86.2),
// delta 5.794e-08"
void print_spot_errors(std::ostream& out, const SolveResult& r, const std::vector<SpotRange>& spots) {
    const SpotErrors e = spot_errors(r, spots);
    out << "max error over spots " << describe_spots(spots);
    if (e.points == 0) {
        out << ": no grid point's spot lies there (--spots; the report's price at S0 above)\n";
        return;
    }
    out << " (" << e.points << " grid points): price " << std::scientific << std::setprecision(3) << e.price;
    if (e.largest_price > 0)
        out << " (" << format_number(e.price / e.largest_price, "%.3g") << " of the largest price there, "
            << format_number(e.largest_price, "%.6g") << ")";
    out << ", delta " << e.delta << std::defaultfloat << "\n";
}

// "domain    R = 24.4, chosen: the spots ... (M = 1046; 684 at the problem's R = 16)"
void print_domain(std::ostream& out, const Invocation& inv, const SolveResult& r) {
    const SchemeSettings& s = inv.settings;
    const double default_R = find_problem(inv.problem).default_R;
    out << "domain    " << inv.domain;
    if (s.R != default_R)
        out << " (M = " << r.M << "; " << space_intervals(s.Ky, s.Kz, s.N, s.T, default_R, s.grid_order)
            << " at the problem's R = " << format_number(default_R) << ")";
    out << "\n";
}

}  // namespace

std::string smoothing_description(bool terminal_kinked, Smoothing smoothing) {
    return terminal_kinked ? "smoothing " + to_string(smoothing) + " (of the kinked terminal data)"
                           : "no smoothing (smooth terminal data)";
}

// The report's estimate line after its label: the estimates with their solves' cost, why none could be made, or
// why none was asked for.
std::string estimate_line(const SolveEstimate& e, EstimateMode mode) {
    if (!e.plan.wanted && mode == EstimateMode::off) return "off (--estimate off)";
    if (!e.plan.wanted)
        return "off: " + estimate_steps(e.plan) + " would cost about " +
               format_number(100 * e.plan.cost, "%.0f") +
               " % of this one, more than the third that the default allows (--estimate on makes it)";
    if (!e.estimate.made) return describe(e.estimate);
    const double fraction = e.run_seconds > 0 ? e.estimate.seconds / e.run_seconds : 0;
    return describe(e.estimate, "+" + format_number(e.estimate.seconds, "%.3g") + " s, " +
                                    format_number(100 * fraction, "%.2g") + " %");
}

void print_solve_report(std::ostream& out, const Invocation& inv, const SolveResult& r,
                        const StabilityEstimate& stability, const SolveEstimate& estimate, const SlopeCheck& slope,
                        const std::string& files) {
    const SchemeSettings& s = inv.settings;
    out << std::setprecision(10);
    out << "problem   " << r.problem << "\n"
        << "scheme    Ky = " << s.Ky << ", Kz = " << s.Kz << ", N = " << s.N << ", M = " << r.M << ", L = " << s.L
        << ", T = " << s.T << ", R = " << s.R;
    const std::string moments = r.spline_solve.empty() ? "" : " (moments: " + r.spline_solve + ")";
    const std::string smoothing = smoothing_description(r.terminal_kinked, s.smoothing);
    if (r.dimension == 1 && s.interpolation == InterpolationKind::hermite)
        out << ", interpolation hermite (slopes: 4th-order differences), " << smoothing << "\n";
    else if (r.dimension == 1)
        out << ", spline " << to_string(s.spline) << moments << ", " << smoothing << "\n";
    else
        out << ", d = " << r.dimension << ", " << (r.M + 1) << "^" << r.dimension << " points, " << s.L << "^"
            << r.dimension << " Gauss-Hermite nodes, interpolation "
            << to_string(s.interpolation) << moments << ", " << smoothing << "\n";
    out
        << "picard    at most " << s.picard_iterations << " iterations, tolerance " << s.picard_tolerance << " ("
        << format_number(r.picard_scale, "%.4g") << " + |y|); used at most " << r.picard_most_iterations
        << ", largest last change " << std::scientific << std::setprecision(2) << r.picard_largest_change << std::defaultfloat
        << (r.picard_unconverged_steps > 0
                ? "; NOT CONVERGED in " + std::to_string(r.picard_unconverged_steps) + " steps (warning on stderr)"
                : "")
        << "\n";
    const std::string startup_grid =
        r.startup_refine > 1 ? ", on a grid of " + std::to_string(r.startup_refine) + " M = " +
                                   std::to_string(r.startup_refine * r.M) + " intervals" +
                                   (r.dimension > 1 ? " per axis" : "")
                             : "";
    if (s.K() == 1)
        out << "startup   none needed (K = 1)\n";
    else if (r.startup == Startup::exact)
        out << "startup   EXACT: layers N-1..N-K+1 were set from the exact solution (verification mode)\n";
    else if (r.startup == Startup::feynman_kac)
        out << "startup   Feynman-Kac formula of the affine driver: layers N-1..N-K+1 each one Gaussian integral of the "
               "terminal data, exact in time\n";
    else
        out << "startup   multistep scheme on dt/" << r.startup_substeps << " and dt/" << 2 * r.startup_substeps
            << ", orders raised step by step, Richardson-extrapolated" << startup_grid << "\n";
    out << "stability " << describe(stability, s) << " (von Neumann analysis; docs/scheme.md, Stability)"
        << (stability.growth_over_run > stability_warning_growth ? "; UNSTABLE (warning on stderr)" : "") << "\n";
    if (!inv.domain.empty()) print_domain(out, inv, r);
    out << "backend   " << r.device << "\n";
    print_value(out, "y_0      ", r.y0, r.has_exact, r.y0_exact);
    for (std::size_t k = 0; k < r.z0.size(); ++k)
        print_value(out, r.z0.size() == 1 ? "z_0      " : ("z_0[" + std::to_string(k + 1) + "]   ").c_str(), r.z0[k],
                    r.has_exact, r.has_exact ? r.z0_exact[k] : 0.0);
    if (r.has_state) {
        const std::size_t points = r.y.size(), centre = points / 2;  // w = 0
        out << "at S = " << std::setprecision(12);
        for (int k = 0; k < r.dimension; ++k)
            out << (k == 0 ? r.dimension > 1 ? "(" : "" : ", ") << r.state[k * points + centre];
        out << (r.dimension > 1 ? ")" : "") << ":\n";
        print_value(out, "price    ", r.y0, true, r.y0_exact);
        for (int k = 0; k < r.dimension; ++k)
            print_value(out, r.dimension == 1 ? "delta    " : ("delta_" + std::to_string(k + 1) + "  ").c_str(),
                        r.gradient[k * points + centre], true, r.gradient_exact[k * points + centre]);
    }
    if (r.has_exercise_boundary) out << "exercise  " << describe_exercise_boundary(r.exercise_boundary) << "\n";
    out << "estimate  " << estimate_line(estimate, inv.estimate) << "\n";
    if (estimate.estimate.made && find_problem(inv.problem).reflected)
        out << "y_0 limit " << std::setprecision(12) << estimate.estimate.y_extrapolated
            << " (Richardson's from N = " << s.N << " and " << estimate.estimate.coarse_N
            << " at order 1: the price of continuous exercise; y_0 is that of N exercise dates)\n";
    out << "z check   " << describe(slope, r.dimension)
        << (slope.ratio > slope_check_limit ? "; DISAGREE (warning on stderr)" : "") << "\n";
    if (r.has_exact && r.has_state && !inv.spots.empty())
        print_spot_errors(out, r, inv.spots);
    else if (r.has_exact)
        out << "max error over |w| <= R/2 = " << format_number(s.R / 2, "%.4g") << " ("
            << format_number(s.R / 2 / std::sqrt(s.T), "%.3g")
            << " sqrt(T) inside the domain; how far its truncation's error reaches in is not checked): y "
            << std::scientific << std::setprecision(3) << r.max_y_error_inner << ", z " << r.max_z_error_inner
            << std::defaultfloat << "\n";
    out << std::fixed << std::setprecision(4) << "sweep     " << r.sweep_seconds << " s\n"
        << std::setprecision(2) << "memory    " << r.storage_bytes / 1048576.0 << " MiB in the solver's arrays";
    if (r.device_bytes_measured >= 0)
        out << ", " << r.device_bytes_measured / 1048576.0 << " MiB of device memory taken (cudaMemGetInfo)";
    out << std::defaultfloat << "\n";
    if (!files.empty()) out << "output    " << files << "\n";
}

// One row per grid point: w (w1, w2 in 2D), y, z (z1, z2), the exact values and errors, and for the
// options the spot (S1, S2), price and delta (delta1, delta2), exact and errors, and in_spots (1 where the spots lie in
// the range, 0 elsewhere). In 3D the rows of the slice w3 = 0 alone (i_3 = M/2): the whole grid's (M+1)^3 rows would
// be a file of gigabytes at the grids a 3D solve needs.
void write_solution_csv(std::ostream& out, const SolveResult& r, const std::vector<SpotRange>& spots) {
    const int d = r.dimension;
    const std::size_t points = r.y.size();
    auto names = [d](const std::string& name, const std::string& suffix) {
        std::string columns;
        for (int k = 0; k < d; ++k) columns += "," + name + (d == 1 ? "" : std::to_string(k + 1)) + suffix;
        return columns;
    };
    out << std::setprecision(17);
    out << names("w", "").substr(1) << ",y" << names("z", "")
        << (r.has_exact ? ",y_exact" + names("z", "_exact") + ",y_error" + names("z", "_error") : "")
        << (r.has_state ? names("S", "") + ",price" + names("delta", "") + ",price_exact" + names("delta", "_exact") +
                              ",price_error" + names("delta", "_error") + ",in_spots"
                        : "")
        << "\n";
    // ",c_1,...,c_d": point i of an array of d columns of `points` values, less another's where `minus` is given
    const auto columns = [&](std::size_t i, const std::vector<double>& v, const std::vector<double>* minus = nullptr) {
        for (int k = 0; k < d; ++k) out << "," << v[k * points + i] - (minus ? (*minus)[k * points + i] : 0.0);
    };
    const std::size_t per_axis = static_cast<std::size_t>(r.M) + 1;
    for (std::size_t i = 0; i < points; ++i) {
        if (d == 3 && i % per_axis != per_axis / 2) continue;
        for (int k = 0; k < d; ++k) out << (k ? "," : "") << r.w[k * points + i];
        out << "," << r.y[i];
        columns(i, r.z);
        if (r.has_exact) {
            out << "," << r.y_exact[i];
            columns(i, r.z_exact);
            out << "," << r.y[i] - r.y_exact[i];
            columns(i, r.z, &r.z_exact);
        }
        if (r.has_state) {
            columns(i, r.state);
            out << "," << r.y[i];
            columns(i, r.gradient);
            out << "," << r.y_exact[i];
            columns(i, r.gradient_exact);
            out << "," << r.y[i] - r.y_exact[i];
            columns(i, r.gradient, &r.gradient_exact);
            out << "," << (in_spots(r, i, spots) ? 1 : 0);
        }
        out << "\n";
    }
}

}  // namespace bsde
