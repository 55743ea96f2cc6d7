// Gauss-Hermite rules, the cell-wise Gauss-Legendre expectation of kinked layers (and the grid points where the
// kink-line rule resolves the kink), and the multistep weights.
#include <cmath>
#include <numeric>
#include <string>

#include "../algorithms/core/errors.h"
#include "../algorithms/scheme/expectation_rules.h"
#include "../algorithms/quadrature/gauss_hermite.h"
#include "../algorithms/scheme/multistep_weights.h"
#include "../algorithms/sweep/separable_pass.h"
#include "test_support.h"

using namespace bsde;
using bsde::test::check_close;
using bsde::test::scientific;

BOOST_AUTO_TEST_SUITE(gauss_hermite_rules)

BOOST_AUTO_TEST_CASE(integrates_monomials_exactly) {
    BOOST_TEST_MESSAGE("sum_l w_l x_l^k = integral x^k exp(-x^2) dx = Gamma((k+1)/2) (k even), 0 (k odd), k <= 2L-1");
    for (int L = 1; L <= 64; ++L) {
        const GaussHermiteRule rule = gauss_hermite(L);
        for (int k = 0; k <= 2 * L - 1; ++k) {
            long double sum = 0;
            for (int l = 0; l < L; ++l) sum += rule.weights[l] * std::pow(static_cast<long double>(rule.nodes[l]), k);
            const double scale = std::tgamma((k + 1) / 2.0);  // integral of |x|^k exp(-x^2)
            const double exact = k % 2 == 0 ? scale : 0.0;
            check_close("L = " + std::to_string(L) + ", k = " + std::to_string(k), exact, static_cast<double>(sum),
                        1e-12, scale);
        }
    }
}

BOOST_AUTO_TEST_CASE(weights_sum_to_sqrt_pi) {
    for (int L : {1, 2, 8, 32, 64, 128}) {
        const GaussHermiteRule rule = gauss_hermite(L);
        double sum = 0;
        for (double w : rule.weights) sum += w;
        check_close("sum of weights, L = " + std::to_string(L), std::sqrt(M_PI), sum, 1e-14, std::sqrt(M_PI));
    }
}

BOOST_AUTO_TEST_CASE(rejects_unsupported_sizes) {
    BOOST_CHECK_THROW(gauss_hermite(0), InputError);
    BOOST_CHECK_THROW(gauss_hermite(gauss_hermite_max_points + 1), InputError);
}

BOOST_AUTO_TEST_SUITE_END()

namespace {
// Sums omega * dW^k over a rule's increments.
struct MomentSink {
    static constexpr int dimension = 1;
    int k;
    double sum = 0.0;
    void add(double dW, double omega) { sum += omega * std::pow(dW, k); }
};
// Sums omega * |dW - c| (a kink at c) over a rule's increments.
struct KinkSink {
    static constexpr int dimension = 1;
    double c;
    double sum = 0.0;
    void add(double dW, double omega) { sum += omega * std::fabs(dW - c); }
};
}  // namespace

BOOST_AUTO_TEST_SUITE(kinked_layer_expectation)

BOOST_AUTO_TEST_CASE(integrates_normal_moments) {
    BOOST_TEST_MESSAGE("E[dW^k] for dW ~ N(0, v), k = 0..6 (0 for odd k, v^(k/2) (k-1)!! for even k) to 1e-12 "
                       "relative, for grid steps from 0.02 to 3 standard deviations (higher moments feel the cut at 8.5 sd)");
    for (double dx_over_sd : {0.02, 0.3, 1.0, 3.0}) {
        const double v = 0.04, sd = std::sqrt(v);
        const CellGaussLegendreExpectation rule{dx_over_sd * sd};
        double double_factorial = 1.0;  // (k-1)!!
        for (int k = 0; k <= 6; ++k) {
            if (k >= 2 && k % 2 == 0) double_factorial *= k - 1;
            MomentSink sink{k};
            rule(v, sink);
            const double scale = std::pow(sd, k) * (k % 2 == 0 ? double_factorial : 1.0);
            check_close("dx / sd = " + std::to_string(dx_over_sd) + ", k = " + std::to_string(k),
                        k % 2 == 0 ? scale : 0.0, sink.sum, 1e-12, scale);
        }
    }
}

BOOST_AUTO_TEST_CASE(resolves_a_kink_on_a_grid_point) {
    BOOST_TEST_MESSAGE("E|dW - c| = sd sqrt(2/pi) e^(-c^2/2v) + c (1 - 2 N(-c/sd)) to 1e-12 for a kink c on a grid point "
                       "(where the layer's spline pieces meet); Gauss-Hermite with L = 32 misses it by far more");
    const double v = 0.01, sd = 0.1, dx = 0.01, pi = 3.14159265358979323846;
    for (int cell : {-7, 0, 3, 20}) {
        const double c = cell * dx;
        const double exact = sd * std::sqrt(2 / pi) * std::exp(-c * c / (2 * v)) + c * std::erf(c / (sd * std::sqrt(2.0)));
        KinkSink cells{c};
        CellGaussLegendreExpectation{dx}(v, cells);
        check_close("cell rule, c = " + std::to_string(c), exact, cells.sum, 1e-12, sd);
        const GaussHermiteRule gh = gauss_hermite(32);
        std::vector<double> weights(gh.weights);
        for (double& omega : weights) omega /= std::sqrt(pi);
        KinkSink hermite{c};
        GaussHermiteExpectation{gh.nodes.data(), weights.data(), 32}(v, hermite);
        BOOST_CHECK_MESSAGE(std::fabs(hermite.sum - exact) > 1e-6 * sd,
                            "Gauss-Hermite (L = 32), c = " << c << ": expected to miss E|dW - c| = " << scientific(exact)
                                << " by more than 1e-6 sd = " << scientific(1e-6 * sd) << ", got " << scientific(hermite.sum)
                                << ", error only " << scientific(std::fabs(hermite.sum - exact))
                                << " (so it is not the limitation here)");
    }
}

BOOST_AUTO_TEST_SUITE_END()

namespace {
// Sums omega * dW_1^a dW_2^b over a 2D rule's increments.
struct MomentSink2D {
    static constexpr int dimension = 2;
    int a, b;
    double sum = 0.0;
    void add(Vec2 dW, double omega) { sum += omega * std::pow(dW[0], a) * std::pow(dW[1], b); }
};
// Sums omega * |n . dW - c| (a kink along the line n . dW = c) over a 2D rule's increments.
struct KinkLineSink {
    static constexpr int dimension = 2;
    Vec2 n;
    double c;
    double sum = 0.0;
    void add(Vec2 dW, double omega) { sum += omega * std::fabs(n[0] * dW[0] + n[1] * dW[1] - c); }
};
// E[x^k] for x ~ N(0, v).
double normal_moment(int k, double v) {
    if (k % 2) return 0.0;
    double m = 1.0;
    for (int i = k - 1; i > 1; i -= 2) m *= i;
    return m * std::pow(v, k / 2);
}
// Gauss-Hermite nodes a_l and weights omega_l / sqrt(pi), as the sweep holds them.
struct HermiteTable {
    std::vector<double> nodes, weights;
    explicit HermiteTable(int L) {
        const GaussHermiteRule rule = gauss_hermite(L);
        nodes = rule.nodes;
        weights = rule.weights;
        for (double& omega : weights) omega /= std::sqrt(3.14159265358979323846);
    }
};
// Unit normals: the grid axis, two oblique ones and Example 5's (0.640, -0.768).
const std::vector<Vec2> kink_normals{Vec2{{1.0, 0.0}}, Vec2{{0.6, 0.8}}, Vec2{{std::cos(2.0), std::sin(2.0)}},
                                     Vec2{{0.25 / std::hypot(0.25, 0.3), -0.3 / std::hypot(0.25, 0.3)}}};
}  // namespace

BOOST_AUTO_TEST_SUITE(kink_line_expectation)

BOOST_AUTO_TEST_CASE(gauss_legendre_16_is_exact_to_degree_31) {
    for (int k = 0; k <= 31; ++k) {
        double sum = 0.0;
        for (int q = 0; q < GaussLegendre16::points; ++q) sum += GaussLegendre16::weight(q) * std::pow(GaussLegendre16::node(q), k);
        check_close("integral of x^" + std::to_string(k) + " over [-1, 1]", k % 2 ? 0.0 : 2.0 / (k + 1), sum, 1e-14);
    }
}

BOOST_AUTO_TEST_CASE(integrates_normal_moments) {
    BOOST_TEST_MESSAGE("E[dW_1^a dW_2^b], dW ~ N(0, v I), a + b <= 5, to 1e-10 relative, for kink lines in four directions "
                       "at u* = c - n . w from 0 to 12 sd (beyond 8.5 sd + 4 dx: the plain tensor rule) and dx / sd "
                       "from 0.02 to 1");
    const HermiteTable hermite(8);
    const double v = 0.04, sd = 0.2;
    for (const Vec2& n : kink_normals)
        for (double dx_over_sd : {0.02, 0.3, 1.0})
            for (double u_star_over_sd : {0.0, 0.37, -2.9, 6.0, 8.6, -12.0}) {
                const double dx = dx_over_sd * sd;
                const KinkLineExpectation rule{hermite.nodes.data(), hermite.weights.data(), 8,
                                               KinkLine{n, u_star_over_sd * sd + 0.3 * n[0] - 0.1 * n[1]}, dx};
                for (int a = 0; a <= 5; ++a)
                    for (int b = 0; a + b <= 5; ++b) {
                        MomentSink2D sink{a, b};
                        rule(v, Vec2{{0.3, -0.1}}, sink);
                        const double scale = normal_moment(a + a % 2, v) * normal_moment(b + b % 2, v);
                        check_close("n = (" + std::to_string(n[0]) + ", " + std::to_string(n[1]) + "), dx / sd = " +
                                        std::to_string(dx_over_sd) + ", u* / sd = " + std::to_string(u_star_over_sd) +
                                        ", a = " + std::to_string(a) + ", b = " + std::to_string(b),
                                    normal_moment(a, v) * normal_moment(b, v), sink.sum, 1e-10, scale);
                    }
            }
}

BOOST_AUTO_TEST_CASE(resolves_a_kink_line) {
    BOOST_TEST_MESSAGE("E|n . dW - c| = sd sqrt(2/pi) e^(-c^2/2v) + c erf(c / (sd sqrt 2)) to 1e-12 sd for kink lines in "
                       "four directions, c = u* from 0 to 9 sd; the tensor Gauss-Hermite rule (L = 8) misses it by more "
                       "than 1e-4 sd where the line is within 2 sd");
    const HermiteTable hermite(8);
    const double v = 0.01, sd = 0.1, dx = 0.01, pi = 3.14159265358979323846;
    const Vec2 w{{-0.2, 0.45}};
    for (const Vec2& n : kink_normals)
        for (double c : {0.0, 0.013, -0.0731, 0.2, -0.45, 0.9}) {
            const double exact = sd * std::sqrt(2 / pi) * std::exp(-c * c / (2 * v)) + c * std::erf(c / (sd * std::sqrt(2.0)));
            const KinkLine kink{n, c + n[0] * w[0] + n[1] * w[1]};  // u* = c at w
            KinkLineSink band{n, c};
            KinkLineExpectation{hermite.nodes.data(), hermite.weights.data(), 8, kink, dx}(v, w, band);
            const std::string label = "n = (" + std::to_string(n[0]) + ", " + std::to_string(n[1]) + "), c = " + std::to_string(c);
            check_close("kink-line rule, " + label, exact, band.sum, 1e-12, sd);
            KinkLineSink tensor{n, c};
            GaussHermiteExpectation{hermite.nodes.data(), hermite.weights.data(), 8}(v, tensor);
            if (std::fabs(c) <= 2 * sd)
                BOOST_CHECK_MESSAGE(std::fabs(tensor.sum - exact) > 1e-4 * sd,
                                    "tensor Gauss-Hermite (L = 8), " << label << ": expected to miss E|n . dW - c| = "
                                        << scientific(exact) << " by more than 1e-4 sd = " << scientific(1e-4 * sd)
                                        << ", got " << scientific(tensor.sum) << ", error only "
                                        << scientific(std::fabs(tensor.sum - exact))
                                        << " (so it is not the limitation here)");
        }
}

// KinkBandVisits<d> of the rule across the kink {n . w = offset} on `grid`: every grid point the rule resolves at the
// variance is visited exactly once and no other.
template <int d>
void check_band_visits(const GridPoints<d>& grid, const Point<d>& n, double offset, double variance) {
    const HermiteTable hermite(8);
    const KinkFlatExpectation<d> rule{hermite.nodes.data(), hermite.weights.data(), 8, KinkFlat<d>{n, offset}, grid.dx};
    const KinkBandVisits<d> band = KinkBandVisits<d>::of(rule, variance, grid);
    int points = 1;
    for (int k = 0; k < d; ++k) points *= grid.M + 1;
    std::vector<int> visited(points, 0);
    for (int k = 0; k < band.count(); ++k)
        if (const int i = band(k); i >= 0) ++visited[i];
    int resolved = 0, wrong = 0;
    for (int i = 0; i < points; ++i) {
        const int expected = rule.resolves(variance, grid(i)) ? 1 : 0;
        resolved += expected;
        wrong += visited[i] != expected;
    }
    std::string normal;
    for (int k = 0; k < d; ++k) normal += (k ? ", " : "(") + std::to_string(n[k]);
    BOOST_CHECK_MESSAGE(wrong == 0, "n = " << normal << "), offset " << offset << ", variance " << variance
                                           << ": expected every one of the " << resolved
                                           << " resolved points visited once and no other, got " << wrong
                                           << " visited other than once (or visited outside the band)");
}

BOOST_AUTO_TEST_CASE(band_visits_hold_every_resolved_point) {
    BOOST_TEST_MESSAGE("KinkBandVisits on a grid of 65 x 65 points (dx = 0.25): its visits give each grid point the rule "
                       "resolves exactly once and no other, for kink lines in six directions (the axes among them), "
                       "at offsets that put the band through the grid, along its edge and beside it, and variances "
                       "whose band is a few points wide to one wider than the grid; the same for kink planes on a grid "
                       "of 17^3 points (dx = 1) in five directions");
    const GridPoints<2> grid{-8.0, 0.25, 64};
    std::vector<Vec2> normals = kink_normals;
    normals.push_back(Vec2{{0.0, 1.0}});
    normals.push_back(Vec2{{-0.6, 0.8}});
    for (const Vec2& n : normals)
        for (double offset : {0.0, 3.7, -7.9, 11.0, 14.0})
            for (double variance : {1e-3, 0.05, 0.5}) check_band_visits<2>(grid, n, offset, variance);
    const GridPoints<3> grid_3d{-8.0, 1.0, 16};
    const double third = 1.0 / std::sqrt(3.0);
    for (const Vec3& n : {Vec3{{1.0, 0.0, 0.0}}, Vec3{{0.0, 0.0, 1.0}}, Vec3{{0.48, 0.6, 0.64}},
                          Vec3{{-third, third, -third}}, Vec3{{0.0, -0.6, 0.8}}})
        for (double offset : {0.0, 3.7, -7.9, 14.0})
            for (double variance : {0.05, 0.5, 8.0}) check_band_visits<3>(grid_3d, n, offset, variance);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(multistep_weights)

// The paper's Tables 1 and 2 as fractions (numerator, denominator), K = 1..6.
const std::vector<std::vector<std::pair<int, int>>> table1{
    {{1, 2}, {1, 2}},
    {{1, 6}, {2, 3}, {1, 6}},
    {{1, 8}, {3, 8}, {3, 8}, {1, 8}},
    {{1, 12}, {1, 3}, {1, 6}, {1, 3}, {1, 12}},
    {{41, 600}, {19, 75}, {107, 600}, {107, 600}, {19, 75}, {41, 600}},
    {{19, 336}, {3, 14}, {15, 112}, {4, 21}, {15, 112}, {3, 14}, {19, 336}}};
const std::vector<std::vector<std::pair<int, int>>> table2{
    {{1, 2}, {1, 2}},
    {{5, 12}, {2, 3}, {-1, 12}},
    {{3, 8}, {19, 24}, {-5, 24}, {1, 24}},
    {{35, 96}, {5, 6}, {-13, 48}, {1, 12}, {-1, 96}},
    {{131, 360}, {151, 180}, {-103, 360}, {37, 360}, {-1, 45}, {1, 360}},
    {{163, 448}, {47, 56}, {-129, 448}, {3, 28}, {-37, 1344}, {1, 168}, {-1, 1344}}};

void check_table(const std::string& name, const std::vector<std::vector<std::pair<int, int>>>& table,
                 std::vector<double> (*weights)(int)) {
    for (int K = 1; K <= 6; ++K) {
        const std::vector<double> got = weights(K);
        BOOST_REQUIRE_EQUAL(got.size(), static_cast<std::size_t>(K + 1));
        for (int j = 0; j <= K; ++j) {
            const double expected = static_cast<double>(table[K - 1][j].first) / table[K - 1][j].second;
            check_close(name + " K = " + std::to_string(K) + ", j = " + std::to_string(j), expected, got[j], 1e-15);
        }
    }
}

BOOST_AUTO_TEST_CASE(equal_the_papers_tables) {
    BOOST_TEST_MESSAGE("gamma^K_{K,j} and gamma^1_{K,j} equal the paper's Tables 1 and 2 for K = 1..6");
    check_table("Table 1", table1, gamma_y_weights);
    check_table("Table 2", table2, gamma_z_weights);
}

BOOST_AUTO_TEST_CASE(higher_orders_are_consistent) {
    BOOST_TEST_MESSAGE("K = 7, 8: Table 1 rows sum to 1; both rules integrate cubics exactly");
    auto cubic = [](double x) { return 0.3 - 1.2 * x + 0.7 * x * x - 0.05 * x * x * x; };
    auto cubic_integral = [](double x) { return 0.3 * x - 0.6 * x * x + 0.7 / 3 * x * x * x - 0.0125 * x * x * x * x; };
    for (int K : {7, 8}) {
        const std::vector<double> gy = gamma_y_weights(K), g1 = gamma_z_weights(K);
        double sum = 0, quadrature_y = 0, quadrature_z = 0;
        for (int j = 0; j <= K; ++j) {
            sum += gy[j];
            quadrature_y += gy[j] * cubic(j);
            quadrature_z += g1[j] * cubic(j);
        }
        const std::string k = "K = " + std::to_string(K);
        check_close(k + ", sum of gamma^K", 1.0, sum, 1e-14);
        check_close(k + ", gamma^K on a cubic", cubic_integral(K) / K, quadrature_y, 1e-13);
        check_close(k + ", gamma^1 on a cubic", cubic_integral(1), quadrature_z, 1e-13);
    }
}

// "p/q" in lowest terms ("p" for an integer), the form gamma_*_fractions print.
std::string lowest_terms(int p, int q) {
    const int divisor = std::gcd(p, q) * (q < 0 ? -1 : 1);
    p /= divisor;
    q /= divisor;
    return std::to_string(p) + (q == 1 ? "" : "/" + std::to_string(q));
}

void check_fraction_table(const std::string& name, const std::vector<std::vector<std::pair<int, int>>>& table,
                          std::vector<std::string> (*fractions)(int)) {
    for (int K = 1; K <= 6; ++K) {
        const std::vector<std::string> got = fractions(K);
        BOOST_REQUIRE_EQUAL(got.size(), static_cast<std::size_t>(K + 1));
        for (int j = 0; j <= K; ++j) {
            const std::string expected = lowest_terms(table[K - 1][j].first, table[K - 1][j].second);
            BOOST_CHECK_MESSAGE(got[j] == expected, name << " K = " << K << ", j = " << j << ": expected " << expected
                                                         << ", got " << got[j]);
        }
    }
}

BOOST_AUTO_TEST_CASE(exact_fractions_equal_the_papers_tables) {
    BOOST_TEST_MESSAGE("the weights in rational arithmetic are the paper's fractions of Tables 1 and 2, K = 1..6");
    check_fraction_table("Table 1", table1, gamma_y_fractions);
    check_fraction_table("Table 2", table2, gamma_z_fractions);
}

BOOST_AUTO_TEST_SUITE_END()
