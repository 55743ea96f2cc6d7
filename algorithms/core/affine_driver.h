// A driver affine in (y, z) and the same at every w, at a fixed time t:
//   f(t, w, y, z) = a + b y + c . z        (a, b, c functions of t alone)
// A problem with such a driver returns one from driver_at(t) (sweep_functors.h, driver_at). The sweep then takes
// E_j[f_j] and E_j[f_j dW] of its 2D layers from E_j of the layer's own functions, axis by axis
// (separable_pass.h), and the stability analysis reads df/dz = c, its largest over the run where it changes with t
// (problems/problem_support.h, driver_z_gradient).
#pragma once
#include <type_traits>
#include <utility>

#include "host_device.h"
#include "point.h"

namespace bsde {

template <int d>
struct AffineDriver {
    double a, b;  // f at y = z = 0, df/dy
    Point<d> c;   // df/dz
    template <class W>
    __host__ __device__ double operator()(const W&, double y, const Point<d>& z) const {
        double f = a + b * y;
        for (int k = 0; k < d; ++k) f += component(c, k) * component(z, k);
        return f;
    }
};

template <class Driver>
struct is_affine_driver : std::false_type {};
template <int d>
struct is_affine_driver<AffineDriver<d>> : std::true_type {};

// Whether a problem's driver_at(t) gives an AffineDriver.
template <class Problem, class = void>
struct has_affine_driver : std::false_type {};
template <class Problem>
struct has_affine_driver<Problem, std::void_t<decltype(std::declval<const Problem&>().driver_at(0.0))>>
    : is_affine_driver<decltype(std::declval<const Problem&>().driver_at(0.0))> {};

}  // namespace bsde
