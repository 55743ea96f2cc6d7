// The grid split along its first axis into slabs (slabs.h; --gpus G on G GPUs), tested on one backend: G slabs, each
// run by a thread of its own with its halo rows exchanged by copies (copy_links.h) after every step, against the
// undivided solve. The grids are chosen so that every slab holds fewer rows than the grid (else the split is void,
// which each case checks first): the halo is the rules' reach plus the spline inverse band's 36 rows.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../algorithms/scheme/grid.h"
#include "../algorithms/scheme/slabs.h"
#include "cli_support.h"
#include "test_support.h"

using namespace bsde;
using bsde::test::check_same_solution;
using bsde::test::ScopedEnv;

namespace {

// Whether every one of G slabs holds fewer rows than the grid of these settings (a problem kinked or not).
bool slabs_split(const SchemeSettings& s, int dimension, bool kinked, int G) {
    const int M = space_intervals(s.Ky, s.Kz, s.N, s.T, s.R, s.grid_order);
    const int halo = slab_halo(s, s.N, dimension, kinked);
    bool split = true;
    for (int g = 0; g < G; ++g) {
        const SlabRows rows = slab_rows(M, G, g, halo);
        BOOST_TEST_MESSAGE("M = " << M << ", slab " << g << " of " << G << ": rows " << rows.first << ".." << rows.last
                                  << ", owns " << rows.owned_first << ".." << rows.owned_last);
        split = split && rows.count() < M + 1;
    }
    return split;
}

// The solve in G slabs against the undivided one, y and z at every grid point to 1e-12 relative (check_same_solution),
// and y_0, z_0 and the largest inner errors alike.
void check_slabs_equal_whole(Backend backend, const std::string& problem, const SchemeSettings& s, int dimension,
                             bool kinked, int G) {
    BOOST_TEST_REQUIRE(slabs_split(s, dimension, kinked, G));
    const SolveResult whole = backend_ops(backend).solve(problem, s);
    const SolveResult slabs = backend_ops(backend).solve_in_slabs(problem, s, G);
    const std::string what = problem + " on " + to_string(backend) + " in " + std::to_string(G) + " slabs";
    check_same_solution(what, whole, slabs, 1e-12);
    BOOST_TEST_MESSAGE(what << ": y_0 expected " << whole.y0 << ", got " << slabs.y0 << "; inner y error expected "
                            << whole.max_y_error_inner << ", got " << slabs.max_y_error_inner);
    // y_0 and z_0 from the slab that owns w = 0, to 1e-12 of the solution's largest magnitude
    const auto largest = [](const std::vector<double>& v) {
        double m = 0;
        for (double x : v) m = std::max(m, std::fabs(x));
        return m;
    };
    BOOST_TEST(std::fabs(slabs.y0 - whole.y0) <= 1e-12 * largest(whole.y));
    for (int k = 0; k < dimension; ++k) BOOST_TEST(std::fabs(slabs.z0[k] - whole.z0[k]) <= 1e-12 * largest(whole.z));
    BOOST_TEST(slabs.max_y_error_inner == whole.max_y_error_inner, boost::test_tools::tolerance(1e-6));
    BOOST_TEST(slabs.w == whole.w, boost::test_tools::per_element());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(slabs)

// Slabs' rows: the owned rows partition 0..M in order, as even as possible; the halo is cut at the grid's edges.
BOOST_AUTO_TEST_CASE(slab_rows_partition_the_grid) {
    for (const int M : {4, 63, 64, 1000})
        for (const int G : {1, 2, 3, 4, 5}) {
            int next = 0;
            for (int g = 0; g < G; ++g) {
                const SlabRows rows = slab_rows(M, G, g, 10);
                BOOST_TEST(rows.owned_first == next);
                BOOST_TEST(rows.owned_count() >= (M + 1) / G);
                BOOST_TEST(rows.owned_count() <= (M + 1) / G + 1);
                BOOST_TEST(rows.first == std::max(0, rows.owned_first - 10));
                BOOST_TEST(rows.last == std::min(M, rows.owned_last + 10));
                next = rows.owned_last + 1;
            }
            BOOST_TEST(next == M + 1);
        }
}

// ex4 (an affine driver: the separable pass) in 2 and 3 slabs, the multistep start-up's fine steps exchanged too.
BSDE_TEST_CASE_PER_BACKEND(sine_sum_in_slabs_equals_whole) {
    SchemeSettings s = bsde::test::settings(2, 16, 4, 6.4, 0.25);
    s.startup = Startup::multistep;
    for (const int G : {2, 3}) check_slabs_equal_whole(backend, "sine-sum", s, 2, false, G);
}

// hjb-2d (a driver not affine: the fused pass) in 2 slabs.
BSDE_TEST_CASE_PER_BACKEND(hjb_2d_in_slabs_equals_whole) {
    const SchemeSettings s = bsde::test::settings(2, 16, 4, 4.0, 0.25);
    check_slabs_equal_whole(backend, "hjb-2d", s, 2, false, 2);
}

// ex5 (a kinked terminal layer: the kink rule's band, the young layers' rule, the Feynman-Kac start-up) in 2 slabs.
BSDE_TEST_CASE_PER_BACKEND(exchange_in_slabs_equals_whole) {
    const SchemeSettings s = bsde::test::settings(2, 16, 4, 8.0, 0.25);
    check_slabs_equal_whole(backend, "exchange", s, 2, true, 2);
}

// ex4-3d (the 3D tensor spline's fit on a slab's rows, the 3D separable pass's three passes on its owned rows) in 2
// slabs: a wide grid (R = 12) of K = 1 to have more rows than two halos at a size CI runs.
BSDE_TEST_CASE_PER_BACKEND(sine_sum_3d_in_slabs_equals_whole) {
    const SchemeSettings s = bsde::test::settings(1, 4, 4, 12.0, 0.25);
    check_slabs_equal_whole(backend, "ex4-3d", s, 3, false, 2);
}

// The links --gpus runs on (NCCL between GPUs, copies on the host; pass_around_slabs): every device this machine has
// for cuda (one GPU: NCCL's self send and a reduction of one), three slabs on the host; each slab sends values + g to
// the next and adds up what it received over the slabs.
BSDE_TEST_CASE_PER_BACKEND(links_pass_values_around) {
    const int G = backend == Backend::cuda ? cuda_device_count() : 3;
    const std::vector<double> values{1.0, -2.5, 1e-300, 3e300};
    const std::vector<double> sums = backend_ops(backend).pass_around_slabs(values, G);
    BOOST_TEST_REQUIRE(sums.size() == values.size());
    for (std::size_t k = 0; k < values.size(); ++k) {
        const double expected = G * values[k] + G * (G - 1) / 2.0;
        BOOST_TEST_MESSAGE(to_string(backend) << ", " << G << " slabs: sum " << k << " expected " << expected << ", got "
                                              << sums[k]);
        BOOST_TEST(sums[k] == expected, boost::test_tools::tolerance(1e-15));
    }
}

// What a split grid does not take: one line each (InputError).
BOOST_AUTO_TEST_CASE(slabs_refuse_what_they_do_not_take) {
    SchemeSettings s = bsde::test::settings(1, 8, 4, 3.0, 0.25);
    const auto refused = [&](const std::string& problem, const SchemeSettings& settings, const std::string& expected) {
        try {
            backend_ops(Backend::serial).solve_in_slabs(problem, settings, 2);
            BOOST_ERROR(problem << " in 2 slabs: no InputError");
        } catch (const InputError& e) {
            BOOST_TEST_MESSAGE(problem << ": expected a message with '" << expected << "', got '" << e.what() << "'");
            BOOST_TEST(std::string(e.what()).find(expected) != std::string::npos);
        }
    };
    refused("bs-call", s, "a 1D problem runs on one GPU");
    refused("am-exchange", s, "obstacle");
    SchemeSettings bicubic = s;
    bicubic.interpolation = InterpolationKind::bicubic;
    refused("sine-sum", bicubic, "--interp spline");
    SchemeSettings refined = s;
    refined.startup_refine = 2;
    refined.startup = Startup::multistep;
    refused("sine-sum", refined, "--startup-refine");
}

// A split run that does not fit its GPUs is refused before its sweeps allocate, naming each GPU, the N that fits and,
// where more GPUs would take it, the fewest that do: sine-sum at N = 16 in 2 slabs with 2 MB free on each (the test
// hook BSDE_TEST_FREE_BYTES), then with 90 % of what it needs free, where the G named runs and G - 1 is refused.
BOOST_AUTO_TEST_CASE(slabs_refuse_a_run_that_does_not_fit) {
    const SchemeSettings s = bsde::test::settings(2, 16, 4, 6.4, 0.25);
    const auto refusal = [&](const std::string& free, int G) {
        ScopedEnv free_memory("BSDE_TEST_FREE_BYTES", free);
        try {
            backend_ops(Backend::serial).solve_in_slabs("sine-sum", s, G);
        } catch (const InputError& e) {
            BOOST_TEST_MESSAGE("in " << G << " slabs with " << free << " bytes free: '" << e.what() << "'");
            return std::string(e.what());
        }
        return std::string();
    };
    const std::string tight = refusal("2000000", 2);
    BOOST_TEST(tight.find("each of --gpus 2") != std::string::npos);
    BOOST_TEST(tight.find("the largest N that fits is") != std::string::npos);
    BOOST_TEST(tight.find("or take --gpus") == std::string::npos);
    const double needed = std::stod(tight.substr(tight.find("needs ") + 6)) * 1048576.0;
    const std::string free = std::to_string(static_cast<long long>(0.9 * needed));
    const std::string short_of_it = refusal(free, 2);
    const std::size_t named = short_of_it.find("or take --gpus ");
    BOOST_TEST_REQUIRE(named != std::string::npos);
    const int G = std::stoi(short_of_it.substr(named + 15));
    BOOST_TEST_MESSAGE("the fewest GPUs named: " << G << "; expected to run there and to be refused on " << G - 1);
    BOOST_TEST(G > 2);
    BOOST_TEST(refusal(free, G).empty());
    BOOST_TEST(!refusal(free, G - 1).empty());
}

BOOST_AUTO_TEST_SUITE_END()
