// The interface of a problem: what a header in problems/ declares for the sweep, the command line and the tests
// (docs/architecture.md, "Adding a problem"). Point = double in 1D, Vec2 in 2D, Vec3 in 3D (algorithms/core/point.h); every
// __host__ __device__ member runs on the GPU, so it uses no std:: containers or strings.
//
// Required:
//   static constexpr const char* name, alias, description;   // --problem NAME or ALIAS; one line for `bsde problems`
//   static constexpr int dimension;                           // d = 1, 2 or 3: W and w in R^d
//   static constexpr bool has_exact_solution;                 // exact_y and exact_z below, for the errors reported
//   static constexpr double default_T, default_R;             // terminal time, half-width of the domain [-R, R]^d
//   static constexpr int default_L;                           // Gauss-Hermite nodes per dimension
//   Problem(double T, const ProblemParameters& given);        // refuses what it does not declare
//                                                             // (check_parameter_names, problem_support.h)
//   __host__ __device__ double terminal_y(Point w) const;     // g(w) = y_T
//   __host__ __device__ Point terminal_z(Point w) const;      // grad g(w) = z_T
//   __host__ __device__ double driver(double t, Point w, double y, Point z) const;   // f(t, w, y, z)
// Required where has_exact_solution:
//   __host__ __device__ double exact_y(double t, Point w) const;   // y(t, w)
//   __host__ __device__ Point exact_z(double t, Point w) const;    // z(t, w) = grad_w y(t, w)
// Optional (found by the traits named):
//   static std::vector<ParameterInfo> parameters();   // --NAME VALUE (declares_parameters, problem_support.h)
//   static constexpr const char* driver_z_advice;     // what the parameters do about f's z term (stability refusal)
//   __host__ __device__ auto driver_at(double t) const;   // f(t, ., ., .) with t's factors once (has_driver_at);
//                                                     // an affine one (AffineDriver) runs the separable 2D pass
//   __host__ __device__ double/KinkPoints/KinkLine terminal_kink() const;   // where g bends (has_terminal_kink:
//                                                     // 1D one point or several, 2D a line, 3D a plane): smoothing,
//   static constexpr const char* kink_advice;         // the kinked rule, and how to move the kink into the domain
//   __host__ __device__ Point state(double t, Point w) const;   // with value_gradient: the asset S(t, w) and
//   __host__ __device__ Point value_gradient(double t, Point w, Point z) const;   // dV/dS (has_state_map)
//   SpotDomain spot_domain(const std::vector<SpotRange>&) const;   // the domain the spots need (--spots)
//   void check_grid(const SchemeSettings&, double dx) const;   // refuses a grid it cannot be solved on (checks_grid)
//   __host__ __device__ double obstacle(double t, Point w) const;   // a lower obstacle h: the reflected BSDE
//                                                     // y_t >= h(t, X_t) (has_obstacle, algorithms/scheme/obstacle.h);
//                                                     // each new layer is projected, y <- max(y, h), and g >= h at T;
//                                                     // in 1D the solve records the early-exercise boundary, in w and,
//                                                     // with state(t, w), in S (algorithms/sweep/exercise_boundary.h)
//   __host__ __device__ Point obstacle_z(double t, Point w) const;  // grad_w h: z where y = h binds (has_obstacle_z;
//                                                     // without it z keeps the step's value there)
//
// check_problem_interface<Problem>() (registry.cpp calls it for every problem of problem_list.h) names the first
// required member a problem lacks, in a static_assert, instead of the template errors of its first use.
#pragma once
#include <type_traits>
#include <utility>

#include "../algorithms/core/point.h"
#include "../algorithms/scheme/settings.h"

namespace bsde {
namespace problem_interface {

template <class P, class = void>
struct has_names : std::false_type {};
template <class P>
struct has_names<P, std::void_t<decltype(static_cast<const char*>(P::name)), decltype(static_cast<const char*>(P::alias)),
                                decltype(static_cast<const char*>(P::description))>> : std::true_type {};

template <class P, class = void>
struct has_dimension : std::false_type {};
template <class P>
struct has_dimension<P, std::void_t<std::integral_constant<int, P::dimension>>>
    : std::bool_constant<P::dimension >= 1 && P::dimension <= 3> {};

template <class P, class = void>
struct has_defaults : std::false_type {};
template <class P>
struct has_defaults<P, std::void_t<std::integral_constant<bool, P::has_exact_solution>,
                                   decltype(static_cast<double>(P::default_T)),
                                   decltype(static_cast<double>(P::default_R)),
                                   std::integral_constant<int, P::default_L>>> : std::true_type {};

// The members of a problem of dimension d that take points (only asked once dimension is known).
template <class P, int d, class = void>
struct has_terminal_y : std::false_type {};
template <class P, int d>
struct has_terminal_y<P, d, std::void_t<decltype(std::declval<const P&>().terminal_y(std::declval<Point<d>>()))>>
    : std::is_convertible<decltype(std::declval<const P&>().terminal_y(std::declval<Point<d>>())), double> {};

template <class P, int d, class = void>
struct has_terminal_z : std::false_type {};
template <class P, int d>
struct has_terminal_z<P, d, std::void_t<decltype(std::declval<const P&>().terminal_z(std::declval<Point<d>>()))>>
    : std::is_convertible<decltype(std::declval<const P&>().terminal_z(std::declval<Point<d>>())), Point<d>> {};

template <class P, int d, class = void>
struct has_driver : std::false_type {};
template <class P, int d>
struct has_driver<P, d, std::void_t<decltype(std::declval<const P&>().driver(0.0, std::declval<Point<d>>(), 0.0,
                                                                           std::declval<Point<d>>()))>>
    : std::true_type {};

template <class P, int d, class = void>
struct has_exact : std::false_type {};
template <class P, int d>
struct has_exact<P, d, std::void_t<decltype(std::declval<const P&>().exact_y(0.0, std::declval<Point<d>>())),
                                   decltype(std::declval<const P&>().exact_z(0.0, std::declval<Point<d>>()))>>
    : std::true_type {};

}  // namespace problem_interface

// Stops the build, naming what Problem lacks of the required interface above; true where it has it all.
template <class Problem>
constexpr bool check_problem_interface() {
    namespace pi = problem_interface;
    static_assert(pi::has_names<Problem>::value,
                  "a problem needs static constexpr const char* name, alias and description");
    static_assert(pi::has_dimension<Problem>::value, "a problem needs static constexpr int dimension, 1, 2 or 3");
    static_assert(pi::has_defaults<Problem>::value,
                  "a problem needs static constexpr bool has_exact_solution, double default_T and default_R, and int "
                  "default_L");
    static_assert(std::is_constructible<Problem, double, const ProblemParameters&>::value,
                  "a problem needs a constructor Problem(double T, const ProblemParameters& given)");
    if constexpr (pi::has_dimension<Problem>::value && pi::has_defaults<Problem>::value) {
        constexpr int d = Problem::dimension;
        static_assert(pi::has_terminal_y<Problem, d>::value,
                      "a problem needs __host__ __device__ double terminal_y(Point w) const: g(w)");
        static_assert(pi::has_terminal_z<Problem, d>::value,
                      "a problem needs __host__ __device__ Point terminal_z(Point w) const: grad g(w)");
        static_assert(pi::has_driver<Problem, d>::value,
                      "a problem needs __host__ __device__ double driver(double t, Point w, double y, Point z) const");
        static_assert(!Problem::has_exact_solution || pi::has_exact<Problem, d>::value,
                      "a problem with has_exact_solution = true needs __host__ __device__ exact_y(double t, Point w) "
                      "and exact_z(double t, Point w) const");
    }
    return true;
}

}  // namespace bsde
