// Space and time grids against every M of the paper's Tables 4, 5, 8, 9 and 11.
#include "../algorithms/scheme/grid.h"
#include "test_support.h"

using namespace bsde;

BOOST_AUTO_TEST_SUITE(grids)

// M for K = 1, 2 and 3..6 (the same) at the four N of each table.
struct PaperGridTable {
    const char* name;
    double T, R;
    std::vector<int> N;
    std::vector<int> M_K1, M_K2, M_K3_to_6;
};

BOOST_AUTO_TEST_CASE(reproduce_the_papers_M) {
    BOOST_TEST_MESSAGE("M = 2 ceil(R / dt^((q+1)/4)) reproduces every M of Tables 4, 5, 8, 9, 11");
    const std::vector<PaperGridTable> tables{
        {"Tables 4 and 5 (ex1, ex2)", 1.0, 16.0, {128, 256, 512, 1024}, {364, 512, 726, 1024},
         {1218, 2048, 3446, 5794}, {4096, 8192, 16384, 32768}},
        {"Table 8 (Black-Scholes)", 0.33, 16.0, {32, 64, 128, 256}, {316, 446, 632, 892},
         {990, 1664, 2798, 4704}, {3104, 6208, 12414, 24826}},
        {"Tables 9 and 11 (2D, T = 1 per the erratum)", 1.0, 8.0, {8, 16, 32, 64}, {46, 64, 92, 128},
         {78, 128, 216, 364}, {128, 256, 512, 1024}}};
    int checked = 0;
    for (const PaperGridTable& table : tables) {
        for (int K = 1; K <= 6; ++K) {
            const std::vector<int>& expected = K == 1 ? table.M_K1 : K == 2 ? table.M_K2 : table.M_K3_to_6;
            for (std::size_t i = 0; i < table.N.size(); ++i) {
                const int got = space_intervals(K, K, table.N[i], table.T, table.R);
                BOOST_CHECK_MESSAGE(got == expected[i], table.name << ", K = " << K << ", N = " << table.N[i]
                                                                  << ": expected M = " << expected[i] << ", got "
                                                                  << got);
                ++checked;
            }
        }
    }
    BOOST_CHECK_EQUAL(checked, 72);  // 24 rows in each of three groups of tables (120 M values with repeats)
}

BOOST_AUTO_TEST_CASE(grid_is_centred_on_zero) {
    const SpaceGrid grid{364, 16.0};
    BOOST_CHECK_EQUAL(grid.points(), 365);
    BOOST_CHECK_SMALL(grid.point(grid.centre()), 1e-15);
    bsde::test::check_close("last point", 16.0, grid.point(grid.M), 1e-15, 16.0);
    bsde::test::check_close("dt", 1.0 / 256, TimeGrid{256, 1.0}.dt(), 1e-16);
}

BOOST_AUTO_TEST_CASE(grid_order_overrides_the_rule) {
    BOOST_TEST_MESSAGE("--grid-order Q gives dx0 = dt^((Q+1)/4): Q = 3 at K = 1, N = 128 equals the K = 3 grid");
    BOOST_CHECK_EQUAL(space_intervals(1, 1, 128, 1.0, 16.0, 3), 4096);
}

BOOST_AUTO_TEST_SUITE_END()
