// Human-readable reports and CSV output of the bsde commands.
#pragma once
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "../algorithms/scheme/settings.h"
#include "../algorithms/scheme/stability.h"
#include "../problems/registry.h"
#include "estimate.h"
#include "options.h"
#include "result_checks.h"

namespace bsde {

void print_coefficients(std::ostream& out, int K);
// The grid with the stability estimate, how R came about (Invocation::domain; empty: not said), and the refusal of
// the problem's checks of it (problem_grid_checks.h), else the spots' (Invocation::spots_refusal), if any.
void print_grid(std::ostream& out, const Invocation& invocation, const ProblemInfo& problem);
void print_problems(std::ostream& out);
// What the solve did to the terminal data, as the reports say it: "smoothing kreiss4 (of the kinked terminal data)" or
// "no smoothing (smooth terminal data)".
std::string smoothing_description(bool terminal_kinked, Smoothing smoothing);
// The error estimate of a solve as its report gives it: made (or not available), or not asked for.
struct SolveEstimate {
    bool wanted = false;      // --estimate on, or by default for its cost (estimate_wanted)
    double cost = 0;          // the second solve's expected cost over the run's (estimate_cost)
    double run_seconds = 0;   // the run's solve, as the front end timed it
    ErrorEstimate estimate;
};
void print_solve_report(std::ostream& out, const Invocation& invocation, const SolveResult& result,
                        const StabilityEstimate& stability, const SolveEstimate& estimate, const SlopeCheck& slope);

// A file written under a temporary name and renamed when complete, so an interrupted run never
// leaves a truncated file. Opening checks the path is writable before any work starts. A symbolic link
// is followed (its target is replaced and the link stays a link); what is not a regular file (a FIFO,
// /dev/null) is written directly, as the shell's > writes it, since renaming would replace it.
class AtomicOutputFile {
public:
    // option: the option that named the file, for the messages ("--output 'y0.csv': is a directory").
    // Throws InputError when the path is not writable.
    explicit AtomicOutputFile(const std::string& path, const std::string& option = "--output");
    ~AtomicOutputFile();                                 // removes the temporary unless committed
    std::ostream& stream() { return file_; }
    void finish();                                       // closes; throws InputError when the writing failed
    void commit();                                       // finishes and renames into place

private:
    std::string where_;     // "--output 'FILE': ", the start of every message
    std::string target_;    // the file that is replaced: the path with its links followed
    std::string temporary_;  // a new file beside the target; empty when writing directly
    unsigned mode_ = 0;     // the permissions the target gets: the replaced file's, else as umask leaves them
    int signal_slot_ = -1;  // the temporary's slot among the paths a signal removes (report.cpp), -1: none
    std::ofstream file_;
    bool committed_ = false;
};

// Commits the files of one run together: each is finished before any is renamed into place, so that a failure to
// write one of them (a full disk) leaves none behind.
void commit_together(std::initializer_list<AtomicOutputFile*> files);

// The --out folder of bsde study and bsde bench: created with its missing parents before any work, so that an
// unwritable path fails at once, and its files opened there. The folders it created are removed again when it goes
// out of scope still empty, or when a signal stops the run: a run that fails or stops before committing a file leaves
// nothing behind. Declare it before its files, so that they are removed first.
class OutputFolder {
public:
    explicit OutputFolder(const std::string& path);  // throws InputError when it cannot be created
    ~OutputFolder();
    OutputFolder(const OutputFolder&) = delete;
    OutputFolder& operator=(const OutputFolder&) = delete;
    std::unique_ptr<AtomicOutputFile> file(const std::string& name) const;  // throws InputError when not writable

private:
    void remove_empty_created() const;
    std::string path_;
    std::vector<std::filesystem::path> created_;  // the deepest first
    int signal_slot_ = -1;  // theirs among the paths a signal removes, if empty (report.cpp); -1: none
};

// `spots`: per asset, the range of the column in_spots (Invocation::spots); the options' rows need it.
void write_solution_csv(std::ostream& out, const SolveResult& result, const std::vector<SpotRange>& spots);

// Whether grid point i's spots (result.state, at t = 0) lie in the range, one per asset; false without them.
bool in_spots(const SolveResult& result, std::size_t i, const std::vector<SpotRange>& spots);

// The largest errors over the grid points whose spots lie in the range, and the largest exact price there (the scale of
// the price's error).
struct SpotErrors {
    int points = 0;
    double price = 0, largest_price = 0, delta = 0;  // delta: the largest over the assets
};
SpotErrors spot_errors(const SolveResult& result, const std::vector<SpotRange>& spots);

}  // namespace bsde
