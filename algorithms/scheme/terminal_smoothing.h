// Smoothing of kinked terminal data in the sense of Kreiss (Kreiss, Thomee, Widlund 1970): the value at
// grid point w_i is replaced by the local average
//   g~(w_i) = integral Phi(xi) g(w_i + xi dx) d xi
// with a kernel whose Fourier transform is (sin(omega/2) / (omega/2))^m P(sin^2(omega/2)), so that it
// keeps moments 0..m-1 (smooth data are changed by O(dx^m) only) and damps the kink's high frequencies.
//   kreiss2: Phi_2(x) = 1 - |x| on [-1, 1] (the hat B_1; second order)
//   kreiss4: Phi_4(x) = 4/3 B_3(x) - 1/6 (B_3(x - 1) + B_3(x + 1)) on [-3, 3], B_3 the centred cubic
//            B-spline; Fourier (sin(omega/2)/(omega/2))^4 (1 + 2/3 sin^2(omega/2)); fourth order.
//   kreiss6: Phi_6(x) = sum_k c_k B_5(x - k) on [-5, 5], B_5 the centred quintic B-spline, c_0 = 73/40,
//            c_{+-1} = -7/15, c_{+-2} = 13/240; Fourier (sin(omega/2)/(omega/2))^6 P(s), s = sin^2(omega/2),
//            P(s) = 1 + s + 13/15 s^2 the series of (arcsin(sqrt s)^2 / s)^3 to s^2; sixth order.
// P is the series of (arcsin(sqrt s)^2 / s)^(m/2) to s^(m/2 - 1), so that the transform is 1 + O(omega^m);
// a factor s is the difference stencil (-1, 2, -1) / 4, s^2 the stencil (1, -4, 6, -4, 1) / 16.
// Why Phi_4 keeps the multistep orders: its transform vanishes to fourth order at the multiples of 2 pi
// (the grid's aliasing frequencies), so the cubic spline through the smoothed samples integrates against
// the smooth Gaussian kernels of the scheme like the data themselves up to O(dx^4) = O(dt^(q+1)) (grid
// rule), below the scheme's O(dt^q). Without smoothing the spline of the jump in z costs O(dx) (order 1 at
// best); with Phi_2, O(dx^2). The expectations over this layer must resolve a few cells, which
// Gauss-Hermite cannot: the sweep takes them cell by cell (expectation_rules.h).
// Only the points whose kernel reaches the kink are changed: elsewhere g is smooth and the O(dx^m)
// change would be below the scheme's error.
//
// 2D (a kink along the straight line {w : n . w = c}, KinkLine): the data are smooth along the line and
// kinked across it, so they are averaged along the normal only,
//   g~(w) = integral Phi(xi) g(w + xi dx n) d xi,
// at the grid points within half_width() dx of the line (|n . w - c| < 3 dx for Phi_4): the 1D average of
// the function x -> g(w + (x - n . w) n) of the normal coordinate x, cut at the kink x = c. Why the normal
// only: the kink's high frequencies lie along n (the data are smooth along the line), so this is where
// they must be damped; along any line the average keeps cubics, so smooth data change by O(dx^4) as in 1D.
// Measured on Example 5 (K = 3, with the kink-line rule of expectation_rules.h): the y and z errors fall at
// order 3 with Phi_4 (N = 8..64), at order 2 with Phi_2 (N = 8, 16); without smoothing z does not converge
// (6e-2, 1e-2, 2e-2, 3e-3 at N = 8, 16, 32, 64).
// 3D (a kink on the plane {w : n . w = c}, KinkPlane): the same along the plane's normal.
#pragma once
#include <cmath>
#include <string>
#include <type_traits>
#include <utility>

#include "../quadrature/gauss_legendre.h"
#include "../core/host_device.h"
#include "../core/point.h"

namespace bsde {

enum class Smoothing { none, kreiss2, kreiss4, kreiss6 };
std::string to_string(Smoothing smoothing);
Smoothing parse_smoothing(const std::string& name);  // throws InputError

// A kink of terminal data on the flat {w : normal . w = offset}, |normal| = 1: in 2D a line (KinkLine), in 3D a plane
// (KinkPlane).
template <int d>
struct KinkFlat {
    Point<d> normal;
    double offset;
    // Signed distance of w from the flat.
    __host__ __device__ double distance(const Point<d>& w) const {
        double along_normal = 0.0;
        for (int k = 0; k < d; ++k) along_normal += component(normal, k) * component(w, k);
        return along_normal - offset;
    }
};
using KinkLine = KinkFlat<2>;
using KinkPlane = KinkFlat<3>;

// u n + v t, t = (-n_2, n_1): the point u across and v along a line of unit normal n, from a point on it.
__host__ __device__ inline Vec2 across_and_along(const Vec2& n, double u, double v) {
    return Vec2{{u * n[0] - v * n[1], u * n[1] + v * n[0]}};
}

// Two unit tangents t1, t2 of a plane of unit normal n, (n, t1, t2) orthonormal: t1 = n x e / |n x e| for the axis e
// along which n is smallest (|n x e| >= sqrt(2/3)), t2 = n x t1.
struct PlaneTangents {
    Vec3 t1, t2;
    __host__ __device__ static PlaneTangents of(const Vec3& n) {
        const double a0 = fabs(n[0]), a1 = fabs(n[1]), a2 = fabs(n[2]);
        const int axis = a0 <= a1 && a0 <= a2 ? 0 : (a1 <= a2 ? 1 : 2);
        Vec3 e{{0.0, 0.0, 0.0}};
        e[axis] = 1.0;
        Vec3 t1 = cross(n, e);
        const double length = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
        for (int k = 0; k < 3; ++k) t1[k] /= length;
        return {t1, cross(n, t1)};
    }
    __host__ __device__ static Vec3 cross(const Vec3& a, const Vec3& b) {
        return Vec3{{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}};
    }
    // u n + v1 t1 + v2 t2: the point u across the plane and (v1, v2) along it, from a point on it.
    __host__ __device__ Vec3 across_and_along(const Vec3& n, double u, double v1, double v2) const {
        return Vec3{{u * n[0] + v1 * t1[0] + v2 * t2[0], u * n[1] + v1 * t1[1] + v2 * t2[1],
                     u * n[2] + v1 * t1[2] + v2 * t2[2]}};
    }
};

// The kinks of 1D terminal data: the points at[0..count-1], count <= capacity, in any order (a payoff with several
// strikes).
struct KinkPoints {
    static constexpr int capacity = 4;
    int count;
    double at[capacity];
};

// Problems whose terminal data have a kink say where with terminal_kink(): in 1D a point w (double) or
// several (KinkPoints), in 2D a KinkLine, in 3D a KinkPlane. kinks_of gives the 1D forms as KinkPoints, a flat as it is.
__host__ __device__ inline KinkPoints kinks_of(double w) { return KinkPoints{1, {w}}; }
__host__ __device__ inline KinkPoints kinks_of(const KinkPoints& kinks) { return kinks; }
template <int d>
__host__ __device__ KinkFlat<d> kinks_of(const KinkFlat<d>& kink) {
    return kink;
}
template <class P, class = void>
struct has_terminal_kink : std::false_type {};
template <class P>
struct has_terminal_kink<P, std::void_t<decltype(std::declval<const P&>().terminal_kink())>> : std::true_type {};

// g(w + (x - x_w) n) as a function of the normal coordinate x (x_w = n . w): the 1D cut of a function of 2 or 3
// variables along the normal through w, for KreissKernel::average.
template <class Function, int d>
struct NormalCut {
    Function g;
    Point<d> w, normal;
    double x_w;
    __host__ __device__ double operator()(double x) const {
        const double s = x - x_w;
        Point<d> moved = w;
        for (int k = 0; k < d; ++k) component(moved, k) += s * component(normal, k);
        return g(moved);
    }
};

struct KreissKernel {
    Smoothing smoothing;

    __host__ __device__ int half_width() const {
        return smoothing == Smoothing::kreiss6 ? 5 : smoothing == Smoothing::kreiss4 ? 3 : 1;
    }

    __host__ __device__ static double cubic_bspline(double x) {  // centred B_3, support [-2, 2]
        const double a = x < 0 ? -x : x;
        if (a >= 2.0) return 0.0;
        if (a >= 1.0) return (2.0 - a) * (2.0 - a) * (2.0 - a) / 6.0;
        return (4.0 - 6.0 * a * a + 3.0 * a * a * a) / 6.0;
    }

    __host__ __device__ static double quintic_bspline(double x) {  // centred B_5, support [-3, 3]
        const double a = x < 0 ? -x : x;
        if (a >= 3.0) return 0.0;
        const double p3 = (3.0 - a) * (3.0 - a) * (3.0 - a) * (3.0 - a) * (3.0 - a);
        const double p2 = a < 2.0 ? (2.0 - a) * (2.0 - a) * (2.0 - a) * (2.0 - a) * (2.0 - a) : 0.0;
        const double p1 = a < 1.0 ? (1.0 - a) * (1.0 - a) * (1.0 - a) * (1.0 - a) * (1.0 - a) : 0.0;
        return (p3 - 6.0 * p2 + 15.0 * p1) / 120.0;
    }

    __host__ __device__ double operator()(double x) const {
        if (smoothing == Smoothing::kreiss6)
            return 73.0 / 40.0 * quintic_bspline(x) -
                   7.0 / 15.0 * (quintic_bspline(x - 1.0) + quintic_bspline(x + 1.0)) +
                   13.0 / 240.0 * (quintic_bspline(x - 2.0) + quintic_bspline(x + 2.0));
        if (smoothing == Smoothing::kreiss2) {
            const double a = x < 0 ? -x : x;
            return a < 1.0 ? 1.0 - a : 0.0;
        }
        return 4.0 / 3.0 * cubic_bspline(x) - (cubic_bspline(x - 1.0) + cubic_bspline(x + 1.0)) / 6.0;
    }

    // Whether the kernel at w reaches a kink: a kink within half_width() cells in 1D, the line or plane within
    // half_width() dx in 2D and 3D.
    __host__ __device__ bool reaches(double w, double dx, const KinkPoints& kinks) const {
        bool near = false;
        for (int k = 0; k < kinks.count; ++k) near = near || fabs(w - kinks.at[k]) < half_width() * dx;
        return near;
    }
    template <int d>
    __host__ __device__ bool reaches(const Point<d>& w, double dx, const KinkFlat<d>& kink) const {
        return fabs(kink.distance(w)) < half_width() * dx;
    }

    // integral Phi(xi) g(w + xi dx) d xi, the kernel's support cut at the integers (where Phi changes
    // polynomial) and at every kink; 5-point Gauss-Legendre on each piece.
    template <class Function>
    __host__ __device__ double average(Function g, double w, double dx, const KinkPoints& kinks) const {
        double total = 0.0;
        for (int cell = -half_width(); cell < half_width(); ++cell) {
            double cuts[KinkPoints::capacity + 2];
            const int pieces = cell_pieces(cell, w, dx, kinks, cuts);
            for (int piece = 0; piece < pieces; ++piece) {
                const double a = cuts[piece], b = cuts[piece + 1], half = 0.5 * (b - a), mid = 0.5 * (a + b);
                for (int q = 0; q < GaussLegendre5::points; ++q) {
                    const double xi = mid + half * GaussLegendre5::node(q);
                    total += half * GaussLegendre5::weight(q) * (*this)(xi) * g(w + xi * dx);
                }
            }
        }
        return total;
    }

    // The kernel's cell [cell, cell + 1] (in units of dx from w) cut at the kinks inside it, in increasing order:
    // cuts[0..pieces], cuts[0] = cell and cuts[pieces] = cell + 1; returns pieces.
    __host__ __device__ static int cell_pieces(int cell, double w, double dx, const KinkPoints& kinks, double* cuts) {
        int inside = 0;
        cuts[0] = cell;
        for (int k = 0; k < kinks.count; ++k) {
            const double kink_at = (kinks.at[k] - w) / dx;
            if (!(kink_at > cell && kink_at < cell + 1)) continue;
            int slot = ++inside;  // insertion into cuts[1..inside]
            while (slot > 1 && cuts[slot - 1] > kink_at) {
                cuts[slot] = cuts[slot - 1];
                --slot;
            }
            cuts[slot] = kink_at;
        }
        cuts[inside + 1] = cell + 1;
        return inside + 1;
    }

    // 2D, 3D: the average along the normal of the kink's line or plane, integral Phi(xi) g(w + xi dx n) d xi.
    template <class Function, int d>
    __host__ __device__ double average(Function g, const Point<d>& w, double dx, const KinkFlat<d>& kink) const {
        const double x_w = kink.distance(w) + kink.offset;
        return average(NormalCut<Function, d>{g, w, kink.normal, x_w}, x_w, dx, kinks_of(kink.offset));
    }
};

}  // namespace bsde
