// The bsde command line and INI configuration (Boost.Program_options): one set of option names
// shared by both; the command line wins over the file.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "../algorithms/backends/backend.h"
#include "../algorithms/scheme/settings.h"
#include "../algorithms/scheme/slabs.h"
#include "../problems/spots.h"
#include "batch_spec.h"
#include "estimate.h"

namespace bsde {

// The lines of the --config file that set options the command line did not, so that an error naming such an option
// gets its line wherever it is found: in the parse, a solve's check of its settings, the output file's opening.
struct ConfigLines {
    std::string path;                  // the --config file; empty without one
    std::map<std::string, int> lines;  // option name -> its line in the file
    // "--config 'PATH' line L: MESSAGE" (or "lines L1, L2: ") for the options the message names as --NAME outside
    // quotes that the file set; the message as it is where it names none, or begins with the file's own name.
    std::string attribute(const std::string& message) const;
};

struct Invocation {
    std::string command;  // solve, study, surface, bench, coefficients, grid, problems; empty with --help or --version alone
    bool help = false;
    bool version = false;
    std::string problem;
    SchemeSettings settings;
    Backend backend = Backend::omp;
    bool backend_given = false;
    std::string output;   // CSV of the solution at t = 0 (solve)
    // solve and grid of a problem with spots (the options, problems/spots.h): the spots per asset over which the
    // report takes the largest error (--spots, else the problem's default), and how R came about, for the report
    std::vector<SpotRange> spots;
    std::string domain;
    std::string spots_refusal;  // where --R does not hold the spots (solve refuses it, grid prints it); else empty
    EstimateMode estimate = EstimateMode::automatic;  // the a-posteriori error estimate (solve, study)
    // study: the K and N lists (ascending), the backends (empty: every one present), the output
    // folder (empty: stdout only) and the time that leaves a backend out of larger cases (0: never)
    std::vector<int> Ks, Ns;
    std::vector<Backend> backends;
    std::string out;
    double max_seconds = 0;
    // bench: the --cases list as given (empty: the default cases); it also takes backends (empty: the fastest
    // available) and out. bench and study: the timed solves per case and backend (bench's default; study's is 1)
    std::string cases;
    int repeats = 5;
    Batch batch;  // surface: the members (--batch FILE or the parameters' lists); out: its folder
    bool sequential = false;  // surface: the members also solved one after another (--sequential)
    bool skip_refused = false;          // surface: --skip-refused
    std::vector<std::string> left_out;  // surface, --skip-refused: each refused member with its refusal
    ConfigLines config;
};

// Parses and validates args (without the program name). Throws InputError with a one-line message.
Invocation parse_invocation(const std::vector<std::string>& args);

// --gpus G (SchemeSettings::gpus; bench's case key gpus), in three checks. Each throws with a message that starts with
// `subject` ("--gpus 2", or bench's "--cases 'ex4:gpus=2'").
// G in 1..max_gpus (slabs.h), the GPUs of one host: InputError naming `option` ("--gpus 0: must be a positive integer").
void check_gpus_value(const std::string& option, int gpus);
// Several GPUs run the cuda backend alone: InputError where G > 1 and `backends`, as `option` (--backend, --backends)
// gave them, hold another ("--gpus 2: several GPUs run the cuda backend; --backend omp runs on one host").
void check_gpus_backends(const std::string& subject, int gpus, const std::string& option,
                         const std::vector<Backend>& backends);
// G > 1 against this machine (it opens the cuda backend's library): InputError (exit code 2) where the cuda backend
// sees fewer GPUs ("--gpus 4: this machine has 1 GPU") or does not run here (naming why).
void check_gpus_present(const std::string& subject, int gpus);

std::string help_text();

}  // namespace bsde
