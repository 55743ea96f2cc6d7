// Shared helpers of the test suites: the backends to run on and relative-error checks that print
// expected, got and error.
#pragma once
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "../algorithms/backends/backend.h"
#include "../algorithms/scheme/settings.h"
#include "../src/study.h"

namespace bsde::test {

// serial and omp always; cuda too where a device is present. For cases that compare backends; a check of one backend
// is a BSDE_TEST_CASE_PER_BACKEND (below).
inline std::vector<Backend> available_backends() {
    std::vector<Backend> backends{Backend::serial, Backend::omp};
    if (backend_available(Backend::cuda)) backends.push_back(Backend::cuda);
    return backends;
}

// Precondition of test cases that need a CUDA device: they are skipped (and say so) where there is none.
inline boost::test_tools::assertion_result cuda_device_present(boost::unit_test::test_unit_id) {
    boost::test_tools::assertion_result result(backend_available(Backend::cuda));
    if (!result) result.message() << "skipped: " << cuda_unavailable_reason();
    return result;
}

inline boost::unit_test::decorator::precondition needs_cuda() {
    return boost::unit_test::precondition(&cuda_device_present);
}

// BSDE_TEST_CASE_PER_BACKEND(name) { ... backend ... } defines one body taking `Backend backend` and the three test
// cases name_serial, name_omp and name_cuda that run it on their backend, the cuda one under needs_cuda(): each
// backend is a named case that passes, fails or is skipped on its own. `--run_test=SUITE/name_*` runs the three,
// `--run_test=*/*_cuda` every cuda case.
#define BSDE_TEST_CASE_PER_BACKEND(name)                                                                    \
    static void name##_on(::bsde::Backend backend);                                                         \
    BOOST_AUTO_TEST_CASE(name##_serial) { name##_on(::bsde::Backend::serial); }                             \
    BOOST_AUTO_TEST_CASE(name##_omp) { name##_on(::bsde::Backend::omp); }                                   \
    BOOST_AUTO_TEST_CASE(name##_cuda, *::bsde::test::needs_cuda()) { name##_on(::bsde::Backend::cuda); }    \
    static void name##_on(::bsde::Backend backend)

inline std::string scientific(double x) {
    std::ostringstream s;
    s << std::scientific << std::setprecision(6) << x;
    return s.str();
}

// x to 17 significant digits: two doubles that differ print differently.
inline std::string all_digits(double x) {
    std::ostringstream s;
    s << std::setprecision(17) << x;
    return s.str();
}

// Checks |got - expected| <= tolerance * scale, reporting what was compared (to 17 digits: a tight tolerance's
// expected and got differ in the last ones).
inline void check_close(const std::string& what, double expected, double got, double tolerance, double scale = 1.0) {
    const double error = std::fabs(got - expected);
    BOOST_CHECK_MESSAGE(error <= tolerance * scale, what << ": expected " << all_digits(expected) << ", got "
                                                          << all_digits(got) << ", error " << scientific(error)
                                                          << " > " << scientific(tolerance * scale));
}

inline double max_abs(const std::vector<double>& v) {
    double m = 0;
    for (double x : v) m = std::max(m, std::fabs(x));
    return m;
}

// max_i |a_i - b_i| / max_i |b_i|
inline double relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
    double d = 0;
    for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::fabs(a[i] - b[i]));
    return d / std::max(max_abs(b), 1e-300);
}

inline std::string entry_number(std::size_t i) { return "entry " + std::to_string(i); }

// Where got differs most from expected (a NaN difference counting as the largest): "<where(i)>: expected e, got g,
// error |g - e|", the values to 17 digits.
inline std::string largest_difference(const std::vector<double>& expected, const std::vector<double>& got,
                                      const std::function<std::string(std::size_t)>& where = entry_number) {
    if (expected.empty() || got.size() != expected.size())
        return "got " + std::to_string(got.size()) + " values, expected " + std::to_string(expected.size());
    const auto gap = [&](std::size_t i) {
        const double d = std::fabs(got[i] - expected[i]);
        return std::isnan(d) ? std::numeric_limits<double>::infinity() : d;
    };
    std::size_t worst = 0;
    for (std::size_t i = 1; i < expected.size(); ++i)
        if (gap(i) > gap(worst)) worst = i;
    std::ostringstream s;
    s << where(worst) << ": expected " << all_digits(expected[worst]) << ", got " << all_digits(got[worst])
      << ", error " << scientific(std::fabs(got[worst] - expected[worst]));
    return s.str();
}

// got equals expected to `tolerance` relative to max |expected| (relative_difference(got, expected) <= tolerance); a
// failure gives that difference, its limit and the entry where the two differ most, with the expected and the got
// value there and their difference. Returns the relative difference.
inline double check_same_values(const std::string& what, const std::vector<double>& expected,
                                const std::vector<double>& got, double tolerance,
                                const std::function<std::string(std::size_t)>& where = entry_number) {
    BOOST_REQUIRE_MESSAGE(!expected.empty() && got.size() == expected.size(),
                          what << ": got " << got.size() << " values, expected " << expected.size());
    const double difference = relative_difference(got, expected);
    BOOST_CHECK_MESSAGE(difference <= tolerance, what << ": max |got - expected| / max |expected| = "
                                                      << scientific(difference) << " > " << scientific(tolerance)
                                                      << " (max |expected| " << scientific(max_abs(expected))
                                                      << "); largest at " << largest_difference(expected, got, where));
    return difference;
}

// The whole y_0(w) and z_0(w) of `got` equal those of `expected` to `tolerance` (check_same_values), with the
// differences reported as a message either way.
inline void check_same_solution(const std::string& what, const SolveResult& expected, const SolveResult& got,
                                double tolerance) {
    const auto grid_point = [](std::size_t i) { return "grid point " + std::to_string(i); };
    const double y = check_same_values(what + ": y", expected.y, got.y, tolerance, grid_point);
    const double z = check_same_values(what + ": z", expected.z, got.z, tolerance, grid_point);
    BOOST_TEST_MESSAGE(what << ": y, z differ by " << scientific(y) << ", " << scientific(z));
}

// Observed order between two errors at step counts N and 2N (the study's formula, src/study.h).
inline double observed_order(double error_coarse, double error_fine) {
    return bsde::observed_order(error_coarse, 1, error_fine, 2);
}

// Ky = Kz = K, N, L, R, T and the interpolation; the rest SchemeSettings' defaults.
inline SchemeSettings settings(int K, int N, int L, double R, double T = 1.0,
                               InterpolationKind interpolation = InterpolationKind::spline) {
    SchemeSettings s;
    s.Ky = s.Kz = K;
    s.N = N;
    s.L = L;
    s.R = R;
    s.T = T;
    s.interpolation = interpolation;
    return s;
}

inline SolveResult solve(const std::string& problem, int Ky, int Kz, int N, Backend backend = Backend::omp,
                  Startup startup = Startup::multistep, int grid_order = 0, Smoothing smoothing = Smoothing::kreiss6,
                  InterpolationKind interpolation = InterpolationKind::spline,
                  const ProblemParameters& parameters = {}) {
    SchemeSettings s;
    s.problem_parameters = parameters;
    s.Ky = Ky;
    s.Kz = Kz;
    s.N = N;
    s.startup = startup;
    s.grid_order = grid_order;
    s.smoothing = smoothing;
    s.interpolation = interpolation;
    return backend_ops(backend).solve(problem, s);
}

inline double y_error(const SolveResult& r) { return r.y0_error(); }
inline double z_error(const SolveResult& r) { return r.z0_error(); }

// Errors at N = first, 2 first, 4 first (omp, multistep start-up).
inline std::vector<double> errors_at(int first, const std::string& problem, int Ky, int Kz, int grid_order,
                                     double (*error)(const SolveResult&), Smoothing smoothing = Smoothing::kreiss6,
                                     InterpolationKind interpolation = InterpolationKind::spline,
                                     const ProblemParameters& parameters = {}) {
    std::vector<double> errors;
    for (int N : {first, 2 * first, 4 * first})
        errors.push_back(error(solve(problem, Ky, Kz, N, Backend::omp, Startup::multistep, grid_order, smoothing,
                                     interpolation, parameters)));
    return errors;
}

// The order checks: the mean observed order over N = 32, 64, 128, log2(e_32 / e_128) / 2. The scheme's own errors
// are not yet at their orders pair by pair there (with --startup exact too: bs-call K = 4, y 2.4 from N = 32 to 64,
// 3.4 from 64 to 128), which checks from N = 16 pair by pair see only where the start-up's own O(dt^3) error
// outweighs the scheme's.
constexpr int order_check_first_N = 32;

// Solves at N = 32, 64, 128 and checks the mean observed order (where the finest error is above 1e-13).
inline void check_orders(const std::string& problem, int Ky, int Kz, int grid_order,
                         double (*error)(const SolveResult&), const std::string& variable, double expected_order,
                         InterpolationKind interpolation = InterpolationKind::spline) {
    const int first = order_check_first_N;
    const std::vector<double> e = errors_at(first, problem, Ky, Kz, grid_order, error, Smoothing::kreiss6, interpolation);
    if (e[2] <= 1e-13) return;
    const double mean_order = observed_order(e[0], e[2]) / 2;
    BOOST_CHECK_MESSAGE(mean_order >= expected_order - 0.3,
                        problem << " (" << to_string(interpolation) << ") Ky = " << Ky << ", Kz = " << Kz
                                << ": mean order of " << variable << " over N = " << first << ".." << 4 * first
                                << " expected >= " << expected_order - 0.3 << ", got " << mean_order << " (errors "
                                << scientific(e[0]) << ", " << scientific(e[1]) << ", " << scientific(e[2]) << ")");
}

// A driver that turns NaN in the middle of the sweep (t < 1/2, w > 2), to see a run stop and name where.
struct nan_driver {
    static constexpr const char* name = "nan-driver";
    static constexpr int dimension = 1;
    static constexpr bool has_exact_solution = false;
    double T = 1.0;
    double terminal_y(double w) const { return w; }
    double terminal_z(double) const { return 1.0; }
    double driver(double t, double w, double, double) const {
        return t < 0.5 && w > 2.0 ? std::numeric_limits<double>::quiet_NaN() : 0.0;
    }
};

}  // namespace bsde::test
