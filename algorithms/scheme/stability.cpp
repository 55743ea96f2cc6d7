#include "stability.h"

#include <algorithm>
#include <climits>
#include <array>
#include <cmath>
#include <complex>
#include <vector>

#include "../interpolation/interpolation.h"
#include "../core/errors.h"
#include "../quadrature/gauss_hermite.h"
#include "grid.h"
#include "../quadrature/grid_nodes.h"
#include "multistep_weights.h"

namespace bsde {
namespace {

using Complex = std::complex<double>;

// The interpolation's cell along an axis (interpolation.h, the family's AxisCell): its weights at t in a cell and its
// symbol on a grid mode.
struct AxisCellForms {
    CellWeights (*weights)(double t, double dx);
    Complex (*mode_data_factor)(double theta, double dx);
};
AxisCellForms axis_cell_forms(InterpolationKind kind, int dimension) {
    const auto forms = [](auto family) {
        using Cell = typename decltype(family)::AxisCell;
        return AxisCellForms{&Cell::weights, &Cell::mode_data_factor};
    };
    return dimension == 1   ? with_interpolation_family<1>(kind, forms)
           : dimension == 2 ? with_interpolation_family<2>(kind, forms)
                            : with_interpolation_family<3>(kind, forms);
}

constexpr double pi = 3.14159265358979323846;

// Modes sampled: theta = pi k / modes_1d, k = 1..modes_1d (1D); pi k / modes_d per axis, k = 0..modes_d along
// axis 1 and -modes_d..modes_d along the others (2D, 3D; 17 x 33^2 modes in 3D, each refined below).
constexpr int modes_1d = 1024;
constexpr int modes_2d = 64;
constexpr int modes_3d = 16;

// The largest |root| of the polynomial with these coefficients (highest power first, the first nonzero), by the
// Durand-Kerner iteration on its monic form.
double largest_root_modulus(const std::vector<Complex>& coefficients) {
    const int degree = static_cast<int>(coefficients.size()) - 1;
    if (degree < 1) return 0.0;
    std::vector<Complex> monic(coefficients.size());
    for (std::size_t k = 0; k < coefficients.size(); ++k) monic[k] = coefficients[k] / coefficients[0];
    double bound = 0.0;  // Cauchy's bound on the roots' moduli
    for (int k = 1; k <= degree; ++k) bound = std::max(bound, std::abs(monic[k]));
    bound += 1.0;
    std::vector<Complex> roots(degree);
    const Complex seed(0.4, 0.9);
    for (int k = 0; k < degree; ++k) roots[k] = bound * std::pow(seed, k);
    const auto value = [&](Complex x) {
        Complex p = 1.0;
        for (int k = 1; k <= degree; ++k) p = p * x + monic[k];
        return p;
    };
    for (int iteration = 0; iteration < 1000; ++iteration) {
        double change = 0.0;
        for (int k = 0; k < degree; ++k) {
            Complex denominator = 1.0;
            for (int m = 0; m < degree; ++m)
                if (m != k) denominator *= roots[k] - roots[m];
            const Complex step = value(roots[k]) / denominator;
            roots[k] -= step;
            change = std::max(change, std::abs(step) / std::max(1.0, std::abs(roots[k])));
        }
        if (change <= 1e-14) break;
    }
    double largest = 0.0;
    for (const Complex& r : roots) largest = std::max(largest, std::abs(r));
    return largest;
}

// The scheme's linear part for one grid (the header's formulas).
class ModeAnalysis {
public:
    ModeAnalysis(const SchemeSettings& s, int dimension)
        : Ky_(s.Ky), Kz_(s.Kz), K_(s.K()), dimension_(dimension), N_(s.N), dt_(s.T / s.N),
          dx_(SpaceGrid{space_intervals(s.Ky, s.Kz, s.N, s.T, s.R, s.grid_order), s.R}.dx()),
          cell_(axis_cell_forms(s.interpolation, dimension)), gamma_z_(gamma_z_weights(s.Kz)), driver_z_gradient_(s.driver_z_gradient) {
        const GaussHermiteRule rule = gauss_hermite(s.L);
        nodes_ = rule.nodes;
        for (double w : rule.weights) weights_.push_back(w / std::sqrt(pi));
    }

    // A scan of the modes theta = pi k / modes along each axis (theta_1 in [0, pi], the others in [-pi, pi]: a mode
    // and its conjugate grow alike), then the best one refined twice on a grid of spacing a quarter of the last around
    // it.
    StabilityEstimate estimate() const {
        StabilityEstimate worst;
        worst.growth_per_step = -1.0;
        worst.dimension = dimension_;
        // r_j of the mode, the product of its axes' r_j, and c . u_j: the driver's z term, c = df/dz,
        // u_j = E_j[mode dW], whose component k takes q_j along axis k and r_j along the others
        const auto consider = [&](const double theta[3], const AxisFactors* const axes[3]) {
            std::vector<Complex> r(K_), driver(K_);
            for (int j = 0; j < K_; ++j) {
                Complex product = 1.0, drive = 0.0;
                for (int k = 0; k < dimension_; ++k) {
                    drive = drive * axes[k]->r[j] + driver_z_gradient_[k] * product * axes[k]->q[j];
                    product *= axes[k]->r[j];
                }
                r[j] = product;
                driver[j] = drive;
            }
            bool z = true;
            const double growth = growth_of(r, driver, z);
            if (growth > worst.growth_per_step) {
                worst.growth_per_step = growth;
                for (int k = 0; k < 3; ++k) worst.theta[k] = theta[k];
                worst.z_recursion = z;
            }
        };
        // every mode of the box theta_1 in first[0]..last[0], ... (steps of `spacing` about `centre`), within
        // [0, pi] x [-pi, pi]^(d-1) and not the constant mode
        const auto scan = [&](const double centre[3], double spacing, const int first[3], const int last[3],
                              const auto& factors) {
            int k[3] = {first[0], first[1], first[2]};
            while (k[0] <= last[0]) {
                double theta[3] = {0, 0, 0};
                bool inside = true, constant = true;
                const AxisFactors* axes[3] = {nullptr, nullptr, nullptr};
                for (int a = 0; a < dimension_; ++a) {
                    theta[a] = centre[a] + k[a] * spacing;
                    inside = inside && theta[a] >= (a == 0 ? 0.0 : -pi) && theta[a] <= pi;
                    constant = constant && theta[a] == 0;
                }
                if (inside && !constant) {
                    for (int a = 0; a < dimension_; ++a) axes[a] = &factors(a, k[a], theta[a]);
                    consider(theta, axes);
                }
                int a = dimension_ - 1;  // the next index tuple, the last axis fastest
                while (a > 0 && k[a] == last[a]) {
                    k[a] = first[a];
                    --a;
                }
                ++k[a];
            }
        };
        const int modes = dimension_ == 1 ? modes_1d : dimension_ == 2 ? modes_2d : modes_3d;
        std::vector<AxisFactors> axis(2 * modes + 1);  // along one axis at theta = pi k / modes, at index k + modes
        for (int k = dimension_ == 1 ? 0 : -modes; k <= modes; ++k) axis[k + modes] = layer_factors(pi * k / modes);
        const double origin[3] = {0, 0, 0};
        const int low[3] = {0, -modes, -modes}, high[3] = {modes, modes, modes};
        scan(origin, pi / modes, low, high, [&](int, int k, double) -> const AxisFactors& { return axis[k + modes]; });
        double spacing = pi / modes;
        for (int round = 0; round < 2; ++round) {
            const double centre[3] = {worst.theta[0], worst.theta[1], worst.theta[2]};
            spacing /= 4;
            const int near_low[3] = {-4, -4, -4}, near_high[3] = {4, 4, 4};
            std::vector<AxisFactors> near(3 * 9);  // axis a's factors at offset k at index 9 a + k + 4
            scan(centre, spacing, near_low, near_high, [&](int a, int k, double theta) -> const AxisFactors& {
                AxisFactors& f = near[9 * a + k + 4];
                if (f.r.empty()) f = layer_factors(theta);
                return f;
            });
        }
        worst.growth_over_run = std::pow(worst.growth_per_step, N_);
        return worst;
    }

    // r_j and q_j, j = 1..K (at index j - 1): the rule's expectation of layer n+j applied to the mode along one axis,
    // without and with the factor dW.
    AxisFactors layer_factors(double theta) const {
        const Complex next = std::polar(1.0, theta);  // e^(i theta)
        const Complex data = cell_.mode_data_factor(theta, dx_);
        AxisFactors factors{std::vector<Complex>(K_), std::vector<Complex>(K_)};
        for (int j = 1; j <= K_; ++j) {
            const double shift = std::sqrt(2.0 * j * dt_);
            Complex sum = 0.0, sum_dW = 0.0;
            for (std::size_t l = 0; l < nodes_.size(); ++l) {
                const double dW = shift * nodes_[l];
                const CellShift cell = cell_shift(dW, dx_);
                const CellWeights w = cell_.weights(cell.t, dx_);
                const Complex term = weights_[l] * std::polar(1.0, theta * cell.cells) *
                                     (w.v0 + w.v1 * next + data * (w.d0 + w.d1 * next));
                sum += term;
                sum_dW += term * dW;
            }
            factors.r[j - 1] = sum;
            factors.q[j - 1] = sum_dW;
        }
        return factors;
    }

private:
    int Ky_, Kz_, K_, dimension_, N_;
    double dt_, dx_;
    AxisCellForms cell_;
    std::vector<double> gamma_z_, nodes_, weights_;
    std::array<double, 3> driver_z_gradient_;

    // The largest growth factor a step of a mode whose layers' factors are r, and the driver's z terms c . u_j: the
    // z recursion's largest root (in 2D and 3D also that of its part without the driver's term, the z components across c)
    // or |r_Ky|^(1/Ky) (the y recursion's roots all have that modulus); z says whose.
    double growth_of(const std::vector<Complex>& r, const std::vector<Complex>& driver, bool& z) const {
        const auto z_root = [&](const std::vector<Complex>& driver_terms) {
            std::vector<Complex> polynomial(Kz_ + 1);
            polynomial[0] = gamma_z_[0];
            polynomial[1] = -(1.0 - gamma_z_[1]) * r[0] - gamma_z_[1] * driver_terms[0];
            for (int j = 2; j <= Kz_; ++j) polynomial[j] = gamma_z_[j] * (r[j - 1] - driver_terms[j - 1]);
            return largest_root_modulus(polynomial);
        };
        const bool has_driver_term = std::any_of(driver.begin(), driver.end(), [](Complex c) { return c != 0.0; });
        double z_growth = z_root(driver);
        if (std::isnan(z_growth)) z_growth = INFINITY;  // a driver term too large for the roots: unbounded growth
        if (dimension_ > 1 && has_driver_term) z_growth = std::max(z_growth, z_root(std::vector<Complex>(K_)));
        const double y_growth = std::pow(std::abs(r[Ky_ - 1]), 1.0 / Ky_);
        z = z_growth >= y_growth;
        return std::max(z_growth, y_growth);
    }
};

// "about 3.5 dx" for a mode theta along an axis (its wavelength 2 pi / theta grid steps), "infinite (flat)" for
// theta = 0, and "over the grid's M dx" where the wavelength exceeds the grid's M cells (the search's refinement can
// land on a theta just above 0: 2048 dx on a grid of 128 cells said nothing a reader could use).
std::string wavelength(double theta, int M) {
    if (theta == 0) return "infinite (flat)";
    const double cells = 2.0 * pi / std::abs(theta);
    return cells > M ? "over the grid's " + std::to_string(M) + " dx" : "about " + format_number(cells, "%.1f dx");
}

std::string orders(const SchemeSettings& s) {
    return s.Ky == s.Kz ? "--K " + std::to_string(s.Ky)
                        : "--Ky " + std::to_string(s.Ky) + ", --Kz " + std::to_string(s.Kz);
}

}  // namespace

AxisFactors axis_expectation_factors(const SchemeSettings& settings, double theta) {
    return ModeAnalysis(settings, 1).layer_factors(theta);
}

StabilityEstimate estimate_stability(const SchemeSettings& settings, int dimension) {
    return ModeAnalysis(settings, dimension).estimate();
}

int smallest_stable_L(const SchemeSettings& settings, int dimension) {
    SchemeSettings s = settings;
    const auto stable = [&](int L) {
        s.L = L;
        return estimate_stability(s, dimension).growth_over_run <= stability_warning_growth;
    };
    if (settings.L >= gauss_hermite_max_points || !stable(gauss_hermite_max_points)) return 0;
    for (int L = settings.L + 1; L < gauss_hermite_max_points; ++L)
        if (stable(L)) return L;
    return gauss_hermite_max_points;
}

std::string describe(const StabilityEstimate& e, const SchemeSettings& settings) {
    if (e.growth_per_step <= 1.0) return "grid modes grow by at most " + format_number(e.growth_per_step, "%.5f") + " a step";
    const int M = space_intervals(settings.Ky, settings.Kz, settings.N, settings.T, settings.R, settings.grid_order);
    std::string modes;
    for (int k = 0; k < e.dimension; ++k) modes += (k > 0 ? ", " : "") + wavelength(e.theta[k], M);
    if (e.dimension > 1) modes = "(" + modes + ")";
    return std::string("grid modes of wavelength") + (e.dimension > 1 ? "s " : " ") + modes + " grow by " +
           format_large(e.growth_per_step, "%.4f") + " a step, " + format_large(e.growth_over_run, "%.1e") +
           " over the " + std::to_string(settings.N) + " steps (the " + (e.z_recursion ? "z" : "y") + " recursion)";
}

int stable_N_above(const SchemeSettings& settings, int dimension) {
    const auto with_N = [&](long long N) {
        SchemeSettings s = settings;
        s.N = static_cast<int>(N);
        s.allow_unstable = true;  // validate() then checks the grid alone
        return s;
    };
    const auto sweep_takes = [&](long long N) {
        try {
            validate(with_N(N), dimension);
            return true;
        } catch (const InputError&) {  // a grid or a start-up too large for the sweep's indices
            return false;
        }
    };
    const auto stable = [&](long long N) {
        return estimate_stability(with_N(N), dimension).growth_over_run <= stability_warning_growth;
    };
    long long unstable = settings.N, found = 0;
    for (long long N = 2LL * settings.N; N <= INT_MAX && sweep_takes(N); N *= 2)
        if (stable(N)) {
            found = N;
            break;
        } else {
            unstable = N;
        }
    if (found == 0) return 0;
    while (found - unstable > std::max(1LL, found / 64)) {  // to within 1.6 %
        const long long middle = (unstable + found) / 2;
        (stable(middle) ? found : unstable) = middle;
    }
    return static_cast<int>(found);
}

std::string stability_remedy(const SchemeSettings& settings, int dimension) {
    const std::array<double, 3>& c = settings.driver_z_gradient;
    const bool driver_term = c[0] != 0 || c[1] != 0 || c[2] != 0;
    const double dt = settings.T / settings.N;
    // "df/dz = (-0.2, 74.54), |df/dz| sqrt(dt) = 9.32"
    const std::string driver_z = "df/dz = " + format_components(c, dimension, "%.4g") + ", |df/dz| sqrt(dt) = " +
                                 format_number(std::hypot(c[0], c[1], c[2]) * std::sqrt(dt), "%.3g");
    const std::string advice = settings.driver_z_advice.empty() ? "" : "; " + settings.driver_z_advice;
    SchemeSettings without_driver = settings;
    without_driver.driver_z_gradient = {0.0, 0.0, 0.0};
    if (driver_term && estimate_stability(without_driver, dimension).growth_over_run <= stability_warning_growth) {
        const int N = stable_N_above(settings, dimension);
        return "the driver's z term makes it so (" + driver_z + "); " +
               (N > 0 ? "--N " + std::to_string(N) + " keeps their growth under 1e3, as may"
                      : "no --N whose grid the sweep can take keeps their growth under 1e3, but may") +
               " the problem's parameters with a smaller |df/dz|" + advice + " (docs/scheme.md, Stability)";
    }
    const int L = smallest_stable_L(settings, dimension);
    return (L > 0 ? "--L " + std::to_string(L) +
                        " (the smallest above it) keeps their growth under 1e3, as may a lower --K or --N"
                  : "a lower --K or --N may keep their growth under 1e3") +
           (driver_term ? "; the driver's z term adds to it (" + driver_z + ")" + advice : std::string()) +
           " (docs/scheme.md, Stability)";
}

std::string stability_warning(const StabilityEstimate& e, const SchemeSettings& settings, int dimension) {
    if (e.growth_over_run <= stability_warning_growth) return "";
    return orders(settings) + ", --N " + std::to_string(settings.N) + ", --L " + std::to_string(settings.L) +
           ": the scheme is unstable on this grid: " + describe(e, settings) + "; " +
           stability_remedy(settings, dimension);
}

std::string stability_warning(const SchemeSettings& settings, int dimension) {
    return stability_warning(estimate_stability(settings, dimension), settings, dimension);
}

}  // namespace bsde
