// Batched tridiagonal solves and the cubic spline on every backend.
#include <cmath>
#include <random>

#include "../algorithms/interpolation/cubic_hermite.h"
#include "../algorithms/interpolation/cubic_spline.h"
#include "../algorithms/backends/host_system.h"
#include "../algorithms/interpolation/spline_inverse_band.h"
#include "test_support.h"

using namespace bsde;
using bsde::test::all_digits;
using bsde::test::available_backends;
using bsde::test::check_close;
using bsde::test::check_same_values;

namespace {

struct TridiagonalProblem {
    std::vector<double> lower, diag, upper, rhs;
    int m, count;
};

// A random strictly diagonally dominant matrix (|b_i| >= |a_i| + |c_i| + 1) with count random right-hand sides.
TridiagonalProblem random_problem(int m, int count, unsigned seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    TridiagonalProblem p{std::vector<double>(m), std::vector<double>(m), std::vector<double>(m),
                         std::vector<double>(m * count), m, count};
    for (int row = 0; row < m; ++row) {
        p.lower[row] = row == 0 ? 0.0 : uniform(random);
        p.upper[row] = row == m - 1 ? 0.0 : uniform(random);
        p.diag[row] = (uniform(random) < 0 ? -1 : 1) *
                      (std::fabs(p.lower[row]) + std::fabs(p.upper[row]) + 1 + std::fabs(uniform(random)));
    }
    for (double& b : p.rhs) b = uniform(random);
    return p;
}

// A x for every system.
std::vector<double> product(const TridiagonalProblem& p, const std::vector<double>& x) {
    std::vector<double> Ax(x.size());
    for (int s = 0; s < p.count; ++s) {
        const int xo = s * p.m;
        for (int i = 0; i < p.m; ++i) {
            Ax[xo + i] = p.diag[i] * x[xo + i];
            if (i > 0) Ax[xo + i] += p.lower[i] * x[xo + i - 1];
            if (i < p.m - 1) Ax[xo + i] += p.upper[i] * x[xo + i + 1];
        }
    }
    return Ax;
}

// Names entry s m + i of the stacked systems: system s, row i.
std::function<std::string(std::size_t)> system_row(const TridiagonalProblem& p) {
    return [m = std::size_t(p.m)](std::size_t k) {
        return "system " + std::to_string(k / m) + " row " + std::to_string(k % m);
    };
}

// The relative residual max |A x - b| / max |b| over every system is at most 1e-13.
void check_residual(const std::string& what, const TridiagonalProblem& p, const std::vector<double>& x) {
    check_same_values(what + ": relative residual, A x against b", p.rhs, product(p, x), 1e-13, system_row(p));
}

std::vector<double> solve(Backend backend, const TridiagonalProblem& p) {
    return backend_ops(backend).solve_tridiagonal(p.lower, p.diag, p.upper, p.rhs, p.m, p.count);
}

std::vector<TridiagonalProblem> test_problems() {
    // one system: fewer than the threads of omp on two cores or more, so omp solves it by the partition method
    std::vector<TridiagonalProblem> problems{random_problem(1000, 3, 1), random_problem(257, 40, 2),
                                             random_problem(1000, 1, 4)};
    const TridiagonalBands spline = spline_system(4096, SplineBoundary::not_a_knot);
    TridiagonalProblem s = random_problem(4097, 2, 3);
    s.lower = spline.lower;
    s.diag = spline.diag;
    s.upper = spline.upper;
    problems.push_back(s);
    return problems;
}

const SplineSolve spline_solves[] = {SplineSolve::tridiagonal, SplineSolve::inverse_band};

// Values of f at x_min + i dx, i = 0..M.
template <class F>
std::vector<double> sample(F f, double x_min, double dx, int M) {
    std::vector<double> v(M + 1);
    for (int i = 0; i <= M; ++i) v[i] = f(x_min + i * dx);
    return v;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tridiagonal)

BSDE_TEST_CASE_PER_BACKEND(residual_is_small) {
    BOOST_TEST_MESSAGE("random diagonally dominant and spline systems, 1-40 right-hand sides: residual <= 1e-13");
    for (const TridiagonalProblem& p : test_problems())
        check_residual(to_string(backend) + ", m = " + std::to_string(p.m) + ", count = " + std::to_string(p.count),
                       p, solve(backend, p));
}

BOOST_AUTO_TEST_CASE(partition_method_equals_thomas) {
    BOOST_TEST_MESSAGE("the partition method with 2, 3, 7 and m / 3 chunks per system: residual <= 1e-13 and the "
                       "Thomas solution to 1e-13 relative (one core)");
    std::vector<TridiagonalProblem> problems = test_problems();
    problems.push_back(random_problem(9, 2, 5));
    for (const TridiagonalProblem& p : problems) {
        auto solve_in = [&](int chunks) {
            std::vector<double> x = p.rhs, scratch(3 * x.size());
            solve_tridiagonal_in_chunks(thrust::cpp::par, p.lower.data(), p.diag.data(), p.upper.data(), x.data(),
                                        scratch.data(), p.m, p.count, chunks);
            return x;
        };
        const std::vector<double> thomas = solve_in(1);
        for (int chunks : {2, 3, 7, p.m / 3}) {
            if (chunks > p.m / 3) continue;  // the method needs m >= 3 chunks
            const std::vector<double> x = solve_in(chunks);
            const std::string what = "m = " + std::to_string(p.m) + ", count = " + std::to_string(p.count) + ", " +
                                     std::to_string(chunks) + " chunks";
            check_residual(what, p, x);
            check_same_values(what + ": against Thomas", thomas, x, 1e-13, system_row(p));
        }
    }
}

BOOST_AUTO_TEST_CASE(cuda_equals_serial, *bsde::test::needs_cuda()) {
    BOOST_TEST_MESSAGE("cuSPARSE gtsv2_nopivot equals the serial Thomas solve to 1e-14");
    for (const TridiagonalProblem& p : test_problems())
        check_same_values("m = " + std::to_string(p.m) + ", count = " + std::to_string(p.count) + ": cuda vs serial",
                          solve(Backend::serial, p), solve(Backend::cuda, p), 1e-14, system_row(p));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(cubic_spline)

BSDE_TEST_CASE_PER_BACKEND(reproduces_nodes_and_cubics) {
    BOOST_TEST_MESSAGE("both end conditions reproduce the nodes to 1e-14; not-a-knot reproduces a cubic to 1e-12; "
                       "with the tridiagonal solve and with the inverse band");
    const int M = 64;
    const double x_min = -2.0, dx = 4.0 / M;
    auto cubic = [](double x) { return 1.0 - 0.5 * x + 0.25 * x * x - 0.3 * x * x * x; };
    auto wavy = [](double x) { return std::sin(3 * x) + 0.1 * x; };
    std::vector<double> between;
    for (int k = 0; k <= 500; ++k) between.push_back(x_min + k * (M * dx) / 500);
    for (SplineSolve solve : spline_solves) {
        const BackendOps& ops = backend_ops(backend);
        const std::string label = to_string(backend) + " " + to_string(solve);
        for (SplineBoundary boundary : {SplineBoundary::natural, SplineBoundary::not_a_knot}) {
            const std::vector<double> values = sample(wavy, x_min, dx, M);
            const std::vector<double> moments = ops.spline_moments(values, M, 1, dx, boundary, solve);
            std::vector<double> nodes(values.size());
            for (int i = 0; i <= M; ++i) nodes[i] = x_min + i * dx;
            const std::vector<double> at_nodes = ops.spline_evaluate(values, moments, x_min, dx, nodes);
            for (int i = 0; i <= M; ++i)
                check_close(label + " " + to_string(boundary) + " node " + std::to_string(i), values[i], at_nodes[i],
                            1e-14, 1.0);
        }
        const std::vector<double> values = sample(cubic, x_min, dx, M);
        const std::vector<double> moments = ops.spline_moments(values, M, 1, dx, SplineBoundary::not_a_knot, solve);
        const std::vector<double> got = ops.spline_evaluate(values, moments, x_min, dx, between);
        for (std::size_t k = 0; k < between.size(); ++k)
            check_close(label + " not-a-knot cubic at x = " + std::to_string(between[k]), cubic(between[k]), got[k],
                        1e-12, 1.0);
    }
}

BSDE_TEST_CASE_PER_BACKEND(several_columns_in_one_solve) {
    BOOST_TEST_MESSAGE("two columns fitted together equal each column fitted alone (tridiagonal and inverse band)");
    const int M = 100;
    const double dx = 0.1;
    std::vector<double> a = sample([](double x) { return std::cos(x); }, 0.0, dx, M);
    std::vector<double> b = sample([](double x) { return std::exp(-x); }, 0.0, dx, M);
    std::vector<double> both(a);
    both.insert(both.end(), b.begin(), b.end());
    for (SplineSolve solve : spline_solves) {
        const BackendOps& ops = backend_ops(backend);
        const std::vector<double> together = ops.spline_moments(both, M, 2, dx, SplineBoundary::not_a_knot, solve);
        const std::vector<double> alone = ops.spline_moments(b, M, 1, dx, SplineBoundary::not_a_knot, solve);
        const std::vector<double> second(together.begin() + M + 1, together.end());
        check_same_values(to_string(backend) + " " + to_string(solve) +
                              ": second column's moments, fitted with the first (got) and alone (expected)",
                          alone, second, 1e-15, [](std::size_t i) { return "m_" + std::to_string(i); });
    }
}

BSDE_TEST_CASE_PER_BACKEND(fourth_order_convergence) {
    BOOST_TEST_MESSAGE("sin on [-16, 16], not-a-knot: max error falls with order in [3.7, 4.3] over three refinements");
    const int Ms[] = {512, 1024, 2048, 4096};
    const BackendOps& ops = backend_ops(backend);
    std::vector<double> errors;
    for (int M : Ms) {
        const double x_min = -16.0, dx = 32.0 / M;
        const std::vector<double> values = sample([](double x) { return std::sin(x); }, x_min, dx, M);
        const std::vector<double> moments =
            ops.spline_moments(values, M, 1, dx, SplineBoundary::not_a_knot, SplineSolve::automatic);
        std::vector<double> points;
        for (int k = 0; k < 10 * M; ++k) points.push_back(x_min + (k + 0.37) * dx / 10);
        const std::vector<double> got = ops.spline_evaluate(values, moments, x_min, dx, points);
        double error = 0;
        for (std::size_t k = 0; k < points.size(); ++k) error = std::max(error, std::fabs(got[k] - std::sin(points[k])));
        errors.push_back(error);
    }
    for (std::size_t r = 1; r < errors.size(); ++r) {
        const double order = bsde::test::observed_order(errors[r - 1], errors[r]);
        BOOST_CHECK_MESSAGE(order >= 3.7 && order <= 4.3,
                            to_string(backend) << ": order expected in [3.7, 4.3], got " << order << " (max errors "
                                << bsde::test::scientific(errors[r - 1]) << " at M = " << Ms[r - 1] << ", "
                                << bsde::test::scientific(errors[r]) << " at M = " << Ms[r] << ")");
    }
}

BOOST_AUTO_TEST_CASE(backends_agree) {
    BOOST_TEST_MESSAGE("omp and cuda splines (default solve: the inverse band on cuda) equal the serial one "
                       "(tridiagonal) to 1e-14 relative");
    const int M = 2048;
    const double x_min = -16.0, dx = 32.0 / M;
    const std::vector<double> values = sample([](double x) { return std::log(std::sin(x) + 3); }, x_min, dx, M);
    std::vector<double> points;
    for (int k = 0; k < 3000; ++k) points.push_back(x_min - 1 + k * (M * dx + 2) / 3000);  // some outside: clamped
    const BackendOps& serial = backend_ops(Backend::serial);
    const std::vector<double> reference =
        serial.spline_evaluate(values,
                               serial.spline_moments(values, M, 1, dx, SplineBoundary::not_a_knot, SplineSolve::automatic),
                               x_min, dx, points);
    for (Backend backend : available_backends()) {
        const BackendOps& ops = backend_ops(backend);
        const std::vector<double> got =
            ops.spline_evaluate(values, ops.spline_moments(values, M, 1, dx, SplineBoundary::not_a_knot, SplineSolve::automatic),
                                x_min, dx, points);
        check_same_values(to_string(backend) + " vs serial", reference, got, 1e-14,
                          [&](std::size_t k) { return "x = " + std::to_string(points[k]); });
    }
}

BSDE_TEST_CASE_PER_BACKEND(inverse_band_equals_tridiagonal) {
    BOOST_TEST_MESSAGE("inverse-band moments equal the tridiagonal ones to 1e-13 relative (to each column's max |m|), "
                       "natural and not-a-knot, M = 4, 5, 8, 50, 73, 200, 1000, three columns in one fit (smooth, "
                       "random, smooth + small random)");
    double largest = 0;
    const BackendOps& ops = backend_ops(backend);
    for (SplineBoundary boundary : {SplineBoundary::natural, SplineBoundary::not_a_knot})
        for (int M : {4, 5, 8, 50, 73, 200, 1000}) {
            const double x_min = -2.0, dx = 4.0 / M;
            std::mt19937_64 random(M);
            std::uniform_real_distribution<double> uniform(-1.0, 1.0);
            const std::vector<double> smooth = sample([](double x) { return std::sin(3 * x) + 0.1 * x; }, x_min, dx, M);
            std::vector<double> values(smooth);
            for (int i = 0; i <= M; ++i) values.push_back(uniform(random));
            for (int i = 0; i <= M; ++i) values.push_back(smooth[i] + 1e-3 * uniform(random));
            const int columns = 3;
            const std::vector<double> expected =
                ops.spline_moments(values, M, columns, dx, boundary, SplineSolve::tridiagonal);
            const std::vector<double> got = ops.spline_moments(values, M, columns, dx, boundary, SplineSolve::inverse_band);
            for (int column = 0; column < columns; ++column) {
                const std::vector<double> e(expected.begin() + column * (M + 1), expected.begin() + (column + 1) * (M + 1));
                const std::vector<double> g(got.begin() + column * (M + 1), got.begin() + (column + 1) * (M + 1));
                int worst = 0;
                for (int i = 0; i <= M; ++i)
                    if (std::fabs(g[i] - e[i]) > std::fabs(g[worst] - e[worst])) worst = i;
                const double scale = std::max(bsde::test::max_abs(e), 1e-300);
                largest = std::max(largest, std::fabs(g[worst] - e[worst]) / scale);
                check_close(to_string(backend) + " " + to_string(boundary) + " M = " + std::to_string(M) + " column " +
                                std::to_string(column) + " row " + std::to_string(worst) + " (of max |m| " +
                                bsde::test::scientific(scale) + ")",
                            e[worst], g[worst], 1e-13, scale);
            }
        }
    BOOST_TEST_MESSAGE("largest difference relative to max |m|: " << bsde::test::scientific(largest));
}

BOOST_AUTO_TEST_CASE(inverse_band_tables) {
    BOOST_TEST_MESSAGE("band tables: E = W = min(36, M); the kernel equals (-rho)^|k| / (2 sqrt 3), rho = 2 - sqrt 3, "
                       "to 1e-16; right rows mirror left rows (Q_{M-i,M-j} = Q_ij) to 1e-16; entries at the band edge "
                       "below 1e-19");
    const double rho = 2.0 - std::sqrt(3.0);
    for (SplineBoundary boundary : {SplineBoundary::natural, SplineBoundary::not_a_knot})
        for (int M : {4, 36, 50, 1000, 32769}) {
            const SplineInverseBand band = spline_inverse_band(M, boundary);
            const std::string label = to_string(boundary) + " M = " + std::to_string(M);
            const int W = band.W, E = band.E, width = 2 * W + 1;
            BOOST_CHECK_MESSAGE(W == std::min(36, M) && E == W && band.left.size() == std::size_t(E * width) &&
                                    band.right.size() == std::size_t(E * width) && band.kernel.size() == std::size_t(width),
                                label << ": expected W = E = min(36, M) = " << std::min(36, M)
                                      << ", left and right tables of E (2 W + 1) = " << E * width
                                      << " entries and a kernel of 2 W + 1 = " << width << "; got W = " << W
                                      << ", E = " << E << ", tables of " << band.left.size() << " and " << band.right.size()
                                      << ", a kernel of " << band.kernel.size());
            if (M >= 2 * E)
                for (int k = -W; k <= W; ++k)
                    check_close(label + " kernel q_" + std::to_string(k), std::pow(-rho, std::abs(k)) / std::sqrt(12.0),
                                band.kernel[k + W], 1e-16);
            double edge = 0;
            std::string edge_at = "none";
            for (int i = 0; i < E; ++i)
                for (int j = std::max(0, i - W); j <= std::min(M, i + W); ++j) {
                    const double left = band.left[i * width + j - i + W];
                    const double right = band.right[(E - 1 - i) * width + (M - j) - (M - i) + W];
                    check_close(label + " Q_" + std::to_string(i) + "," + std::to_string(j) + " mirrored", left, right, 1e-16);
                    if (j >= 1 && j <= M - 1 && std::abs(i - j) == W && M > W && std::fabs(left) > edge) {
                        edge = std::fabs(left);
                        edge_at = "Q_" + std::to_string(i) + "," + std::to_string(j);
                    }
                }
            check_close(label + " largest |Q_ij| at the band edge |i - j| = W (" + edge_at + ")", 0.0, edge, 1e-19);
        }
}

// The P cells of a run (the fused pass's P neighbouring points) against P single evaluations.
template <int P>
void check_run_form(const CellCubicColumn& column, int entries, const CellWeights& w, double t) {
    for (int cell = 0; cell + P < entries; ++cell) {
        const CellCubicColumn::Run<P> run = column.run<P>(cell, w);
        for (int p = 0; p < P; ++p) {
            const double single = column(cell + p, w);
            BOOST_CHECK_MESSAGE(run.at[p] == single,
                                "run of " << P << " from cell " << cell << ", t = " << t << ", its cell " << cell + p
                                          << ": expected (bitwise) " << all_digits(single) << ", got "
                                          << all_digits(run.at[p]) << ", error "
                                          << bsde::test::scientific(std::fabs(run.at[p] - single)));
        }
    }
}

BOOST_AUTO_TEST_CASE(run_form_equals_single_evaluations) {
    BOOST_TEST_MESSAGE("the run form (the fused pass's 2 or 3 neighbouring points) gives each cell's value of the "
                       "single evaluation, bitwise, for the spline and the Hermite weights");
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<double> values(12), data(12);
    for (std::size_t k = 0; k < values.size(); ++k) {
        values[k] = uniform(random);
        data[k] = uniform(random);
    }
    const CellCubicColumn column{values.data(), data.data()};
    const int entries = static_cast<int>(values.size());
    for (double t : {0.0, 0.25, 0.5, 0.9})
        for (const CellWeights& w : {cubic_spline_weights(t, 0.1), cubic_hermite_weights(t, 0.1)}) {
            check_run_form<2>(column, entries, w, t);
            check_run_form<3>(column, entries, w, t);
        }
}

BOOST_AUTO_TEST_SUITE_END()
