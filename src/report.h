// Human-readable reports and CSV output of the bsde commands.
#pragma once
#include <fstream>
#include <ostream>
#include <string>

#include "../algorithms/solver.h"
#include "../algorithms/stability.h"
#include "options.h"

namespace bsde {

void print_coefficients(std::ostream& out, int K);
void print_grid(std::ostream& out, const SchemeSettings& settings, int dimension);  // with the stability estimate
void print_problems(std::ostream& out);
void print_solve_report(std::ostream& out, const Invocation& invocation, const SolveResult& result,
                        const StabilityEstimate& stability);

// A file written under a temporary name and renamed when complete, so an interrupted run never
// leaves a truncated file. Opening checks the path is writable before any work starts.
class AtomicOutputFile {
public:
    explicit AtomicOutputFile(const std::string& path);  // throws InputError when not writable
    ~AtomicOutputFile();                                 // removes the temporary unless committed
    std::ostream& stream() { return file_; }
    void commit();                                       // closes and renames into place

private:
    std::string path_, temporary_;
    std::ofstream file_;
    bool committed_ = false;
};

void write_solution_csv(std::ostream& out, const SolveResult& result);

}  // namespace bsde
