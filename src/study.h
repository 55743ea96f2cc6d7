// The study runner (bsde study): every (K, N) of two lists solved on several backends, and the
// paper-style table built from the results: errors, observed orders, times, speedups, memory.
// Running is in study.cpp; the table is a pure function of the results, so it is tested from known
// inputs; study_output.cpp writes it as text, CSV, Markdown and gnuplot plots.
#pragma once
#include <iosfwd>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "../algorithms/backends/backend.h"
#include "../algorithms/scheme/settings.h"
#include "estimate.h"
#include "result_checks.h"

namespace bsde {

struct Invocation;

// "1-6", "128,256,512", "1-3,5": the integers of a comma-separated list of values and ranges a-b,
// ascending and without repeats, blanks allowed beside the commas but not around the whole text. With list_allowed
// false exactly one integer is accepted. Throws InputError naming the option ("--K '1-x': ...").
std::vector<int> parse_int_list(const std::string& option, const std::string& text, bool list_allowed = true);

// "serial,omp,cuda": ordered serial, omp, cuda (the table's columns), without repeats. InputError naming
// --backends for an unknown name.
std::vector<Backend> parse_backend_list(const std::string& text);

// Every (K, N) of a study passes validate(); --max-seconds >= 0. Throws InputError.
void validate_study(const Invocation& invocation);

// One (K, N): the values of the reference backend (the fastest that ran: cuda, else omp, else serial)
// and the time of every backend that ran; a backend left out has no entry.
struct StudyCase {
    int K = 0, N = 0, M = 0;
    bool has_exact = false;
    double y0 = 0, z0 = 0;              // z0: the first component
    double y0_error = 0, z0_error = 0;  // |y_0 - exact|, largest |z_0 - exact| over the components
    std::vector<double> z0_components;  // every component of z_0
    double y_scale = 1;                 // the terminal data's mean magnitude (SolveResult::picard_scale)
    ErrorEstimate estimate;             // with Study::estimated: made, or why not (estimate.h)
    SlopeCheck slope;                   // with Study::slope_checked: z against the slope of y (result_checks.h)
    std::map<Backend, double> seconds;  // sweep time (start-up and backward steps) per backend that ran: the
                                        // median of its timed solves
    std::map<Backend, std::vector<double>> runs;  // every timed solve's sweep time, in the order taken
    double storage_bytes = 0;           // the solver's own arrays
    double device_bytes = -1;           // cuda: device memory taken (cudaMemGetInfo); -1 when not measured
};

struct Study {
    std::string problem;
    SchemeSettings settings;            // everything but K and N
    bool terminal_kinked = false;       // the problem's terminal data have a kink (SolveResult::terminal_kinked)
    std::vector<Backend> backends;      // the columns, in the order serial, omp, cuda
    std::map<Backend, std::string> devices;  // description of each backend ("omp (16 threads)")
    double max_seconds = 0;             // 0: no backend is left out
    int repeats = 1;                    // timed solves per case and backend, taken in rounds (--repeats)
    std::string command;                // the command line, for the Markdown file
    std::vector<StudyCase> cases;       // K ascending, then N ascending
    EstimateMode estimate_mode = EstimateMode::off;  // --estimate
    double estimate_cost = 0;           // the estimate's solves' expected cost over the study's (study_estimate_cost)
    bool estimated = false;             // whether the cases have error estimates (estimate_wanted)
    bool slope_checked = false;         // whether the cases have z checks (run_study makes them)
    std::vector<std::string> warnings;  // "K = 3, N = 64 on omp: Picard did not converge ..." (bsde: warning: lines)
};

// log(e_coarse / e_fine) / log(N_fine / N_coarse): log2(e_N / e_2N) for doubled N. NaN when an error
// is not a positive finite number.
double observed_order(double error_coarse, int N_coarse, double error_fine, int N_fine);

// slow / fast; NaN when either time is missing (NaN) or not positive.
double speedup(double slow_seconds, double fast_seconds);

// The speedup columns: the fastest backend of the study (cuda, else omp) over each other one, e.g.
// {cuda, serial}, {cuda, omp}; none for a study of one backend.
std::vector<std::pair<Backend, Backend>> speedup_pairs(const std::vector<Backend>& backends);

// Whether --max-seconds leaves `backend` out of (K, N): it took more than max_seconds on a case done
// before with K' <= K and N' <= N (a case at least as small). Never when max_seconds is 0.
bool left_out_by_time(const std::vector<StudyCase>& done, Backend backend, int K, int N, double max_seconds);

// Whether the cell is empty: the backend was left out of that case.
inline bool ran(const StudyCase& c, Backend backend) { return c.seconds.count(backend) > 0; }

// Whether run_study solves the first case once on the backend, untimed, before the timed solves: the parallel
// backends (thread start-up, the CUDA context and lazy kernel loading are not charged to the first case).
inline bool warmed_up(Backend backend) { return backend != Backend::serial; }

// The backend's (median) time of the case; NaN where it was left out.
inline double seconds_of(const StudyCase& c, Backend backend) {
    const auto it = c.seconds.find(backend);
    return it == c.seconds.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
}

// The table as strings: one header and one row per case. display: the printed table (errors with 4
// digits, orders with 2 decimals, times in s, speedups with 1 decimal, MiB); csv: machine names and
// every measured value to 17 digits, plus y_0 and z_0, and with repeats the least and the most time of each
// backend's solves (seconds_min_<backend>, seconds_max_<backend>). Missing values are empty cells.
enum class TableStyle { display, csv };
struct Table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};
// A table's cell of a value: printf's display_spec in the display style, 17 digits in csv; empty when not finite.
std::string table_cell(TableStyle style, const char* display_spec, double value);
Table study_table(const Study& study, TableStyle style);

// Outputs (study_output.cpp).
void write_text_table(std::ostream& out, const Table& table);   // aligned columns
void write_csv(std::ostream& out, const Table& table);
void write_markdown_table(std::ostream& out, const Table& table);  // header, rule, rows
Table read_csv(std::istream& in);                                // throws std::runtime_error when malformed
void write_markdown(std::ostream& out, const Study& study);      // parameters, devices, table, notes
Table read_markdown_table(std::istream& in);                     // the first table of a Markdown file
std::string gnuplot_script(const Study& study);                  // PNGs into the script's folder
// The notes printed under the table: with repeats, how the times were taken and their spread; the skip rule
// when a backend was left out.
std::string study_notes(const Study& study);

// The backends of the study: --backends, or every one this machine has; cuda alone with --gpus G > 1. Throws
// InputError (exit code 2) naming an explicitly requested backend this machine does not have, or G GPUs it lacks.
std::vector<Backend> study_backends(const Invocation& invocation);

// The expected cost of the solves the estimates of the cases need, those at N/2 and N/4 (where N/4 >= K + 1) that the
// list lacks, each solved once, over the cost of solving every case once (node evaluations, as plan_estimate).
double study_estimate_cost(const std::string& problem, const SchemeSettings& base, const std::vector<int>& Ks,
                           const std::vector<int>& Ns);

// Runs the study described by the invocation (problem, settings, Ks, Ns, backends, max_seconds, repeats),
// with a progress line on std::cerr when show_progress. With repeats R each case is solved in R rounds, a
// round solving it once on every backend, so that a slow or fast spell of the host falls on all of them. Then, where
// --estimate or its cost asks for them (estimate_wanted with study_estimate_cost), each case's error estimate: from the
// study's cases at N/2 and N/4, else from solves on the fastest backend. Throws InputError for a backend this machine
// does not have (study_backends), NumericalError naming the case (with --strict, an estimate above its value too).
Study run_study(const Invocation& invocation, const std::string& command, bool show_progress);

// bsde study: runs, prints the table on out, writes DIR/study.{csv,md,gp} and the PNGs with --out
// (plots skipped with a line on err when gnuplot is missing). Returns the exit code.
int study_command(const Invocation& invocation, const std::string& command, std::ostream& out, std::ostream& err,
                  bool show_progress);

}  // namespace bsde
