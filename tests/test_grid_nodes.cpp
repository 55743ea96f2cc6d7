// Rule nodes on the uniform grid (grid_nodes.h): a grid point moved by a node's increment, evaluated from
// the node's precomputed shift (Evaluator::at), gives what locating the moved point gives (Evaluator::locate),
// for every interpolation, inside the grid and where the moved point falls off it (clamped). The evaluators
// are the same __host__ __device__ code on every backend; their data here are arbitrary numbers, as at()
// and locate() only choose the cell and the weights.
// And the staged 2D rule (sum factorisation, which the cuda pass runs with the tensor spline) gives the
// expectations of the direct rule, for points of a block that spans several rows, at and near the edges.
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "../algorithms/gauss_hermite.h"
#include "../algorithms/interpolation.h"
#include "../algorithms/sweep_functors.h"
#include "test_support.h"

using namespace bsde;
using bsde::test::check_close;

namespace {

constexpr int M = 64;
constexpr double x_min = -4.0, dx = 8.0 / M;

std::vector<double> arbitrary_numbers(std::size_t size, unsigned seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<double> data(size);
    for (double& x : data) x = uniform(random);
    return data;
}

// Increments up to 12 cells either way, so that points near the edges move off the grid; and whole cells.
std::vector<double> increments(unsigned seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> uniform(-12.0 * dx, 12.0 * dx);
    std::vector<double> dW{0.0, dx, -dx, 3.0 * dx, -7.0 * dx};
    for (int k = 0; k < 40; ++k) dW.push_back(uniform(random));
    return dW;
}

// Value and point of the stencil from at() against those from locate(): equal to rounding (the shift's t
// is dW / dx - floor(dW / dx), the located one (w + dW - x_min) / dx - cell).
template <class Evaluator, class Stencil>
void check_same(const std::string& what, const Evaluator& evaluate, const std::vector<double>& values,
                const std::vector<double>& data, const Stencil& from_shift, const Stencil& located) {
    check_close(what + " value", evaluate(values.data(), data.data(), located),
                evaluate(values.data(), data.data(), from_shift), 1e-13);
    for (int k = 0; k < 2; ++k)
        check_close(what + " point", component(located.point, k), component(from_shift.point, k), 1e-13, 8.0);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(grid_nodes)

BOOST_AUTO_TEST_CASE(cubic_spline_shift_equals_locate) {
    const CubicSplineEvaluator evaluate{UniformGridLocator{x_min, dx, M}};
    const std::vector<double> values = arbitrary_numbers(M + 1, 1), moments = arbitrary_numbers(M + 1, 2);
    for (double dW : increments(3)) {
        const AxisNode<CubicSplineEvaluator::Shift> node{dW, 1.0, evaluate.shift(dW)};
        for (int i = 0; i <= M; ++i) {
            const double w = x_min + i * dx;
            check_same("1D spline, i = " + std::to_string(i) + ", dW = " + std::to_string(dW), evaluate, values,
                       moments, evaluate.at(GridSite<1>{w, {i}}, node), evaluate.locate(w + dW));
        }
    }
}

template <class Evaluator>
void check_2d(const std::string& name, const Evaluator& evaluate, std::size_t data_size) {
    const std::vector<double> values = arbitrary_numbers((M + 1) * (M + 1), 4), data = arbitrary_numbers(data_size, 5);
    const std::vector<double> dW = increments(6);
    for (std::size_t a = 0; a < dW.size(); a += 3)
        for (std::size_t b = 1; b < dW.size(); b += 4) {
            const AxisNode<typename Evaluator::Shift> along1{dW[a], 1.0, evaluate.shift(dW[a])},
                along2{dW[b], 1.0, evaluate.shift(dW[b])};
            for (int i1 = 0; i1 <= M; i1 += 3)
                for (int i2 = 0; i2 <= M; i2 += 5) {
                    const Vec2 w{{x_min + i1 * dx, x_min + i2 * dx}};
                    check_same(name + ", i = (" + std::to_string(i1) + ", " + std::to_string(i2) + "), dW = (" +
                                   std::to_string(dW[a]) + ", " + std::to_string(dW[b]) + ")",
                               evaluate, values, data, evaluate.at(GridSite<2>{w, {i1, i2}}, along1, along2),
                               evaluate.locate(Vec2{{w[0] + dW[a], w[1] + dW[b]}}));
                }
        }
}

BOOST_AUTO_TEST_CASE(tensor_spline_shift_equals_locate) {
    check_2d("tensor spline", TensorSplineEvaluator{M, x_min, dx}, (M + 3) * (M + 3));
}

BOOST_AUTO_TEST_CASE(bicubic_shift_equals_locate) {
    check_2d("bicubic", BicubicEvaluator{M, x_min, dx}, 16 * M * M);
}

// A block of the staged rule run by one thread (the cuda pass's BlockLanes with 256 threads): it stages the
// whole block's windows itself, for each of its points in turn.
struct SequentialBlock {
    static constexpr int size = 1;
    static constexpr bool stages = true;
    double* staged;
    int first, last;
    int lane() const { return 0; }
    int thread() const { return 0; }
    static constexpr int threads() { return 1; }
    void sync() const {}
    double sum(double x) const { return x; }
    bool stores(int = 0) const { return true; }
};

// A driver that reads every argument, so that the staged point (the moved w, clamped) is checked too.
struct EveryArgumentDriver {
    static constexpr int dimension = 2;
    double driver(double t, Vec2 w, double y, Vec2 z) const {
        return y * z[0] - 0.5 * z[1] + w[0] * w[0] - 3.0 * w[1] + t * y * y;
    }
};

BOOST_AUTO_TEST_CASE(tensor_spline_staged_rule_equals_direct) {
    constexpr int m = 20, functions = 3, points = (m + 1) * (m + 1), L = 8;
    const double lo = -2.0, h = 4.0 / m;
    const TensorSplineEvaluator evaluate{m, lo, h};
    const int data_size = (m + 3) * (m + 3);
    const std::vector<double> arbitrary = arbitrary_numbers(functions * (points + data_size), 7);
    std::vector<double> layer_storage(arbitrary);
    const LayerView layer{layer_storage.data(), points, data_size, functions};
    const GaussHermiteRule rule = gauss_hermite(L);
    // variances whose nodes reach 1, 3 and 9 cells, so that rows and columns near the edges leave the grid
    for (double variance : {0.05 * h * h, 0.6 * h * h, 5.0 * h * h}) {
        std::vector<AxisNode<TensorSplineEvaluator::Shift>> row;
        for (int l = 0; l < L; ++l) {
            const double dW = std::sqrt(2.0 * variance) * rule.nodes[l];
            row.push_back({dW, rule.weights[l] / std::sqrt(3.14159265358979323846), evaluate.shift(dW)});
        }
        const GaussHermiteOnGrid<TensorSplineEvaluator::Shift> direct{row.data(), L, {0, 0}};
        for (int first : {0, 50, 183, points - 45}) {  // blocks of 45 points: 3 to 4 rows
            const int last = std::min(points, first + 45) - 1;
            const int buffer = functions * (last / (m + 1) - first / (m + 1) + 1) * (m + 3);  // stride: a whole row
            const GaussHermiteOnGrid<TensorSplineEvaluator::Shift> staged{row.data(), L, {m + 3, buffer}};
            std::vector<double> stage(2 * buffer, 0.0);
            for (int i = first; i <= last; ++i) {
                const GridSite<2> site{Vec2{{lo + i / (m + 1) * h, lo + i % (m + 1) * h}}, {i / (m + 1), i % (m + 1)}};
                const DriverAt<EveryArgumentDriver> driver{EveryArgumentDriver{}, 0.25};
                LayerExpectations<EveryArgumentDriver, TensorSplineEvaluator> expected{evaluate, layer, site, driver};
                LayerExpectations<EveryArgumentDriver, TensorSplineEvaluator> got{evaluate, layer, site, driver};
                direct(1, expected, SingleLane{}, 0);
                staged(1, got, SequentialBlock{stage.data(), first, last}, 0);
                const std::string where = "variance " + std::to_string(variance / (h * h)) + " dx^2, block " +
                                          std::to_string(first) + ".." + std::to_string(last) + ", point (" +
                                          std::to_string(site.index[0]) + ", " + std::to_string(site.index[1]) + ")";
                check_close(where + ": E[y]", expected.y, got.y, 1e-13, 1.0);
                check_close(where + ": E[f]", expected.f, got.f, 1e-13, 1.0);
                for (int k = 0; k < 2; ++k) {
                    check_close(where + ": E[z]", expected.z[k], got.z[k], 1e-13, 1.0);
                    check_close(where + ": E[f dW]", expected.f_dw[k], got.f_dw[k], 1e-13, 1.0);
                }
            }
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
