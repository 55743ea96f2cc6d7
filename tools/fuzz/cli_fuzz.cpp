// bsde_fuzz: runs the real bsde binary, as a child process with a time limit, on generated command lines and config
// files (valid small runs mutated: values replaced by huge, odd, empty or edge-of-double ones, options added, doubled,
// dropped or given as --NAME=VALUE, stray words, config files broken line by line or replaced by a FIFO, a folder, a
// device or a link), and flags what docs/cli.md ("Errors and exit codes") does not allow:
//   death by a signal; a run past the time limit; an exit code outside 0, 2, 3, 4, 5; on stderr anything but
//   "bsde: warning: ..." and "bsde: note: ..." lines and, for a non-zero exit, one "bsde: error: ..." line last; a
//   line over longest_line characters; output on stdout with a non-zero exit; a file left in the case's folder that
//   is not a successful run's --output or --out (the folder itself and what the fuzzer put there must stay).
// Each case is made from (seed, case number) alone: --seed S --case I runs case I again and shows it whole.
//
//   bsde_fuzz [--bsde PATH] [--cases N] [--seed S] [--case I] [--jobs J] [--timeout SECONDS] [--tmp DIR]
//             [--list on|off]   (on: a line for every case, its outcome and command, not only the flagged ones)
//
// Every case runs in its own folder, its working directory, under a fresh scratch folder (in --tmp DIR, else $TMPDIR,
// else /tmp) removed at the end; the paths it is given are relative and stay inside it (or are /dev/null and
// /dev/full). Exit status 0 when nothing was flagged, 1 when something was, 2 for a bad command line of the fuzzer's
// own or a bsde that cannot be started.

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace fs = std::filesystem;

namespace {

// An error line holds the option, at most a path's 4096 characters of a value (a quoted value's first 60 otherwise)
// and the reason; a longer line grew with its input.
constexpr std::size_t longest_line = 10000;
// The longest argument the kernel passes to a program (MAX_ARG_STRLEN is 32 pages).
constexpr std::size_t longest_argument = 100000;

[[noreturn]] void usage(const std::string& problem) {
    std::cerr << "bsde_fuzz: " << problem
              << "\nusage: bsde_fuzz [--bsde PATH] [--cases N] [--seed S] [--case I] [--jobs J] [--timeout SECONDS] "
                 "[--tmp DIR] [--list on|off]\n";
    std::exit(2);
}

using Random = std::mt19937_64;

template <class T>
const T& pick(Random& random, const std::vector<T>& list) {
    return list[random() % list.size()];
}
std::string one_of(Random& random, std::initializer_list<std::string> choices) {
    return *(choices.begin() + random() % choices.size());
}
bool chance(Random& random, double p) { return std::uniform_real_distribution<double>(0, 1)(random) < p; }
int between(Random& random, int low, int high) { return std::uniform_int_distribution<int>(low, high)(random); }

// What the case's --config names.
enum class ConfigKind { none, text, fifo, folder, missing, device, link_to_text, dangling_link, link_loop };

struct Case {
    std::vector<std::string> args;  // without the program's name
    ConfigKind config = ConfigKind::none;
    std::string config_text;        // ConfigKind::text and link_to_text
    std::string config_device;      // ConfigKind::device
};

const char* const config_name = "run.ini";

// ---------------------------------------------------------------------------------------------------------------
// Values

const std::vector<std::string> problems_1d{"ex1", "ex2", "ex3", "ex3-put", "logistic", "bs-call"};
const std::vector<std::string> problems_2d{"ex4", "ex5", "exchange"};

// Numbers at the edges of int and double, and texts that are almost numbers: most refused before any solve.
const std::vector<std::string> edge_numbers{
    "0", "-1", "-0", "+0", "1e308", "1.7976931348623157e308", "1.8e308", "4.9e-324", "2.4e-324", "1e-400",
    "2.2250738585072014e-308", "nan", "NaN", "-nan", "inf", "-inf", "infinity", "0x10", "0x1p3", "1e", "e1", ".", "-",
    "+", "..", "1.2.3", "1e+", "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967297",
    "9223372036854775807", "18446744073709551617", "99999999999999999999", "1" + std::string(400, '0'),
    "0." + std::string(400, '0') + "1", " 3", "3 ", "3\t", "\t", "", " ", "\xef\xbc\x93", "1,", ",1", "1-", "-1-2",
    "2-1", "1--2", "1-2147483647", "-2147483648-2147483647", "0-0", "1e-5", "1e5", "-1e308", "3.", ".5", "5e-1",
    "0.0000001", "1_000"};

// Short odd texts: control characters, bytes beyond ASCII, quotes, separators, option-like words.
const std::vector<std::string> odd_texts{
    "\x01", "\x7f", "\n", "\r", "a\nb", "\xff\xfe", "\xc3\xa9", "'", "\"", "''", "\\", "--", "-", "--N", "-h", "=",
    "==", ":", "::", ",", ",,", "a=b", "K=3", "%s%n", "$(true)", "`true`", ";", "#", "[x]", "*", "?", "~"};

// n copies of one character, or n random bytes without NUL (argv cannot hold one).
std::string long_text(Random& random, std::size_t n) {
    if (chance(random, 0.5)) return std::string(n, pick(random, std::vector<char>{'a', '1', ',', '-', ':', '=', ' '}));
    std::string text(n, 'x');
    for (char& c : text) c = static_cast<char>(between(random, 1, 255));
    return text;
}

// An integer list (of --K, --N) whose items and range ends lie at the edges of int: "2147483600-2147483647,-3".
std::string edge_list(Random& random) {
    const auto end = [&] {
        const std::vector<long long> ends{2147483647, 2147483647, 2147483646, 2147483600, -2147483648LL, -2147483647,
                                          -1,         0,          1,          2,          99999,         100001};
        return std::to_string(pick(random, ends) + (chance(random, 0.3) ? between(random, -3, 3) : 0));
    };
    std::string list;
    const int items = chance(random, 0.8) ? between(random, 1, 3) : between(random, 100, 400);
    for (int i = 0; i < items; ++i) {
        list += i ? "," : "";
        if (items > 3) list += std::to_string(i * 50000 + 1) + "-" + std::to_string(i * 50000 + 50000);
        else list += chance(random, 0.6) ? end() + "-" + end() : end();
    }
    return list;
}

// A value for any option that its parser must refuse (or take) at once.
std::string hostile_value(Random& random) {
    switch (random() % 7) {
        case 0:
        case 1: return pick(random, edge_numbers);
        case 2: return pick(random, odd_texts);
        case 3: {
            const std::vector<std::size_t> lengths{81, 300, 4096, 4097, 30000, longest_argument};
            return long_text(random, pick(random, lengths));
        }
        case 4: return long_text(random, between(random, 1, 40));
        case 5: return edge_list(random);
        default: {  // a valid-looking list, name or range, with a part broken
            std::string text =
                one_of(random, {"1-6", "8,16", "ex1", "serial,omp", "50:200", "ex1:K=2:N=8", "ex1-k2-n8", "kreiss6"});
            text.insert(random() % (text.size() + 1), pick(random, odd_texts));
            return text;
        }
    }
}

// A relative path in the case's folder (or /dev/null, /dev/full): no absolute path, no "..", never the FIFO.
std::string safe_path(std::string path) {
    if (path == "/dev/null" || path == "/dev/full") return path;
    std::string safe;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        std::string part = path.substr(start, end - start);
        if (part == "..") part = "up";
        if (!safe.empty() || !part.empty()) safe += (safe.empty() ? "" : "/") + part;
        start = end + 1;
    }
    return safe.empty() ? "empty" : safe;
}

std::string output_path(Random& random) {
    return one_of(random, {"y0.csv", "out/y0.csv", "y0.csv", "a b.csv", ".", "/dev/null", "/dev/full",
                           "new/deeper/y0.csv", std::string(300, 'o') + ".csv", "-", "y0.csv/", "\xc3\xa9.csv",
                           "run.ini", "it's $(touch x) \"y\".csv", "line\nbreak.csv"});
}

std::string folder_path(Random& random) {
    return one_of(random, {"results", "results", "new/deeper", ".", "run.ini", "results/", "/dev/null",
                           std::string(300, 'd'), "it's $(touch x) \"y\"", "line\nbreak"});
}

// ---------------------------------------------------------------------------------------------------------------
// Command lines: a small valid run of each command, then mutated

struct Option {
    Option(std::string name_, std::string value_, bool has_value_ = true)
        : name(std::move(name_)), value(std::move(value_)), has_value(has_value_) {}
    std::string name, value;
    bool has_value;
};

using Options = std::vector<Option>;

std::string K_value(Random& random, bool two_d) { return std::to_string(between(random, 1, two_d ? 2 : 4)); }
std::string N_value(Random& random, bool two_d, int K) {
    return std::to_string(between(random, K + 1, two_d ? 6 : 24));
}

// The problem's parameters and other options of a solve or grid, valid and small.
void add_extras(Random& random, Options& options, const std::string& problem, bool solve) {
    const bool option_problem = problem == "ex3" || problem == "ex3-put" || problem == "bs-call" || problem == "ex5" ||
                                problem == "exchange";
    const bool two_d = std::find(problems_2d.begin(), problems_2d.end(), problem) != problems_2d.end();
    std::vector<Option> extras{{"T", one_of(random, {"0.5", "1", "0.25", "2"})},
                               {"R", one_of(random, {"4", "8", "16"})},
                               {"L", std::to_string(between(random, 2, two_d ? 6 : 16))},
                               {"grid-order", std::to_string(between(random, 0, 3))},
                               {"interp", two_d ? "bicubic" : "hermite"}};
    if (solve) {
        const std::vector<Option> solve_extras{
            {"picard", std::to_string(between(random, 1, 30))},
            {"picard-tol", one_of(random, {"1e-15", "1e-6", "0"})},
            {"strict", "", false},
            {"allow-unstable", "", false},
            {"estimate", one_of(random, {"on", "off"})},
            {"startup", one_of(random, {"multistep", "exact"})},
            {"startup-substeps", std::to_string(between(random, 0, 8))},
            {"startup-refine", std::to_string(between(random, 0, 2))},
            {"smoothing", one_of(random, {"kreiss6", "kreiss4", "kreiss2", "none"})},
            {"spline-solve", one_of(random, {"auto", "tridiagonal", "inverse-band"})},
            {"output", output_path(random)}};
        extras.insert(extras.end(), solve_extras.begin(), solve_extras.end());
        if (!two_d) extras.push_back({"spline", one_of(random, {"natural", "not-a-knot"})});
    }
    if (option_problem) {
        const std::vector<Option> parameters =
            two_d ? std::vector<Option>{{"S1", "100"}, {"S2", "90"}, {"rho", "0.5"}, {"sigma1", "0.2"}, {"r", "0.05"}}
                  : std::vector<Option>{{"S0", "100"}, {"strike", "90"}, {"sigma", "0.3"}, {"r", "0.03"},
                                        {"delta", "0.01"}, {"mu", "0.02"}};
        extras.insert(extras.end(), parameters.begin(), parameters.end());
        extras.push_back({"spots", two_d ? "80:120,70:110" : "50:150"});
    }
    const int count = between(random, 0, 3);
    for (int i = 0; i < count; ++i) {
        const Option& extra = pick(random, extras);
        const bool given =
            std::any_of(options.begin(), options.end(), [&](const Option& o) { return o.name == extra.name; });
        if (!given) options.push_back(extra);
    }
}

// A small valid run of a command (solves with N <= 24 in 1D and <= 6 in 2D: most finish in well under a second).
Options valid_options(Random& random, const std::string& command) {
    Options options;
    if (command == "solve" || command == "grid") {
        const bool two_d = chance(random, 0.25);
        const std::string problem = pick(random, two_d ? problems_2d : problems_1d);
        const int K = std::stoi(K_value(random, two_d));
        options = {{"problem", problem}, {"K", std::to_string(K)}, {"N", N_value(random, two_d, K)}};
        if (two_d) options.push_back({"L", std::to_string(between(random, 2, 6))});
        if (command == "solve")
            options.push_back({"backend", one_of(random, {"serial", "omp", "serial", "cuda"})});
        add_extras(random, options, problem, command == "solve");
    } else if (command == "study") {
        options = {{"problem", pick(random, problems_1d)},
                   {"K", one_of(random, {"1-2", "1,3", "2"})},
                   {"N", one_of(random, {"8,16", "6-8", "12"})},
                   {"backends", one_of(random, {"serial", "serial,omp", "omp"})}};
        if (chance(random, 0.4)) options.push_back({"out", folder_path(random)});
        if (chance(random, 0.3)) options.push_back({"repeats", std::to_string(between(random, 1, 2))});
        if (chance(random, 0.2)) options.push_back({"max-seconds", one_of(random, {"0", "1", "0.5"})});
    } else if (command == "bench") {
        const std::vector<std::string> cases{"ex1:K=2:N=8", "ex1-k2-n8", "ex2:K=1:N=4:L=8", "ex4:K=1:N=4:L=4",
                                             "ex3:K=2:N=8:sigma=0.3", "ex1:N=8:interp=hermite"};
        std::string list = pick(random, cases);
        if (chance(random, 0.3)) list += "," + pick(random, cases);
        options = {{"cases", list}, {"backends", "serial"}, {"repeats", "1"}};
        if (chance(random, 0.3)) options.push_back({"out", folder_path(random)});
    } else if (command == "coefficients") {
        options = {{"K", std::to_string(between(random, 1, 10))}};
    }
    return options;
}

// Every option's name, the problems' parameters included, for options added at random.
const std::vector<std::string> option_names{
    "problem", "K", "Ky", "Kz", "N", "T", "R", "L", "picard", "picard-tol", "strict", "allow-unstable", "estimate",
    "startup", "startup-substeps", "startup-refine", "grid-order", "smoothing", "spline", "interp", "spline-solve",
    "backend", "gpus", "output", "spots", "backends", "out", "cases", "repeats", "max-seconds", "config", "S0",
    "strike", "r", "mu", "delta", "sigma", "S1", "S2", "mu1", "mu2", "sigma1", "sigma2", "rho", "help", "version"};

// Values small enough to run fast where they are taken, for an option added at random.
std::string plain_value(Random& random, const std::string& name) {
    if (name == "output") return output_path(random);
    if (name == "out") return folder_path(random);
    if (name == "problem") return pick(random, problems_1d);
    if (name == "cases") return "ex1:K=1:N=4";
    return one_of(random, {"1", "2", "0.5", "serial", "on", "off", "exact", "true", "50:150"});
}

// A value made long: repeated (a list of many items), or a long run of one character put into it
// ("aaaa...aex1-k2-n8"), up to the length the kernel passes.
std::string grown(Random& random, const std::string& value) {
    const std::size_t length = pick(random, std::vector<std::size_t>{5000, 30000, longest_argument});
    if (!value.empty() && chance(random, 0.5)) {
        const std::string separator = one_of(random, {",", ":", ""});
        std::string text = value;
        while (text.size() + separator.size() + value.size() <= length) text += separator + value;
        return text;
    }
    std::string text = value;
    text.insert(random() % (text.size() + 1), std::string(length, one_of(random, {"a", "1", "-", "e"})[0]));
    return text;
}

// One change to a valid run's options, or to the words around them.
void mutate_options(Random& random, Options& options, std::string& command) {
    switch (random() % 10) {
        case 9:  // a value made long
            if (!options.empty()) {
                Option& o = options[random() % options.size()];
                o.value = grown(random, o.value);
                o.has_value = true;
            }
            break;
        case 0:
        case 1:
        case 2:  // a value replaced by a hostile one
            if (!options.empty()) {
                Option& o = options[random() % options.size()];
                o.value = hostile_value(random);
                o.has_value = true;
            }
            break;
        case 3: {  // an option added, its value plain or hostile (or none)
            const std::string name = pick(random, option_names);
            if (name == "config") break;
            if (name == "help" || name == "version" || name == "strict" || name == "allow-unstable")
                options.push_back({name, "", chance(random, 0.2)});
            else
                options.push_back({name, chance(random, 0.5) ? plain_value(random, name) : hostile_value(random)});
            break;
        }
        case 4:  // an option given twice
            if (!options.empty()) options.push_back(options[random() % options.size()]);
            break;
        case 5:  // an option's value left out (a switch's value given)
            if (!options.empty()) {
                Option& o = options[random() % options.size()];
                o.has_value = !o.has_value;
            }
            break;
        case 6:  // an option dropped (the sizes stay: N and L are kept, which bound a solve's time)
            if (!options.empty()) {
                const std::size_t at = random() % options.size();
                if (options[at].name != "N" && options[at].name != "L" && options[at].name != "cases")
                    options.erase(options.begin() + at);
            }
            break;
        case 7:  // the command replaced, by one that solves nothing (another's options would leave a solve its
                 // default sizes, which take minutes in 2D)
            command = chance(random, 0.5) ? one_of(random, {"", "grid", "problems", "coefficients", "-h", "--version"})
                                          : hostile_value(random);
            break;
        default:  // an unknown option, or a known one misspelt
            options.push_back({one_of(random, {"pro", "n", "foo", "N ", "-N", "", "K=3", "output=x", "\xff",
                                               std::string(200, 'z')}),
                               pick(random, edge_numbers)});
            break;
    }
}

// The options as words: --NAME VALUE, sometimes --NAME=VALUE; stray words inserted at random.
std::vector<std::string> option_words(Random& random, const Options& options) {
    std::vector<std::string> words;
    for (const Option& o : options) {
        if (!o.has_value) words.push_back("--" + o.name);
        else if (chance(random, 0.1)) words.push_back("--" + o.name + "=" + o.value);
        else words.insert(words.end(), {"--" + o.name, o.value});
    }
    if (chance(random, 0.08))
        words.insert(words.begin() + random() % (words.size() + 1),
                     chance(random, 0.5) ? pick(random, odd_texts) : hostile_value(random));
    return words;
}

// ---------------------------------------------------------------------------------------------------------------
// Config files

// A line of a broken config file.
std::string odd_line(Random& random) {
    return one_of(random, {
                            "foo = 1", "[section]", "N", "= 3", "K =", "K = 3 = 4", "config = x.ini", "help = true",
                            "strict = maybe", "strict", "; comment \xff", "# comment", "   ", "N = 8\x01", "\xff\xfe",
                            "N\t=\t8", "-N = 8", "N = 8 # comment", "K = 1-6", "problem = nope",
                            "output = /dev/null", "N = " + std::string(5000, '1'), std::string(20000, 'x'),
                            "problem = " + long_text(random, 30)});
}

// The options as key = value lines, then broken in a few places.
std::string config_text(Random& random, const Options& options) {
    std::string text;
    if (chance(random, 0.1)) text += "\xEF\xBB\xBF";
    for (const Option& o : options) {
        const std::string value = o.has_value ? o.value : one_of(random, {"true", "yes", "1", ""});
        text += o.name + one_of(random, {" = ", "=", "\t=\t", "  =  "}) + value +
                (chance(random, 0.1) ? "\r\n" : "\n");
    }
    const int changes = chance(random, 0.5) ? 0 : between(random, 1, 3);
    for (int i = 0; i < changes; ++i) {
        const std::size_t at = text.empty() ? 0 : random() % (text.size() + 1);
        switch (random() % 7) {
            case 0: text.insert(at, odd_line(random) + "\n"); break;
            case 1: text += text.substr(0, text.find('\n') + 1); break;  // the first line twice
            case 2: text = text.substr(0, at); break;                   // cut short, without its newline
            case 3: text.insert(at, 1, static_cast<char>(between(random, 0, 255))); break;
            case 4: {  // binary, NUL-free or not
                std::string junk(between(random, 1, 4000), '\0');
                const bool nul_free = chance(random, 0.7);
                for (char& c : junk) c = static_cast<char>(between(random, nul_free ? 1 : 0, 255));
                text.insert(at, junk);
                break;
            }
            case 5: text.insert(at, one_of(random, {"\n\n", "\r", "\r\n", "#", "=", " "})); break;
            default:
                if (chance(random, 0.2))  // 1 MiB, or more
                    text = std::string((1 << 20) + between(random, -2, 100), '#');
                else text.clear();
                break;
        }
    }
    return text;
}

// ---------------------------------------------------------------------------------------------------------------
// A case from (seed, number) alone

Case make_case(std::uint64_t seed, std::uint64_t number) {
    std::seed_seq sequence{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                           static_cast<std::uint32_t>(number), static_cast<std::uint32_t>(number >> 32)};
    Random random(sequence);
    std::string command = one_of(random, {"solve", "solve", "solve", "grid", "grid", "study", "bench", "bench",
                                          "coefficients", "problems"});
    Options options = valid_options(random, command);
    const int mutations = chance(random, 0.1) ? 0 : between(random, 1, 3);
    for (int i = 0; i < mutations; ++i) mutate_options(random, options, command);

    Case c;
    if (chance(random, 0.35)) {  // some of the options in a config file; those that bound a run's time (N, L, bench's
                                 // cases) stay on the command line, which wins over the file's copy, if any
        Options in_file, on_line;
        for (const Option& o : options) {
            const bool bounds_time = o.name == "N" || o.name == "L" || o.name == "cases";
            if (bounds_time) on_line.push_back(o);
            if (bounds_time ? chance(random, 0.3) : chance(random, 0.7)) in_file.push_back(o);
            else if (!bounds_time) on_line.push_back(o);
        }
        options = on_line;
        const int kind = random() % 20;
        c.config = kind < 14 ? ConfigKind::text
                 : kind == 14 ? ConfigKind::fifo
                 : kind == 15 ? ConfigKind::folder
                 : kind == 16 ? ConfigKind::missing
                 : kind == 17 ? ConfigKind::device
                 : kind == 18 ? (chance(random, 0.5) ? ConfigKind::link_to_text : ConfigKind::dangling_link)
                              : ConfigKind::link_loop;
        c.config_text = config_text(random, in_file);
        c.config_device = one_of(random, {"/dev/null", "/dev/zero", "/dev/tty", "/dev/full"});
    }
    if (!command.empty()) c.args.push_back(command);
    const std::vector<std::string> words = option_words(random, options);
    c.args.insert(c.args.end(), words.begin(), words.end());
    if (c.config != ConfigKind::none) {
        const std::string path = c.config == ConfigKind::device ? c.config_device : config_name;
        const std::vector<std::string> config_words = chance(random, 0.2) ? std::vector<std::string>{"--config=" + path}
                                                                           : std::vector<std::string>{"--config", path};
        c.args.insert(c.args.begin() + std::min<std::size_t>(c.args.size(), 1 + random() % (c.args.size() + 1)),
                      config_words.begin(), config_words.end());
    }
    // paths inside the case's folder only (never written into the FIFO), and no argument longer than the kernel passes
    for (std::size_t i = 0; i < c.args.size(); ++i) {
        std::string& arg = c.args[i];
        for (const char* name : {"--output", "--out", "--config"}) {
            const std::string with_equals = std::string(name) + "=";
            if (arg.compare(0, with_equals.size(), with_equals) == 0)
                arg = with_equals + safe_path(arg.substr(with_equals.size()));
            else if (i > 0 && c.args[i - 1] == name && !(c.config == ConfigKind::device && arg == c.config_device))
                arg = safe_path(arg);
        }
        if (c.config == ConfigKind::fifo && (arg == "--output=" + std::string(config_name) ||
                                             (arg == config_name && i > 0 && c.args[i - 1] == "--output")))
            arg.replace(arg.size() - std::strlen(config_name), std::string::npos, "y0.csv");
        if (arg.size() > longest_argument) arg.resize(longest_argument);
    }
    for (const char* key : {"output = ", "out = ", "output=", "out="}) {  // the config file's paths too
        for (std::size_t at = c.config_text.find(key); at != std::string::npos; at = c.config_text.find(key, at + 1)) {
            if (at > 0 && c.config_text[at - 1] != '\n') continue;
            const std::size_t begin = at + std::strlen(key), end = std::min(c.config_text.find_first_of("\r\n#", begin),
                                                                            c.config_text.size());
            c.config_text.replace(begin, end - begin, safe_path(c.config_text.substr(begin, end - begin)));
        }
    }
    return c;
}

// ---------------------------------------------------------------------------------------------------------------
// Running a case

// An argument as a shell would take it, long ones shortened, bytes outside printable ASCII as \xNN.
std::string shown(const std::string& text, std::size_t most = 200) {
    std::string s;
    for (std::size_t i = 0; i < text.size() && i < most; ++i) {
        const unsigned char u = static_cast<unsigned char>(text[i]);
        if (u < 0x20 || u >= 0x7F || u == '\'' || u == '\\') {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02X", u);
            s += hex;
        } else {
            s += static_cast<char>(u);
        }
    }
    if (text.size() > most) s += "...(" + std::to_string(text.size()) + " bytes)";
    return s;
}

std::string shown_command(const Case& c, std::size_t most = 200) {
    std::string s = "bsde";
    for (const std::string& a : c.args) s += " '" + shown(a, most) + "'";
    return s;
}

// The entries the fuzzer makes in the case's folder before the run; they must be there after it.
std::set<std::string> prepare_folder(const fs::path& folder, const Case& c) {
    fs::create_directories(folder);
    const fs::path config = folder / config_name;
    switch (c.config) {
        case ConfigKind::text: std::ofstream(config, std::ios::binary) << c.config_text; break;
        case ConfigKind::fifo: ::mkfifo(config.c_str(), 0600); break;
        case ConfigKind::folder: fs::create_directory(config); break;
        case ConfigKind::link_to_text:
            std::ofstream(folder / "target.ini", std::ios::binary) << c.config_text;
            fs::create_symlink("target.ini", config);
            break;
        case ConfigKind::dangling_link: fs::create_symlink("no-such.ini", config); break;
        case ConfigKind::link_loop: fs::create_symlink(config_name, config); break;
        default: break;
    }
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder)) names.insert(entry.path().filename());
    return names;
}

// The top-level names a successful run may leave: its --output and --out paths' first parts.
std::set<std::string> outputs_of(const Case& c) {
    std::set<std::string> names;
    const auto add = [&](std::string path) {
        while (path.compare(0, 2, "./") == 0) path.erase(0, 2);
        if (path.empty() || path[0] == '/') return;
        names.insert(path.substr(0, path.find('/')));
    };
    for (std::size_t i = 0; i < c.args.size(); ++i)
        for (const std::string name : {"--output", "--out"}) {
            if (c.args[i].compare(0, name.size() + 1, name + "=") == 0) add(c.args[i].substr(name.size() + 1));
            if (c.args[i] == name && i + 1 < c.args.size()) add(c.args[i + 1]);
        }
    if (c.config == ConfigKind::text || c.config == ConfigKind::link_to_text)
        for (std::size_t start = 0; start < c.config_text.size();) {
            const std::size_t end = std::min(c.config_text.find('\n', start), c.config_text.size());
            const std::string line = c.config_text.substr(start, end - start);
            const std::size_t equals = line.find('=');
            if (equals != std::string::npos) {
                std::string value = line.substr(equals + 1, line.find('#') - equals - 1);
                value.erase(0, value.find_first_not_of(" \t\r"));
                value.erase(value.find_last_not_of(" \t\r") + 1);
                add(value);
            }
            start = end + 1;
        }
    return names;
}

struct Slot {
    bool busy = false;
    pid_t pid = -1;
    std::uint64_t number = 0;
    Case c;
    std::set<std::string> prepared;
    std::chrono::steady_clock::time_point deadline;
    bool killed = false;
    fs::path folder, out_file, err_file;
};

// The child: its own session (no controlling terminal; one group to kill), the case's folder as its working
// directory, stdin /dev/null, stdout and stderr into files, one OpenMP thread, no core file; then bsde.
[[noreturn]] void exec_case(const Slot& slot, const std::string& bsde, int seconds) {
    ::setsid();
    const int in = ::open("/dev/null", O_RDONLY);
    const int out = ::open(slot.out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = ::open(slot.err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || out < 0 || err < 0 || ::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0 ||
        ::chdir(slot.folder.c_str()) != 0)
        ::_exit(120);
    const rlimit no_core{0, 0}, cpu{rlim_t(seconds) + 5, rlim_t(seconds) + 10};
    ::setrlimit(RLIMIT_CORE, &no_core);
    ::setrlimit(RLIMIT_CPU, &cpu);
    ::setenv("OMP_NUM_THREADS", "1", 1);
    ::setenv("BSDE_TEST_FREE_BYTES", "1000000000", 1);  // a run over 1 GB is refused (exit 2) before it allocates
    ::unsetenv("BSDE_TEST_FAIL_ALLOCATION");
    std::vector<char*> argv{const_cast<char*>("bsde")};
    for (const std::string& a : slot.c.args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(bsde.c_str(), argv.data());
    ::_exit(121);
}

std::string file_text(const fs::path& path, std::size_t most = 1 << 20) {
    std::ifstream file(path, std::ios::binary);
    std::string text(most, '\0');
    file.read(&text[0], static_cast<std::streamsize>(most));
    text.resize(static_cast<std::size_t>(file.gcount()));
    return text;
}

// What is wrong with a finished run (empty: nothing).
std::vector<std::string> judge(const Slot& slot, int status) {
    std::vector<std::string> wrong;
    const std::string out = file_text(slot.out_file), err = file_text(slot.err_file);
    int code = -1;
    if (slot.killed) wrong.push_back("still running after the time limit (killed)");
    else if (WIFSIGNALED(status)) wrong.push_back("ended by signal " + std::to_string(WTERMSIG(status)) + " (" +
                                                  strsignal(WTERMSIG(status)) + ")");
    else if (WIFEXITED(status)) code = WEXITSTATUS(status);
    if (code == 120 || code == 121) usage("cannot start " + std::string(code == 121 ? "bsde" : "the child process"));
    if (code != -1 && code != 0 && code != 2 && code != 3 && code != 4 && code != 5)
        wrong.push_back("exit code " + std::to_string(code) + ", not one of 0, 2, 3, 4, 5");
    if (code > 0 && !out.empty()) wrong.push_back("exit code " + std::to_string(code) + " with " +
                                                  std::to_string(out.size()) + " bytes on stdout");
    // stderr: warning lines, and for a failure one error line, the last
    if (code >= 0) {
        std::vector<std::string> lines;
        for (std::size_t start = 0; start < err.size();) {
            const std::size_t end = err.find('\n', start);
            lines.push_back(err.substr(start, end == std::string::npos ? std::string::npos : end - start));
            if (end == std::string::npos) {
                wrong.push_back("stderr does not end with a newline");
                break;
            }
            start = end + 1;
        }
        int errors = 0;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const bool error = lines[i].rfind("bsde: error: ", 0) == 0;
            errors += error;
            if (!error && lines[i].rfind("bsde: warning: ", 0) != 0 && lines[i].rfind("bsde: note: ", 0) != 0)
                wrong.push_back("stderr line " + std::to_string(i + 1) + " is not an error, a warning or a note: '" +
                                shown(lines[i]) + "'");
            if (lines[i].size() > longest_line)
                wrong.push_back("stderr line " + std::to_string(i + 1) + " has " + std::to_string(lines[i].size()) +
                                " characters");
        }
        if (code == 0 && errors > 0) wrong.push_back("exit code 0 with an error line");
        if (code > 0 && (errors != 1 || lines.empty() || lines.back().rfind("bsde: error: ", 0) != 0))
            wrong.push_back("exit code " + std::to_string(code) + " with " + std::to_string(errors) +
                            " error lines (one expected, the last line of stderr)");
    }
    // the case's folder: what the fuzzer put there stays; what the run left is a successful run's output only
    std::error_code missing;
    if (!fs::is_directory(fs::symlink_status(slot.folder, missing)))
        wrong.push_back("the case's folder (the run's working directory) is gone");
    else {
        const std::set<std::string> outputs = code == 0 ? outputs_of(slot.c) : std::set<std::string>{};
        std::set<std::string> present;
        for (const auto& entry : fs::directory_iterator(slot.folder)) present.insert(entry.path().filename());
        for (const std::string& name : slot.prepared)
            if (!present.count(name)) wrong.push_back("removed '" + shown(name) + "', which the fuzzer made");
        // what the fuzzer made, and a successful run's --output and --out (--out . writes beside the fuzzer's files)
        const auto allowed = [&](const std::string& name) {
            if (slot.prepared.count(name)) return true;
            if (name.find(".partial.") != std::string::npos) return false;
            const std::size_t dot = name.rfind('.');
            const std::string type = dot == std::string::npos ? "" : name.substr(dot);
            const bool table_or_plot = type == ".csv" || type == ".md" || type == ".png" || type == ".gp";
            return outputs.count(name) > 0 || (outputs.count(".") > 0 && table_or_plot);
        };
        for (const std::string& name : present)
            if (!allowed(name))
                wrong.push_back("left '" + shown(name) + "' in its folder (exit code " + std::to_string(code) + ")");
    }
    if (!wrong.empty()) {
        wrong.push_back("stderr: '" + shown(err, 600) + "'");
        if (!out.empty()) wrong.push_back("stdout: '" + shown(out, 300) + "'");
    }
    return wrong;
}

const char* config_kind_name(ConfigKind kind) {
    switch (kind) {
        case ConfigKind::text: return "a file";
        case ConfigKind::fifo: return "a FIFO";
        case ConfigKind::folder: return "a folder";
        case ConfigKind::missing: return "missing";
        case ConfigKind::device: return "a device";
        case ConfigKind::link_to_text: return "a link to a file";
        case ConfigKind::dangling_link: return "a dangling link";
        case ConfigKind::link_loop: return "a link to itself";
        default: return "none";
    }
}

struct Settings {
    std::string bsde, tmp;
    std::uint64_t seed = 0, cases = 300, only = 0;
    bool only_one = false, every_case = false;
    int jobs = 2, timeout = 20;
};

Settings parse_settings(int argc, char** argv) {
    Settings s;
    s.seed = static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) % 1000000007;
    const std::string self = fs::canonical("/proc/self/exe").parent_path() / "bsde";
    s.bsde = self;
    for (int i = 1; i < argc; ++i) {
        const std::string name = argv[i];
        if (i + 1 >= argc) usage("missing the value of " + name);
        const std::string value = argv[++i];
        const auto number = [&] {
            char* end = nullptr;
            const unsigned long long n = std::strtoull(value.c_str(), &end, 10);
            if (value.empty() || *end != '\0' || value[0] == '-') usage(name + " '" + value + "': a number expected");
            return static_cast<std::uint64_t>(n);
        };
        if (name == "--bsde") s.bsde = value;
        else if (name == "--cases") s.cases = number();
        else if (name == "--seed") s.seed = number();
        else if (name == "--case") s.only = number(), s.only_one = true;
        else if (name == "--jobs") s.jobs = static_cast<int>(std::clamp<std::uint64_t>(number(), 1, 64));
        else if (name == "--timeout") s.timeout = static_cast<int>(std::clamp<std::uint64_t>(number(), 1, 3600));
        else if (name == "--tmp") s.tmp = value;
        else if (name == "--list" && (value == "on" || value == "off")) s.every_case = value == "on";
        else usage("unknown option " + name);
    }
    if (::access(s.bsde.c_str(), X_OK) != 0) usage("no executable bsde at " + s.bsde + " (give --bsde PATH)");
    s.bsde = fs::absolute(s.bsde).lexically_normal();  // the child runs in the case's folder
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    const Settings settings = parse_settings(argc, argv);
    const char* tmp = std::getenv("TMPDIR");
    std::string scratch_root = settings.tmp.empty() ? (tmp && *tmp ? tmp : "/tmp") : settings.tmp;
    scratch_root += "/bsde_fuzz.XXXXXX";
    if (!::mkdtemp(&scratch_root[0])) usage("cannot make a scratch folder " + scratch_root);
    const std::uint64_t first = settings.only_one ? settings.only : 0;
    const std::uint64_t end = settings.only_one ? settings.only + 1 : settings.cases;
    std::cout << "bsde_fuzz: seed " << settings.seed << ", " << end - first << " cases from case " << first << ", "
              << settings.jobs << " at a time, " << settings.timeout << " s each at most; bsde " << settings.bsde
              << "; scratch " << scratch_root << std::endl;

    std::vector<Slot> slots(settings.jobs);
    for (std::size_t i = 0; i < slots.size(); ++i) {
        slots[i].folder = fs::path(scratch_root) / ("case" + std::to_string(i));
        slots[i].out_file = fs::path(scratch_root) / ("case" + std::to_string(i) + ".stdout");
        slots[i].err_file = fs::path(scratch_root) / ("case" + std::to_string(i) + ".stderr");
    }
    std::map<std::string, int> outcomes;  // "exit 2", "signal 11", ...
    int failures = 0;
    std::uint64_t next = first, finished = 0;
    const auto started = std::chrono::steady_clock::now();
    const auto start_case = [&](Slot& slot) {
        slot.number = next++;
        slot.c = make_case(settings.seed, slot.number);
        fs::remove_all(slot.folder);
        slot.prepared = prepare_folder(slot.folder, slot.c);
        slot.killed = false;
        slot.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(settings.timeout);
        slot.pid = ::fork();
        if (slot.pid < 0) usage("fork failed");
        if (slot.pid == 0) exec_case(slot, settings.bsde, settings.timeout);
        slot.busy = true;
    };
    for (;;) {
        for (Slot& slot : slots)
            if (!slot.busy && next < end) start_case(slot);
        bool any = false;
        for (Slot& slot : slots) {
            if (!slot.busy) continue;
            any = true;
            int status = 0;
            const pid_t done = ::waitpid(slot.pid, &status, WNOHANG);
            if (done == 0) {
                if (!slot.killed && std::chrono::steady_clock::now() > slot.deadline) {
                    ::kill(-slot.pid, SIGKILL);  // its group: gnuplot too
                    slot.killed = true;
                }
                continue;
            }
            slot.busy = false;
            ++finished;
            if (slot.killed) ::kill(-slot.pid, SIGKILL);
            const std::vector<std::string> wrong = judge(slot, status);
            const std::string outcome = slot.killed            ? "killed"
                                        : WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                                              : "exit " + std::to_string(WEXITSTATUS(status));
            ++outcomes[outcome];
            if (settings.every_case && wrong.empty() && !settings.only_one)
                std::cout << "case " << slot.number << ", " << outcome << ": " << shown_command(slot.c, 60) << "\n";
            if (!wrong.empty() || settings.only_one) {
                failures += !wrong.empty();
                std::cout << (wrong.empty() ? "case " : "FLAGGED case ") << slot.number << " (seed " << settings.seed
                          << "), " << outcome << ": " << shown_command(slot.c) << "\n";
                if (slot.c.config != ConfigKind::none)
                    std::cout << "  --config " << config_kind_name(slot.c.config)
                              << (slot.c.config == ConfigKind::device ? " " + slot.c.config_device : "")
                              << (slot.c.config == ConfigKind::text || slot.c.config == ConfigKind::link_to_text
                                      ? ": '" + shown(slot.c.config_text, 400) + "'"
                                      : "")
                              << "\n";
                for (const std::string& w : wrong) std::cout << "  " << w << "\n";
                if (settings.only_one) std::cout << "  stderr: '" << shown(file_text(slot.err_file), 2000) << "'\n";
                if (!wrong.empty())
                    std::cout << "  again: bsde_fuzz --bsde " << settings.bsde << " --seed " << settings.seed
                              << " --case " << slot.number << "\n";
                std::cout << std::flush;
            }
        }
        if (!any && next >= end) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::cout << "bsde_fuzz: seed " << settings.seed << ": " << finished << " cases in " << seconds << " s (";
    bool first_outcome = true;
    for (const auto& [outcome, count] : outcomes) {
        std::cout << (first_outcome ? "" : ", ") << outcome << ": " << count;
        first_outcome = false;
    }
    std::cout << "); " << failures << " flagged" << std::endl;
    fs::remove_all(scratch_root);
    return failures == 0 ? 0 : 1;
}
