// A lower obstacle of a reflected BSDE (scheme.md, "Reflected BSDEs: American options"): y_t >= h(t, X_t), declared
// by a problem's obstacle(t, w) (has_obstacle) and, optionally, its gradient in w, obstacle_z(t, w) (has_obstacle_z),
// which z takes where the constraint binds. The sweep projects each new layer onto y >= h (ObstacleProjection,
// sweep_functors.h); the terminal data must already satisfy it (check_terminal_data_above_obstacle).
#pragma once
#include <array>
#include <cmath>
#include <string>
#include <type_traits>
#include <utility>

#include "../core/affine_driver.h"
#include "../core/errors.h"
#include "../core/point.h"
#include "grid.h"
#include "settings.h"

namespace bsde {

template <class P, class = void>
struct has_obstacle : std::false_type {};
template <class P>
struct has_obstacle<P, std::void_t<decltype(std::declval<const P&>().obstacle(
                           0.0, std::declval<Point<P::dimension>>()))>> : std::true_type {};

template <class P, class = void>
struct has_obstacle_z : std::false_type {};
template <class P>
struct has_obstacle_z<P, std::void_t<decltype(std::declval<const P&>().obstacle_z(
                             0.0, std::declval<Point<P::dimension>>()))>> : std::true_type {};

// Whether a problem's sweep records its early-exercise boundary (algorithms/sweep/exercise_boundary.h): a 1D problem
// with an obstacle.
template <class Problem>
constexpr bool records_exercise_boundary = has_obstacle<Problem>::value && Problem::dimension == 1;

// Whether a problem's start-up layers can come from the Feynman-Kac formula (algorithms/sweep/feynman_kac_layer.h): an
// affine driver and no obstacle, whose reflection the formula does not hold.
template <class Problem>
constexpr bool feynman_kac_applies = has_affine_driver<Problem>::value && !has_obstacle<Problem>::value;

// With an obstacle, y's step of order Ky > 1 reads layer n + Ky and sees the projections of the Ky - 1 layers between
// only through the driver: the price is about that of Ky times fewer exercise dates (am-put: 2.2 and 3.0 times Ky = 1's
// distance to the American price at N = 64). The line bsde warns of; "" where Ky = 1 or there is no obstacle.
template <class Problem>
std::string reflected_order_warning(const SchemeSettings& s) {
    if (!has_obstacle<Problem>::value || s.Ky <= 1) return "";
    return std::string("problem ") + Problem::name + " has an obstacle: with Ky = " + std::to_string(s.Ky) +
           " y's step reads layer n + " + std::to_string(s.Ky) + " and misses the exercise at the layers between "
           "(a price of fewer exercise dates); --Ky 1 exercises at every step";
}

// Throws InputError where g(w) < h(T, w) at a point of the run's grid (beyond rounding: 1e-14 of |g| + |h|): the
// reflected equation then has no solution with y_T = g.
template <class Problem>
void check_terminal_data_above_obstacle(const Problem& problem, const SpaceGrid& space, double T) {
    if constexpr (has_obstacle<Problem>::value) {
        constexpr int d = Problem::dimension;
        const int per_axis = space.M + 1;
        for (int i = 0; i < space.points(); ++i) {  // point (i_1 (M + 1) + i_2)(M + 1) + i_3, the last axis fastest
            Point<d> w{};
            for (int k = d - 1, rest = i; k >= 0; --k, rest /= per_axis) component(w, k) = space.point(rest % per_axis);
            const double g = problem.terminal_y(w), h = problem.obstacle(T, w);
            if (g < h - 1e-14 * (std::fabs(g) + std::fabs(h))) {
                std::array<double, 3> components{};
                for (int k = 0; k < d; ++k) components[k] = component(w, k);
                const std::string at = format_components(components, d);
                throw InputError(std::string("problem ") + Problem::name + ": its terminal data lie below its obstacle "
                                 "at w = " + at + " (g = " + format_number(g) + " < h(T, w) = " + format_number(h) +
                                 "); a reflected BSDE needs g >= h at T");
            }
        }
    }
}

}  // namespace bsde
