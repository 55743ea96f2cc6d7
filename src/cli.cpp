#include "cli.h"

#include <chrono>
#include <iostream>
#include <memory>
#include <new>
#include <string>

#include "../algorithms/backends/backend.h"
#include "../algorithms/core/errors.h"
#include "../algorithms/scheme/stability.h"
#include "../problems/registry.h"
#include "bench.h"
#include "build_info.h"
#include "estimate.h"
#include "exercise_boundary_files.h"
#include "options.h"
#include "progress.h"
#include "report.h"
#include "result_checks.h"
#include "study.h"
#include "surface.h"

namespace bsde {
namespace {

// A message as one line: control characters (a newline in a file name, say) written as \xNN.
std::string one_line(const std::string& message) {
    std::string line;
    for (const char c : message) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7F) {
            const char* hex = "0123456789ABCDEF";
            line += std::string("\\x") + hex[u >> 4] + hex[u & 15];
        } else {
            line += c;
        }
    }
    return line;
}

// A warning of a wrong result (empty: none) as a line on err, or with --strict the error that stops the run.
void warn_or_fail(const std::string& warning, bool strict, std::ostream& err) {
    fail_if_strict(warning, strict);
    if (!warning.empty()) err << "bsde: warning: " << one_line(warning) << "\n";
}

// The files of a solve, opened before it (an unwritable path fails at once): --output's CSV, and for a problem that
// records an early-exercise boundary its table and gnuplot script beside it (exercise_boundary_files.h).
struct SolveFiles {
    std::unique_ptr<AtomicOutputFile> csv, boundary_csv, boundary_script;
    ExerciseBoundaryPaths boundary;

    SolveFiles(const Invocation& invocation, std::ostream& err) {
        if (invocation.output.empty()) return;
        csv = std::make_unique<AtomicOutputFile>(invocation.output);
        if (!find_problem(invocation.problem).exercise_boundary) return;
        boundary = exercise_boundary_paths(invocation.output);
        if (boundary.csv.empty()) {
            err << "bsde: note: the exercise boundary's files are not written: --output " << quoted(invocation.output)
                << " is not a regular file\n";
            return;
        }
        boundary_csv = std::make_unique<AtomicOutputFile>(boundary.csv);
        boundary_script = std::make_unique<AtomicOutputFile>(boundary.script);
    }

    // Writes and commits the files, then makes the boundary's plot; returns the files written, "FILE, ...".
    std::string write(const Invocation& invocation, const SolveResult& result, std::ostream& err) {
        if (!csv) return "";
        write_solution_csv(csv->stream(), result, invocation.spots);
        if (!boundary_csv) {
            csv->commit();
            return invocation.output;
        }
        write_exercise_boundary_csv(boundary_csv->stream(), result.exercise_boundary);
        boundary_script->stream() << exercise_boundary_gnuplot(result.exercise_boundary, result.problem, boundary);
        commit_together({csv.get(), boundary_csv.get(), boundary_script.get()});
        std::string files = invocation.output + ", " + boundary.csv + ", " + boundary.script;
        const std::string png = plot_exercise_boundary(boundary, err);
        return png.empty() ? files : files + ", " + png;
    }
};

int solve_command(const Invocation& invocation, std::ostream& out, std::ostream& err, bool show_progress) {
    SchemeSettings settings = invocation.settings;
    // --gpus G > 1 runs the cuda backend (options.cpp refused --backend omp and serial with it)
    const Backend backend = invocation.backend_given ? invocation.backend
                            : settings.gpus > 1      ? Backend::cuda
                                                     : default_backend();
    check_gpus_present("--gpus " + std::to_string(settings.gpus), settings.gpus);
    const BackendOps& ops = backend_ops(backend);
    SolveFiles files(invocation, err);
    ProgressLine progress(show_progress);  // erased before the report, or an error, is printed
    settings.warn_before_run = [&err, &progress](const std::string& warning) {
        progress.print(err, "bsde: warning: " + one_line(warning));  // a line of its own on a terminal
    };
    settings.progress = progress.for_solve("solve " + invocation.problem + " K = " + std::to_string(settings.K()) +
                                           ", N = " + std::to_string(settings.N) + " on " + to_string(backend));
    const ProblemInfo& problem = find_problem(invocation.problem);
    const std::string drift = drift_warning(settings, problem);
    if (!drift.empty()) err << "bsde: warning: " << one_line(drift) << "\n";
    warn_or_fail(domain_reach_warning(settings, problem), settings.picard_strict, err);
    const auto start = std::chrono::steady_clock::now();
    const SolveResult result = ops.solve(invocation.problem, settings);
    SolveEstimate estimate;
    estimate.run_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    estimate.plan = plan_estimate(settings, result.dimension, invocation.estimate);
    if (estimate.plan.wanted)
        estimate.estimate = estimate_errors(ops, invocation.problem, settings, estimate.plan,
                                            {settings.N, result.y0, result.z0},
                                            [&](int N) {
                                                return progress.for_solve("estimate: solve " + invocation.problem +
                                                                          " K = " + std::to_string(settings.K()) +
                                                                          ", N = " + std::to_string(N) + " on " +
                                                                          to_string(backend));
                                            });
    progress.clear();
    if (!result.picard_warning.empty()) err << "bsde: warning: " << one_line(result.picard_warning) << "\n";
    const StabilityEstimate stability = estimate_stability(settings, result.dimension);
    const std::string unstable = stability_warning(stability, settings, result.dimension);
    if (!unstable.empty()) err << "bsde: warning: " << one_line(unstable) << "\n";
    warn_or_fail(estimate_exceeds_value(estimate.estimate, result.y0, result.z0, result.picard_scale, settings.T),
                 settings.picard_strict, err);
    const SlopeCheck slope = check_slope(result, slope_region(result, invocation.spots));
    warn_or_fail(slope_warning(slope, result.dimension), settings.picard_strict, err);
    const std::string written = files.write(invocation, result, err);
    print_solve_report(out, invocation, result, stability, estimate, slope, written);
    return 0;
}

// The command the invocation names, its output on out; returns its exit code.
int run_parsed(const Invocation& invocation, const std::vector<std::string>& args, std::ostream& out,
               std::ostream& err) {
    // Progress only on the real stderr: a line redrawn on a terminal, a line now and then elsewhere (progress.h).
    const bool show_progress = &err == &std::cerr;
    if (invocation.help) {
        out << help_text();
        return 0;
    }
    if (invocation.version) {
        out << version_text();
        return 0;
    }
    if (invocation.command == "coefficients") print_coefficients(out, invocation.settings.K());
    else if (invocation.command == "grid")
        print_grid(out, invocation, find_problem(invocation.problem));
    else if (invocation.command == "problems") print_problems(out);
    else if (invocation.command == "study" || invocation.command == "bench" || invocation.command == "surface") {
        std::string command = "bsde";  // as given, for the output's record of the run
        for (const std::string& a : args) command += " " + a;
        if (invocation.command == "surface") return surface_command(invocation, command, out, err);
        return (invocation.command == "study" ? study_command : bench_command)(invocation, command, out, err,
                                                                                 show_progress);
    } else return solve_command(invocation, out, err, show_progress);
    return 0;
}

// The command the arguments name, its output on out; returns its exit code. Bad input found after the parse (an
// output file that cannot be written, a run larger than the memory) is named with its --config line too.
int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const Invocation invocation = parse_invocation(args);
    try {
        return run_parsed(invocation, args, out, err);
    } catch (const InputError& e) {
        throw InputError(invocation.config.attribute(e.what()));
    }
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    try {
        const int code = run_command(args, out, err);
        // A failure to write standard output (a full disk, /dev/full) shows only when it is flushed.
        if (!out.flush()) throw InputError("writing the standard output failed");
        return code;
    } catch (const Error& e) {
        err << "bsde: error: " << one_line(e.what()) << "\n";
        return e.exit_code();
    } catch (const std::bad_alloc& e) {
        err << "bsde: error: out of memory (" << one_line(e.what()) << ")\n";
        return 4;
    } catch (const std::exception& e) {
        err << "bsde: error: " << one_line(e.what()) << "\n";
        return 4;
    } catch (...) {
        err << "bsde: error: an unknown failure\n";
        return 4;
    }
}

}  // namespace bsde
