// Index arithmetic past 2^31 values without allocating the grids: the ring's 64-bit layer offsets, the validation and
// memory check that take a grid whose ring passes 2^31 values and refuse one whose single function does, and the
// start-up's coarse-grid gather in every dimension.
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "../algorithms/scheme/grid.h"
#include "../algorithms/scheme/settings.h"
#include "../algorithms/sweep/sweep_plan.h"
#include "test_support.h"

using namespace bsde;

namespace {

// ex5's grid (q = 3, R = 8, T = 1): M = 2 ceil(R N / T); L Gauss-Hermite nodes, as many as the scheme's stability on
// that grid needs (validate).
SchemeSettings ex5_settings(int K, int N, int L = 8) { return bsde::test::settings(K, N, L, 8.0); }

// `refused` throws an InputError whose message contains `expected`.
template <class F>
void check_refusal(const F& refused, const std::string& expected) {
    std::string got = "no refusal";
    try {
        refused();
    } catch (const InputError& e) {
        got = e.what();
    }
    BOOST_TEST_MESSAGE("refusal: expected '" << expected << "' in it, got '" << got << "'");
    BOOST_TEST(got.find(expected) != std::string::npos);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(large_indices)

BOOST_AUTO_TEST_CASE(ring_offsets_pass_two_to_the_31) {
    // ex5 at K = 6, N = 512: M = 8192, 3 functions of (M+1)^2 values and (M+3)^2 tensor-spline data, 7 layers
    const int M = space_intervals(6, 6, 512, 1.0, 8.0);
    BOOST_TEST(M == 8192);
    const int points = (M + 1) * (M + 1), data = (M + 3) * (M + 3);
    const LayerRingView ring{nullptr, 7, points, data, 3};
    const std::uint64_t slot = 3ull * (std::uint64_t(points) + std::uint64_t(data));
    BOOST_TEST_MESSAGE("slot size: expected " << slot << ", got " << ring.slot_size());
    BOOST_TEST(std::uint64_t(ring.slot_size()) == slot);
    for (int n : {0, 6, 512, 7 * 73 + 5}) {
        const std::uint64_t expected = std::uint64_t(n % 7) * slot;
        BOOST_TEST_MESSAGE("layer " << n << ": offset expected " << expected << ", got " << ring.offset(n));
        BOOST_TEST(std::uint64_t(ring.offset(n)) == expected);
    }
    BOOST_TEST(ring.offset(6) > std::ptrdiff_t(INT_MAX));  // the last slot lies past 2^31 values
}

BOOST_AUTO_TEST_CASE(ex5_K6_N512_is_taken_and_a_function_past_two_to_the_31_refused) {
    // the ring passes 2^31 values, one function does not: taken
    BOOST_CHECK_NO_THROW(validate(ex5_settings(6, 512, 18), 2));
    BOOST_CHECK_NO_THROW(validate(ex5_settings(6, 1024, 20), 2));  // M = 16384: 2.7e8 points a function
    // M = 65536: (M+3)^2 = 4.3e9 coefficients a function
    check_refusal([] { validate(ex5_settings(3, 4096), 2); },
                  "a function of a layer holds 4295360521 interpolation data, more than the sweep's 32-bit indices");
    // bicubic: 16 M^2 = 4.3e9 data a function at M = 16384
    SchemeSettings bicubic = ex5_settings(3, 1024);
    bicubic.interpolation = InterpolationKind::bicubic;
    check_refusal([&] { validate(bicubic, 2); }, "4294967296 interpolation data");
}

BOOST_AUTO_TEST_CASE(memory_check_takes_the_ring_past_two_to_the_31) {
    const SchemeSettings s = ex5_settings(6, 512, 18);
    const int M = 8192;
    const double points = (M + 1.0) * (M + 1.0), data_per_point = (M + 3.0) * (M + 3.0) / points;
    const SweepMemory memory{s, 2, data_per_point, 0.0, 0.0, true, 1, 1};
    const double ring_bytes = 8.0 * 7 * 3 * (points + (M + 3.0) * (M + 3.0));
    double arrays = 0;
    BOOST_CHECK_NO_THROW(arrays = memory.check(-1.0, "test", M));  // free memory unknown: only the indices checked
    BOOST_TEST_MESSAGE("arrays: at least the ring's " << ring_bytes << " bytes, got " << arrays);
    BOOST_TEST(arrays >= ring_bytes);
    BOOST_TEST(arrays < 3 * ring_bytes);  // the ring, the start-up's and the separable workspace
}

// The start-up's gather: a coarse member's point (i_1, .., i_d) from the fine grid's (r i_1, .., r i_d), on 2 members.
template <int d>
void check_coarse_gather(int M, int r) {
    int coarse_points = 1, fine_points = 1;
    for (int k = 0; k < d; ++k) {
        coarse_points *= M + 1;
        fine_points *= r * M + 1;
    }
    const int members = 2;
    std::vector<double> fine(std::size_t(members) * fine_points);
    for (std::size_t j = 0; j < fine.size(); ++j) fine[j] = double(j);
    const CoarseGridValues<d> gather{fine.data(), M, r, coarse_points, fine_points};
    int wrong = 0;
    for (int b = 0; b < members; ++b)
        for (int g = 0; g < coarse_points; ++g) {
            // independent: the fine index of (r i_1, .., r i_d), i_1 slowest
            int rest = g, index[3] = {0, 0, 0};
            for (int k = d - 1; k >= 0; --k, rest /= M + 1) index[k] = rest % (M + 1);
            long long expected = 0;
            for (int k = 0; k < d; ++k) expected = expected * (r * M + 1) + r * index[k];
            expected += (long long)b * fine_points;
            if (gather(b * coarse_points + g) != double(expected)) ++wrong;
        }
    BOOST_TEST_MESSAGE(d << "D, M = " << M << ", r = " << r << ": points gathered wrong: expected 0, got " << wrong);
    BOOST_TEST(wrong == 0);
}

BOOST_AUTO_TEST_CASE(coarse_gather_in_one_two_and_three_dimensions) {
    check_coarse_gather<1>(8, 3);
    check_coarse_gather<2>(6, 2);
    check_coarse_gather<3>(4, 3);
}

BOOST_AUTO_TEST_SUITE_END()
