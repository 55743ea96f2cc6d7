// Von Neumann stability of the fully discrete scheme (docs/scheme.md, "Stability"). The semidiscrete multistep scheme is
// stable for every K (the paper, after Teng et al.), but the scheme we run replaces each conditional expectation by
// the Gauss-Hermite rule applied to the interpolant of the stored layer. For a grid mode v_i = e^(i theta i) (theta
// in radians per grid step, |theta| <= pi; in 2D a mode per axis) the interpolant at w_i + delta is
// e^(i theta i) phi(theta, delta), with
//   phi = e^(i theta c) [v0 + v1 e^(i theta) + D(theta) (d0 + d1 e^(i theta))],  c = floor(delta / dx),
// (v0, v1, d0, d1) the cell's weights at t = delta / dx - c (cubic_spline.h, cubic_hermite.h) and D the factor that
// turns the values of the mode into its interpolation data:
//   spline moments (the periodic spline: m_{i-1} + 4 m_i + m_{i+1} = 6/dx^2 (v_{i-1} - 2 v_i + v_{i+1}))
//     D = 6/dx^2 (2 cos theta - 2) / (2 cos theta + 4),
//   fourth-order slopes (Hermite; per axis the paper's bicubic) D = i (8 sin theta - sin 2 theta) / (6 dx).
// The expectation of layer n+j then multiplies the mode by r_j = sum_l omega_l phi(theta, sqrt(2 j dt) a_l) (in 2D
// the product of the two axes' factors), where the exact expectation would damp it by e^(-theta^2 j dt / (2 dx^2)),
// i.e. to nothing for the grid's fine modes. With it q_j = sum_l omega_l phi(theta, dW_l) dW_l, dW_l = sqrt(2 j dt)
// a_l, is the mode's factor in E_j[. dW]. The linear part of the step (scheme.md, "One backward step"), with the
// driver's term c . z of a driver linear in z (c = df/dz, SchemeSettings::driver_z_gradient; E_j[(c . z) dW]
// multiplies the mode by c . u_j, u_j = q_j in 1D, (q_j(theta_1) r_j(theta_2), r_j(theta_1) q_j(theta_2)) in 2D), gives
//   z:  g1_0 zeta^Kz - ((1 - g1_1) r_1 + g1_1 c . u_1) zeta^(Kz-1) + sum_{j=2..Kz} g1_j (r_j - c . u_j) zeta^(Kz-j) = 0
//       (in 2D z is a vector whose equation is this scalar one times the identity less a rank-one term; by the
//       matrix determinant lemma its roots are those of the equation above and of the same without c),
//   y:  zeta^Ky = r_Ky,
// and the mode grows by |zeta| a step. Under the exact expectation (r_1 = e^(-x^2 / 2), q_1 = i k dt r_1, x = k
// sqrt(dt)) with K = 1 (g1 = 1/2, 1/2) the z root is e^(-x^2 / 2) (1 + i c k dt): |zeta|^2 = e^(-x^2) (1 + beta^2
// x^2), beta = |c| sqrt(dt), stable exactly when beta <= 1. So a large df/dz needs a small dt: ex5's c = -lambda,
// lambda = A^-1 (mu - r), grows without bound as |rho| -> 1. The driver's other terms (dt f, and E[f dW]'s part from
// df/dy: of order dt times f's derivatives) are left out, and so is the z term of a driver not linear in z (ex2's),
// so growth here means the scheme is unstable; no growth is necessary, not sufficient.
// Where the rule has too few nodes for the grid (L fixed while dx = dt shrinks with N), the roots of the z
// recursion for K >= 4 leave the unit circle: e.g. ex2 K = 6, L = 32 at N = 2048 grows by 1.08 a step (4.5e69 over
// the run); L = 48 is stable there.
#pragma once
#include <complex>
#include <string>
#include <vector>

#include "settings.h"

namespace bsde {

struct StabilityEstimate {
    double growth_per_step = 0;  // the largest |zeta| over the grid's modes
    double growth_over_run = 0;  // growth_per_step^N
    double theta[3] = {0, 0, 0};  // the mode where it is largest, radians per grid step along each axis
    bool z_recursion = true;     // whose root it is: the z recursion's (else the y recursion's)
    int dimension = 1;
};

// r_j and q_j, j = 1..K (at index j - 1): the factors by which the rule and the interpolation multiply the grid mode
// theta along one axis in the expectations of layer n+j, E_j[.] and E_j[. dW] (the header's formulas).
struct AxisFactors {
    std::vector<std::complex<double>> r, q;
};
AxisFactors axis_expectation_factors(const SchemeSettings& settings, double theta);

// The growth of the grid modes under the settings' scheme, grid, rule and interpolation (validate() first).
StabilityEstimate estimate_stability(const SchemeSettings& settings, int dimension);

// Above this growth over the run a solve is refused (validate(), unless settings.allow_unstable): rounding errors
// alone would be amplified to 1e-8 of the values. Above stability_warning_growth it is warned of.
constexpr double stability_error_growth = 1e8;
constexpr double stability_warning_growth = 1e3;

// The smallest L above settings.L whose growth over the run is at most stability_warning_growth, 0 if none up to
// the largest rule: 0 at once where the largest rule's growth is above it (more nodes resolve the grid's modes
// better, so a run that the largest does not make stable has no L; it spares a search of up to 126 estimates, slow
// in 2D at a large K).
int smallest_stable_L(const SchemeSettings& settings, int dimension);

// "grid modes of wavelength about 3.5 dx grow by 1.0814 a step, 4.3e+69 over the 2048 steps (the z recursion)"; for a
// bounded scheme "grid modes grow by at most 0.99949 a step".
std::string describe(const StabilityEstimate& estimate, const SchemeSettings& settings);

// An N above settings.N (to within 1.6 % of the smallest, by doubling and bisection; the growth need not fall
// monotonically with N) whose growth over the run is at most stability_warning_growth, 0 if none among the N whose
// grid and start-up the sweep can take (validate()).
int stable_N_above(const SchemeSettings& settings, int dimension);

// What keeps the grid modes' growth under stability_warning_growth: "--L 48 (the smallest above it) keeps their
// growth under 1e3, as may a lower --K or --N (docs/scheme.md, Stability)"; where the driver's z term alone makes the growth
// (the scheme without it grows by at most 1e3), a larger N: "the driver's z term makes it so (df/dz = ..., |df/dz|
// sqrt(dt) = 1.86); --N 50 keeps their growth under 1e3, as may the problem's parameters with a smaller |df/dz|".
std::string stability_remedy(const SchemeSettings& settings, int dimension);

// A warning for a run whose growth is above stability_warning_growth (empty otherwise); the second form makes the
// estimate itself.
std::string stability_warning(const StabilityEstimate& estimate, const SchemeSettings& settings, int dimension);
std::string stability_warning(const SchemeSettings& settings, int dimension);

}  // namespace bsde
