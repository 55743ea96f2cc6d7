// The option problems' parameters against the run's grid (problems/option_checks.h, called by the sweep before it
// allocates). Settings whose asset is not a normal double over the domain, or leaves the scheme no room for its sums,
// and settings whose price grows faster than the domain, the grid or the rule resolve, are refused with one line and
// exit code 2 (unchecked, ex3 with S0 = 5e-324 reports a delta of -nan, with sigma = 20 a price of 1e25, both with
// exit code 0); the settings just inside each bound solve to finite values that match the closed forms.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <filesystem>
#include <regex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "../algorithms/scheme/grid.h"
#include "../problems/black_scholes_option.h"
#include "../problems/exchange_option.h"
#include "../problems/logistic_bsde.h"
#include "../problems/problem_interface.h"
#include "../problems/registry.h"
#include "cli_support.h"
#include "test_support.h"

using namespace bsde;
using namespace bsde::test;

namespace {

// bsde refuses args with exit code 2, one line on stderr that starts with `start` and says `reason`, nothing on stdout.
void check_refused(const std::vector<std::string>& args, const std::string& start, const std::string& reason) {
    std::string command;
    for (const std::string& arg : args) command += " " + arg;
    const CliResult r = run(args);
    BOOST_TEST_MESSAGE("bsde" << command << ": " << r.err);
    BOOST_CHECK_MESSAGE(r.code == 2, "bsde" << command << ": exit code expected 2, got " << r.code);
    BOOST_CHECK_MESSAGE(r.out.empty(), "bsde" << command << ": stdout expected empty, got '" << r.out << "'");
    BOOST_CHECK_MESSAGE(std::count(r.err.begin(), r.err.end(), '\n') == 1 && r.err.rfind(start, 0) == 0 &&
                            r.err.find(reason) != std::string::npos,
                        "bsde" << command << ": expected one line starting '" << start << "' that says '" << reason
                               << "', got '" << shown(r.err) << "'");
}

// The problem's defaults but for K, N and its parameters.
SchemeSettings option_settings(const std::string& problem, int K, int N, const ProblemParameters& parameters) {
    const ProblemInfo& info = find_problem(problem);
    SchemeSettings s;
    s.Ky = s.Kz = K;
    s.N = N;
    s.T = info.default_T;
    s.R = info.default_R;
    s.L = info.default_L;
    s.problem_parameters = parameters;
    return s;
}

// dx of the run's space grid (scheme.md, "Grids")
double grid_step(const SchemeSettings& s) { return SpaceGrid{space_intervals(s.Ky, s.Kz, s.N, s.T, s.R), s.R}.dx(); }

// The largest asset value the checks admit at this dx: DBL_MAX / max(1024, 24 / dx^2) (option_checks.h).
double largest_admitted(double dx) { return DBL_MAX / std::fmax(1024.0, 24.0 / (dx * dx)); }

// The relative error of y_0 of problem with s against the closed form (serial).
double y0_relative_error(const std::string& problem, const SchemeSettings& s) {
    const SolveResult r = backend_ops(Backend::serial).solve(problem, s);
    return r.y0_error() / std::fabs(r.y0_exact);
}

// The message of the InputError that solving problem with s throws; empty (and an error reported) if none.
std::string refusal(const std::string& problem, const SchemeSettings& s, const std::string& label) {
    try {
        backend_ops(Backend::serial).solve(problem, s);
    } catch (const InputError& e) {
        BOOST_TEST_MESSAGE(label << ": " << e.what());
        return e.what();
    }
    BOOST_ERROR(label << ": solved, expected to be refused");
    return "";
}

bool all_finite(const std::vector<double>& values) {
    return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

// Solves problem with s on serial: every value of the report over the grid finite (y, z, S, delta and their exact
// values), and y_0 within relative_tolerance of the closed form.
void check_solves_finite_and_accurate(const std::string& problem, const SchemeSettings& s, double relative_tolerance,
                                      const std::string& label) {
    const SolveResult r = backend_ops(Backend::serial).solve(problem, s);
    for (const auto& [name, values] : {std::make_pair("y", &r.y), std::make_pair("z", &r.z),
                                       std::make_pair("y_exact", &r.y_exact), std::make_pair("z_exact", &r.z_exact),
                                       std::make_pair("S", &r.state), std::make_pair("delta", &r.gradient),
                                       std::make_pair("delta_exact", &r.gradient_exact)})
        BOOST_CHECK_MESSAGE(all_finite(*values), label << ": " << name << " is not finite everywhere on the grid");
    check_close(label + ": y_0 / exact", 1.0, r.y0 / r.y0_exact, relative_tolerance);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(problem_parameters)

BOOST_AUTO_TEST_CASE(refuses_an_asset_that_underflows_or_overflows_on_the_grid) {
    BOOST_TEST_MESSAGE("ex3 S0 = 5e-324 (S(0, w) is 0 below w = 0: delta 0/0), S0 = 1e-300 with sigma = 5 (S = 0 at the "
                       "lower end), sigma = 44 (sigma S = e^712 at the upper end), sigma = 50 with R = 17 (e^850), bs-put S0 = 1e306, ex5 S1 = S2 = 1e-307 and 1e306: "
                       "exit code 2, one line naming the parameter, no output file; ex3 strike = 4.9e-324 and ex5 S2 / S1 = 1e-600 (a "
                       "quotient that underflows): the kink's refusal at a finite w");
    const std::vector<std::string> ex3{"solve", "--backend", "serial", "--problem", "ex3", "--K", "2", "--N", "8"};
    check_refused(extended(ex3, {"--S0", "5e-324", "--strike", "5e-324"}),
                  "bsde: error: --S0 4.94065645841247e-324 with",
                  // ln(sigma S) = ln(5e-324) - sigma R + ln(sigma) = -744.44 - 3.2 - 1.61: printed as a power, not 0
                  "the asset underflows at the domain's lower end at t = 0: sigma S = e^(-749.2) there");
    // ln(sigma S) = ln(100) + sigma R + ln(sigma) = 4.61 + 704 + 3.78 at the upper end (the drift mu - sigma^2 / 2
    // < 0), with the paper's mu and R
    check_refused(extended(ex3, {"--sigma", "44", "--mu", "0.05", "--R", "16"}),
                  "bsde: error: --S0 100 with --mu 0.05, --sigma 44",
                  "the asset overflows at the domain's upper end: sigma S = e^(712.4) there");
    const std::string output = (std::filesystem::temp_directory_path() / "bsde_test_underflow.csv").string();
    std::filesystem::remove(output);
    check_refused(extended(ex3, {"--S0", "1e-300", "--strike", "1e-300", "--sigma", "5", "--output", output}),
                  "bsde: error: --S0 1e-300 with --mu -0.01, --sigma 5, T = 0.33 and R = 16:",
                  "underflows at the domain's lower end");
    BOOST_CHECK_MESSAGE(!std::filesystem::exists(output) && !std::filesystem::exists(output + ".partial"),
                        "a refused run left " << output << " behind");
    check_refused(extended(ex3, {"--sigma", "50", "--R", "17"}), "bsde: error: --S0 100 with --mu -0.01, --sigma 50",
                  "the asset underflows");
    check_refused({"solve", "--backend", "serial", "--problem", "bs-put", "--K", "2", "--N", "8", "--S0", "1e306",
                   "--strike", "1e306"},
                  // S0 e^(sigma R): the drift mu - sigma^2 / 2 = -0.03 < 0
                  "bsde: error: --S0 1e+306 with", "the asset overflows at the domain's upper end: S = 2.45e+307");
    const std::vector<std::string> ex5{"solve", "--backend", "serial", "--problem", "ex5", "--K", "1", "--N", "4"};
    check_refused(extended(ex5, {"--S1", "1e-307", "--S2", "1e-307", "--R", "8"}),
                  "bsde: error: --S1 1e-307 with --mu1 0.05, --sigma1 0.25, T = 1 and R = 8:",
                  "underflows at the domain's lower end at t = 0: sigma1 S1 = 3.38e-309 there");
    check_refused(extended(ex5, {"--S1", "1e306", "--S2", "1e306", "--R", "8"}), "bsde: error: --S1 1e+306 with",
                  "overflows at the domain's upper end: S1 = ");
    // Assets in range whose quotient underflows: the kink where it lies, not at w = -inf (ln(strike / S0) = ln 0).
    // ex3: (ln 4.9e-324 - ln 100 - (-0.01 - 0.2^2 / 2) 0.33) / 0.2 = -3745.18
    check_refused(extended(ex3, {"--strike", "4.9e-324"}), "bsde: error: the terminal data's kink at w = -3745.1",
                  "or raise --R to 7.5e+03 or more");
    // ex5: |ln 1e-300 - ln 1e300 - (0.1 - 0.25^2 / 2 - 0.1 + 0.3^2 / 2)| / sqrt(0.25^2 + 0.3^2) = 3537.82
    check_refused(extended(ex5, {"--S1", "1e300", "--S2", "1e-300", "--R", "8"}),
                  "bsde: error: the terminal data's kink line lies 3537.8",
                  "or raise --R to 7.08e+03 or more");
}

BOOST_AUTO_TEST_CASE(solves_the_assets_at_the_edges_of_the_range) {
    BOOST_TEST_MESSAGE("S0 = strike at 1.01 and 0.99 times the bounds, sigma S0 e^(-sigma R) = DBL_MIN (t = 0) and "
                       "S0 e^(max(0, m T) + sigma R) = DBL_MAX / max(1024, 24 / dx^2), m = mu - sigma^2 / 2 (ex3 and "
                       "bs-put, K = 2, N = 8; per asset for ex5): inside, every value finite and y_0 within 1e-3 of the "
                       "closed form (the errors at S0 = 100 are 2.3e-5 and 4.9e-5); outside, refused");
    const double T = 0.33, R = 16, sigma = 0.2, m = 0.03 - 0.04 - 0.5 * sigma * sigma;  // mu = r - delta
    const double lower = DBL_MIN / (sigma * std::exp(-sigma * R));
    const double upper = largest_admitted(grid_step(option_settings("ex3", 2, 8, {}))) /
                         std::exp(std::fmax(0.0, m * T) + sigma * R);
    // ex5 (T = 1, R = 8, rho = 0, both drifts mu_k - sigma_k^2 / 2 > 0, mu_k = r): the asset with the larger bound
    // binds, S2 at both ends
    const double sigma1 = 0.25, sigma2 = 0.3;
    const double drift1 = 0.05 - 0.5 * sigma1 * sigma1, drift2 = 0.05 - 0.5 * sigma2 * sigma2;
    const double ex5_lower = DBL_MIN / std::fmin(sigma1 * std::exp(-sigma1 * 8.0), sigma2 * std::exp(-sigma2 * 8.0));
    const double ex5_upper = largest_admitted(grid_step(option_settings("ex5", 2, 8, {}))) /
                             std::fmax(std::exp(drift1 + sigma1 * 8.0), std::exp(drift2 + sigma2 * 8.0));
    const std::vector<std::tuple<const char*, const char*, const char*, double>> edges{
        {"bs-call", "S0", "strike", lower}, {"bs-call", "S0", "strike", upper}, {"bs-put", "S0", "strike", lower},
        {"bs-put", "S0", "strike", upper},  {"ex5", "S1", "S2", ex5_lower},     {"ex5", "S1", "S2", ex5_upper}};
    for (const auto& [problem, first, second, bound] : edges) {
        const double inside = bound == lower || bound == ex5_lower ? 1.01 : 0.99;
        const double S = bound * inside, outside = bound * (2.0 - inside);
        check_solves_finite_and_accurate(problem, option_settings(problem, 2, 8, {{first, S}, {second, S}}), 1e-3,
                                         std::string(problem) + ", " + first + " = " + second + " = " + scientific(S));
        const SchemeSettings refused = option_settings(problem, 2, 8, {{first, outside}, {second, outside}});
        BOOST_CHECK_THROW(backend_ops(Backend::serial).solve(problem, refused), InputError);
    }
}

BOOST_AUTO_TEST_CASE(solves_a_call_whose_terminal_asset_underflows_at_the_lower_end) {
    BOOST_TEST_MESSAGE("ex3 sigma = 30, K = 3, N = 64: S(T, -R) = 100 e^((0.05 - 450) 0.33 - 480) underflows to 0, where "
                       "the payoff is 0 as it would be; S(0, -R) = 100 e^(-480) is normal: solved, every value finite, "
                       "y_0 within 1e-4 of the closed form");
    check_solves_finite_and_accurate("bs-call", option_settings("bs-call", 3, 64, {{"sigma", 30.0}}), 1e-4,
                                     "bs-call, sigma = 30");
}

BOOST_AUTO_TEST_CASE(refuses_a_price_growing_faster_than_the_grid_resolves) {
    BOOST_TEST_MESSAGE("ex3 K = 2, N = 8, sigma = 20 (price 1e25 before: sigma dx = 1.83 > ln(2 + sqrt(3))), ex5 K = 1, "
                       "N = 4, sigma1 = 5 (y_0 60.2 for 98.8: the price's weight at w_1 = 5 is 3 standard deviations "
                       "inside R = 8), ex3 K = 3, N = 16, sigma = 40 (y_0 29.7 for 98.7: the 32-point rule misses the "
                       "growth), ex3 T = 1, sigma = 13 (3 standard deviations inside R = 16): exit code 2, one line");
    const std::vector<std::string> solve{"solve", "--backend", "serial", "--problem"};
    const auto with = [&](const std::vector<std::string>& more) {
        std::vector<std::string> args = solve;
        args.insert(args.end(), more.begin(), more.end());
        return args;
    };
    check_refused(with({"ex3", "--K", "2", "--N", "8", "--sigma", "20"}),
                  "bsde: error: --sigma 20 with --K 2 and --N 8 (dx = 0.0914): the price grows by e^(1.83) a grid cell",
                  "sigma dx must stay below ln(2 + sqrt(3)) = 1.317");
    // the paper's drifts and R (c_1 = -(mu1 - r) / sigma1 = -0.01)
    check_refused(with({"ex5", "--K", "1", "--N", "4", "--sigma1", "5", "--mu1", "0.1", "--mu2", "0.1", "--R", "8"}),
                  "bsde: error: --sigma1 5 with T = 1 and R = 8:",
                  "3.01 of them inside R: truncating the domain there costs 0.0013 of the price");
    check_refused(with({"ex3", "--K", "3", "--N", "16", "--sigma", "40", "--R", "16"}),
                  "bsde: error: --sigma 40 with --K 3, --N 16 and --L 32: the 32-point Gauss-Hermite rule", "--L 49");
    check_refused(with({"ex3", "--K", "3", "--N", "64", "--T", "1", "--sigma", "13", "--R", "16"}),
                  "bsde: error: --sigma 13 with T = 1 and R = 16:", "raise --R to 16.8 or more");
}

BOOST_AUTO_TEST_CASE(solves_a_growing_price_at_the_edges_of_the_bounds) {
    BOOST_TEST_MESSAGE("bs-call just inside each bound is solved, finite and near the closed form, and just outside "
                       "refused: sigma dx = 0.99 and 1.01 ln(2 + sqrt(3)) (K = 2, N = 8: within 2 %, the time error at "
                       "sigma sqrt(dt) = 2.9, and closer at N = 16); (R - sigma T) / sqrt(T) = 1.01 and 0.99 times "
                       "3.719 (K = 3, N = 64: within 1e-3); K = 3, N = 8, sigma = 25 refused for the rule (y_0 4 % low "
                       "with L = 32 before), and solved within 2 % with the --L the message names. Prices that do not "
                       "grow are not bounded: bs-put "
                       "with sigma = 20 and ex5 with sigma2 = 5 within 1e-6 and 1e-4");
    const double spline_pole = std::log(2.0 + std::sqrt(3.0));
    const double sigma_pole = spline_pole / grid_step(option_settings("bs-call", 2, 8, {}));
    const auto call = [](int K, int N, double sigma) { return option_settings("bs-call", K, N, {{"sigma", sigma}}); };
    check_solves_finite_and_accurate("bs-call", call(2, 8, 0.99 * sigma_pole), 2e-2, "sigma dx = 0.99 ln(2 + sqrt(3))");
    const double coarse = y0_relative_error("bs-call", call(2, 8, 0.99 * sigma_pole));
    const double fine = y0_relative_error("bs-call", call(2, 16, 0.99 * sigma_pole));
    BOOST_CHECK_MESSAGE(fine < coarse / 2, "sigma dx = 0.99 ln(2 + sqrt(3)): y_0 errors " << scientific(coarse)
                                               << " at N = 8 and " << scientific(fine) << " at N = 16, expected to halve");
    refusal("bs-call", call(2, 8, 1.01 * sigma_pole), "sigma dx = 1.01 ln(2 + sqrt(3))");
    // (R - (sigma - theta) T) / sqrt(T) = h, theta = (mu - r + delta) / sigma: sigma^2 - a sigma - (mu - r + delta) = 0
    // with a = (R - h sqrt(T)) / T
    const double T = 0.33, R = 16, drift = 0.05 - 0.03 + 0.04;
    for (const double held : {1.01 * 3.719, 0.99 * 3.719}) {
        const double a = (R - held * std::sqrt(T)) / T, sigma = 0.5 * (a + std::sqrt(a * a + 4 * drift));
        const std::string label = "(R - sigma T) / sqrt(T) = " + std::to_string(held) + ", sigma = " + std::to_string(sigma);
        if (held > 3.719)
            check_solves_finite_and_accurate("bs-call", call(3, 64, sigma), 1e-3, label);
        else
            refusal("bs-call", call(3, 64, sigma), label);
    }
    const std::string message = refusal("bs-call", call(3, 8, 25.0), "K = 3, N = 8, sigma = 25");
    std::smatch named;
    const bool names_L = std::regex_search(message, named, std::regex("--L ([0-9]+) \\(the smallest above it\\)"));
    BOOST_CHECK_MESSAGE(names_L, "K = 3, N = 8, sigma = 25: the message names no --L");
    if (names_L) {
        SchemeSettings s = call(3, 8, 25.0);
        s.L = std::stoi(named[1]);
        check_solves_finite_and_accurate("bs-call", s, 2e-2, "K = 3, N = 8, sigma = 25, L = " + std::to_string(s.L));
    }
    check_solves_finite_and_accurate("bs-put", option_settings("bs-put", 2, 8, {{"sigma", 20.0}}), 1e-6,
                                     "bs-put, sigma = 20");
    check_solves_finite_and_accurate("ex5", option_settings("ex5", 2, 16, {{"sigma2", 5.0}}), 1e-4, "ex5, sigma2 = 5");
}

BOOST_AUTO_TEST_CASE(the_R_a_refusal_asks_for_is_taken) {
    BOOST_TEST_MESSAGE("a refusal that asks for a larger --R (the kink outside the grid's inner half, 1D and 2D; the "
                       "domain too small for the price's weight, growing or bounded) names a value that bsde grid then takes without that "
                       "refusal; the value is rounded up to 3 digits (format_at_least: 10.24 -> 10.3, not %.3g's 10.2)");
    const std::pair<double, std::string> rounded[]{{10.24, "10.3"}, {10.3, "10.3"},        {10.30000000005, "10.4"},
                                                   {68.97855, "69"}, {0.001234, "0.00124"}, {999.5, "1e+03"}};
    for (const auto& [value, expected] : rounded)
        BOOST_CHECK_MESSAGE(format_at_least(value) == expected,
                            "format_at_least(" << all_digits(value) << "): expected " << expected << ", got "
                                               << format_at_least(value));
    const std::vector<std::pair<std::vector<std::string>, std::string>> refused{
        {{"--problem", "ex3", "--K", "2", "--N", "64", "--strike", "1e5"}, "the terminal data's kink"},
        {{"--problem", "ex3", "--K", "3", "--N", "64", "--T", "5", "--sigma", "0.05", "--S0", "50"},
         "the terminal data's kink"},
        {{"--problem", "ex5", "--K", "1", "--N", "8", "--S1", "1", "--S2", "100"}, "the terminal data's kink line"},
        {{"--problem", "ex3", "--K", "3", "--N", "64", "--T", "1", "--sigma", "13", "--R", "16"},
         "--sigma 13 with T = 1 and R = "},
        // asks for R = 4.77 exactly (c = 0), which a test by (R - |centre|) / sqrt(T) refused
        {{"--problem", "ex3", "--K", "3", "--N", "64", "--T", "1", "--sigma", "1.051", "--mu", "0.03", "--delta", "0",
          "--R", "4"},
         "--sigma 1.051 with T = 1 and R = "},
        // bounded prices, whose weight lies at c T: the put (c = -(mu - r + delta) / sigma = -2.6, c T = -13) and the
        // exchange option along w_2 (c_2 = -lambda_2 = -(mu2 - r) / sigma2 = -1.5 at rho = 0, c_2 T = -4.5)
        {{"--problem", "bs-put", "--K", "3", "--N", "64", "--T", "5", "--mu", "0.25", "--sigma", "0.1", "--strike",
          "340", "--R", "16"},
         "T = 5 and R = 16: the driver's z coefficient along w, c = -2.6, moves W by c t under the pricing measure, so "
         "the price's weight at T lies at w = -13 with"},
        {{"--problem", "ex5", "--K", "3", "--N", "32", "--T", "3", "--mu2", "0.5", "--R", "8"},
         "T = 3 and R = 8: the driver's z coefficient along w_2, c = -1.5, moves W by c t under the pricing measure, "
         "so the price's weight at T lies at w_2 = -4.5 with"}};
    const std::regex asked("raise --R to ([0-9.e+]+) or more");
    for (auto [args, reason] : refused) {
        args.insert(args.begin(), "grid");
        const CliResult before = run(args);
        std::smatch value;
        const bool named = std::regex_search(before.out, value, asked);
        BOOST_CHECK_MESSAGE(named && before.out.find("REFUSED: bsde solve refuses these settings: " + reason) !=
                                         std::string::npos,
                            joined(args) << ": expected a refusal '" << reason << "...' asking for 'raise --R to X or "
                                         << "more', got '" << shown(before.out) << "'");
        if (!named) continue;
        const auto given_R = std::find(args.begin(), args.end(), "--R");
        if (given_R != args.end())
            *(given_R + 1) = value[1].str();
        else
            args.insert(args.end(), {"--R", value[1].str()});
        const CliResult after = run(args);
        BOOST_CHECK_MESSAGE(after.code == 0 && after.out.find(reason) == std::string::npos,
                            joined(args) << ": expected no refusal '" << reason << "...' with the R asked for, got "
                                         << after.code << ", '" << shown(after.out) << "'");
    }
}

BOOST_AUTO_TEST_CASE(grid_and_study_apply_the_checks_before_any_solve) {
    BOOST_TEST_MESSAGE("bsde grid ends its report with the refusal a solve would give (the price's growth, the kink "
                       "outside the grid's inner half) and exits 0; a study with one refused case is refused before it "
                       "solves any (before, its first case was solved and the error came as 'K = 2, N = 8 on serial: "
                       "...'), and leaves no --out folder");
    const std::string refused = "REFUSED: bsde solve refuses these settings: ";
    const std::vector<std::pair<std::vector<std::string>, std::string>> grids{
        {{"grid", "--problem", "ex3", "--K", "2", "--N", "8", "--sigma", "20"},
         refused + "--sigma 20 with --K 2 and --N 8 (dx = 0.0914): the price grows by e^(1.83) a grid cell"},
        {{"grid", "--problem", "ex3", "--K", "2", "--N", "64", "--strike", "1e5", "--mu", "0.05"},
         refused + "the terminal data's kink at w = 34.4892763949107 lies outside [-R/2, R/2] = [-8, 8]"},
        {{"grid", "--problem", "ex5", "--K", "1", "--N", "4", "--sigma1", "5", "--R", "8"},
         refused + "--sigma1 5 with T = 1 and R = 8:"},
        {{"grid", "--problem", "ex3", "--K", "2", "--N", "64", "--sigma", "20"}, ""},
        {{"grid", "--problem", "ex2", "--K", "2", "--N", "8"}, ""}};
    for (const auto& [args, expected] : grids) {
        const CliResult r = run(args);
        const std::size_t last = r.out.rfind('\n', r.out.size() - 2);
        const std::string last_line = last == std::string::npos ? r.out : r.out.substr(last + 1);
        const bool as_expected = expected.empty() ? r.out.find("REFUSED") == std::string::npos
                                                  : last_line.rfind(expected, 0) == 0;
        BOOST_CHECK_MESSAGE(r.code == 0 && r.err.empty() && as_expected,
                            joined(args) << ": expected exit code 0, nothing on stderr and "
                                    << (expected.empty() ? "no refusal" : "a last line starting '" + expected + "'")
                                    << "; got " << r.code << ", stderr '" << shown(r.err) << "', stdout '"
                                    << shown(r.out) << "'");
    }
    ScratchDir scratch("problem_parameters");
    check_refused({"study", "--problem", "ex3", "--K", "2", "--N", "8,64", "--sigma", "20", "--backends", "serial",
                   "--out", scratch.path("growth")},
                  "bsde: error: --sigma 20 with --K 2 and --N 8 (dx = 0.0914): the price grows", "raise --N");
    check_refused({"study", "--problem", "ex3", "--K", "1-2", "--N", "16,32", "--strike", "1e5", "--backends", "serial",
                   "--out", scratch.path("kink")},
                  "bsde: error: the terminal data's kink at w = ", "or raise --R");
    for (const char* made : {"growth", "kink"})
        BOOST_CHECK_MESSAGE(!exists(scratch.path(made)), "a refused study left its --out folder " << scratch.path(made));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(registry)

// A problem that reads a parameter it does not declare.
struct reads_undeclared {
    static constexpr const char* name = "reads-undeclared";
    static std::vector<ParameterInfo> parameters() { return {{"a", "declared", 1.0}}; }
};

// The message and exit code of the DefinitionError `check` throws; "no error" and 0 where it throws none.
template <class Check>
std::pair<std::string, int> definition_error(const Check& check) {
    try {
        check();
    } catch (const DefinitionError& e) {
        return {e.what(), e.exit_code()};
    }
    return {"no error", 0};
}

// A 2D problem missing its gradient of g and its driver, and whose exact z is missing though it claims a solution.
struct incomplete_problem {
    static constexpr const char *name = "incomplete", *alias = "inc", *description = "lacks members";
    static constexpr int dimension = 2;
    static constexpr bool has_exact_solution = true;
    static constexpr double default_T = 1.0, default_R = 8.0;
    static constexpr int default_L = 8;
    incomplete_problem(double, const ProblemParameters&) {}
    double terminal_y(Vec2) const { return 0.0; }
    double exact_y(double, Vec2) const { return 0.0; }
};

BOOST_AUTO_TEST_CASE(the_problem_interface_names_what_a_problem_lacks) {
    BOOST_TEST_MESSAGE("problem_interface.h's checks, which check_problem_interface turns into static_asserts: "
                       "logistic_bsde (ex1) has every required member; a 2D problem with terminal_y and exact_y "
                       "only lacks terminal_z, the driver and exact_z; a 1D reading of it lacks terminal_y too");
    namespace pi = problem_interface;
    const std::pair<const char*, bool> checks[] = {
        {"ex1: names", pi::has_names<logistic_bsde>::value},
        {"ex1: dimension", pi::has_dimension<logistic_bsde>::value},
        {"ex1: defaults", pi::has_defaults<logistic_bsde>::value},
        {"ex1: terminal_y", pi::has_terminal_y<logistic_bsde, 1>::value},
        {"ex1: terminal_z", pi::has_terminal_z<logistic_bsde, 1>::value},
        {"ex1: driver", pi::has_driver<logistic_bsde, 1>::value},
        {"ex1: exact_y and exact_z", pi::has_exact<logistic_bsde, 1>::value},
        {"incomplete: names", pi::has_names<incomplete_problem>::value},
        {"incomplete: dimension", pi::has_dimension<incomplete_problem>::value},
        {"incomplete: defaults", pi::has_defaults<incomplete_problem>::value},
        {"incomplete: terminal_y", pi::has_terminal_y<incomplete_problem, 2>::value},
        {"incomplete: terminal_z absent", !pi::has_terminal_z<incomplete_problem, 2>::value},
        {"incomplete: driver absent", !pi::has_driver<incomplete_problem, 2>::value},
        {"incomplete: exact_z absent", !pi::has_exact<incomplete_problem, 2>::value},
        {"incomplete, in 1D: terminal_y absent", !pi::has_terminal_y<incomplete_problem, 1>::value},
        {"reads_undeclared: names absent", !pi::has_names<reads_undeclared>::value},
    };
    for (const auto& [what, holds] : checks) BOOST_CHECK_MESSAGE(holds, what << ": expected true, got false");
    BOOST_CHECK(check_problem_interface<logistic_bsde>());
}

BOOST_AUTO_TEST_CASE(problem_definitions_are_checked) {
    BOOST_TEST_MESSAGE("the problems of problems/problem_list.h: bsde problems starts (each problem's name and alias "
                       "its own, no parameter named as an option of bsde or declared twice); and the checks refuse "
                       "two problems called alike, a parameter declared twice and one read undeclared, naming the "
                       "problem, with exit code 5");
    const CliResult listed = run({"problems"});
    BOOST_CHECK_MESSAGE(listed.code == 0 && listed.err.empty(),
                        "expected bsde problems to exit 0 silently, got " << listed.code << ", '" << listed.err << "'");

    const std::vector<ProblemInfo>& known = problem_infos();
    BOOST_REQUIRE_GE(known.size(), 2u);
    std::vector<ProblemInfo> twins{known[0], known[1]};
    twins[1].alias = twins[0].alias;
    std::vector<ProblemInfo> twice{known[0]};
    twice[0].parameters = {{"a", "first", 1.0}, {"a", "second", 2.0}};
    const std::pair<std::pair<std::string, int>, std::string> defects[]{
        {definition_error([&] { check_problem_definitions(twins); }),
         "problems '" + known[0].name + "' and '" + known[1].name + "' are both called '" + known[0].alias + "'"},
        {definition_error([&] { check_problem_definitions(twice); }),
         "problem '" + known[0].name + "' declares parameter 'a' twice"},
        {definition_error([] { parameter_value<reads_undeclared>({}, "b"); }),
         "problem 'reads-undeclared' reads parameter 'b', which its parameters() does not declare"}};
    for (const auto& [got, expected] : defects)
        BOOST_CHECK_MESSAGE(got.first.rfind(expected, 0) == 0 && got.second == 5,
                            "expected '" << expected << "...' with exit code 5, got '" << got.first << "', "
                                         << got.second);
    BOOST_CHECK_MESSAGE(parameter_value<reads_undeclared>({}, "a") == 1.0, "a declared parameter reads its default");
}

BOOST_AUTO_TEST_SUITE_END()
