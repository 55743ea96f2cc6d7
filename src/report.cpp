#include "report.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iomanip>

#include "../algorithms/core/errors.h"
#include "../algorithms/scheme/grid.h"
#include "../algorithms/scheme/multistep_weights.h"
#include "../problems/registry.h"

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

// The report's estimate line after its label: the estimates with the second solve's cost, why none could be made, or
// why none was asked for.
std::string estimate_line(const SolveEstimate& e, EstimateMode mode, int N) {
    const std::string cost = format_number(100 * e.cost, "%.0f") + " %";
    if (!e.wanted && mode == EstimateMode::off) return "off (--estimate off)";
    if (!e.wanted)
        return "off: the second solve at N = " + std::to_string(coarse_steps(N)) + " would cost about " + cost +
               " of this one, more than the third that the default allows (--estimate on makes it)";
    if (!e.estimate.made) return describe(e.estimate);
    const double fraction = e.run_seconds > 0 ? e.estimate.seconds / e.run_seconds : 0;
    return describe(e.estimate, "+" + format_number(e.estimate.seconds, "%.3g") + " s, " +
                                    format_number(100 * fraction, "%.2g") + " %");
}

void print_solve_report(std::ostream& out, const Invocation& inv, const SolveResult& r,
                        const StabilityEstimate& stability, const SolveEstimate& estimate, const SlopeCheck& slope) {
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
        out << ", d = 2, " << (r.M + 1) << "^2 points, " << s.L << "^2 Gauss-Hermite nodes, interpolation "
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
                                   (r.dimension == 2 ? " per axis" : "")
                             : "";
    if (s.K() == 1)
        out << "startup   none needed (K = 1)\n";
    else if (s.startup == Startup::exact)
        out << "startup   EXACT: layers N-1..N-K+1 were set from the exact solution (verification mode)\n";
    else
        out << "startup   multistep scheme on dt/" << r.startup_substeps << " and dt/" << 2 * r.startup_substeps
            << ", orders raised step by step, Richardson-extrapolated" << startup_grid << "\n";
    out << "stability " << describe(stability, s) << " (von Neumann analysis; docs/scheme.md, Stability)"
        << (stability.growth_over_run > stability_warning_growth ? "; UNSTABLE (warning on stderr)" : "") << "\n";
    if (!inv.domain.empty()) print_domain(out, inv, r);
    out << "backend   " << r.device << "\n";
    print_value(out, "y_0      ", r.y0, r.has_exact, r.y0_exact);
    for (std::size_t k = 0; k < r.z0.size(); ++k)
        print_value(out, r.z0.size() == 1 ? "z_0      " : k == 0 ? "z_0[1]   " : "z_0[2]   ", r.z0[k], r.has_exact,
                    r.has_exact ? r.z0_exact[k] : 0.0);
    if (r.has_state) {
        const std::size_t points = r.y.size(), centre = points / 2;  // w = 0
        out << "at S = " << std::setprecision(12);
        for (int k = 0; k < r.dimension; ++k)
            out << (k == 0 ? r.dimension > 1 ? "(" : "" : ", ") << r.state[k * points + centre];
        out << (r.dimension > 1 ? ")" : "") << ":\n";
        print_value(out, "price    ", r.y0, true, r.y0_exact);
        for (int k = 0; k < r.dimension; ++k)
            print_value(out, r.dimension == 1 ? "delta    " : k == 0 ? "delta_1  " : "delta_2  ",
                        r.gradient[k * points + centre], true, r.gradient_exact[k * points + centre]);
    }
    out << "estimate  " << estimate_line(estimate, inv.estimate, s.N) << "\n";
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
    if (!inv.output.empty()) out << "output    " << inv.output << "\n";
}

// One row per grid point: w (w1, w2 in 2D), y, z (z1, z2), the exact values and errors, and for the
// options the spot (S1, S2), price and delta (delta1, delta2), exact and errors, and in_spots (1 where the spots lie in
// the range, 0 elsewhere).
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
    for (std::size_t i = 0; i < points; ++i) {
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

namespace {

// The file that `path` names once its symbolic links are followed: the path that rename() must replace for the links
// to stay. A dangling link gives the file it points to, which is then created, as the shell's > creates it.
std::string followed_links(const std::string& path) {
    namespace fs = std::filesystem;
    fs::path p = path;
    std::error_code error;
    for (int links = 0; links < 40 && fs::is_symlink(fs::symlink_status(p, error)); ++links) {  // 40: Linux's limit
        const fs::path target = fs::read_symlink(p, error);
        if (error) break;
        p = target.is_absolute() ? target : p.parent_path() / target;
    }
    return p.string();
}

// The pattern of a new file's name for mkstemp beside `target` (rename() stays within one file system):
// TARGET.partial.XXXXXX, the target's name cut where the suffix would take it past the folder's longest name (a
// 250-byte name is legal). Its folder: `folder`.
std::string temporary_pattern(const std::string& target, std::string& folder) {
    namespace fs = std::filesystem;
    const fs::path path = target;
    folder = path.has_parent_path() ? path.parent_path().string() : ".";
    const std::string suffix = ".partial.XXXXXX";
    const long longest = ::pathconf(folder.c_str(), _PC_NAME_MAX);  // -1 where unknown: Linux's usual 255
    const std::size_t room = (longest > long(suffix.size()) ? std::size_t(longest) : 255) - suffix.size();
    const std::string name = path.filename().string();
    return (path.parent_path() / name.substr(0, std::min(name.size(), room))).string() + suffix;
}

// What a signal that ends the run (SIGINT, SIGTERM, SIGHUP: Ctrl-C, a time limit, a closed terminal) removes before
// its default action, so that a stopped run leaves nothing of its own behind: the temporary files being written, then
// the folders the run created (--out), each only if empty (rmdir leaves a folder that holds files). The handler makes
// only async-signal-safe calls (unlink, rmdir, sigaction, raise) on fixed copies of the paths, and reads the slots'
// kinds through lock-free atomics, which a signal on any thread (omp's too) sees after the path they publish; a
// signal the process ignores (nohup) stays ignored.
constexpr int max_removals = 32;
constexpr std::size_t max_removal_path = 4096;
// A slot's kind: 0 free; -1 a temporary file; n > 0 the n folders a run created, the deepest named, each the parent
// of the one before.
constexpr int free_slot = 0, temporary_file = -1;
char removal_paths[max_removals][max_removal_path];
std::atomic<int> removal_kinds[max_removals];
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the slots' kinds");

extern "C" void remove_own_paths_then_stop(int signal_number) {
    for (int k = 0; k < max_removals; ++k)
        if (removal_kinds[k].load(std::memory_order_acquire) == temporary_file) ::unlink(removal_paths[k]);
    for (int k = 0; k < max_removals; ++k) {
        char* path = removal_paths[k];
        for (int level = removal_kinds[k].load(std::memory_order_acquire); level > 0; --level) {
            if (::rmdir(path) != 0) break;  // a folder that holds files stays, and so do its parents
            char* cut = std::strrchr(path, '/');
            if (cut == nullptr || cut == path) break;
            *cut = '\0';  // its parent
        }
    }
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    ::sigaction(signal_number, &default_action, nullptr);
    ::raise(signal_number);
}

// A slot holding `path` for the handler, as `kind`, or -1 where none is free (more than 32 at once, or a longer path):
// that path is then left by a signal. The handler is installed before the first slot is taken; while it runs the other
// two signals wait.
int register_removal(const std::string& path, int kind) {
    static const bool installed = [] {
        const int signals[] = {SIGINT, SIGTERM, SIGHUP};
        for (const int signal_number : signals) {
            struct sigaction current {};
            if (::sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler == SIG_IGN) continue;
            struct sigaction removing {};
            removing.sa_handler = remove_own_paths_then_stop;
            sigemptyset(&removing.sa_mask);
            for (const int other : signals) sigaddset(&removing.sa_mask, other);
            ::sigaction(signal_number, &removing, nullptr);
        }
        return true;
    }();
    static_cast<void>(installed);
    if (path.size() >= max_removal_path) return -1;
    for (int k = 0; k < max_removals; ++k)
        if (removal_kinds[k].load(std::memory_order_relaxed) == free_slot) {
            std::memcpy(removal_paths[k], path.c_str(), path.size() + 1);
            removal_kinds[k].store(kind, std::memory_order_release);
            return k;
        }
    return -1;
}

// The slot's path is no longer the handler's: renamed into place, removed, or kept.
void release_removal(int slot) {
    if (slot >= 0) removal_kinds[slot].store(free_slot, std::memory_order_release);
}

// A new temporary file from a mkstemp pattern (TARGET.partial.XXXXXX): its descriptor (-1 where it cannot be made,
// errno set), its name in `name` and its slot in `slot`. The slot holds the pattern before mkstemp writes the name and
// makes the file in that copy, so that a signal at any moment finds the file it has made (or none, or a name not yet
// made, which unlink leaves).
int make_temporary(const std::string& pattern, std::string& name, int& slot) {
    slot = register_removal(pattern, temporary_file);
    std::string unregistered = pattern;
    char* buffer = slot >= 0 ? removal_paths[slot] : &unregistered[0];
    const int descriptor = ::mkstemp(buffer);
    name = buffer;
    if (descriptor < 0) {
        release_removal(slot);
        slot = -1;
    }
    return descriptor;
}

// The permissions a new file gets from open(): 0666 less the umask.
unsigned new_file_mode() {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return 0666 & ~mask;
}

}  // namespace

AtomicOutputFile::AtomicOutputFile(const std::string& path, const std::string& option)
    : where_(option + " '" + path + "': ") {
    struct stat info;
    const bool exists = ::stat(path.c_str(), &info) == 0;
    if (!exists && errno != ENOENT) throw InputError(where_ + "cannot write there (" + std::strerror(errno) + ")");
    if (exists && S_ISDIR(info.st_mode)) throw InputError(where_ + "is a directory");
    if (exists && !S_ISREG(info.st_mode)) {  // a FIFO or a device, which a rename would replace
        file_.open(path);
        if (!file_) throw InputError(where_ + "cannot write there");
        return;
    }
    // a read-only file stays, as the shell's > leaves it (the rename below would replace it)
    if (exists && ::access(path.c_str(), W_OK) != 0)
        throw InputError(where_ + "cannot write there (" + std::strerror(errno) + ")");
    target_ = followed_links(path);
    mode_ = exists ? info.st_mode & 07777 : new_file_mode();
    // a name of its own, so that no other file is touched
    std::string folder, temporary;
    const int descriptor = make_temporary(temporary_pattern(target_, folder), temporary, signal_slot_);
    if (descriptor < 0)  // a missing folder, a read-only one, one where no file can be made (/proc)
        throw InputError(where_ + "cannot write there: no file can be created in '" + folder + "' (" +
                         std::strerror(errno) + ")");
    ::close(descriptor);
    temporary_ = temporary;
    file_.open(temporary_);
    if (!file_) {  // a constructor that throws runs no destructor: the temporary file and its slot go here
        std::remove(temporary_.c_str());
        release_removal(signal_slot_);
        throw InputError(where_ + "cannot write there");
    }
}

AtomicOutputFile::~AtomicOutputFile() {
    if (!committed_) {
        file_.close();
        if (!temporary_.empty()) std::remove(temporary_.c_str());
    }
    release_removal(signal_slot_);
}

OutputFolder::OutputFolder(const std::string& path) : path_(path) {
    std::error_code error;
    for (std::filesystem::path p = std::filesystem::weakly_canonical(path, error);
         !error && !p.empty() && !std::filesystem::exists(p, error); p = p.parent_path()) {
        if (p.has_filename()) created_.push_back(p);
        if (p == p.parent_path()) break;
    }
    // registered before they exist, so that a signal at any time after their creation removes them
    if (!created_.empty()) signal_slot_ = register_removal(created_.front().string(), int(created_.size()));
    std::filesystem::create_directories(path, error);
    if (error) {
        remove_empty_created();
        release_removal(signal_slot_);
        throw InputError("--out '" + path + "': cannot create the folder (" + error.message() + ")");
    }
}

OutputFolder::~OutputFolder() {
    remove_empty_created();
    release_removal(signal_slot_);
}

void OutputFolder::remove_empty_created() const {
    std::error_code error;  // a folder that holds files is not empty and stays
    for (const std::filesystem::path& p : created_)
        if (!std::filesystem::remove(p, error)) break;
}

std::unique_ptr<AtomicOutputFile> OutputFolder::file(const std::string& name) const {
    return std::make_unique<AtomicOutputFile>(path_ + "/" + name, "--out");
}

void AtomicOutputFile::finish() {
    if (!file_.is_open()) return;
    file_.close();
    if (!file_) throw InputError(where_ + "writing the file failed");
}

void AtomicOutputFile::commit() {
    finish();
    if (!temporary_.empty() &&
        (::chmod(temporary_.c_str(), mode_) != 0 || std::rename(temporary_.c_str(), target_.c_str()) != 0))
        throw InputError(where_ + "writing the file failed");
    committed_ = true;
}

void commit_together(std::initializer_list<AtomicOutputFile*> files) {
    for (AtomicOutputFile* file : files) file->finish();
    for (AtomicOutputFile* file : files) file->commit();
}

}  // namespace bsde
