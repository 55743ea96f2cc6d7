// The options' spots (--spots) inside the domain, and their drift default. A price over 0.5 to 2 times S0
// reads the solution up to 6 sqrt(T) beyond the spots' w-range, which the domain must hold (problems/spots.h): solve
// chooses such an R where --R is not given, refuses a --R too small, and reports the largest error over the spots.
// The options' drifts enter only the driver's z term; their defaults make it 0, and another value is warned of.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../problems/black_scholes_option.h"
#include "../problems/exchange_option.h"
#include "../problems/registry.h"
#include "cli_support.h"
#include "test_support.h"

using namespace bsde;
using namespace bsde::test;

namespace {

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// Black-Scholes with dividend yield delta, and Margrabe's exchange price: the closed forms, written here.
double call_price(double S, double strike, double r, double delta, double sigma, double T) {
    const double d1 = (std::log(S / strike) + (r - delta + 0.5 * sigma * sigma) * T) / (sigma * std::sqrt(T));
    return S * std::exp(-delta * T) * normal_cdf(d1) - strike * std::exp(-r * T) * normal_cdf(d1 - sigma * std::sqrt(T));
}
double exchange_price(double S1, double S2, double sigma1, double sigma2, double rho, double T) {
    const double s = std::sqrt(sigma1 * sigma1 + sigma2 * sigma2 - 2 * rho * sigma1 * sigma2);
    const double d1 = (std::log(S1 / S2) + 0.5 * s * s * T) / (s * std::sqrt(T));
    return S1 * normal_cdf(d1) - S2 * normal_cdf(d1 - s * std::sqrt(T));
}

// The CSV of --output: its columns by name.
std::map<std::string, std::vector<double>> read_columns(const std::string& path) {
    std::ifstream file(path);
    std::string line;
    std::vector<std::string> names;
    std::map<std::string, std::vector<double>> columns;
    for (bool header = true; std::getline(file, line); header = false) {
        std::stringstream fields(line);
        std::string field;
        for (std::size_t k = 0; std::getline(fields, field, ','); ++k)
            if (header)
                names.push_back(field);
            else
                columns[names.at(k)].push_back(std::stod(field));
    }
    return columns;
}

// The largest |price - exact| over the rows whose spots (the CSV's S or S1, S2) lie in [low, high], over the largest
// exact price there; and the number of such rows.
struct OverSpots {
    double relative = 0;
    int rows = 0;
};
template <class Exact>
OverSpots largest_error(const std::map<std::string, std::vector<double>>& c, double low, double high, Exact exact) {
    const bool two = c.count("S1") > 0;
    const std::vector<double>& S1 = c.at(two ? "S1" : "S");
    double error = 0, largest = 0;
    OverSpots over;
    for (std::size_t i = 0; i < S1.size(); ++i) {
        const double S2 = two ? c.at("S2")[i] : low;
        if (!(S1[i] >= low && S1[i] <= high && S2 >= low && S2 <= high)) continue;
        ++over.rows;
        const double price = exact(S1[i], S2);
        error = std::max(error, std::fabs(c.at("price")[i] - price));
        largest = std::max(largest, price);
    }
    over.relative = error / largest;
    return over;
}

// A solve with --output on serial (omp waits on the slowest of its threads where other work holds the cores); its
// report and CSV.
struct Solved {
    CliResult r;
    std::map<std::string, std::vector<double>> columns;
};
Solved solve_with_csv(const ScratchDir& scratch, std::vector<std::string> args) {
    const std::string csv = scratch.path("solution.csv");
    args.insert(args.begin(), "solve");
    args.insert(args.end(), {"--backend", "serial", "--output", csv});
    Solved s{run_succeeding(args), {}};
    s.columns = read_columns(csv);
    return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(spots)

BOOST_AUTO_TEST_CASE(the_default_spots_are_priced_to_the_schemes_error) {
    BOOST_TEST_MESSAGE("bs-call sigma = 0.05, T = 3 (K = 3, N = 64) and exchange rho = 0, sigma = (0.1, 0.1) (K = 2, "
                       "N = 16) at their defaults: the largest price error over the default spots, 0.5 to 2 times S0 "
                       "(from the CSV against the closed forms written here), below 1e-5 of the largest price there "
                       "(with R = 16 and 8, the problems' defaults, and the paper's drifts, 1.9e-2 and 1.7e-2); the "
                       "report gives that range's error");
    ScratchDir scratch("spots");
    const Solved call = solve_with_csv(scratch, {"--problem", "bs-call", "--sigma", "0.05", "--T", "3", "--K", "3", "--N",
                                                 "64"});
    const OverSpots c = largest_error(call.columns, 50, 200, [](double S, double) {
        return call_price(S, 100, 0.03, 0.04, 0.05, 3);
    });
    BOOST_TEST_MESSAGE("bs-call: " << c.rows << " rows in [50, 200], largest error " << scientific(c.relative)
                                   << " of the largest price");
    BOOST_CHECK_MESSAGE(c.rows > 0 && c.relative < 1e-5, "bs-call sigma = 0.05, T = 3: expected the largest error over "
                                                         "[50, 200] below 1e-5 of the largest price, got "
                                                             << scientific(c.relative) << " (" << c.rows << " rows)");
    BOOST_CHECK_MESSAGE(call.r.out.find("\nmax error over spots [50, 200] (") != std::string::npos,
                        "expected the report's line 'max error over spots [50, 200] (', got:\n" << call.r.out);
    const Solved exchange = solve_with_csv(
        scratch, {"--problem", "exchange", "--sigma1", "0.1", "--sigma2", "0.1", "--K", "2", "--N", "16"});
    const OverSpots e = largest_error(exchange.columns, 50, 200, [](double S1, double S2) {
        return exchange_price(S1, S2, 0.1, 0.1, 0.0, 1.0);
    });
    BOOST_TEST_MESSAGE("exchange: " << e.rows << " rows in [50, 200]^2, largest error " << scientific(e.relative)
                                    << " of the largest price");
    BOOST_CHECK_MESSAGE(e.rows > 0 && e.relative < 1e-5, "exchange sigma = (0.1, 0.1): expected the largest error over "
                                                         "[50, 200]^2 below 1e-5 of the largest price, got "
                                                             << scientific(e.relative) << " (" << e.rows << " rows)");
    BOOST_CHECK_MESSAGE(exchange.r.out.find("\nmax error over spots [50, 200] x [50, 200] (") != std::string::npos,
                        "expected the report's line 'max error over spots [50, 200] x [50, 200] (', got:\n"
                            << exchange.r.out);
}

BOOST_AUTO_TEST_CASE(R_is_chosen_for_the_spots_or_a_smaller_one_refused) {
    BOOST_TEST_MESSAGE("bs-call sigma = 0.05, T = 3: the spots [50, 200] lie within |w| <= ln 2 / sigma = 13.86, the "
                       "price's weight moves by sigma T = 0.15 from there and the domain holds 6 sqrt(T) = 10.39 more: "
                       "R = 24.5 (24.405 rounded up to 3 digits), chosen and reported where --R is not given; --R 16 "
                       "refused naming it, which then runs; bsde grid shows both; --spots 90:110 needs less than the "
                       "default 16, which stays; exchange at rho = 0.9 through A^-1 (R = 17.1), and one range per asset; "
                       "the CSV's in_spots marks the rows whose spot lies in the range");
    const double least = std::log(2.0) / 0.05 + 0.05 * 3 + 6 * std::sqrt(3.0);
    const std::string R = "24.5";
    BOOST_CHECK_MESSAGE(least > 24.4 && least <= 24.5, "expected R 24.4..24.5, computed " << least);
    const std::vector<std::string> call{"--problem", "bs-call", "--sigma", "0.05", "--T", "3", "--K", "3", "--N", "16"};
    const auto options = [&](std::vector<std::string> more) {
        more.insert(more.begin(), call.begin(), call.end());
        return more;
    };
    const auto with = [&](const std::string& command, const std::vector<std::string>& more) {
        std::vector<std::string> args = options(more);
        args.insert(args.begin(), command);
        return args;
    };
    const CliResult chosen = run(with("solve", {"--backend", "serial"}));
    BOOST_CHECK_MESSAGE(chosen.code == 0 && chosen.out.find(", R = " + R + ", ") != std::string::npos &&
                            chosen.out.find("\ndomain    R = " + R + ", chosen: the spots [50, 200] need R >= " + R) !=
                                std::string::npos,
                        "expected R = " << R << " chosen and the report's domain line, got " << chosen.code << ":\n"
                                        << chosen.out << shown(chosen.err));
    check_bad_input({with("solve", {"--R", "16"}), 2,
                     "--R 16: the spots [50, 200] need R >= " + R + ": at t = 0 they lie within w in [-13.9, 13.9]"});
    const CliResult given = run(with("solve", {"--R", R, "--backend", "serial"}));
    BOOST_CHECK_MESSAGE(given.code == 0 && given.out.find("\ndomain    R = " + R + " (--R); ") != std::string::npos,
                        "--R " << R << ": expected a run with its domain line, got " << given.code << ":\n"
                               << given.out << shown(given.err));
    const CliResult grid = run(with("grid", {"--R", "16"}));
    BOOST_CHECK_MESSAGE(grid.code == 0 && grid.out.find("REFUSED: bsde solve refuses these settings: --R 16: the spots "
                                                        "[50, 200] need R >= " + R) != std::string::npos,
                        "bsde grid --R 16: expected the spots' refusal, got:\n" << grid.out << shown(grid.err));
    const CliResult narrow = run(with("grid", {"--spots", "90:110"}));
    BOOST_CHECK_MESSAGE(narrow.code == 0 && narrow.out.find("domain: R = 16, the problem's default; the spots [90, 110] "
                                                            "need R >= ") != std::string::npos,
                        "--spots 90:110: expected the default R, got:\n" << narrow.out << shown(narrow.err));
    // exchange at rho = 0.9: the corners of [50, 200]^2 in w = A^-1 (ln S - ln S0) reach |w_2| = (ln 2 + rho sigma2 ln 2
    // / sigma1) / (sigma2 sqrt(1 - rho^2)) = 11.03 (the price bounded along w_2, mu = r: no shift), R = 17.03 -> 17.1;
    // one range per asset, [50, 200] x [100, 100], only w_1's 2.77 + sigma1 T = 0.25 -> 9.03
    const double a22 = 0.3 * std::sqrt(1 - 0.81), w2 = (std::log(2.0) + 0.9 * 0.3 * std::log(2.0) / 0.25) / a22;
    BOOST_CHECK_MESSAGE(w2 + 6 > 17.0 && w2 + 6 <= 17.1, "expected R 17.0..17.1, computed " << w2 + 6);
    for (const auto& [more, expected] :
         {std::pair<std::vector<std::string>, std::string>{{"--rho", "0.9"}, "domain: R = 17.1, chosen: the spots [50, "
                                                                              "200] x [50, 200] need R >= 17.1: at t = 0 "
                                                                              "they lie within w_2 in [-11, 11]"},
          {{"--spots", "50:200,100:100"}, "domain: R = 9.03, chosen: the spots [50, 200] x [100, 100] need R >= 9.03"}}) {
        std::vector<std::string> args{"grid", "--problem", "ex5", "--K", "2", "--N", "16"};
        args.insert(args.end(), more.begin(), more.end());
        const CliResult r = run(args);
        BOOST_CHECK_MESSAGE(r.code == 0 && r.out.find(expected) != std::string::npos,
                            joined(args) << ": expected '" << expected << "', got:\n" << r.out << shown(r.err));
    }
    ScratchDir scratch("spots");
    const Solved rows = solve_with_csv(scratch, options({"--spots", "80:125"}));
    const std::vector<double>& S = rows.columns.at("S");
    const std::vector<double>& flag = rows.columns.at("in_spots");
    int inside = 0, wrong = 0;
    for (std::size_t i = 0; i < S.size(); ++i) {
        const bool in = S[i] >= 80 && S[i] <= 125;
        inside += in;
        wrong += (flag[i] == 1.0) != in;
    }
    BOOST_CHECK_MESSAGE(inside > 0 && wrong == 0, "in_spots: " << wrong << " rows flagged wrongly of " << S.size()
                                                               << " (" << inside << " inside [80, 125])");
    BOOST_CHECK_MESSAGE(rows.r.out.find("max error over spots [80, 125] (" + std::to_string(inside) + " grid points)") !=
                            std::string::npos,
                        "expected the report's 'max error over spots [80, 125] (" << inside << " grid points)', got:\n"
                                                                                  << rows.r.out);
}

BOOST_AUTO_TEST_CASE(bad_spots_are_refused) {
    BOOST_TEST_MESSAGE("a spot range that is empty, not finite or not positive, malformed, one per asset too many, "
                       "for a problem without spots or for a study: one line, exit code 2; a range no grid holds (ex5 "
                       "at rho = 0.999999: w_2 up to 3600): the chosen R named with the grid's refusal");
    const std::vector<std::string> call{"solve", "--problem", "bs-call", "--K", "1", "--N", "8", "--spots"};
    const auto spots = [&](const std::string& value) {
        std::vector<std::string> args = call;
        args.push_back(value);
        return args;
    };
    const std::vector<BadInput> rows{
        {spots("200:50"), 2, "--spots '200:50': an empty range: its low end 200 lies above its high end 50"},
        {spots("0:100"), 2, "--spots '0:100': spots must be > 0"},
        {spots("-5:100"), 2, "--spots '-5:100': spots must be > 0"},
        {spots("1e-400:100"), 2, "--spots '1e-400:100': spots must be > 0"},
        {spots("inf:100"), 2, "--spots 'inf:100': 'inf' is not a finite number"},
        {spots("50:nan"), 2, "--spots '50:nan': 'nan' is not a finite number"},
        {spots("50:1e400"), 2, "--spots '50:1e400': '1e400' is not a finite number"},
        {spots("50"), 2, "--spots '50': a range LOW:HIGH expected"},
        {spots("50:100:200"), 2, "--spots '50:100:200': a range LOW:HIGH expected"},
        {spots(""), 2, "--spots '': a range LOW:HIGH expected"},
        {spots("1:2,3:4,5:6"), 2, "one range LOW:HIGH for every asset, or one per asset (at most 2)"},
        {spots("50:200,60:100"), 2, "--spots: 2 ranges for bs-call, which has 1 asset"},
        // at rho -> 1 the spots' corners lie far out along w_2 (w = A^-1 x, a22 = sigma2 sqrt(1 - rho^2))
        {{"solve", "--problem", "ex5", "--K", "2", "--N", "16", "--rho", "0.999999"}, 2,
         "R = 3610, chosen for the spots [50, 200] x [50, 200] (--spots narrows them, --R sets R): --N 16, --R 3610, "
         "--T 1: the space grid has M = 57760 intervals"},
        // a volatility so small that the spots lie at w = +-inf
        {{"solve", "--problem", "bs-call", "--sigma", "1e-320"}, 2,
         "the spots [50, 200] need R >= inf: at t = 0 they lie within w in [-inf, inf]"},
        {{"solve", "--problem", "ex2", "--spots", "1:2"}, 2, "--spots: problem ex2 has no spots"},
        {{"study", "--problem", "bs-call", "--K", "1", "--N", "8", "--spots", "50:200"}, 2,
         "--spots: only for bsde solve and bsde grid"},
        {{"bench", "--spots", "50:200"}, 2, "--spots: not for bsde bench"}};
    for (const BadInput& row : rows) check_bad_input(row);
}

BOOST_AUTO_TEST_CASE(generic_problems_state_their_inner_half) {
    BOOST_TEST_MESSAGE("a problem without spots keeps --R and says how far inside the domain its |w| <= R/2 lies, and "
                       "that the truncation is not checked there: ex1 (R = 16, T = 1), ex4 (R = 8)");
    for (const auto& [problem, line] :
         {std::pair<std::string, std::string>{"ex1", "\nmax error over |w| <= R/2 = 8 (8 sqrt(T) inside the domain; "},
          {"ex4", "\nmax error over |w| <= R/2 = 4 (4 sqrt(T) inside the domain; how far its truncation's error reaches "
                  "in is not checked): y "}}) {
        const std::vector<std::string> args{"solve", "--problem", problem, "--K", "1", "--N", "8", "--backend", "serial"};
        const CliResult r = run(args);
        BOOST_CHECK_MESSAGE(r.code == 0 && r.out.find(line) != std::string::npos && r.out.find("\ndomain ") == std::string::npos,
                            joined(args) << ": expected '" << shown(line) << "' and no domain line, got:\n" << r.out);
    }
}

BOOST_AUTO_TEST_CASE(the_drift_defaults_remove_the_driver_z_term) {
    BOOST_TEST_MESSAGE("bs-call and bs-put with mu not given have df/dz = 0 exactly, for any r and delta (mu = r - "
                       "delta); exchange with mu1, mu2 not given lambda = 0 exactly (mu = r), for any rho; through the "
                       "registry too");
    for (const auto& [r, delta] : {std::pair{0.03, 0.04}, std::pair{0.07, 0.013}, std::pair{-0.2, 0.31}}) {
        const ProblemParameters p{{"r", r}, {"delta", delta}, {"sigma", 0.37}};
        const double call = black_scholes_call(2.0, p).driver_at(0.0).c, put = black_scholes_put(2.0, p).driver_at(0.0).c;
        BOOST_CHECK_MESSAGE(call == 0.0 && put == 0.0,
                            "r = " << r << ", delta = " << delta << ": df/dz expected 0, got " << call << ", " << put);
        BOOST_CHECK_MESSAGE(black_scholes_call(2.0, p).mu == r - delta, "mu expected r - delta");
        const std::array<double, 3> registered = find_problem("bs-call").driver_z_gradient(2.0, p);
        BOOST_CHECK_MESSAGE(registered[0] == 0.0, "registry: df/dz expected 0, got " << registered[0]);
    }
    for (const double rho : {0.0, 0.9, -0.999999}) {
        const exchange_option e(1.0, {{"r", 0.037}, {"rho", rho}});
        const Vec2 c = e.driver_at(0.0).c;
        BOOST_CHECK_MESSAGE(c[0] == 0.0 && c[1] == 0.0 && e.mu1 == 0.037 && e.mu2 == 0.037,
                            "rho = " << rho << ": lambda expected (0, 0), got (" << c[0] << ", " << c[1] << ")");
    }
}

BOOST_AUTO_TEST_CASE(another_drift_is_told_its_cost) {
    BOOST_TEST_MESSAGE("bs-call sigma = 0.05, T = 3, K = 3, N = 64: with --mu 0.05 one warning on stderr, df/dz = "
                       "-(0.05 - 0.03 + 0.04) / 0.05 = -1.2, the default named, exit 0; its price error at S0 more than "
                       "10 times the default's (the cost the warning names); --mu -0.01 (= r - delta) and the default "
                       "warn of nothing; ex5 --mu1 0.1 names df/dz = (-0.2, 0) and both defaults; a study warns too");
    const std::vector<std::string> call{"solve", "--problem", "bs-call", "--sigma", "0.05", "--T", "3", "--K", "3",
                                        "--N", "64", "--backend", "serial"};
    const auto y0_error = [](const CliResult& r) {
        const std::size_t at = r.out.find("\ny_0 ");
        const std::size_t error = r.out.find("error ", at);
        return at != std::string::npos && error != std::string::npos ? std::stod(r.out.substr(error + 6)) : std::nan("");
    };
    const CliResult paper = run(extended(call, {"--mu", "0.05"}));
    const std::string warning = "bsde: warning: --mu 0.05: the price does not depend on the drift, but this one gives "
                                "the driver a z term, df/dz = -1.2 (|df/dz| sqrt(T) = 2.08), and the scheme's error "
                                "grows with it; the default, mu = r - delta, removes it";
    BOOST_CHECK_MESSAGE(paper.code == 0 && one_line(paper.err, warning),
                        "--mu 0.05: expected exit 0 and one line '" << warning << "...', got " << paper.code << ", '"
                                                                    << shown(paper.err) << "'");
    const CliResult by_default = run(call);
    BOOST_CHECK_MESSAGE(by_default.code == 0 && by_default.err.empty(),
                        "the default mu: expected no warning, got '" << shown(by_default.err) << "'");
    const CliResult equal = run({"solve", "--problem", "bs-call", "--mu", "-0.01", "--K", "1", "--N", "8"});
    BOOST_CHECK_MESSAGE(equal.err.empty(), "--mu -0.01: expected no warning, got '" << shown(equal.err) << "'");
    const double cost = y0_error(paper), without = y0_error(by_default);
    BOOST_TEST_MESSAGE("y_0 errors: " << scientific(cost) << " with --mu 0.05, " << scientific(without) << " without");
    BOOST_CHECK_MESSAGE(cost > 10 * without, "--mu 0.05: expected a y_0 error above 10 times the default's "
                                                 << scientific(without) << ", got " << scientific(cost));
    const std::vector<std::string> ex5{"solve", "--problem", "ex5", "--K", "1", "--N", "4", "--mu1", "0.1",
                                       "--backend", "serial"};
    const CliResult exchange = run(ex5);
    BOOST_CHECK_MESSAGE(exchange.code == 0 &&
                            one_line(exchange.err, "bsde: warning: --mu1 0.1: the price does not depend on the drift, "
                                                   "but this one gives the driver a z term, df/dz = (-0.2, 0) ") &&
                            exchange.err.find("the defaults, mu1 = r - delta1 and mu2 = r - delta2, remove it") != std::string::npos,
                        joined(ex5) << ": got " << exchange.code << ", '" << shown(exchange.err) << "'");
    const std::vector<std::string> study{"study", "--problem", "bs-call", "--K", "1", "--N", "8", "--mu", "0.05",
                                         "--backends", "serial"};
    const CliResult studied = run(study);
    BOOST_CHECK_MESSAGE(studied.code == 0 && studied.err.find("bsde: warning: --mu 0.05: the price does not depend on "
                                                              "the drift") != std::string::npos,
                        joined(study) << ": expected the warning, got " << studied.code << ", '" << shown(studied.err)
                                      << "'");
}

BOOST_AUTO_TEST_SUITE_END()
