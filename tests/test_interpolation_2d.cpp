// The two 2D interpolations of a layer (tensor-product spline, bicubic) on every backend.
#include <algorithm>
#include <cmath>
#include <random>

#include "../algorithms/interpolation/bicubic.h"
#include "../algorithms/backends/host_system.h"
#include "../algorithms/interpolation/tensor_spline.h"
#include "test_support.h"

using namespace bsde;
using bsde::test::check_close;
using bsde::test::check_same_values;
using bsde::test::max_abs;

namespace {

const InterpolationKind interpolations[] = {InterpolationKind::spline, InterpolationKind::bicubic};

// The grid (x_min + i1 dx, x_min + i2 dx), i1, i2 = 0..M.
struct Grid2D {
    int M;
    double x_min, dx;
    double x(int i) const { return x_min + i * dx; }
    double x_max() const { return x_min + M * dx; }
};

struct Points {
    std::vector<double> x1, x2;
    void add(double a, double b) {
        x1.push_back(a);
        x2.push_back(b);
    }
};

// Values of f at point i1 (M+1) + i2.
template <class F>
std::vector<double> sample(F f, const Grid2D& g) {
    std::vector<double> v;
    for (int i1 = 0; i1 <= g.M; ++i1)
        for (int i2 = 0; i2 <= g.M; ++i2) v.push_back(f(g.x(i1), g.x(i2)));
    return v;
}

template <class F>
std::vector<double> sample(F f, const Points& p) {
    std::vector<double> v;
    for (std::size_t k = 0; k < p.x1.size(); ++k) v.push_back(f(p.x1[k], p.x2[k]));
    return v;
}

// Uniform random points in [x_min - margin, x_max + margin]^2.
Points random_points(const Grid2D& g, int count, unsigned seed, double margin = 0.0) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> uniform(g.x_min - margin, g.x_max() + margin);
    Points p;
    for (int k = 0; k < count; ++k) {
        const double a = uniform(random);
        p.add(a, uniform(random));
    }
    return p;
}

std::vector<double> interpolate(Backend backend, InterpolationKind kind, const std::vector<double>& values,
                                const Grid2D& g, const Points& p, SplineSolve solve = SplineSolve::automatic) {
    return backend_ops(backend).interpolate_2d(kind, values, g.M, g.x_min, g.dx, p.x1, p.x2, solve);
}

std::string label(Backend backend, InterpolationKind kind, const Grid2D& g) {
    return to_string(backend) + " " + to_string(kind) + " M = " + std::to_string(g.M);
}

std::string at(const Points& p, std::size_t k) {
    return " at (" + std::to_string(p.x1[k]) + ", " + std::to_string(p.x2[k]) + ")";
}

double cubic(const double c[4], double x) { return ((c[3] * x + c[2]) * x + c[1]) * x + c[0]; }

// A sum of two products of cubics: degree 3 in each variable, every coefficient nonzero.
double tensor_cubic(double x1, double x2) {
    const double p[4] = {0.7, -1.1, 0.4, 0.3}, q[4] = {-0.2, 0.9, 0.5, -0.25};
    const double r[4] = {1.3, 0.2, -0.6, 0.15}, s[4] = {0.4, -0.3, 0.1, 0.35};
    return cubic(p, x1) * cubic(q, x2) + cubic(r, x1) * cubic(s, x2);
}

double smooth(double x1, double x2) { return std::sin(x1) * std::cos(0.7 * x2); }

}  // namespace

BOOST_AUTO_TEST_SUITE(interpolation_2d)

BSDE_TEST_CASE_PER_BACKEND(reproduces_tensor_cubics) {
    BOOST_TEST_MESSAGE("spline and bicubic reproduce p1(x1) q1(x2) + p2(x1) q2(x2), cubics, at random points "
                       "(edge cells included) to 1e-12 relative, M = 4 and 13");
    for (const Grid2D g : {Grid2D{4, -1.5, 1.0}, Grid2D{13, -1.5, 4.0 / 13}}) {
        const std::vector<double> values = sample(tensor_cubic, g);
        const Points points = random_points(g, 400, 11);
        const std::vector<double> expected = sample(tensor_cubic, points);
        for (InterpolationKind kind : interpolations) {
            const std::vector<double> got = interpolate(backend, kind, values, g, points);
            for (std::size_t k = 0; k < got.size(); ++k)
                check_close(label(backend, kind, g) + at(points, k), expected[k], got[k], 1e-12, max_abs(values));
        }
    }
}

BSDE_TEST_CASE_PER_BACKEND(reproduces_grid_values) {
    BOOST_TEST_MESSAGE("spline and bicubic reproduce the values at every node (edges and corners included) to 1e-13");
    const Grid2D g{20, -2.0, 0.2};
    auto f = [](double x1, double x2) { return std::exp(0.3 * x1) * std::sin(2 * x2) + std::cos(x1 * x2); };
    const std::vector<double> values = sample(f, g);
    Points nodes;
    for (int i1 = 0; i1 <= g.M; ++i1)
        for (int i2 = 0; i2 <= g.M; ++i2) nodes.add(g.x(i1), g.x(i2));
    for (InterpolationKind kind : interpolations) {
        const std::vector<double> got = interpolate(backend, kind, values, g, nodes);
        for (std::size_t k = 0; k < got.size(); ++k)
            check_close(label(backend, kind, g) + " node" + at(nodes, k), values[k], got[k], 1e-13, max_abs(values));
    }
}

BSDE_TEST_CASE_PER_BACKEND(clamps_points_outside) {
    BOOST_TEST_MESSAGE("a point outside the domain gets the interpolant at the point clamped to the domain");
    const Grid2D g{16, -1.0, 0.125};
    const std::vector<double> values = sample(smooth, g);
    const Points outside = random_points(g, 300, 5, 1.5);
    Points clamped;
    for (std::size_t k = 0; k < outside.x1.size(); ++k)
        clamped.add(std::clamp(outside.x1[k], g.x_min, g.x_max()), std::clamp(outside.x2[k], g.x_min, g.x_max()));
    for (InterpolationKind kind : interpolations) {
        const std::vector<double> got = interpolate(backend, kind, values, g, outside);
        const std::vector<double> expected = interpolate(backend, kind, values, g, clamped);
        for (std::size_t k = 0; k < got.size(); ++k)
            check_close(label(backend, kind, g) + at(outside, k), expected[k], got[k], 0.0);
    }
}

BSDE_TEST_CASE_PER_BACKEND(fourth_order_convergence) {
    BOOST_TEST_MESSAGE("sin(x1) cos(0.7 x2) on [-4, 4]^2: the max error at one off-grid point per cell falls with "
                       "order in [3.7, 4.3] over M = 64, 128, 256, 512");
    for (InterpolationKind kind : interpolations) {
        const int Ms[] = {64, 128, 256, 512};
        std::vector<double> errors;
        for (int M : Ms) {
            const Grid2D g{M, -4.0, 8.0 / M};
            Points points;
            for (int c1 = 0; c1 < M; ++c1)
                for (int c2 = 0; c2 < M; ++c2) points.add(g.x(c1) + 0.37 * g.dx, g.x(c2) + 0.71 * g.dx);
            const std::vector<double> got = interpolate(backend, kind, sample(smooth, g), g, points);
            const std::vector<double> exact = sample(smooth, points);
            double error = 0;
            for (std::size_t k = 0; k < got.size(); ++k) error = std::max(error, std::fabs(got[k] - exact[k]));
            errors.push_back(error);
        }
        for (std::size_t r = 1; r < errors.size(); ++r) {
            const double order = bsde::test::observed_order(errors[r - 1], errors[r]);
            BOOST_TEST_MESSAGE(to_string(backend) << " " << to_string(kind) << ": M = " << Ms[r - 1] << " -> "
                                                  << Ms[r] << ", errors " << bsde::test::scientific(errors[r - 1])
                                                  << " -> " << bsde::test::scientific(errors[r]) << ", order " << order);
            BOOST_CHECK_MESSAGE(order >= 3.7 && order <= 4.3,
                                to_string(backend) << " " << to_string(kind)
                                    << ": order expected in [3.7, 4.3], got " << order << " (max errors "
                                    << bsde::test::scientific(errors[r - 1]) << " at M = " << Ms[r - 1] << ", "
                                    << bsde::test::scientific(errors[r]) << " at M = " << Ms[r] << ")");
        }
    }
}

BOOST_AUTO_TEST_CASE(several_functions_in_one_fit) {
    BOOST_TEST_MESSAGE("serial: two functions fitted together give the same data as each fitted alone");
    const Grid2D g{12, -1.0, 1.0 / 6};
    std::vector<double> both = sample(smooth, g);
    const std::vector<double> second = sample(tensor_cubic, g);
    both.insert(both.end(), second.begin(), second.end());
    HostContext<SerialSystem> context;
    auto check = [&](auto fitter, const std::string& name) {
        thrust::cpp::vector<double> values(both.begin(), both.end()), alone(second.begin(), second.end());
        thrust::cpp::vector<double> together_data(2 * fitter.data_size()), alone_data(fitter.data_size());
        fitter.fit(thrust::raw_pointer_cast(values.data()), thrust::raw_pointer_cast(together_data.data()), 2);
        fitter.fit(thrust::raw_pointer_cast(alone.data()), thrust::raw_pointer_cast(alone_data.data()), 1);
        const std::vector<double> got(together_data.begin() + fitter.data_size(), together_data.end());
        const std::vector<double> expected(alone_data.begin(), alone_data.end());
        BOOST_CHECK_MESSAGE(got == expected,
                            name << ": the second function's data, fitted with the first (got), differ from those "
                                    "fitted alone (expected equal); largest at "
                                 << bsde::test::largest_difference(expected, got));
    };
    check(TensorSplineFitter<HostContext<SerialSystem>>(context, g.M, g.x_min, g.dx, SplineSolve::tridiagonal),
          "spline (tridiagonal)");
    check(TensorSplineFitter<HostContext<SerialSystem>>(context, g.M, g.x_min, g.dx, SplineSolve::inverse_band),
          "spline (inverse band)");
    check(BicubicFitter<HostContext<SerialSystem>>(context, g.M, g.x_min, g.dx), "bicubic");
}

BSDE_TEST_CASE_PER_BACKEND(spline_inverse_band_equals_tridiagonal) {
    BOOST_TEST_MESSAGE("the tensor spline with inverse-band moments equals the one with tridiagonal moments to 1e-13 "
                       "relative, M = 4, 13, 50, 96, points inside and outside; and reproduces "
                       "tensor cubics to 1e-12");
    double largest = 0;
    for (const Grid2D g : {Grid2D{4, -1.5, 1.0}, Grid2D{13, -1.5, 4.0 / 13}, Grid2D{50, -3.0, 0.12},
                           Grid2D{96, -8.0, 1.0 / 6}}) {
        const std::vector<double> values =
            sample([](double x1, double x2) { return std::log(std::sin(x1) * std::cos(x2) + 3) + 0.1 * x1 * x2; }, g);
        const std::vector<double> cubics = sample(tensor_cubic, g);
        const Points points = random_points(g, 2000, 13, 0.5);
        const std::vector<double> exact = sample(tensor_cubic, points);
        const std::string name = to_string(backend) + " M = " + std::to_string(g.M);
        const std::vector<double> expected =
            interpolate(backend, InterpolationKind::spline, values, g, points, SplineSolve::tridiagonal);
        const std::vector<double> got =
            interpolate(backend, InterpolationKind::spline, values, g, points, SplineSolve::inverse_band);
        std::size_t worst = 0;
        for (std::size_t k = 0; k < got.size(); ++k)
            if (std::fabs(got[k] - expected[k]) > std::fabs(got[worst] - expected[worst])) worst = k;
        largest = std::max(largest, std::fabs(got[worst] - expected[worst]) / max_abs(expected));
        check_close(name + " inverse band vs tridiagonal" + at(points, worst), expected[worst], got[worst], 1e-13,
                    max_abs(expected));
        const std::vector<double> cubic_got =
            interpolate(backend, InterpolationKind::spline, cubics, g, points, SplineSolve::inverse_band);
        for (std::size_t k = 0; k < cubic_got.size(); ++k)
            if (points.x1[k] >= g.x_min && points.x1[k] <= g.x_max() && points.x2[k] >= g.x_min &&
                points.x2[k] <= g.x_max())  // outside, the cubic is not the clamped spline
                check_close(name + " inverse band, tensor cubic" + at(points, k), exact[k], cubic_got[k], 1e-12,
                            max_abs(cubics));
    }
    BOOST_TEST_MESSAGE("largest difference relative to max |s|: " << bsde::test::scientific(largest));
}

BOOST_AUTO_TEST_CASE(cuda_equals_serial, *bsde::test::needs_cuda()) {
    BOOST_TEST_MESSAGE("cuda spline and bicubic equal the serial ones to 1e-13 relative (points inside and outside)");
    const Grid2D g{96, -8.0, 1.0 / 6};
    const std::vector<double> values = sample([](double x1, double x2) { return std::log(std::sin(x1) * std::cos(x2) + 3); }, g);
    const Points points = random_points(g, 5000, 7, 0.5);
    for (InterpolationKind kind : interpolations) {
        const std::vector<double> reference = interpolate(Backend::serial, kind, values, g, points);
        const std::vector<double> got = interpolate(Backend::cuda, kind, values, g, points);
        check_same_values(to_string(kind) + ": cuda vs serial", reference, got, 1e-13,
                          [&](std::size_t k) { return "point" + at(points, k); });
    }
}

BOOST_AUTO_TEST_SUITE_END()
