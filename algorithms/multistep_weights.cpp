#include "multistep_weights.h"

#include <cmath>
#include <cstdint>
#include <utility>

#include "errors.h"

namespace bsde {
namespace {

using Matrix = std::vector<std::vector<long double>>;

// Gaussian elimination with partial pivoting; A is small ((K+1) x (K+1)).
std::vector<long double> solve_dense(Matrix A, std::vector<long double> b) {
    const std::size_t n = b.size();
    for (std::size_t col = 0; col < n; ++col) {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < n; ++r)
            if (std::fabs(A[r][col]) > std::fabs(A[pivot][col])) pivot = r;
        std::swap(A[col], A[pivot]);
        std::swap(b[col], b[pivot]);
        for (std::size_t r = col + 1; r < n; ++r) {
            const long double factor = A[r][col] / A[col][col];
            for (std::size_t c = col; c < n; ++c) A[r][c] -= factor * A[col][c];
            b[r] -= factor * b[col];
        }
    }
    std::vector<long double> x(n);
    for (std::size_t i = n; i-- > 0;) {
        long double sum = b[i];
        for (std::size_t c = i + 1; c < n; ++c) sum -= A[i][c] * x[c];
        x[i] = sum / A[i][i];
    }
    return x;
}

// Second derivatives m_i of the not-a-knot spline through (i, y_i), i = 0..K (unit spacing):
//   m_{i-1} + 4 m_i + m_{i+1} = 6 (y_{i-1} - 2 y_i + y_{i+1})   (C2 at the interior knots)
//   m_0 - 2 m_1 + m_2 = 0,  m_{K-2} - 2 m_{K-1} + m_K = 0        (not-a-knot: C3 at x_1, x_{K-1})
// K = 1 is the line (m = 0), K = 2 the parabola (m_i = y_0 - 2 y_1 + y_2).
std::vector<long double> not_a_knot_moments(const std::vector<long double>& y) {
    const int K = static_cast<int>(y.size()) - 1;
    if (K == 1) return {0.0L, 0.0L};
    if (K == 2) return std::vector<long double>(3, y[0] - 2 * y[1] + y[2]);
    Matrix A(K + 1, std::vector<long double>(K + 1, 0.0L));
    std::vector<long double> rhs(K + 1, 0.0L);
    A[0][0] = 1; A[0][1] = -2; A[0][2] = 1;
    A[K][K - 2] = 1; A[K][K - 1] = -2; A[K][K] = 1;
    for (int i = 1; i < K; ++i) {
        A[i][i - 1] = 1; A[i][i] = 4; A[i][i + 1] = 1;
        rhs[i] = 6 * (y[i - 1] - 2 * y[i] + y[i + 1]);
    }
    return solve_dense(A, rhs);
}

// Exact integral over [a, b] (0 <= a < b <= K) of the cubic spline with values y and moments m:
// on [i, i+1], s(i + t) = (1-t) y_i + t y_{i+1} + ((1-t)^3 - (1-t)) m_i / 6 + (t^3 - t) m_{i+1} / 6.
long double integrate_spline(const std::vector<long double>& y, const std::vector<long double>& m,
                             long double a, long double b) {
    // antiderivative in t of one piece, from 0 to t
    auto piece = [&](int i, long double t) {
        const long double u = 1 - t;
        const long double F_y = y[i] * (1 - u * u) / 2 + y[i + 1] * t * t / 2;
        const long double F_m = m[i] * ((1 - u * u * u * u) / 4 - (1 - u * u) / 2) / 6 +
                                m[i + 1] * (t * t * t * t / 4 - t * t / 2) / 6;
        return F_y + F_m;
    };
    long double total = 0;
    const int K = static_cast<int>(y.size()) - 1;
    for (int i = 0; i < K; ++i) {
        const long double lo = std::max<long double>(a, i), hi = std::min<long double>(b, i + 1);
        if (hi > lo) total += piece(i, hi - i) - piece(i, lo - i);
    }
    return total;
}

}  // namespace

std::vector<double> spline_quadrature_weights(int K, double a, double b) {
    if (K < 1) throw InputError("--K " + std::to_string(K) + ": the multistep order must be >= 1");
    std::vector<double> weights(K + 1);
    for (int j = 0; j <= K; ++j) {
        std::vector<long double> unit(K + 1, 0.0L);
        unit[j] = 1.0L;
        weights[j] = static_cast<double>(integrate_spline(unit, not_a_knot_moments(unit), a, b));
    }
    return weights;
}

std::vector<double> gamma_y_weights(int K) {
    std::vector<double> w = spline_quadrature_weights(K, 0.0, K);
    for (double& v : w) v /= K;
    return w;
}

std::vector<double> gamma_z_weights(int K) { return spline_quadrature_weights(K, 0.0, 1.0); }

std::string as_fraction(double x) {
    // continued fraction convergents p/q of |x|
    const double target = std::fabs(x);
    long double rest = target;
    std::int64_t p0 = 0, q0 = 1, p1 = 1, q1 = 0;
    for (int step = 0; step < 40; ++step) {
        const long double whole = std::floor(rest);
        if (whole > 1e12L) break;
        const auto a = static_cast<std::int64_t>(whole);
        const std::int64_t p2 = a * p1 + p0, q2 = a * q1 + q0;
        if (q2 > 1000000000) break;
        p0 = p1; q0 = q1; p1 = p2; q1 = q2;
        if (std::fabs(static_cast<double>(p1) / q1 - target) <= 1e-15 * std::max(target, 1e-300))
            return (x < 0 ? "-" : "") + std::to_string(p1) + (q1 == 1 ? "" : "/" + std::to_string(q1));
        if (rest - whole < 1e-30L) break;
        rest = 1 / (rest - whole);
    }
    return "";
}

}  // namespace bsde
