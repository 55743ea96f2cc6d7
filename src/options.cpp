#include "options.h"

#include <fstream>
#include <sstream>

#include <boost/program_options.hpp>

#include "../algorithms/errors.h"
#include "../problems/registry.h"

namespace po = boost::program_options;

namespace bsde {
namespace {

const std::vector<std::string> commands{"solve", "coefficients", "grid", "problems"};

po::options_description command_line_options() {
    po::options_description options("Command line only");
    options.add_options()
        ("help,h", "print this help")
        ("config", po::value<std::string>()->value_name("FILE"),
         "INI file with any of the options below (key = value); the command line wins");
    return options;
}

po::options_description shared_options() {
    po::options_description options("Command line or config file");
    options.add_options()
        ("problem", po::value<std::string>()->value_name("NAME"), "problem name or alias (bsde problems lists them)")
        ("K", po::value<int>()->value_name("K"), "multistep order of y and z (default 3; coefficients: 6)")
        ("Ky", po::value<int>()->value_name("K"), "multistep order of y (default K)")
        ("Kz", po::value<int>()->value_name("K"), "multistep order of z (default K)")
        ("N", po::value<int>()->value_name("N"), "time steps (default 256)")
        ("T", po::value<double>()->value_name("T"), "terminal time (default: the problem's)")
        ("R", po::value<double>()->value_name("R"), "half-width of the space domain (default: the problem's)")
        ("L", po::value<int>()->value_name("L"), "Gauss-Hermite points (default: the problem's)")
        ("picard", po::value<int>()->value_name("P"), "most Picard iterations per point and step (default 30)")
        ("picard-tol", po::value<double>()->value_name("TOL"),
         "stop Picard when |change| <= TOL (1 + |y|) (default 1e-15)")
        ("startup", po::value<std::string>()->value_name("METHOD"),
         "start-up layers: multistep (default; the scheme on a finer step) or exact (verification only)")
        ("startup-substeps", po::value<int>()->value_name("S"),
         "fine steps per time step in the multistep start-up (default 0 = ceil(dt^-1/2))")
        ("grid-order", po::value<int>()->value_name("Q"),
         "match the space grid to order Q: dx = dt^((Q+1)/4) (default 0 = min(Ky+1, Kz, 3), the paper's rule)")
        ("smoothing", po::value<std::string>()->value_name("KIND"),
         "smoothing of kinked terminal data: kreiss4 (default), kreiss2, none")
        ("S0", po::value<double>(), "option problems: initial stock price (default 100)")
        ("strike", po::value<double>(), "option problems: strike (default 100)")
        ("r", po::value<double>(), "option problems: interest rate (default 0.03)")
        ("mu", po::value<double>(), "option problems: drift of the stock (default 0.05)")
        ("delta", po::value<double>(), "option problems: dividend yield (default 0.04)")
        ("sigma", po::value<double>(), "option problems: volatility (default 0.2)")
        ("spline", po::value<std::string>()->value_name("BOUNDARY"), "spline end condition: not-a-knot (default), natural")
        ("backend", po::value<std::string>()->value_name("NAME"),
         "cuda, omp or serial (default: cuda when a device is present, else omp)")
        ("output", po::value<std::string>()->value_name("FILE"), "solve: write y_0(w), z_0(w) and the exact values as CSV");
    return options;
}

template <class T>
bool take(const po::variables_map& vm, const char* name, T& target) {
    if (!vm.count(name)) return false;
    target = vm[name].as<T>();
    return true;
}

void read_config_file(const std::string& path, const po::options_description& options, po::variables_map& vm) {
    std::ifstream file(path);
    if (!file) throw InputError("--config '" + path + "': cannot open the file for reading");
    try {
        po::store(po::parse_config_file(file, options, false), vm);
    } catch (const po::error& e) {
        throw InputError("--config '" + path + "': " + e.what());
    }
}

}  // namespace

std::string help_text() {
    std::ostringstream text;
    text << "bsde: multistep scheme for backward stochastic differential equations\n\n"
            "Usage: bsde COMMAND [options]\n\n"
            "Commands:\n"
            "  solve          solve a problem and report y_0, z_0, errors, time and memory\n"
            "  coefficients   print the multistep weights gamma^K_{K,j} and gamma^1_{K,j} for K = 1..--K\n"
            "  grid           print the space grid M, dx and the time step dt for --K --N [--T --R]\n"
            "  problems       list the problems\n\n"
         << command_line_options() << "\n"
         << shared_options() << "\n"
         << "Exit codes: 0 success, 2 bad input, 3 numerical failure, 4 device or library failure.\n";
    return text.str();
}

Invocation parse_invocation(const std::vector<std::string>& args) {
    Invocation invocation;
    std::vector<std::string> rest(args);
    if (!rest.empty() && !rest.front().empty() && rest.front()[0] != '-') {
        invocation.command = rest.front();
        rest.erase(rest.begin());
        bool known = false;
        for (const std::string& c : commands) known = known || c == invocation.command;
        if (!known)
            throw InputError("unknown command '" + invocation.command +
                             "': allowed commands are solve, coefficients, grid, problems");
    }

    po::options_description all;
    const po::options_description shared = shared_options();
    all.add(command_line_options()).add(shared);
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(rest).options(all).run(), vm);
    } catch (const po::error& e) {
        throw InputError(e.what());
    }
    invocation.help = vm.count("help") > 0;
    if (invocation.help) return invocation;
    if (invocation.command.empty()) throw InputError("no command given: try 'bsde --help'");
    if (vm.count("config")) read_config_file(vm["config"].as<std::string>(), shared, vm);

    SchemeSettings& s = invocation.settings;
    int K = invocation.command == "coefficients" ? 6 : 3;
    take(vm, "K", K);
    if (K < 1) throw InputError("--K " + std::to_string(K) + ": must be >= 1");
    s.Ky = s.Kz = K;
    take(vm, "Ky", s.Ky);
    take(vm, "Kz", s.Kz);
    if (invocation.command == "coefficients") {
        s.Kz = s.Ky = K;
        return invocation;
    }

    invocation.problem = "ex2";
    take(vm, "problem", invocation.problem);
    const ProblemInfo& problem = find_problem(invocation.problem);
    s.T = problem.default_T;
    s.R = problem.default_R;
    s.L = problem.default_L;
    take(vm, "N", s.N);
    take(vm, "T", s.T);
    take(vm, "R", s.R);
    take(vm, "L", s.L);
    take(vm, "picard", s.picard_iterations);
    take(vm, "picard-tol", s.picard_tolerance);
    take(vm, "startup-substeps", s.startup_substeps);
    take(vm, "grid-order", s.grid_order);
    std::string name;
    if (take(vm, "startup", name)) s.startup = parse_startup(name);
    if (take(vm, "smoothing", name)) s.smoothing = parse_smoothing(name);
    for (const char* parameter : {"S0", "strike", "r", "mu", "delta", "sigma"})
        if (vm.count(parameter)) s.problem_parameters[parameter] = vm[parameter].as<double>();
    if (take(vm, "spline", name)) s.spline = parse_spline_boundary(name);
    if (take(vm, "backend", name)) {
        invocation.backend = parse_backend(name);
        invocation.backend_given = true;
    }
    take(vm, "output", invocation.output);
    validate(s);
    return invocation;
}

}  // namespace bsde
