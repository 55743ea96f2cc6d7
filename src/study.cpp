#include "study.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "../algorithms/core/errors.h"
#include "../algorithms/scheme/grid.h"
#include "../algorithms/scheme/stability.h"
#include "../problems/registry.h"
#include "options.h"
#include "progress.h"
#include "repeats.h"
#include "text.h"

namespace bsde {
namespace {

const double nan = std::numeric_limits<double>::quiet_NaN();
const Backend all_backends[] = {Backend::serial, Backend::omp, Backend::cuda};

// The least and the most time of the backend's solves of the case; NaN for both where it did not run.
std::pair<double, double> seconds_range(const StudyCase& c, Backend backend) {
    const auto it = c.runs.find(backend);
    if (it == c.runs.end() || it->second.empty()) return {nan, nan};
    const auto [least, most] = std::minmax_element(it->second.begin(), it->second.end());
    return {*least, *most};
}

bool has_cuda(const std::vector<Backend>& backends) {
    return std::find(backends.begin(), backends.end(), Backend::cuda) != backends.end();
}

// Estimated cost of one solve in arbitrary units: steps x points x stored layers.
double work_units(int K, int N, int M, int dimension) { return double(N) * std::pow(M + 1.0, dimension) * (K + 1); }

bool listed(const std::vector<int>& values, int value) {
    return std::find(values.begin(), values.end(), value) != values.end();
}

}  // namespace

std::vector<int> parse_int_list(const std::string& option, const std::string& text, bool list_allowed) {
    if (!list_allowed) return {parse_integer(option, text, "one integer expected (lists and ranges are for bsde study)")};
    // An item as an int; digits beyond int's range are an error of their own rather than "not an integer".
    const auto integer = [&](const std::string& item, int& value) {
        if (to_int(item, value)) return true;
        if (is_digits(item))  // the digits as they are where they are few ("8,-99999999999": -99999999999 is ...)
            throw InputError(option + " " + quoted(text) + ": " + (item.size() <= 80 ? item : quoted(item)) + " is " +
                             int_range_refusal(item));
        return false;
    };
    // The value as given, as every option takes a number (--T ' 1' is refused); a list's items may have blanks beside
    // their commas.
    if (trim(text) != text) throw InputError(option + " " + quoted(text) + ": blanks around the value");
    // A list expands to at most most_values values, a range and the whole list alike: the parse's time and memory are
    // bounded whatever the list (200 ranges of 99999 values would take a gigabyte).
    constexpr long long most_values = 100000;
    long long count = 0;  // the values named so far, repeats counted
    std::set<int> values;
    for (const std::string& raw : split(text, ',')) {
        const std::string item = trim(raw);
        int value = 0, first = 0, last = 0;
        const std::size_t dash = item.find('-', 1);
        if (integer(item, value)) {
            ++count;
            values.insert(value);
        } else if (dash != std::string::npos && integer(trim(item.substr(0, dash)), first) &&
                   integer(trim(item.substr(dash + 1)), last) && first <= last) {
            const long long size = static_cast<long long>(last) - first + 1;
            if (size > most_values)
                throw InputError(option + " " + quoted(text) + ": the range " + quoted(item) + " holds more than " +
                                 std::to_string(most_values) + " values");
            count += size;
            if (count <= most_values)
                for (long long v = first; v <= last; ++v) values.insert(static_cast<int>(v));  // last may be INT_MAX
        } else {
            throw InputError(option + " " + quoted(text) + ": " + quoted(item) +
                             " is neither an integer nor a range a-b with a <= b (lists look like 1-6 or 128,256,512)");
        }
        if (count > most_values)
            throw InputError(option + " " + quoted(text) + ": the list holds more than " + std::to_string(most_values) +
                             " values");
    }
    return {values.begin(), values.end()};
}

std::vector<Backend> parse_backend_list(const std::string& text) {
    // blanks beside the commas, not around the whole list (as --K and --N lists)
    if (trim(text) != text) throw InputError("--backends " + quoted(text) + ": blanks around the value");
    std::set<Backend> chosen;
    for (const std::string& raw : split(text, ',')) {
        const std::string name = trim(raw);
        if (name != "serial" && name != "omp" && name != "cuda")
            throw InputError("--backends " + quoted(text) + ": unknown backend " + quoted(name) +
                             " (allowed: serial, omp, cuda, comma-separated)");
        chosen.insert(parse_backend(name));
    }
    std::vector<Backend> ordered;
    for (Backend b : all_backends)
        if (chosen.count(b)) ordered.push_back(b);
    return ordered;
}

// The settings of the study's case K, N.
static SchemeSettings case_settings(const SchemeSettings& base, int K, int N) {
    SchemeSettings s = base;
    s.Ky = s.Kz = K;
    s.N = N;
    return s;
}

double study_estimate_cost(const std::string& problem, const SchemeSettings& base, const std::vector<int>& Ks,
                           const std::vector<int>& Ns) {
    const ProblemInfo& info = find_problem(problem);
    const int dimension = info.dimension;
    double extra = 0, all = 0;
    std::map<int, std::set<int>> unlisted;  // the estimate's levels the lists lack, by K: solved once each
    for (int K : Ks)
        for (int N : Ns) {
            const SchemeSettings s = case_settings(base, K, N);
            const double evaluations = node_evaluations(s, dimension);
            all += evaluations;
            for (const int level : {coarse_steps(N), coarse_steps(coarse_steps(N))})
                if (!listed(Ns, level) && level >= K + 1) unlisted[K].insert(level);
        }
    for (const auto& [K, levels] : unlisted)
        for (int level : levels) extra += node_evaluations(case_settings(base, K, level), dimension);
    return all > 0 ? extra / all : 0;
}

void validate_study(const Invocation& invocation) {
    if (!std::isfinite(invocation.max_seconds) || invocation.max_seconds < 0)
        throw InputError("--max-seconds " + format_number(invocation.max_seconds, "%g") +
                         ": must be a finite number >= 0 (0 = no limit)");
    validate_repeats(invocation.repeats);
    const ProblemInfo& problem = find_problem(invocation.problem);
    for (int K : invocation.Ks)
        for (int N : invocation.Ns) validate_for_problem(case_settings(invocation.settings, K, N), problem);
}

double observed_order(double error_coarse, int N_coarse, double error_fine, int N_fine) {
    const auto usable = [](double e) { return std::isfinite(e) && e > 0; };
    if (!usable(error_coarse) || !usable(error_fine) || N_fine == N_coarse || N_coarse <= 0 || N_fine <= 0) return nan;
    return std::log(error_coarse / error_fine) / std::log(double(N_fine) / N_coarse);
}

double speedup(double slow_seconds, double fast_seconds) {
    if (!(slow_seconds > 0) || !(fast_seconds > 0)) return nan;  // also NaN inputs
    return slow_seconds / fast_seconds;
}

std::vector<std::pair<Backend, Backend>> speedup_pairs(const std::vector<Backend>& backends) {
    std::vector<std::pair<Backend, Backend>> pairs;
    if (backends.size() < 2) return pairs;
    Backend fastest = Backend::serial;
    for (Backend b : backends)
        if (static_cast<int>(b) > static_cast<int>(fastest)) fastest = b;
    for (Backend b : all_backends)
        if (b != fastest && std::find(backends.begin(), backends.end(), b) != backends.end())
            pairs.push_back({fastest, b});
    return pairs;
}

bool left_out_by_time(const std::vector<StudyCase>& done, Backend backend, int K, int N, double max_seconds) {
    if (max_seconds <= 0) return false;
    for (const StudyCase& c : done)
        if (c.K <= K && c.N <= N && !(c.K == K && c.N == N) && seconds_of(c, backend) > max_seconds) return true;
    return false;
}

std::string table_cell(TableStyle style, const char* display_spec, double value) {
    return std::isfinite(value) ? format_number(value, style == TableStyle::csv ? "%.17g" : display_spec)
                                : std::string();
}

Table study_table(const Study& study, TableStyle style) {
    const bool csv = style == TableStyle::csv;
    const auto pairs = speedup_pairs(study.backends);
    const bool cuda = has_cuda(study.backends);
    const auto cell = [&](const char* display_spec, double value) { return table_cell(style, display_spec, value); };

    Table table;
    if (csv) table.header = {"K", "N", "M", "y0", "z0", "y0_error", "z0_error", "order_y", "order_z"};
    else if (study.estimated)
        table.header = {"K", "N", "M", "y_0 error", "y_0 est", "order y", "z_0 error", "z_0 est", "order z"};
    else table.header = {"K", "N", "M", "y_0 error", "order y", "z_0 error", "order z"};
    if (csv && study.estimated)
        for (const char* name : {"y0_estimate", "z0_estimate", "estimate_N", "estimate_seconds"})
            table.header.push_back(name);
    if (study.slope_checked) table.header.push_back(csv ? "z_check" : "z check");
    for (Backend b : study.backends) table.header.push_back(csv ? "seconds_" + to_string(b) : to_string(b) + " s");
    const bool spread = csv && study.repeats > 1;
    if (spread)
        for (Backend b : study.backends)
            for (const char* end : {"min", "max"})
                table.header.push_back("seconds_" + std::string(end) + "_" + to_string(b));
    for (const auto& [fast, slow] : pairs)
        table.header.push_back(csv ? "speedup_" + to_string(fast) + "_" + to_string(slow)
                                   : to_string(fast) + "/" + to_string(slow));
    table.header.push_back(csv ? "arrays_MiB" : "arrays MiB");
    if (cuda) table.header.push_back(csv ? "device_MiB" : "device MiB");

    const StudyCase* previous = nullptr;
    for (const StudyCase& c : study.cases) {
        const bool solved = !c.seconds.empty();
        const bool errors = solved && c.has_exact;
        const bool same_K = previous != nullptr && previous->K == c.K;
        const auto error = [&](double e) { return errors ? e : nan; };
        const auto order = [&](double StudyCase::*member) {
            if (!same_K || !errors || previous->seconds.empty() || !previous->has_exact) return nan;
            return observed_order(previous->*member, previous->N, c.*member, c.N);
        };
        std::vector<std::string> row{std::to_string(c.K), std::to_string(c.N), std::to_string(c.M)};
        if (csv) {
            row.push_back(cell("", solved ? c.y0 : nan));
            row.push_back(cell("", solved ? c.z0 : nan));
            row.push_back(cell("", error(c.y0_error)));
            row.push_back(cell("", error(c.z0_error)));
            row.push_back(cell("", order(&StudyCase::y0_error)));
            row.push_back(cell("", order(&StudyCase::z0_error)));
            if (study.estimated) {
                const bool made = solved && c.estimate.made;
                row.push_back(cell("", made ? c.estimate.y_error : nan));
                row.push_back(cell("", made ? c.estimate.z_error : nan));
                row.push_back(made ? std::to_string(c.estimate.coarse_N) : std::string());
                row.push_back(cell("", made ? c.estimate.seconds : nan));
            }
        } else {
            // an estimate that could not be made says so (the notes say why), never as a number
            const auto estimate = [&](double e) {
                return !solved ? std::string() : c.estimate.made ? cell("%.1e", e) : std::string("n/a");
            };
            row.push_back(cell("%.3e", error(c.y0_error)));
            if (study.estimated) row.push_back(estimate(c.estimate.y_error));
            row.push_back(cell("%.2f", order(&StudyCase::y0_error)));
            row.push_back(cell("%.3e", error(c.z0_error)));
            if (study.estimated) row.push_back(estimate(c.estimate.z_error));
            row.push_back(cell("%.2f", order(&StudyCase::z0_error)));
        }
        if (study.slope_checked) row.push_back(cell("%.1e", solved && c.slope.points > 0 ? c.slope.ratio : nan));
        for (Backend b : study.backends) row.push_back(cell("%.4f", seconds_of(c, b)));
        if (spread)
            for (Backend b : study.backends) {
                const auto [least, most] = seconds_range(c, b);
                row.push_back(cell("", least));
                row.push_back(cell("", most));
            }
        for (const auto& [fast, slow] : pairs) row.push_back(cell("%.1f", speedup(seconds_of(c, slow), seconds_of(c, fast))));
        row.push_back(cell("%.2f", solved ? c.storage_bytes / 1048576.0 : nan));
        if (cuda) row.push_back(cell("%.2f", c.device_bytes >= 0 ? c.device_bytes / 1048576.0 : nan));
        table.rows.push_back(row);
        previous = &c;
    }
    return table;
}

// The notes on the estimate columns: how they were made and what their solves cost, why a case has none; or, where
// the default left them out, why.
static std::string estimate_notes(const Study& study) {
    if (!study.estimated)
        return study.estimate_mode == EstimateMode::automatic
                   ? "Error estimates: off: the solves at N/2 and N/4 that the lists lack would cost about " +
                         format_number(100 * study.estimate_cost, "%.0f") +
                         " % of the study's solves, more than the third that the default allows (--estimate on "
                         "makes them).\n"
                   : "";
    int solves = 0;
    double seconds = 0, study_seconds = 0;
    std::string unavailable;
    for (const StudyCase& c : study.cases) {
        for (const auto& [backend, times] : c.runs)
            for (const double t : times) study_seconds += t;
        if (c.estimate.made && c.estimate.seconds > 0) ++solves, seconds += c.estimate.seconds;
        if (!c.estimate.made && !c.seconds.empty())
            unavailable += (unavailable.empty() ? "" : "; ") + std::string("K = ") + std::to_string(c.K) +
                           ", N = " + std::to_string(c.N) + ": " + c.estimate.unavailable;
    }
    std::string notes = "y_0 est, z_0 est: a-posteriori estimates of the errors, without the exact solution: "
                        "max(|v_N - v_N'| / (2^p - 1), |v_N' - v_N''| / ((2^p - 1) 2^p)) with the cases at N' = N/2 "
                        "and N'' = N/4 (docs/cli.md, Error estimate), ";
    notes += solves == 0 ? std::string("each from the study's own cases")
                         : "the N' and N'' the lists lack solved once each, for " + std::to_string(solves) +
                               (solves == 1 ? " case (" : " cases (") + format_number(seconds, "%.3g") + " s, " +
                               format_number(100 * seconds / study_seconds, "%.2g") + " % of the study's sweep time)";
    notes += ".\n";
    if (!unavailable.empty()) notes += "n/a: the estimate could not be made: " + unavailable + ".\n";
    return notes;
}

std::string study_notes(const Study& study) {
    std::string notes;
    if (study.repeats > 1) {
        notes += "Times: the median of " + std::to_string(study.repeats) +
                 " solves of each case on each backend, taken in rounds (each round solves the case once on every "
                 "backend); the most a backend's slowest solve of a case took over its fastest:";
        for (Backend b : study.backends) {
            double widest = nan;
            for (const StudyCase& c : study.cases) {
                const auto [fastest, slowest] = seconds_range(c, b);
                if (std::isfinite(fastest) && !(widest >= slowest / fastest)) widest = slowest / fastest;
            }
            notes += (b == study.backends.front() ? " " : ", ") + to_string(b) + " " +
                     (std::isfinite(widest) ? format_number(widest, "%.3fx") : std::string("-"));
        }
        notes += ".\n";
    }
    std::vector<std::string> left_out;
    for (Backend b : study.backends) {
        int count = 0;
        for (const StudyCase& c : study.cases) count += ran(c, b) ? 0 : 1;
        if (count > 0) left_out.push_back(to_string(b) + " (" + std::to_string(count) + (count == 1 ? " case)" : " cases)"));
    }
    if (!left_out.empty()) {
        notes += "Empty time cells: left out by --max-seconds " + format_number(study.max_seconds, "%g") +
                 " (the backend took longer on a case with smaller or equal K and N; never estimated): ";
        for (std::size_t i = 0; i < left_out.size(); ++i) notes += (i ? ", " : "") + left_out[i];
        notes += ".\n";
    }
    notes += estimate_notes(study);
    const bool without_exact = std::any_of(study.cases.begin(), study.cases.end(),
                                           [](const StudyCase& c) { return !c.seconds.empty() && !c.has_exact; });
    if (without_exact)
        notes += "Empty error and order columns: problem " + study.problem +
                 " has no exact solution to measure them against; study.csv (with --out DIR) gives y_0 and z_0.\n";
    return notes;
}

std::vector<Backend> study_backends(const Invocation& invocation) {
    check_backends_present(invocation.backends);
    // --gpus G > 1 runs the cuda backend alone (options.cpp refused --backends with another)
    const int gpus = invocation.settings.gpus;
    check_gpus_present("--gpus " + std::to_string(gpus), gpus);
    if (gpus > 1) return {Backend::cuda};
    if (!invocation.backends.empty()) return invocation.backends;
    std::vector<Backend> present;
    for (Backend b : all_backends)
        if (backend_available(b)) present.push_back(b);
    return present;
}

// A warning of a wrong result (empty: none) among the study's, after `context` ("K = 3, N = 64: "), or with --strict the
// error that stops the study.
static void warn_or_fail(Study& study, const std::string& context, const std::string& warning) {
    if (warning.empty()) return;
    fail_if_strict(context + warning, study.settings.picard_strict);
    study.warnings.push_back(context + warning);
}

// Each solved case's error estimate: Richardson from the study's cases at N/2 and N/4 where they were solved, else
// from solves on the study's fastest backend; an estimate above its value is a warning, with --strict an error.
static void estimate_cases(Study& study, ProgressLine& progress) {
    const Backend fastest = study.backends.back();
    std::map<int, LevelValues> at_hand;  // by K
    for (const StudyCase& c : study.cases)
        if (!c.seconds.empty()) at_hand[c.K][c.N] = {c.N, c.y0, c.z0_components};
    for (StudyCase& c : study.cases) {
        const std::string context = "K = " + std::to_string(c.K) + ", N = " + std::to_string(c.N) + ": ";
        if (c.seconds.empty()) {
            c.estimate.unavailable = "the case was left out";
            continue;
        }
        const SchemeSettings settings = case_settings(study.settings, c.K, c.N);
        const PointValues values{c.N, c.y0, c.z0_components};
        const auto level_progress = [&](int N) {
            return progress.enabled() ? progress.for_solve("study: estimate " + study.problem + " K = " +
                                                           std::to_string(c.K) + ", N = " + std::to_string(N) +
                                                           " on " + to_string(fastest))
                                      : ProgressCallback();
        };
        // N' and N'' wherever N'' >= K + 1: mostly the study's own cases; their cost is study.estimate_cost
        const EstimatePlan plan = plan_estimate(settings, find_problem(study.problem).dimension, EstimateMode::on);
        c.estimate = estimate_errors(backend_ops(fastest), study.problem, settings, plan, values, level_progress,
                                     &at_hand[c.K]);
        warn_or_fail(study, context, estimate_exceeds_value(c.estimate, c.y0, c.z0_components, c.y_scale, settings.T));
    }
}

Study run_study(const Invocation& invocation, const std::string& command, bool show_progress) {
    Study study;
    study.problem = invocation.problem;
    study.settings = invocation.settings;
    study.max_seconds = invocation.max_seconds;
    study.command = command;
    study.backends = study_backends(invocation);
    for (Backend b : study.backends) study.devices[b] = backend_ops(b).description();

    const ProblemInfo& problem = find_problem(invocation.problem);
    const SchemeSettings& base = invocation.settings;
    const std::string drift = drift_warning(base, problem);
    if (!drift.empty()) study.warnings.push_back(drift);
    warn_or_fail(study, "", domain_reach_warning(base, problem));
    // The region of the z checks: the options' default spots (a study takes no --spots), the others' |w| <= R/2.
    const std::vector<SpotRange> spots = problem.spot_domain ? problem.spot_domain(base, {}).spots
                                                             : std::vector<SpotRange>();
    study.slope_checked = true;
    for (int K : invocation.Ks)
        for (int N : invocation.Ns) {
            StudyCase c;
            c.K = K;
            c.N = N;
            c.M = space_intervals(K, K, N, base.T, base.R, base.grid_order);
            study.cases.push_back(c);
        }

    // Warm-up of the parallel backends (warmed_up, study.h).
    ProgressLine progress(show_progress);
    for (Backend b : study.backends) {
        if (!warmed_up(b) || study.cases.empty()) continue;
        SchemeSettings s = case_settings(base, study.cases.front().K, study.cases.front().N);
        if (progress.enabled()) s.progress = progress.for_solve("study: warm-up on " + to_string(b));
        in_context("warm-up on " + to_string(b) + ": ", [&] { return backend_ops(b).solve(study.problem, s); });
    }

    // Progress: the time left in the study from the seconds per work unit each backend has shown: after the
    // solve of case i in round `round` on backend b, or -1 while a backend still to come has not run yet.
    const int repeats = study.repeats = invocation.repeats;
    std::map<Backend, std::pair<double, double>> spent;  // seconds, work units
    const auto seconds_after = [&](std::size_t i, int round, Backend b) {
        double after = 0;
        for (std::size_t j = i; j < study.cases.size(); ++j) {
            const StudyCase& d = study.cases[j];
            const std::vector<StudyCase> before(study.cases.begin(), study.cases.begin() + j);
            for (Backend later : study.backends) {
                if (left_out_by_time(before, later, d.K, d.N, study.max_seconds)) continue;
                // the solves of case j on `later` still to come
                const int solves = j > i ? repeats : repeats - round - (static_cast<int>(later) <= static_cast<int>(b));
                if (solves <= 0) continue;
                const auto rate = spent.find(later);
                if (rate == spent.end()) return -1.0;
                const double seconds_per_unit = rate->second.first / rate->second.second;
                after += solves * seconds_per_unit * work_units(d.K, d.N, d.M, problem.dimension);
            }
        }
        return after;
    };
    const std::size_t solves_in_all = study.cases.size() * study.backends.size() * repeats;
    std::size_t solve_number = 0;
    for (std::size_t i = 0; i < study.cases.size(); ++i) {
        StudyCase& c = study.cases[i];
        const std::vector<StudyCase> done(study.cases.begin(), study.cases.begin() + i);
        const SchemeSettings settings = case_settings(base, c.K, c.N);
        // an unstable case (--allow-unstable) is warned of once, not per backend
        const std::string unstable = stability_warning(settings, problem.dimension);
        if (!unstable.empty()) study.warnings.push_back(unstable);
        std::vector<Backend> running;
        for (Backend b : study.backends)
            if (!left_out_by_time(done, b, c.K, c.N, study.max_seconds)) running.push_back(b);
        solve_number += (study.backends.size() - running.size()) * repeats;
        for (int round = 0; round < repeats; ++round)
            for (Backend b : running) {
                ++solve_number;
                SchemeSettings s = settings;
                if (progress.enabled())
                    s.progress = progress.for_solve(
                        "study " + std::to_string(solve_number) + "/" + std::to_string(solves_in_all) + ": " +
                            study.problem + " K = " + std::to_string(c.K) + ", N = " + std::to_string(c.N) + " on " +
                            to_string(b) + (repeats > 1 ? ", round " + std::to_string(round + 1) : std::string()),
                        seconds_after(i, round, b));
                const std::string context = "K = " + std::to_string(c.K) + ", N = " + std::to_string(c.N) + " on " +
                                            to_string(b) + ": ";
                const SolveResult r = in_context(context, [&] { return backend_ops(b).solve(study.problem, s); });
                if (round == 0) {
                    if (!r.picard_warning.empty()) study.warnings.push_back(context + r.picard_warning);
                    c.slope = check_slope(r, slope_region(r, spots));  // the last backend's: the fastest's
                    warn_or_fail(study, context, slope_warning(c.slope, r.dimension));
                }
                study.terminal_kinked = r.terminal_kinked;
                c.runs[b].push_back(r.sweep_seconds);
                auto& [seconds, work] = spent[b];
                seconds += r.sweep_seconds;
                work += work_units(c.K, c.N, r.M, problem.dimension);
                // The values of the fastest backend that ran (the backends run in the order serial, omp, cuda).
                c.M = r.M;
                c.has_exact = r.has_exact;
                c.y0 = r.y0;
                c.z0 = r.z0.empty() ? nan : r.z0.front();
                c.z0_components = r.z0;
                c.y_scale = r.picard_scale;
                c.y0_error = r.y0_error();
                c.z0_error = r.z0_error();
                c.storage_bytes = r.storage_bytes;
                if (r.device_bytes_measured >= 0) c.device_bytes = r.device_bytes_measured;
            }
        for (Backend b : running) c.seconds[b] = median_of(c.runs[b]);
    }
    study.estimate_mode = invocation.estimate;
    study.estimate_cost = study_estimate_cost(study.problem, base, invocation.Ks, invocation.Ns);
    study.estimated = estimate_wanted(study.estimate_mode, study.estimate_cost);
    if (study.estimated) estimate_cases(study, progress);
    progress.clear();
    return study;
}

}  // namespace bsde
