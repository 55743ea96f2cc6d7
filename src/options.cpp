#include "options.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <type_traits>

#include <boost/program_options.hpp>

#include "../algorithms/core/errors.h"
#include "../algorithms/core/input_file.h"
#include "../problems/registry.h"
#include "bench.h"
#include "estimate.h"
#include "study.h"
#include "text.h"

namespace po = boost::program_options;

namespace bsde {
namespace {

const std::vector<std::string> commands{"solve", "study", "surface", "bench", "coefficients", "grid", "problems"};

// The characters of an option's name (a config file's key; --NAME in a message).
const char* const option_name_characters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";

po::options_description command_line_options() {
    po::options_description options("Command line only");
    options.add_options()
        ("help,h", "print this help")
        ("version", "print the commit this bsde was built from and the backends it runs here")
        ("config", po::value<std::string>()->value_name("FILE"),
         "INI file with any of the options below (key = value); the command line wins");
    return options;
}

// The help of a problem parameter's option: what it is and its default in each problem that takes it, e.g.
// "interest rate (ex3, ex3-put: default 0.03; ex5: default 0.05)".
std::string parameter_help(const ParameterUse& use) {
    struct Default {
        std::string aliases, value;
    };
    std::vector<std::pair<std::string, std::vector<Default>>> meanings;  // per description, its defaults
    for (const auto& [problem, parameter] : use.problems) {
        auto meaning = std::find_if(meanings.begin(), meanings.end(),
                                    [&](const auto& m) { return m.first == parameter.description; });
        if (meaning == meanings.end()) meaning = meanings.insert(meanings.end(), {parameter.description, {}});
        const std::string value =
            parameter.removing_default ? std::string(parameter.removing_default) + ", which removes the driver's z term"
                                       : format_number(parameter.default_value, "%g");
        auto same = std::find_if(meaning->second.begin(), meaning->second.end(),
                                 [&](const Default& d) { return d.value == value; });
        if (same == meaning->second.end())
            meaning->second.push_back({problem->alias, value});
        else
            same->aliases += ", " + problem->alias;
    }
    std::string help;
    for (const auto& [description, defaults] : meanings) {
        help += (help.empty() ? "" : "; ") + description + " (";
        for (std::size_t i = 0; i < defaults.size(); ++i)
            help += (i ? "; " : "") + defaults[i].aliases + ": default " + defaults[i].value;
        help += ")";
    }
    return help;
}

po::options_description shared_options() {
    po::options_description options("Command line or config file");
    options.add_options()
        ("problem", po::value<std::string>()->value_name("NAME"),
         "problem name or alias (bsde problems lists them; default ex2)")
        ("K", po::value<std::string>()->value_name("K"),
         "multistep order of y and z (default 3, and 6 for bsde coefficients); study: a list such as 1-6 or 1,3,5")
        ("Ky", po::value<std::string>()->value_name("K"), "multistep order of y (default K)")
        ("Kz", po::value<std::string>()->value_name("K"), "multistep order of z (default K)")
        ("N", po::value<std::string>()->value_name("N"), "time steps (default 256); study: a list such as 128,256,512")
        ("T", po::value<std::string>()->value_name("T"), "terminal time (default: the problem's)")
        ("R", po::value<std::string>()->value_name("R"), "half-width of the space domain (default: the problem's)")
        ("L", po::value<std::string>()->value_name("L"), "Gauss-Hermite points (default: the problem's)")
        ("picard", po::value<std::string>()->value_name("P"), "most Picard iterations per point and step (default 30)")
        ("picard-tol", po::value<std::string>()->value_name("TOL"),
         "stop Picard when |change| <= TOL (s + |y|), s = E|g(W_T)| the terminal data's mean magnitude (default 1e-15)")
        ("strict", po::value<bool>()->implicit_value(true)->zero_tokens(),
         "a step where Picard ends above its tolerance, or an error estimate above the value it estimates, is an "
         "error (exit code 3), not a warning "
         "(config file: strict = true)")
        ("allow-unstable", po::value<bool>()->implicit_value(true)->zero_tokens(),
         "run settings that the stability analysis finds unstable (grid modes growing by more than 1e8 over the "
         "run; docs/scheme.md, Stability) instead of refusing them (config file: allow-unstable = true)")
        ("estimate", po::value<std::string>()->value_name("on|off"),
         "solve, study, surface: an a-posteriori estimate of the y_0 and z_0 errors from solves at N/2 and N/4 "
         "(default: on where they cost at most a third of the run's, else from N/2 alone where that does)")
        ("startup", po::value<std::string>()->value_name("METHOD"),
         "start-up layers: auto (default: feynman-kac where the driver is affine in y and z and there is no obstacle, "
         "else multistep), feynman-kac (each layer one Gaussian integral of the terminal data, exact in time), "
         "multistep (the scheme on fine steps dt/S and dt/2S, Richardson-extrapolated) or exact (verification only)")
        ("startup-substeps", po::value<std::string>()->value_name("S"),
         "S: the multistep start-up's two passes take S and 2 S fine steps per time step (default 0 = the least multiple of Ky at least ceil(3 sqrt(N / T) / 16), for kinked terminal data max(4, ceil(sqrt(N / T) / 2)))")
        ("startup-refine", po::value<std::string>()->value_name("R"),
         "the multistep start-up runs on a grid R times finer per axis, whose every R-th point gives the main grid's "
         "layers (1 to 8; default 0 = 2 in 1D, 1 in 2D)")
        ("grid-order", po::value<std::string>()->value_name("Q"),
         "match the space grid to order Q: dx = dt^((Q+1)/4) (default 0 = min(Ky+1, Kz, 3), the paper's rule)")
        ("smoothing", po::value<std::string>()->value_name("KIND"),
         "smoothing of kinked terminal data: kreiss6 (default), kreiss4, kreiss2, none (smooth terminal data are never "
         "smoothed; the report says which)")
        ("spline", po::value<std::string>()->value_name("BOUNDARY"),
         "1D problems: spline end condition, not-a-knot (default) or natural")
        ("interp", po::value<std::string>()->value_name("KIND"),
         "1D problems: spline (cubic spline, default) or hermite (cubic Hermite with 4th-order slopes, no solve); "
         "2D problems: spline (tensor-product cubic spline, default) or bicubic (the paper's)")
        ("spline-solve", po::value<std::string>()->value_name("HOW"),
         "spline moments (1D spline, 2D tensor spline): auto (default: inverse-band on cuda, tridiagonal on "
         "omp/serial), tridiagonal (one batched solve) or inverse-band (no solve: the band of the inverse "
         "matrix; same spline to rounding)")
        ("backend", po::value<std::string>()->value_name("NAME"),
         "cuda, omp or serial (default: cuda when a device is present, else omp)")
        ("gpus", po::value<std::string>()->value_name("G"),
         "solve, study: the grid's first axis split over G GPUs of this host (cuda; 2D and 3D problems with the tensor "
         "spline), their halos exchanged through NCCL each step, 1 to 64 (default 1; bench: the cases' key gpus)")
        ("output", po::value<std::string>()->value_name("FILE"), "solve: write y_0(w), z_0(w) and the exact values as CSV")
        ("sequential", po::value<bool>()->implicit_value(true)->zero_tokens(),
         "surface: also solve the members one after another in this process and report both rates (a benchmark)")
        ("skip-refused", po::value<bool>()->implicit_value(true)->zero_tokens(),
         "surface: leave out the members a solve would refuse (each named on a line of the report) and solve the "
         "others, instead of stopping at the first")
        ("batch", po::value<std::string>()->value_name("FILE"),
         "surface: the members as CSV, a header of the problem's parameter names and one member a row (instead of "
         "the parameters' lists)")
        ("spots", po::value<std::string>()->value_name("LOW:HIGH"),
         "solve, grid: the options' spots whose largest error the report gives, one range for every asset or one per "
         "asset (exchange: 50:200,40:160); R is chosen to hold them where --R is not given, and a --R too small for "
         "them is refused (default: 0.5 to 2 times each initial price)")
        ("backends", po::value<std::string>()->value_name("LIST"),
         "study: backends to time, e.g. serial,omp,cuda (default: every one this machine has); bench: default "
         "the fastest one (cuda, else omp)")
        ("out", po::value<std::string>()->value_name("DIR"),
         "study: write study.csv, study.md and the PNG plots (gnuplot) into DIR; bench: bench.csv and bench.md")
        ("cases", po::value<std::string>()->value_name("LIST"),
         (std::string("bench: comma-separated cases, PROBLEM-kK-nN (ex2-k6-n1024) or PROBLEM:KEY=VALUE:... with "
                      "keys ") +
          bench_case_keys + " (ex1:K=2:N=8); default ex2-k6-n1024, ex5-k6-n64, ex2-k3-n256, ex4-k3-n32").c_str())
        ("repeats", po::value<std::string>()->value_name("R"),
         "bench: timed solves per case and backend (default 5); study: solves per case and backend, taken in rounds, "
         "the median reported (default 1)")
        ("max-seconds", po::value<std::string>()->value_name("S"),
         "study: a backend whose solve took more than S s is left out of every other case with K and N at least "
         "as large (empty cells); default 0 = never");
    po::options_description parameters("Problem parameters (command line or config file; bsde problems lists them)");
    const po::options_description command_line_only = command_line_options();
    for (const ParameterUse& use : problem_parameter_uses()) {
        // a problem's parameter named as one of the options above would make both ambiguous on every command line
        if (options.find_nothrow(use.name, false) || command_line_only.find_nothrow(use.name, false))
            throw DefinitionError("problem '" + use.problems.front().first->name + "' declares parameter '" +
                                  use.name + "', the name of an option of bsde (--" + use.name +
                                  "); a parameter needs a name of its own");
        parameters.add_options()(use.name.c_str(), po::value<std::string>()->value_name("X"), parameter_help(use).c_str());
    }
    options.add(parameters);
    return options;
}

// The numbers' options, which the parser stores as text and take() converts (parse_integer, parse_real: one message
// for every number's option, e.g. --L '1.5' or --T ' 1'); every problem parameter is a real number.
const std::set<std::string> integer_options{"Ky",         "Kz", "L", "picard", "startup-substeps", "startup-refine",
                                            "grid-order", "repeats",    "gpus"};
const std::set<std::string> real_options{"T", "R", "picard-tol", "max-seconds"};

// The option's value, if given, into target: a number's option parsed from its text. Throws InputError.
template <class T>
bool take(const po::variables_map& vm, const std::string& name, T& target) {
    if (!vm.count(name)) return false;
    if constexpr (std::is_same_v<T, int>)
        target = parse_integer("--" + name, vm[name].as<std::string>());
    else if constexpr (std::is_same_v<T, double>)
        target = parse_real("--" + name, vm[name].as<std::string>());
    else
        target = vm[name].as<T>();
    return true;
}

// --out DIR of bsde study and bsde bench; an empty name is refused, as --output's is.
void take_out_folder(const po::variables_map& vm, std::string& folder) {
    if (take(vm, "out", folder) && folder.empty()) throw InputError("--out '': an empty folder name");
}

// Where each key of the --config file was set (line numbers), so that a value the file gave and the
// validation rejects later is reported with its line.
struct ConfigOrigin {
    std::string path;
    std::map<std::string, int> lines;            // key -> line of the file
    std::map<std::string, std::string> values;   // key -> value in the file
    std::set<std::string> command_line;          // options given on the command line (they win over the file)
    std::string line_of(const std::string& key) const {
        return "--config '" + path + "' line " + std::to_string(lines.at(key)) + ": ";
    }
    // The lines of the options that the file set and the command line did not.
    ConfigLines lines_used() const {
        ConfigLines used{path, {}};
        for (const auto& [key, line] : lines)
            if (!command_line.count(key)) used.lines.emplace(key, line);
        return used;
    }
};

std::string byte_name(unsigned char c) {
    char text[8];
    std::snprintf(text, sizeof text, "0x%02X", c);
    return text;
}

// The INI reader (Boost's parse_config_file gives no line numbers): `key = value` lines, blank lines,
// comments from `#` or `;` at the start of a line (a `#` also ends a value, as in Boost's reader), LF or
// CRLF line ends, a last line without a newline, a UTF-8 byte-order mark. Rejected, with the line: a
// key the option table does not have (or one of the command line only), a key twice, a line without
// `=`, an empty key or value, a [section], control characters, bytes outside ASCII other than in
// comments, a value the option's type rejects or one over longest_value characters; and a directory, anything else
// that is not a regular file (a FIFO, whose opening would wait for a writer; /dev/zero) or a file over 1 MiB, as found
// on the opened file (read_regular_file), never by a check of the path before it is opened.
// Values go through the same option table as the command line, which wins (po::store keeps the first).
void read_config_file(const std::string& path, const po::options_description& options, po::variables_map& vm,
                      ConfigOrigin& origin) {
    const std::string file_name = "--config '" + path + "'";
    constexpr std::size_t limit = 1 << 20;
    InputFile file = read_regular_file(path, limit);
    if (!file.read) throw InputError(file_name + ": " + file.refusal);
    std::string& text = file.text;
    if (text.size() > limit) throw InputError(file_name + ": larger than 1 MiB, not a configuration file");
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);

    origin.path = path;
    std::size_t start = 0;
    for (int number = 1; start < text.size(); ++number) {
        const std::size_t end = text.find('\n', start);
        std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        start = end == std::string::npos ? text.size() : end + 1;
        const std::string where = file_name + " line " + std::to_string(number) + ": ";
        if (!line.empty() && line.back() == '\r') line.pop_back();
        for (std::size_t i = 0; i < line.size(); ++i) {
            const unsigned char c = static_cast<unsigned char>(line[i]);
            if ((c < 0x20 && c != '\t') || c == 0x7F)
                throw InputError(where + "control character " + byte_name(c) + " at column " + std::to_string(i + 1) +
                                 " (not a text file?)");
        }
        const std::string trimmed = trim(line);
        if (trimmed.empty() || trimmed[0] == '#' || trimmed[0] == ';') continue;
        const std::string content = trim(line.substr(0, line.find('#')));
        for (std::size_t i = 0; i < content.size(); ++i)
            if (static_cast<unsigned char>(content[i]) >= 0x80)
                throw InputError(where + "byte " + byte_name(static_cast<unsigned char>(content[i])) +
                                 " outside a comment: keys and values are ASCII");
        if (content[0] == '[')
            throw InputError(where + quoted(content) + ": sections are not used, write key = value lines only");
        const std::size_t equals = content.find('=');
        if (equals == std::string::npos)
            throw InputError(where + quoted(content) + " is not a key = value line (no '=')");
        const std::string key = trim(content.substr(0, equals)), value = trim(content.substr(equals + 1));
        if (key.empty()) throw InputError(where + "no key before '='");
        if (key.find_first_not_of(option_name_characters) != std::string::npos || key[0] == '-')
            throw InputError(where + quoted(key) + " is not an option name (keys are option names without the dashes: N = 256)");
        const po::option_description* option = options.find_nothrow(key, false);
        if (option == nullptr || option->long_name() != key)
            throw InputError(where + "unknown key " + quoted(key) +
                             (key == "config" || key == "help" || key == "version"
                                  ? " (it is for the command line only)"
                                  : " (bsde --help lists the options)"));
        if (value.empty()) throw InputError(where + "no value for '" + key + "'");
        check_value_length(where + key + " = ", value);
        const auto [first, inserted] = origin.lines.emplace(key, number);
        if (!inserted)
            throw InputError(where + "'" + key + "' is set twice (first on line " + std::to_string(first->second) + ")");
        origin.values.emplace(key, value);
        po::parsed_options parsed(&options);
        parsed.options.emplace_back(key, std::vector<std::string>{value});
        parsed.options.back().original_tokens = {key, value};
        try {
            po::variables_map alone;  // the value checked even where the command line overrides it
            po::store(parsed, alone);
            po::store(parsed, vm);
        } catch (const po::invalid_bool_value&) {  // a switch's value (Boost's text lists its choices in a sentence)
            throw InputError(where + key + " = " + value + ": true or false expected (or yes/no, on/off, 1/0)");
        } catch (const po::error& e) {
            throw InputError(where + key + " = " + value + ": " + e.what());
        }
    }
}

// --spots: LOW:HIGH, or one such range per asset separated by commas (at most 2), each 0 < LOW <= HIGH, finite.
// Throws InputError.
std::vector<SpotRange> parse_spots(const std::string& text) {
    const std::string given = "--spots " + quoted(text) + ": ";
    const std::vector<std::string> ranges = split(text, ',');
    if (ranges.size() > 2) throw InputError(given + "one range LOW:HIGH for every asset, or one per asset (at most 2)");
    std::vector<SpotRange> spots;
    for (const std::string& range : ranges) {
        const std::vector<std::string> ends = split(range, ':');
        double low = 0, high = 0;
        if (ends.size() != 2) throw InputError(given + "a range LOW:HIGH expected, such as 50:200");
        for (const auto& [end, value] : {std::pair{ends[0], &low}, std::pair{ends[1], &high}})
            if (!to_finite_double(end, *value)) throw InputError(given + quoted(end) + " is not a finite number");
        if (!(low > 0)) throw InputError(given + "spots must be > 0 (" + format_number(low) + ")");
        if (!(low <= high))
            throw InputError(given + "an empty range: its low end " + format_number(low) + " lies above its high end " +
                             format_number(high));
        spots.push_back({low, high});
    }
    return spots;
}

// A value of the file that the command line overrides, checked by itself: the name of a problem, a method or
// backends, an integer list (one integer unless lists are allowed) or a number, parsed as its option does. Throws
// InputError.
void check_overridden_value(const std::string& key, const std::string& value, bool lists_allowed) {
    if (integer_options.count(key)) parse_integer("--" + key, value);
    if (real_options.count(key) || is_problem_parameter(key)) parse_real("--" + key, value);
    if (key == "problem") find_problem(value);
    if (key == "K" || key == "N") parse_int_list("--" + key, value, lists_allowed);
    if (key == "startup") parse_startup(value);
    if (key == "estimate") parse_estimate_mode(value);
    if (key == "smoothing") parse_smoothing(value);
    if (key == "spline") parse_spline_boundary(value);
    if (key == "interp") parse_interpolation(value);
    if (key == "spline-solve") parse_spline_solve(value);
    if (key == "backend") parse_backend(value);
    if (key == "backends") parse_backend_list(value);
    if (key == "spots") parse_spots(value);
}

// The domain of a solve or grid of a problem with spots (the options; problems/spots.h): --R where given, with the
// refusal where it does not hold the spots in invocation.spots_refusal; else R chosen to hold them, never below the
// problem's default R (the paper's grids). The report's line on it into invocation.domain; returns whether R was
// chosen. Throws InputError for spots that the problem does not take.
bool choose_domain(Invocation& invocation, const ProblemInfo& problem, const std::vector<SpotRange>& given,
                   bool R_given) {
    SchemeSettings& s = invocation.settings;
    if (!(std::isfinite(s.T) && s.T > 0)) return false;  // validate() refuses it
    if (!given.empty() && int(given.size()) != 1 && int(given.size()) != problem.dimension)
        throw InputError("--spots: " + std::to_string(given.size()) + " ranges for " + invocation.problem +
                         ", which has 1 asset; give one range LOW:HIGH");
    const SpotDomain domain = problem.spot_domain(s, given);
    invocation.spots = domain.spots;
    const double least = domain.least_R_printed();
    const std::string spots_option = given.empty() ? "--spots (default 0.5 to 2 times each initial price)" : "--spots";
    if (!R_given && !std::isfinite(least))  // a volatility so small that the spots lie at w = +-inf
        throw InputError(domain.need() + "; no grid holds that: narrow " + spots_option + " or raise the volatility");
    if (R_given && s.R < least)
        invocation.spots_refusal = "--R " + format_number(s.R) + ": " + domain.need() + "; raise --R to " +
                                   format_at_least(domain.least_R()) + " or more, or narrow " + spots_option;
    const bool chosen = !R_given && least > problem.default_R;
    if (chosen) s.R = least;
    invocation.domain = "R = " + format_number(s.R) +
                        (R_given ? " (--R); " : chosen ? ", chosen: " : ", the problem's default; ") + domain.need();
    return chosen;
}

}  // namespace

std::string help_text() {
    std::ostringstream text;
    text << "bsde: multistep scheme for backward stochastic differential equations\n\n"
            "Usage: bsde COMMAND [options]\n\n"
            "Commands:\n"
            "  solve          solve a problem and report y_0, z_0, errors, time and memory\n"
            "  study          solve every (K, N) of --K and --N lists on each of --backends: errors, orders,\n"
            "                 times, speedups (table on stdout; CSV, Markdown and plots with --out DIR)\n"
            "  surface        solve a batch of a problem's parameter sets in one sweep: the parameters as\n"
            "                 lists (--strike 80:120:9 --sigma 0.1,0.2: their product) or --batch FILE.csv;\n"
            "                 y_0, z_0, an option's delta (1D: gamma, theta), errors and estimates per member\n"
            "                 (CSV and Markdown with --out DIR)\n"
            "  bench          time fixed cases (--cases) on --backends: median and spread of --repeats solves,\n"
            "                 the split of a step, node evaluations/s and FP64 GFLOP/s (docs/benchmarking.md, Benchmark)\n"
            "  coefficients   print the multistep weights gamma^K_{K,j} and gamma^1_{K,j} for K = 1..--K\n"
            "                 (it takes --K only)\n"
            "  grid           print the space grid M, dx, the time step dt and the stability of its modes\n"
            "                 (it takes --problem --K --Ky --Kz --N --T --R --L --grid-order --interp and the\n"
            "                 problem's parameters)\n"
            "  problems       list the problems (no options)\n\n"
         << command_line_options() << "\n"
         << shared_options() << "\n"
         << "Config file: key = value lines (keys are the option names above without the dashes), blank lines\n"
            "and # or ; comments (tabs are blanks; a UTF-8 byte-order mark at the start is skipped); an unknown\n"
            "key, a key twice, a line without '=' or an empty value, a [section], a control character other than\n"
            "the tab and a non-ASCII byte outside comments are errors naming the line.\n\n"
            "Errors: one line 'bsde: error: ...' on stderr naming the option, file and line, value or step.\n"
            "Exit codes: 0 success; 2 bad input (an option, key or value, an unreadable config file or output\n"
            "path, standard output that cannot be written, a backend in --backends that this machine does not\n"
            "run, --gpus above the GPUs it has, a run larger than the free memory: the message gives the largest\n"
            "N that fits); 3 numerical failure (a non-finite y or z, naming the step and grid point; Picard above\n"
            "its tolerance, or an error estimate above the value it estimates, with --strict, else a 'bsde:\n"
            "warning: ...' line); 4 device or library failure (no CUDA device or a driver too old for solve's\n"
            "--backend cuda, NCCL missing for --gpus, a failing CUDA, cuSPARSE or NCCL call, an allocation\n"
            "that fails); 5 a defect of this build's problems (problems/problem_list.h: two\n"
            "problems called alike, a parameter declared twice, named as an option or read undeclared; the\n"
            "message names the problem).\n";
    return text.str();
}

// Every argument at most longest_value characters, checked before any is parsed; a longer one is named by its option
// where it is a value (--cases VALUE, --cases=VALUE).
static void check_argument_lengths(const std::vector<std::string>& args) {
    const auto is_option = [](const std::string& arg) {
        return arg.compare(0, 2, "--") == 0 && arg.size() <= 80 && arg.find('=') == std::string::npos;
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        const std::size_t equals = arg.compare(0, 2, "--") == 0 ? arg.find('=') : std::string::npos;
        if (equals != std::string::npos && equals <= 80)
            check_value_length(arg.substr(0, equals) + " ", arg.substr(equals + 1));
        else if (i > 0 && is_option(args[i - 1]))
            check_value_length(args[i - 1] + " ", arg);
        else
            check_value_length("argument ", arg);
    }
}

// parse_invocation without the config file's line numbers in its messages (ConfigLines::attribute).
// bsde surface's members: --batch FILE's rows, or the product of the parameters' lists. Throws InputError for both or
// neither, and for a file that cannot be read.
static Batch take_batch(const po::variables_map& vm, const std::vector<BatchParameter>& lists) {
    std::string path;
    if (!take(vm, "batch", path)) {
        if (lists.empty())
            throw InputError("bsde surface: no members: give the problem's parameters as lists (--strike 80:120:9 "
                             "--sigma 0.1,0.2) or --batch FILE.csv");
        return batch_product(lists);
    }
    if (!lists.empty())
        throw InputError("--batch " + quoted(path) + " and --" + lists.front().name +
                         ": the members come from the file or from the lists, not both");
    std::ifstream file(path);
    if (!file) throw InputError("--batch " + quoted(path) + ": cannot be read (" + std::strerror(errno) + ")");
    return read_batch_csv(file, "--batch " + quoted(path));
}

// bsde surface: one grid for every member, R the largest that the members' default spots need (unless --R), and each
// member's settings validated as a solve's; a refusal names the member (describe_member). With --skip-refused the
// refused members are left out (Invocation::left_out) and the others solved. Throws InputError.
static void check_surface_members(Invocation& invocation, const ProblemInfo& problem, bool R_given) {
    SchemeSettings& s = invocation.settings;
    const Batch& batch = invocation.batch;
    std::vector<bool> refused(batch.members.size(), false);
    const double initial_R = s.R;
    // body(settings of member b) for the members not refused yet; a refusal named with the member
    const auto each_member = [&](const auto& body) {
        for (std::size_t b = 0; b < batch.members.size(); ++b) {
            if (refused[b]) continue;
            try {
                body(member_settings(s, problem, batch.members[b]));
            } catch (const InputError& e) {
                const std::string refusal = describe_member(batch, int(b)) + ": " + e.what();
                if (!invocation.skip_refused) throw InputError(refusal);
                refused[b] = true;
                invocation.left_out.push_back(refusal);
            }
        }
    };
    // R over the members not refused, then their validation on it; a member refused there (--skip-refused) may have
    // set R, so the rest is taken again on the R of those left
    for (std::size_t refusals = 0;;) {
        if (problem.spot_domain && !R_given) {
            s.R = initial_R;
            each_member([&](const SchemeSettings& member) {
                Invocation alone;
                alone.settings = member;
                choose_domain(alone, problem, {}, false);
                s.R = std::max(s.R, alone.settings.R);
            });
        }
        each_member([&](const SchemeSettings& member) { validate_for_problem(member, problem); });
        if (invocation.left_out.size() == refusals) break;
        refusals = invocation.left_out.size();
    }
    if (invocation.left_out.empty()) return;
    if (invocation.left_out.size() == batch.members.size())
        throw InputError("--skip-refused: every member is refused, the first as " + invocation.left_out.front());
    invocation.batch = without_members(batch, refused);
    s.problem_parameters = invocation.batch.members.front();
}

static Invocation parse_options(const std::vector<std::string>& args, ConfigOrigin& origin) {
    check_argument_lengths(args);
    Invocation invocation;
    std::vector<std::string> rest(args);
    if (!rest.empty() && !rest.front().empty() && rest.front()[0] != '-') {
        invocation.command = rest.front();
        rest.erase(rest.begin());
        bool known = false;
        for (const std::string& c : commands) known = known || c == invocation.command;
        if (!known)
            throw InputError("unknown command " + quoted(invocation.command) +
                             ": allowed commands are solve, study, surface, bench, coefficients, grid, problems");
    }

    po::options_description all;
    const po::options_description shared = shared_options();
    all.add(command_line_options()).add(shared);
    po::variables_map vm;
    try {
        // options by their whole names only: Boost's default would take a prefix (--pro for --problem)
        const po::parsed_options parsed =
            po::command_line_parser(rest)
                .options(all)
                .style(po::command_line_style::default_style & ~po::command_line_style::allow_guessing)
                .run();
        // Words that are neither an option nor its value (Boost would drop them silently).
        const std::vector<std::string> words = po::collect_unrecognized(parsed.options, po::include_positional);
        if (!words.empty())
            throw InputError("unexpected argument " + quoted(words.front()) +
                             ": give one command, then --option value pairs (bsde --help)");
        // an option given twice, a switch too (Boost refuses a second value, not a second switch)
        std::set<std::string> given;
        for (const po::option& option : parsed.options)
            if (!given.insert(option.string_key).second)
                throw InputError("option '--" + option.string_key + "' cannot be specified more than once");
        po::store(parsed, vm);
    } catch (const po::unknown_option& e) {
        throw InputError("unrecognised option " + quoted(e.get_option_name()));
    } catch (const po::error& e) {
        throw InputError(e.what());
    }
    invocation.help = vm.count("help") > 0;
    invocation.version = vm.count("version") > 0;
    if (invocation.help || invocation.version) return invocation;
    if (invocation.command.empty()) throw InputError("no command given: try 'bsde --help'");
    if (vm.count("config")) {
        for (const auto& given : vm) origin.command_line.insert(given.first);
        read_config_file(vm["config"].as<std::string>(), shared, vm, origin);
        // --K sets Ky and Kz, so on the command line it wins over the file's Ky and Kz (which win over the file's K),
        // and the command line's Ky and Kz together leave the file's K nothing to set
        const auto overrides = [&](const std::string& key) {
            if (origin.command_line.count(key) || !vm.count(key)) return;
            vm.erase(key);
            origin.command_line.insert(key);  // as if the command line had set it: its line is not the run's
        };
        if (origin.command_line.count("K")) {
            overrides("Ky");
            overrides("Kz");
        }
        if (origin.command_line.count("Ky") && origin.command_line.count("Kz")) overrides("K");
        // The file's values that the command line overrides are checked all the same, each by itself: the names,
        // lists and numbers.
        for (const auto& [key, value] : origin.values) {
            if (!origin.command_line.count(key)) continue;
            try {
                check_overridden_value(key, value, invocation.command == "study");
            } catch (const InputError& e) {
                throw InputError(origin.line_of(key) + e.what());
            }
        }
    }

    // The commands with a fixed set of options refuse every other one, rather than ignore it: those that solve
    // nothing, and bench, whose cases carry the problem and the scheme's settings (e.g. ex2:K=3:N=256:L=16).
    const std::map<std::string, std::vector<std::string>> options_taken{
        {"problems", {}},
        {"coefficients", {"K"}},
        {"grid", {"problem", "K", "Ky", "Kz", "N", "T", "R", "L", "grid-order", "interp", "spots"}},
        {"bench", {"cases", "backends", "repeats", "out"}}};
    const auto taken = options_taken.find(invocation.command);
    if (taken != options_taken.end()) {
        const std::vector<std::string>& names = taken->second;
        const bool grid = invocation.command == "grid";  // the problem's parameters move its stability (driver's z term)
        // --config sets options: a command that takes none (problems) refuses it too
        for (const auto& given : vm)
            if ((given.first != "config" || names.empty()) &&
                std::find(names.begin(), names.end(), given.first) == names.end() &&
                !(grid && is_problem_parameter(given.first))) {
                std::string list;
                for (const std::string& name : names) list += (list.empty() ? "--" : ", --") + name;
                throw InputError("--" + given.first + ": not for bsde " + invocation.command + ", which takes " +
                                 (list.empty() ? "no options" : list) + (grid ? " and the problem's parameters" : ""));
            }
        if (invocation.command == "problems") return invocation;
    }
    if (invocation.command == "bench") {
        if (take(vm, "cases", invocation.cases) && trim(invocation.cases).empty())
            throw InputError("--cases '': no case given (without --cases the default cases run)");
        std::string list;
        if (take(vm, "backends", list)) invocation.backends = parse_backend_list(list);
        take_out_folder(vm, invocation.out);
        take(vm, "repeats", invocation.repeats);
        validate_bench(invocation);
        return invocation;
    }
    const bool study = invocation.command == "study", surface = invocation.command == "surface";
    if (vm.count("cases")) throw InputError("--cases: only for bsde bench");
    if (!study && vm.count("repeats")) throw InputError("--repeats: only for bsde bench and bsde study");
    if (!study && vm.count("backends")) throw InputError("--backends: only for bsde study and bsde bench");
    if (!study && !surface && vm.count("out"))
        throw InputError("--out: only for bsde study, bsde surface and bsde bench");
    for (const char* name : {"batch", "sequential", "skip-refused"})
        if (!surface && vm.count(name)) throw InputError(std::string("--") + name + ": only for bsde surface");
    for (const char* name : {"output", "spots"})
        if (surface && vm.count(name))
            throw InputError(std::string("--") + name + ": not for bsde surface (--out DIR writes its table)");
    if (!study && vm.count("max-seconds")) throw InputError("--max-seconds: only for bsde study");
    const std::pair<const char*, const char*> not_for_study[]{
        {"backend", "--backends LIST"}, {"output", "--out DIR"}, {"Ky", "--K (Ky = Kz = K)"}, {"Kz", "--K (Ky = Kz = K)"}};
    for (const auto& [name, instead] : not_for_study)
        if (study && vm.count(name)) throw InputError(std::string("--") + name + ": bsde study takes " + instead);

    SchemeSettings& s = invocation.settings;
    invocation.Ks = {invocation.command == "coefficients" ? 6 : 3};
    if (vm.count("K")) invocation.Ks = parse_int_list("--K", vm["K"].as<std::string>(), study);
    for (int K : invocation.Ks) check_multistep_order("--K", K);
    const int K = invocation.Ks.front();
    s.Ky = s.Kz = K;
    if (invocation.command == "coefficients") return invocation;
    take(vm, "Ky", s.Ky);
    take(vm, "Kz", s.Kz);

    invocation.problem = "ex2";
    take(vm, "problem", invocation.problem);
    const ProblemInfo& problem = find_problem(invocation.problem);
    // --spline is the 1D spline's end condition (--smoothing is taken in any dimension: it acts on problems with a
    // kinked payoff, ex3 in 1D, ex5 in 2D, basket3 in 3D)
    if (vm.count("spline") && problem.dimension != 1)
        throw InputError("--spline: only for 1D problems (" + invocation.problem + " is " +
                         std::to_string(problem.dimension) + "D; its interpolation is chosen with --interp)");
    s.T = problem.default_T;
    s.R = problem.default_R;
    s.L = problem.default_L;
    invocation.Ns = {s.N};
    if (vm.count("N")) invocation.Ns = parse_int_list("--N", vm["N"].as<std::string>(), study);
    s.N = invocation.Ns.front();
    take(vm, "T", s.T);
    const bool R_given = take(vm, "R", s.R);
    take(vm, "L", s.L);
    take(vm, "picard", s.picard_iterations);
    take(vm, "picard-tol", s.picard_tolerance);
    take(vm, "startup-substeps", s.startup_substeps);
    take(vm, "startup-refine", s.startup_refine);
    take(vm, "grid-order", s.grid_order);
    std::string name;
    if (take(vm, "startup", name)) s.startup = parse_startup(name);
    s.startup = resolved_startup(s.startup, problem.feynman_kac_startup);
    if (take(vm, "smoothing", name)) s.smoothing = parse_smoothing(name);
    std::vector<BatchParameter> lists;  // surface: each parameter's values
    for (const ParameterUse& use : problem_parameter_uses()) {
        if (surface && vm.count(use.name))
            lists.push_back({use.name, parse_value_list("--" + use.name, vm[use.name].as<std::string>())});
        else if (double value = 0; take(vm, use.name, value))
            s.problem_parameters[use.name] = value;
    }
    if (surface) {
        if (problem.reflected)
            throw InputError("bsde surface: problem " + invocation.problem +
                             " has an obstacle; batches are of problems without one for now");
        invocation.batch = take_batch(vm, lists);
        s.problem_parameters = invocation.batch.members.front();
        take_out_folder(vm, invocation.out);
        take(vm, "sequential", invocation.sequential);
        take(vm, "skip-refused", invocation.skip_refused);
    }
    // the problem's parameters checked before any solve (a study's --out is not yet created); its driver's z term for
    // the stability analysis of validate(); a surface's, member by member (check_surface_members)
    if (!surface) set_problem_terms(s, problem);
    std::vector<SpotRange> spots;
    if (take(vm, "spots", name)) {
        if (study)
            throw InputError("--spots: only for bsde solve and bsde grid (a study reports y_0 and z_0 at w = 0)");
        if (!problem.spot_domain)
            throw InputError("--spots: problem " + invocation.problem +
                             " has no spots (the options bs-call, bs-put and exchange have; its domain is --R)");
        spots = parse_spots(name);
    }
    if (take(vm, "spline", name)) s.spline = parse_spline_boundary(name);
    if (take(vm, "interp", name)) s.interpolation = parse_interpolation(name);
    if (take(vm, "spline-solve", name)) s.spline_solve = parse_spline_solve(name);
    check_spline_options(s, vm.count("spline") > 0, vm.count("spline-solve") > 0);
    if (take(vm, "backend", name)) {
        invocation.backend = parse_backend(name);
        invocation.backend_given = true;
    }
    if (take(vm, "gpus", s.gpus)) {
        check_gpus_value("--gpus", s.gpus);
        if (surface) throw InputError("--gpus: only for bsde solve and bsde study (bsde bench: the cases' key gpus)");
        if (invocation.backend_given)
            check_gpus_backends("--gpus " + std::to_string(s.gpus), s.gpus, "--backend", {invocation.backend});
    }
    take(vm, "output", invocation.output);
    if (vm.count("output") && invocation.output.empty()) throw InputError("--output '': an empty file name");
    if (take(vm, "estimate", name)) invocation.estimate = parse_estimate_mode(name);
    take(vm, "strict", s.picard_strict);
    take(vm, "allow-unstable", s.allow_unstable);
    // bsde grid shows the stability of any grid, unstable ones too (print_grid says what a solve would do), and runs no
    // start-up: without one, validate() does not bound the start-up's fine steps
    if (invocation.command == "grid") {
        s.allow_unstable = true;
        s.startup = Startup::exact;
    }
    const int largest_K = std::max({s.Ky, s.Kz, *std::max_element(invocation.Ks.begin(), invocation.Ks.end())});
    check_startup_options(s, vm.count("startup-substeps") > 0, vm.count("startup-refine") > 0, largest_K);
    if (study) {
        if (take(vm, "backends", name)) {
            invocation.backends = parse_backend_list(name);
            check_gpus_backends("--gpus " + std::to_string(s.gpus), s.gpus, "--backends", invocation.backends);
        }
        take_out_folder(vm, invocation.out);
        take(vm, "max-seconds", invocation.max_seconds);
        invocation.repeats = 1;
        take(vm, "repeats", invocation.repeats);
        validate_study(invocation);
    }
    if (study) return invocation;  // a study has checked each case (validate_study, its first is s)
    if (surface) {
        check_surface_members(invocation, problem, R_given);
        return invocation;
    }
    const bool R_chosen = problem.spot_domain && choose_domain(invocation, problem, spots, R_given);
    try {  // bsde grid reports the problem's refusal and the spots' (print_grid)
        if (invocation.command == "solve")
            validate_for_problem(s, problem);
        else
            validate(s, problem.dimension);
        if (invocation.command == "solve" && !invocation.spots_refusal.empty())
            throw InputError(invocation.spots_refusal);
    } catch (const InputError& e) {
        if (!R_chosen) throw;
        throw InputError("R = " + format_number(s.R) + ", chosen for the spots " + describe_spots(invocation.spots) +
                         " (--spots narrows them, --R sets R): " + e.what());
    }
    return invocation;
}

void check_gpus_value(const std::string& option, int gpus) {
    if (gpus < 1) throw InputError(option + " " + std::to_string(gpus) + ": must be a positive integer");
    if (gpus > max_gpus)
        throw InputError(option + " " + std::to_string(gpus) + ": at most " + std::to_string(max_gpus) +
                         " (the GPUs of one host)");
}

void check_gpus_backends(const std::string& subject, int gpus, const std::string& option,
                         const std::vector<Backend>& backends) {
    const auto host = std::find_if(backends.begin(), backends.end(), [](Backend b) { return b != Backend::cuda; });
    if (gpus <= 1 || host == backends.end()) return;
    std::string list;
    for (Backend b : backends) list += (list.empty() ? "" : ",") + to_string(b);
    throw InputError(subject + ": several GPUs run the cuda backend; " + option + " " + list +
                     (backends.size() == 1 ? "" : " takes " + to_string(*host) + ", which") + " runs on one host");
}

void check_gpus_present(const std::string& subject, int gpus) {
    if (gpus <= 1) return;
    if (!backend_available(Backend::cuda))
        throw InputError(subject + ": several GPUs run the cuda backend, which does not run here: " +
                         cuda_unavailable_reason());
    const int count = cuda_device_count();
    if (count >= gpus) return;
    throw InputError(subject + ": this machine has " +
                     (count == 0 ? std::string("no GPU") : std::to_string(count) + (count == 1 ? " GPU" : " GPUs")));
}

Invocation parse_invocation(const std::vector<std::string>& args) {
    ConfigOrigin origin;
    try {
        Invocation invocation = parse_options(args, origin);
        invocation.config = origin.lines_used();
        return invocation;
    } catch (const InputError& e) {
        throw InputError(origin.lines_used().attribute(e.what()));
    }
}

std::string ConfigLines::attribute(const std::string& message) const {
    const std::string file = "--config '" + path + "'";
    if (path.empty() || message.compare(0, file.size(), file) == 0) return message;
    // The options the message names as --NAME, those of its subject (up to the first ": ", "--K 6, --N 256: ...") where
    // it names any there (whether the file set them or not), else all (the kink's message names its causes in its
    // advice). A value in quotes names none
    // (--output 'a--N.csv'): a quote opens after no letter or digit (not the apostrophe of "data's") and closes before
    // the end, ':', ',', ')' or " (" (so that a value may hold quotes: 'x'--N'). --K names Ky and Kz as well.
    const auto closes = [&](std::size_t i) {
        return i + 1 == message.size() || std::strchr(":,)", message[i + 1]) || message.compare(i + 1, 2, " (") == 0;
    };
    std::set<int> in_subject, in_message;
    bool quoted = false, subject = true, subject_names_options = false;
    for (std::size_t i = 0; i < message.size(); ++i) {
        const bool opens = i == 0 || !std::isalnum(static_cast<unsigned char>(message[i - 1]));
        if (message[i] == '\'' && (quoted ? closes(i) : opens)) quoted = !quoted;
        if (quoted) continue;
        if (message.compare(i, 2, ": ") == 0) subject = false;
        if (message.compare(i, 2, "--") != 0) continue;
        const std::size_t end = std::min(message.find_first_not_of(option_name_characters, i + 2), message.size());
        const std::string name = message.substr(i + 2, end - i - 2);
        subject_names_options = subject_names_options || (subject && !name.empty());
        for (const std::string& option : name == "K" ? std::vector<std::string>{"K", "Ky", "Kz"} : std::vector{name})
            if (const auto line = lines.find(option); line != lines.end()) {
                in_message.insert(line->second);
                if (subject) in_subject.insert(line->second);
            }
        i = end - 1;
    }
    const std::set<int>& named = subject_names_options ? in_subject : in_message;
    if (named.empty()) return message;
    std::string where = file + (named.size() == 1 ? " line " : " lines ");
    for (const int line : named) where += (line == *named.begin() ? "" : ", ") + std::to_string(line);
    return where + ": " + message;
}

}  // namespace bsde
