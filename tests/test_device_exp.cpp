// device_exp's polynomial (algorithms/core/device_exp.h), which the GPU runs, checked on the host against the C
// library's exp (glibc's: within 1 ulp): within 2 ulp (relative 2 x 2^-52) wherever e^x is a normal double,
// within one unit of the last place where it is subnormal, 0 and infinity where the library's are, exact where
// e^x is.
#include <cmath>
#include <limits>
#include <random>

#include "../algorithms/core/device_exp.h"
#include "test_support.h"

using namespace bsde;
using bsde::test::all_digits;

namespace {

constexpr double two_ulp = 2.0 * std::numeric_limits<double>::epsilon();

// Largest |p(x) - e^x| / e^x over `samples` uniform x in [lo, hi].
double largest_relative_error(double lo, double hi, int samples, unsigned seed, double& worst_x) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> uniform(lo, hi);
    double largest = 0.0;
    for (int k = 0; k < samples; ++k) {
        const double x = uniform(random), expected = std::exp(x);
        const double error = std::fabs(exp_by_polynomial(x) - expected) / expected;
        if (error > largest) {
            largest = error;
            worst_x = x;
        }
    }
    return largest;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(device_exp_polynomial)

BOOST_AUTO_TEST_CASE(within_two_ulp_of_the_library) {
    struct Range {
        double lo, hi;
    };
    // the reduction's range, ex2's arguments (t^2 - y e^(-t^2), a few units), every x with e^x normal
    for (const Range& range : {Range{-0.35, 0.35}, Range{-8.0, 8.0}, Range{-708.39, 709.78}}) {
        double worst_x = 0.0;
        const double error = largest_relative_error(range.lo, range.hi, 400000, 7, worst_x);
        BOOST_TEST_MESSAGE("x in [" << range.lo << ", " << range.hi << "]: largest relative error " << error
                                    << " at x = " << worst_x);
        BOOST_CHECK_MESSAGE(error <= two_ulp, "x in [" << range.lo << ", " << range.hi << "], largest relative error at x = "
                                                       << all_digits(worst_x) << ": expected e^x = "
                                                       << all_digits(std::exp(worst_x)) << ", got "
                                                       << all_digits(exp_by_polynomial(worst_x)) << ", relative error "
                                                       << bsde::test::scientific(error) << " > "
                                                       << bsde::test::scientific(two_ulp) << " (2 ulp)");
    }
}

BOOST_AUTO_TEST_CASE(exact_values_and_the_ends_of_the_range) {
    BOOST_CHECK_EQUAL(exp_by_polynomial(0.0), 1.0);
    // the integer powers of 2 by the exponent alone: x = n ln 2 rounded to a double is n ln 2 + delta, so e^x =
    // 2^n e^delta (|delta| reaches 6.9e-14 at n = +-1000, 308 ulp of 2^n): within 2 ulp of that, as everywhere. delta
    // in long double with ln 2 = L + l, L the double nearest ln 2 (the value of std::log(2.0)): n L (63 bits) and
    // x - n L are exact, and n l is off by far less than an ulp
    const long double ln2_double = std::log(2.0), ln2_rest = 2.3190468138462996155e-17L;  // ln 2 - L
    for (int n : {-1000, -52, -1, 1, 30, 1000}) {
        const double x = n * std::log(2.0);
        const long double delta = (x - n * ln2_double) - n * ln2_rest;
        const double expected = static_cast<double>(std::ldexp(1.0L, n) * std::exp(delta));
        const double got = exp_by_polynomial(x), error = std::fabs(got - expected);
        BOOST_CHECK_MESSAGE(error <= two_ulp * expected, "x = " << n << " ln 2: expected " << all_digits(expected)
                                                                << ", got " << all_digits(got) << ", relative error "
                                                                << error / expected << " > " << two_ulp);
    }
    // the ends: normal results within 2 ulp, subnormal ones within one unit of the last place there, overflow and
    // underflow where the library's do
    for (double x : {707.0, 709.7, 709.78, 709.79, 710.0, 800.0, -707.5, -708.5, -720.0, -745.0, -745.2, -800.0}) {
        const double expected = std::exp(x), got = exp_by_polynomial(x);
        const double tolerance = std::fmax(two_ulp * expected, std::numeric_limits<double>::denorm_min());
        BOOST_CHECK_MESSAGE(std::isinf(expected) ? got == expected : std::fabs(got - expected) <= tolerance,
                            "x = " << x << ": expected " << all_digits(expected) << ", got " << all_digits(got)
                                   << ", error " << std::fabs(got - expected) << " > " << tolerance);
    }
    BOOST_CHECK(std::isnan(exp_by_polynomial(std::nan(""))));
    BOOST_CHECK_EQUAL(exp_by_polynomial(std::numeric_limits<double>::infinity()),
                      std::numeric_limits<double>::infinity());
    BOOST_CHECK_EQUAL(exp_by_polynomial(-std::numeric_limits<double>::infinity()), 0.0);
}

BOOST_AUTO_TEST_SUITE_END()
