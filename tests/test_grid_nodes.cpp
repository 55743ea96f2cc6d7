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

#include "../algorithms/quadrature/gauss_hermite.h"
#include "../algorithms/interpolation/interpolation.h"
#include "../algorithms/sweep/sweep_functors.h"
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
    check_2d("tensor spline", TensorSplineEvaluator{M, x_min, dx, M, x_min}, (M + 3) * (M + 3));
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
    BOOST_TEST_MESSAGE("the staged 2D rule in blocks of 45 points, with the evaluator's stage layout (whole rows at "
                       "m = 20, windows narrower than a row at m = 80), equals the direct rule to 1e-13");
    constexpr int functions = 3, L = 8, P = 45;
    const GaussHermiteRule rule = gauss_hermite(L);
    for (int m : {20, 80}) {
        const int points = (m + 1) * (m + 1);
        const double lo = -2.0, h = 4.0 / m;
        const TensorSplineEvaluator evaluate{m, lo, h, m, lo};
        const int data_size = (m + 3) * (m + 3);
        std::vector<double> layer_storage = arbitrary_numbers(functions * (points + data_size), 7);
        const LayerView layer = LayerView::of(layer_storage.data(), points, data_size, functions);
        // variances whose nodes reach 1, 3 and 9 cells, so that rows and columns near the edges leave the grid
        for (double variance : {0.05 * h * h, 0.6 * h * h, 5.0 * h * h}) {
            std::vector<AxisNode<TensorSplineEvaluator::Shift>> row;
            for (int l = 0; l < L; ++l) {
                const double dW = std::sqrt(2.0 * variance) * rule.nodes[l];
                row.push_back({dW, rule.weights[l] / std::sqrt(3.14159265358979323846), evaluate.shift(dW)});
            }
            const GaussHermiteOnGrid<TensorSplineEvaluator::Shift> direct{row.data(), L, {0, 0}};
            const StageLayout layout = evaluate.stage_layout(P, row[0].shift.cells, row[L - 1].shift.cells, functions);
            BOOST_CHECK_MESSAGE(m == 20 ? layout.stride == m + 3 : layout.stride < m + 3,
                                "m = " << m << ": stride " << layout.stride << ", expected "
                                       << (m == 20 ? "a whole row, m + 3" : "less than a row"));
            const GaussHermiteOnGrid<TensorSplineEvaluator::Shift> staged{row.data(), L, layout};
            std::vector<double> stage(2 * layout.buffer, 0.0);
            for (int first : {0, 50, 183, points - P}) {
                const int last = std::min(points, first + P) - 1;
                // the block's windows fit the layout: each row's in its stride, all rows' functions in a buffer
                const auto windows =
                    evaluate.row_windows(first, last, RowReach{row[0].shift.cells, row[L - 1].shift.cells, layout});
                BOOST_CHECK_LE(windows.rows() * functions * layout.stride, layout.buffer);
                for (int r = windows.first_row; r <= windows.last_row; ++r)
                    BOOST_CHECK_LE(windows.end(r) - windows.begin(r) + 1, layout.stride);
                for (int i = first; i <= last; ++i) {
                    const GridSite<2> site{Vec2{{lo + i / (m + 1) * h, lo + i % (m + 1) * h}},
                                           {i / (m + 1), i % (m + 1)}};
                    const DriverAt<EveryArgumentDriver> driver{EveryArgumentDriver{}, 0.25};
                    using Expectations = LayerExpectations<EveryArgumentDriver, TensorSplineEvaluator>;
                    Expectations expected{evaluate, layer, site, driver}, got{evaluate, layer, site, driver};
                    direct(1, expected, SingleLane{}, NodeRun{});
                    staged(1, got, SequentialBlock{stage.data(), first, last}, NodeRun{});
                    const std::string where = "m = " + std::to_string(m) + ", variance " +
                                              std::to_string(variance / (h * h)) + " dx^2, stride " +
                                              std::to_string(layout.stride) + ", block " + std::to_string(first) +
                                              ".." + std::to_string(last) + ", point (" +
                                              std::to_string(site.index[0]) + ", " +
                                              std::to_string(site.index[1]) + ")";
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
}

// Lane r of G lanes (the cuda pass's lanes of a point, lanes.h), for LayerNodeShare.
template <int G>
struct LaneOf {
    static constexpr int size = G;
    int r;
    int lane() const { return r; }
};

// The 1D pass's lanes share the nodes of a step's layers in runs (LayerNodeShare): together they take every node of
// every layer once, each lane a run of consecutive nodes as long as the others' to one node, so that each lane
// reaches at most ceil(run / L) + 1 layers (two of K = 6 with L = 32 and 4 lanes, instead of all six).
template <int G>
void check_node_share(int layers, int L) {
    const std::string what = std::to_string(G) + " lanes, " + std::to_string(layers) + " layers of " + std::to_string(L) + " nodes";
    std::vector<int> taken(layers * L, 0);
    const int shortest = layers * L / G, longest = (layers * L + G - 1) / G;
    for (int r = 0; r < G; ++r) {
        const LayerNodeShare share = LayerNodeShare::of(LaneOf<G>{r}, layers, L);
        int nodes = 0, layers_reached = 0, last = -1;
        for (int q = 0; q < layers; ++q) {
            const NodeRun run = share.of_layer(q);
            if (run.empty()) continue;
            ++layers_reached;
            BOOST_CHECK_MESSAGE(run.begin >= 0 && run.end <= L, what << ", lane " << r << ", layer " << q << ": nodes "
                                                                     << run.begin << ".." << run.end - 1 << " outside 0.." << L - 1);
            BOOST_CHECK_MESSAGE(last < 0 || q * L + run.begin == last + 1,
                                what << ", lane " << r << ": the run breaks before layer " << q << " node " << run.begin);
            for (int l = run.begin; l < run.end; ++l) ++taken[q * L + l];
            nodes += run.end - run.begin;
            last = q * L + run.end - 1;
        }
        BOOST_CHECK_MESSAGE(nodes >= shortest && nodes <= longest, what << ", lane " << r << ": expected " << shortest
                                                                        << ".." << longest << " nodes, got " << nodes);
        const int most_layers = (longest + L - 1) / L + 1;
        BOOST_CHECK_MESSAGE(layers_reached <= most_layers, what << ", lane " << r << ": expected at most " << most_layers
                                                                << " layers, got " << layers_reached);
    }
    for (int k = 0; k < layers * L; ++k)
        BOOST_CHECK_MESSAGE(taken[k] == 1, what << ": layer " << k / L << " node " << k % L << " taken " << taken[k]
                                                << " times, expected once");
}

BOOST_AUTO_TEST_CASE(lanes_share_every_layer_node_once) {
    for (int layers : {1, 2, 3, 5, 6})
        for (int L : {2, 3, 8, 32}) {
            check_node_share<1>(layers, L);
            check_node_share<2>(layers, L);
            check_node_share<4>(layers, L);
            check_node_share<8>(layers, L);
        }
}

BOOST_AUTO_TEST_SUITE_END()
