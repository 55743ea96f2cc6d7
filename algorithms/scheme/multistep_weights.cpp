#include "multistep_weights.h"

#include <utility>

#include <boost/multiprecision/cpp_int.hpp>

#include "../core/errors.h"

namespace bsde {
namespace {

using Rational = boost::multiprecision::cpp_rational;

template <class Number>
Number magnitude(const Number& x) { return x < 0 ? Number(-x) : x; }

template <class Number>
using Matrix = std::vector<std::vector<Number>>;

// Gaussian elimination with partial pivoting; A is small ((K+1) x (K+1)). Exact in rational arithmetic.
template <class Number>
std::vector<Number> solve_dense(Matrix<Number> A, std::vector<Number> b) {
    const std::size_t n = b.size();
    for (std::size_t col = 0; col < n; ++col) {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < n; ++r)
            if (magnitude(A[r][col]) > magnitude(A[pivot][col])) pivot = r;
        std::swap(A[col], A[pivot]);
        std::swap(b[col], b[pivot]);
        for (std::size_t r = col + 1; r < n; ++r) {
            const Number factor = A[r][col] / A[col][col];
            for (std::size_t c = col; c < n; ++c) A[r][c] -= factor * A[col][c];
            b[r] -= factor * b[col];
        }
    }
    std::vector<Number> x(n);
    for (std::size_t i = n; i-- > 0;) {
        Number sum = b[i];
        for (std::size_t c = i + 1; c < n; ++c) sum -= A[i][c] * x[c];
        x[i] = sum / A[i][i];
    }
    return x;
}

// Second derivatives m_i of the not-a-knot spline through (i, y_i), i = 0..K (unit spacing):
//   m_{i-1} + 4 m_i + m_{i+1} = 6 (y_{i-1} - 2 y_i + y_{i+1})   (C2 at the interior knots)
//   m_0 - 2 m_1 + m_2 = 0,  m_{K-2} - 2 m_{K-1} + m_K = 0        (not-a-knot: C3 at x_1, x_{K-1})
// K = 1 is the line (m = 0), K = 2 the parabola (m_i = y_0 - 2 y_1 + y_2).
template <class Number>
std::vector<Number> not_a_knot_moments(const std::vector<Number>& y) {
    const int K = static_cast<int>(y.size()) - 1;
    if (K == 1) return {Number(0), Number(0)};
    if (K == 2) return std::vector<Number>(3, y[0] - 2 * y[1] + y[2]);
    Matrix<Number> A(K + 1, std::vector<Number>(K + 1, Number(0)));
    std::vector<Number> rhs(K + 1, Number(0));
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
template <class Number>
Number integrate_spline(const std::vector<Number>& y, const std::vector<Number>& m, const Number& a,
                        const Number& b) {
    // antiderivative in t of one piece, from 0 to t
    auto piece = [&](int i, const Number& t) {
        const Number u = 1 - t;
        const Number F_y = y[i] * (1 - u * u) / 2 + y[i + 1] * t * t / 2;
        const Number F_m = m[i] * ((1 - u * u * u * u) / 4 - (1 - u * u) / 2) / 6 +
                           m[i + 1] * (t * t * t * t / 4 - t * t / 2) / 6;
        return Number(F_y + F_m);
    };
    Number total = 0;
    const int K = static_cast<int>(y.size()) - 1;
    for (int i = 0; i < K; ++i) {
        const Number lo = a > Number(i) ? a : Number(i), hi = b < Number(i + 1) ? b : Number(i + 1);
        if (hi > lo) total += piece(i, hi - i) - piece(i, lo - i);
    }
    return total;
}

// The weights w_j over [a, b] (multistep_weights.h) in Number arithmetic, each divided by `divisor`.
template <class Number>
std::vector<Number> quadrature_weights(int K, const Number& a, const Number& b, const Number& divisor) {
    if (K < 1) throw InputError("--K " + std::to_string(K) + ": the multistep order must be >= 1");
    std::vector<Number> weights(K + 1);
    for (int j = 0; j <= K; ++j) {
        std::vector<Number> unit(K + 1, Number(0));
        unit[j] = 1;
        weights[j] = integrate_spline(unit, not_a_knot_moments(unit), a, b) / divisor;
    }
    return weights;
}

std::vector<double> rounded(const std::vector<long double>& weights) {
    return std::vector<double>(weights.begin(), weights.end());
}

std::vector<std::string> as_fractions(const std::vector<Rational>& weights) {
    std::vector<std::string> fractions;
    for (const Rational& w : weights)
        fractions.push_back(numerator(w).str() + (denominator(w) == 1 ? "" : "/" + denominator(w).str()));
    return fractions;
}

}  // namespace

std::vector<double> gamma_y_weights(int K) { return rounded(quadrature_weights<long double>(K, 0.0L, K, K)); }

std::vector<double> gamma_z_weights(int K) { return rounded(quadrature_weights<long double>(K, 0.0L, 1.0L, 1.0L)); }

std::vector<std::string> gamma_y_fractions(int K) { return as_fractions(quadrature_weights<Rational>(K, 0, K, K)); }

std::vector<std::string> gamma_z_fractions(int K) { return as_fractions(quadrature_weights<Rational>(K, 0, 1, 1)); }

}  // namespace bsde
