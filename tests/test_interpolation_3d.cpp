// The 3D tensor-product spline of a layer (tensor_spline_3d.h): on every backend, tensor-product cubics reproduced,
// fourth-order convergence on a smooth function and points outside the domain clamped; on the host, a grid point
// moved by rule nodes (at) evaluated as the moved point located (locate), and several functions in one fit.
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../algorithms/backends/host_system.h"
#include "../algorithms/interpolation/interpolation.h"
#include "../algorithms/interpolation/tensor_spline_3d.h"
#include "test_support.h"

using namespace bsde;
using bsde::test::check_close;
using bsde::test::check_same_values;
using bsde::test::max_abs;
using bsde::test::scientific;

static_assert(std::is_trivially_copyable_v<TensorSpline3DEvaluator>, "the fused pass copies the evaluator");
static_assert(std::is_same_v<TensorSpline3D::AxisCell, SplineCell> && TensorSpline3D::solves_spline_moments,
              "the 3D family: the spline's cell along each axis, moments by SplineFitter");

namespace {

// The grid (x_min + i1 dx, x_min + i2 dx, x_min + i3 dx), i1, i2, i3 = 0..M.
struct Grid3D {
    int M;
    double x_min, dx;
    double x(int i) const { return x_min + i * dx; }
    double x_max() const { return x_min + M * dx; }
    std::string name() const { return "M = " + std::to_string(M); }
};

struct Points {
    std::vector<double> x1, x2, x3;
    void add(double a, double b, double c) {
        x1.push_back(a);
        x2.push_back(b);
        x3.push_back(c);
    }
    std::size_t size() const { return x1.size(); }
    std::string at(std::size_t k) const {
        return "point (" + std::to_string(x1[k]) + ", " + std::to_string(x2[k]) + ", " + std::to_string(x3[k]) + ")";
    }
};

// Values of f at point (i1 (M+1) + i2)(M+1) + i3.
template <class F>
std::vector<double> sample(F f, const Grid3D& g) {
    std::vector<double> v;
    for (int i1 = 0; i1 <= g.M; ++i1)
        for (int i2 = 0; i2 <= g.M; ++i2)
            for (int i3 = 0; i3 <= g.M; ++i3) v.push_back(f(g.x(i1), g.x(i2), g.x(i3)));
    return v;
}

template <class F>
std::vector<double> sample(F f, const Points& p) {
    std::vector<double> v;
    for (std::size_t k = 0; k < p.size(); ++k) v.push_back(f(p.x1[k], p.x2[k], p.x3[k]));
    return v;
}

Points grid_points(const Grid3D& g) {
    Points p;
    for (int i1 = 0; i1 <= g.M; ++i1)
        for (int i2 = 0; i2 <= g.M; ++i2)
            for (int i3 = 0; i3 <= g.M; ++i3) p.add(g.x(i1), g.x(i2), g.x(i3));
    return p;
}

// Uniform random points in [x_min - margin, x_max + margin]^3.
Points random_points(const Grid3D& g, int count, unsigned seed, double margin = 0.0) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> uniform(g.x_min - margin, g.x_max() + margin);
    Points p;
    for (int k = 0; k < count; ++k) {
        const double a = uniform(random), b = uniform(random);
        p.add(a, b, uniform(random));
    }
    return p;
}

std::vector<double> interpolate(Backend backend, const std::vector<double>& values, const Grid3D& g, const Points& p,
                                SplineSolve solve = SplineSolve::automatic) {
    return backend_ops(backend).interpolate_3d(values, g.M, g.x_min, g.dx, p.x1, p.x2, p.x3, solve);
}

double cubic(const double c[4], double x) { return ((c[3] * x + c[2]) * x + c[1]) * x + c[0]; }

// p(x1) q(x2) r(x3), cubics with every coefficient nonzero.
double cubic_product(double x1, double x2, double x3) {
    const double p[4] = {0.7, -1.1, 0.4, 0.3}, q[4] = {-0.2, 0.9, 0.5, -0.25}, r[4] = {1.1, -0.4, 0.2, 0.12};
    return cubic(p, x1) * cubic(q, x2) * cubic(r, x3);
}

// The product plus another: degree 3 in each variable, not one product.
double sum_of_cubic_products(double x1, double x2, double x3) {
    const double u[4] = {1.3, 0.2, -0.6, 0.15}, v[4] = {0.4, -0.3, 0.1, 0.35}, w[4] = {-0.8, 0.5, 0.3, -0.2};
    return cubic_product(x1, x2, x3) + cubic(u, x1) * cubic(v, x2) * cubic(w, x3);
}

double smooth(double x1, double x2, double x3) { return std::sin(x1) * std::cos(0.7 * x2) * std::exp(0.3 * x3); }

// A coordinate clamped to [x_min, x_max], NaN to x_min (as locate() clamps).
double clamped(double x, const Grid3D& g) { return x > g.x_min ? (x < g.x_max() ? x : g.x_max()) : g.x_min; }

std::vector<double> arbitrary_numbers(std::size_t size, unsigned seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<double> numbers(size);
    for (double& x : numbers) x = uniform(random);
    return numbers;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(interpolation_3d)

BSDE_TEST_CASE_PER_BACKEND(reproduces_tensor_cubics) {
    BOOST_TEST_MESSAGE("p(x1) q(x2) r(x3) and a sum of two such, cubics, reproduced at every grid point and at random "
                       "points (edge cells included) to 1e-12 relative, M = 4 and 9, moments by either solve");
    struct Case {
        const char* name;
        double (*f)(double, double, double);
    };
    for (const Case& c : {Case{"p q r", cubic_product}, Case{"p q r + u v w", sum_of_cubic_products}})
        for (const Grid3D g : {Grid3D{4, -1.5, 1.0}, Grid3D{9, -1.5, 4.0 / 9}})
            for (const SplineSolve solve : {SplineSolve::tridiagonal, SplineSolve::inverse_band}) {
                const std::vector<double> values = sample(c.f, g);
                for (const Points& points : {grid_points(g), random_points(g, 500, 11)}) {
                    const std::string what = to_string(backend) + " " + c.name + " " + g.name() + " (" +
                                             to_string(solve) + "), " + std::to_string(points.size()) + " points";
                    const double difference = check_same_values(what, sample(c.f, points),
                                                                interpolate(backend, values, g, points, solve), 1e-12,
                                                                [&](std::size_t k) { return points.at(k); });
                    BOOST_TEST_MESSAGE(what << ": expected error <= 1e-12 relative, got " << scientific(difference));
                }
            }
}

BSDE_TEST_CASE_PER_BACKEND(fourth_order_convergence) {
    BOOST_TEST_MESSAGE("sin(x1) cos(0.7 x2) exp(0.3 x3) on [-2, 2]^3: the max error at one off-grid point per cell "
                       "falls with order in [3.6, 4.4] over M = 6, 12, 24");
    const int Ms[] = {6, 12, 24};
    std::vector<double> errors;
    for (int M : Ms) {
        const Grid3D g{M, -2.0, 4.0 / M};
        Points points;
        for (int c1 = 0; c1 < M; ++c1)
            for (int c2 = 0; c2 < M; ++c2)
                for (int c3 = 0; c3 < M; ++c3)
                    points.add(g.x(c1) + 0.37 * g.dx, g.x(c2) + 0.71 * g.dx, g.x(c3) + 0.23 * g.dx);
        const std::vector<double> got = interpolate(backend, sample(smooth, g), g, points);
        const std::vector<double> exact = sample(smooth, points);
        double error = 0;
        for (std::size_t k = 0; k < got.size(); ++k) error = std::max(error, std::fabs(got[k] - exact[k]));
        errors.push_back(error);
    }
    for (std::size_t r = 1; r < errors.size(); ++r) {
        const double order = std::log2(errors[r - 1] / errors[r]);  // e ~ C dx^order, dx halved
        const std::string what = to_string(backend) + ": M = " + std::to_string(Ms[r - 1]) + " -> " +
                                 std::to_string(Ms[r]) + ", max errors " + scientific(errors[r - 1]) + " -> " +
                                 scientific(errors[r]);
        BOOST_TEST_MESSAGE(what << ": expected order 4, got " << order << ", error " << std::fabs(order - 4.0));
        BOOST_CHECK_MESSAGE(order >= 3.6 && order <= 4.4, what << ": order expected in [3.6, 4.4], got " << order);
    }
}

BSDE_TEST_CASE_PER_BACKEND(clamps_points_outside) {
    BOOST_TEST_MESSAGE("a point outside the domain (or with NaN coordinates) gets the spline at the point clamped to "
                       "the domain (NaN to x_min), exactly");
    const Grid3D g{8, -1.0, 0.25};
    const std::vector<double> values = sample(smooth, g);
    Points outside = random_points(g, 400, 5, 1.5);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    outside.add(nan, 0.3, 0.4);
    outside.add(-0.2, nan, 5.0);
    outside.add(nan, nan, nan);
    Points inside;
    for (std::size_t k = 0; k < outside.size(); ++k)
        inside.add(clamped(outside.x1[k], g), clamped(outside.x2[k], g), clamped(outside.x3[k], g));
    const std::vector<double> got = interpolate(backend, values, g, outside);
    const std::vector<double> expected = interpolate(backend, values, g, inside);
    for (std::size_t k = 0; k < got.size(); ++k)
        check_close(to_string(backend) + " " + outside.at(k), expected[k], got[k], 0.0);
}

BOOST_AUTO_TEST_CASE(at_equals_locate) {
    BOOST_TEST_MESSAGE("a grid point moved by one node per axis (at) gives the value and point of the moved point "
                       "located (locate, clamped), to 1e-13, for nodes inside and pushing past the edges; the "
                       "evaluator is the same __host__ __device__ code on every backend");
    const Grid3D g{10, -2.0, 0.4};
    const TensorSpline3DEvaluator evaluate{g.M, g.x_min, g.dx, g.M, g.x_min};
    const std::vector<double> data = arbitrary_numbers(static_cast<std::size_t>(g.M + 3) * (g.M + 3) * (g.M + 3), 3);
    // whole cells, and increments up to 14 cells either way: points near an edge move past it
    std::vector<double> dW{0.0, g.dx, -g.dx, 3.0 * g.dx, -7.0 * g.dx};
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> uniform(-14.0 * g.dx, 14.0 * g.dx);
    for (int k = 0; k < 10; ++k) dW.push_back(uniform(random));
    const auto node = [&](double increment) {
        return AxisNode<TensorSpline3DEvaluator::Shift>{increment, 1.0, evaluate.shift(increment)};
    };
    const int indices[] = {0, 1, 2, 5, 8, 9, 10};
    for (std::size_t a = 0; a < dW.size(); ++a)
        for (std::size_t b = (a + 1) % dW.size(), count = 0; count < 4; b = (b + 3) % dW.size(), ++count) {
            const std::size_t c = (a + 2 * b + 1) % dW.size();
            for (int i1 : indices)
                for (int i2 : indices)
                    for (int i3 : indices) {
                        const GridSite<3> site{Vec3{{g.x(i1), g.x(i2), g.x(i3)}}, {i1, i2, i3}};
                        const auto moved = evaluate.at(site, node(dW[a]), node(dW[b]), node(dW[c]));
                        const auto located = evaluate.locate(site.w + Vec3{{dW[a], dW[b], dW[c]}});
                        const std::string what = "site (" + std::to_string(i1) + ", " + std::to_string(i2) + ", " +
                                                 std::to_string(i3) + ") moved by (" + std::to_string(dW[a]) + ", " +
                                                 std::to_string(dW[b]) + ", " + std::to_string(dW[c]) + ")";
                        check_close(what + " value", evaluate(nullptr, data.data(), located),
                                    evaluate(nullptr, data.data(), moved), 1e-13, max_abs(data));
                        for (int k = 0; k < 3; ++k)
                            check_close(what + " point", located.point[k], moved.point[k], 1e-13, g.x_max() - g.x_min);
                    }
        }
}

BOOST_AUTO_TEST_CASE(locate_clamps_nan_to_x_min) {
    BOOST_TEST_MESSAGE("locate: a NaN coordinate becomes x_min, a point outside its clamp");
    const Grid3D g{5, -1.0, 0.5};
    const TensorSpline3DEvaluator evaluate{g.M, g.x_min, g.dx, g.M, g.x_min};
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto s = evaluate.locate(Vec3{{nan, 9.0, -0.3}});
    check_close("x1 of (NaN, 9, -0.3)", g.x_min, s.point[0], 0.0);
    check_close("x2 of (NaN, 9, -0.3)", g.x_max(), s.point[1], 0.0);
    check_close("x3 of (NaN, 9, -0.3)", -0.3, s.point[2], 0.0);
    const auto t = evaluate.locate(Vec3{{g.x_min, g.x_max(), -0.3}});
    BOOST_CHECK_MESSAGE(s.first == t.first, "first coefficient: expected " << t.first << ", got " << s.first);
}

BOOST_AUTO_TEST_CASE(several_functions_in_one_fit) {
    BOOST_TEST_MESSAGE("serial: two functions fitted together give the same data as each fitted alone, either solve");
    const Grid3D g{7, -1.0, 2.0 / 7};
    std::vector<double> both = sample(smooth, g);
    const std::vector<double> second = sample(sum_of_cubic_products, g);
    both.insert(both.end(), second.begin(), second.end());
    HostContext<SerialSystem> context;
    for (const SplineSolve solve : {SplineSolve::tridiagonal, SplineSolve::inverse_band}) {
        auto fitter = TensorSpline3D::make_fitter(context, g.M, g.x_min, g.dx, SplineOptions{SplineBoundary::not_a_knot, solve});
        thrust::cpp::vector<double> values(both.begin(), both.end()), alone(second.begin(), second.end());
        thrust::cpp::vector<double> together_data(2 * fitter.data_size()), alone_data(fitter.data_size());
        fitter.fit(thrust::raw_pointer_cast(values.data()), thrust::raw_pointer_cast(together_data.data()), 2);
        fitter.fit(thrust::raw_pointer_cast(alone.data()), thrust::raw_pointer_cast(alone_data.data()), 1);
        const std::vector<double> got(together_data.begin() + fitter.data_size(), together_data.end());
        const std::vector<double> expected(alone_data.begin(), alone_data.end());
        BOOST_CHECK_MESSAGE(got == expected, to_string(solve) << ": the second function's data, fitted with the first "
                                                                 "(got), differ from those fitted alone (expected "
                                                                 "equal); largest at "
                                                              << bsde::test::largest_difference(expected, got));
    }
}

BOOST_AUTO_TEST_CASE(cuda_equals_serial, *bsde::test::needs_cuda()) {
    BOOST_TEST_MESSAGE("the cuda spline equals the serial one to 1e-13 relative (points inside and outside)");
    const Grid3D g{20, -3.0, 0.3};
    const std::vector<double> values =
        sample([](double x1, double x2, double x3) { return std::log(std::sin(x1) * std::cos(x2) + 3) * (1 + x3 * x3); },
               g);
    const Points points = random_points(g, 3000, 7, 0.5);
    const double difference = check_same_values("cuda vs serial", interpolate(Backend::serial, values, g, points),
                                                interpolate(Backend::cuda, values, g, points), 1e-13,
                                                [&](std::size_t k) { return points.at(k); });
    BOOST_TEST_MESSAGE("cuda vs serial: expected difference <= 1e-13 relative, got " << scientific(difference));
}

BOOST_AUTO_TEST_SUITE_END()
