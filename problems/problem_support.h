// Shared helpers for problem headers: host-only parameter handling.
#pragma once
#include <array>
#include <cmath>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../algorithms/core/affine_driver.h"
#include "../algorithms/core/errors.h"
#include "../algorithms/core/host_device.h"
#include "../algorithms/scheme/settings.h"

namespace bsde {

// A problem's parameter as the command line (--NAME VALUE) and config files (NAME = VALUE) take it: its name, what
// it is and its default. A problem declares its parameters in `static std::vector<ParameterInfo> parameters()`; the
// options, the help and `bsde problems` read them from the registry (problems/registry.cpp), the problem's
// constructor through parameter_value (or drift_value) and check_parameter_names below. A problem without parameters
// declares none.
struct ParameterInfo {
    const char* name;
    const char* description;
    double default_value;
    // A drift that only enters the driver's z term (the options' mu): its default is no number but the value of the
    // other parameters that makes that term 0, as the help prints it ("r - delta"); the constructor takes it by
    // drift_value, and a value given that leaves the term is warned of (drift_warning, registry.h).
    const char* removing_default = nullptr;
};
inline ParameterInfo drift_parameter(const char* name, const char* description, const char* removing_default) {
    return {name, description, 0.0, removing_default};
}

template <class Problem, class = void>
struct declares_parameters : std::false_type {};
template <class Problem>
struct declares_parameters<Problem, std::void_t<decltype(Problem::parameters())>> : std::true_type {};

// What the problem's parameters can do about its driver's z term, for the stability analysis's refusal where that
// term makes the scheme unstable (a problem's static `driver_z_advice`, e.g. the options': the drifts that remove it
// without changing the price); "" where it declares none.
template <class Problem, class = void>
struct declares_driver_z_advice : std::false_type {};
template <class Problem>
struct declares_driver_z_advice<Problem, std::void_t<decltype(Problem::driver_z_advice)>> : std::true_type {};
template <class Problem>
std::string driver_z_advice() {
    if constexpr (declares_driver_z_advice<Problem>::value)
        return Problem::driver_z_advice;
    else
        return "";
}

// The problem's declared parameters; none where it declares none.
template <class Problem>
std::vector<ParameterInfo> declared_parameters() {
    if constexpr (declares_parameters<Problem>::value)
        return Problem::parameters();
    else
        return {};
}

// Rejects parameters the problem does not declare, naming the ones it does, and values that are not finite.
template <class Problem>
void check_parameter_names(const ProblemParameters& given) {
    const std::vector<ParameterInfo> parameters = declared_parameters<Problem>();
    std::string declared;
    for (const ParameterInfo& parameter : parameters)
        declared += (declared.empty() ? "" : ", ") + std::string(parameter.name);
    for (const auto& entry : given) {
        bool found = false;
        for (const ParameterInfo& parameter : parameters) found = found || entry.first == parameter.name;
        if (!found)
            throw InputError("--" + entry.first + ": not a parameter of problem " + Problem::name +
                             (declared.empty() ? " (it takes none)" : " (its parameters: " + declared + ")"));
        if (!std::isfinite(entry.second))
            throw InputError("--" + entry.first + " " + format_number(entry.second) + ": must be a finite number");
    }
}

// The problem's declared parameter `name`; DefinitionError where it declares none.
template <class Problem>
ParameterInfo declared_parameter(const std::string& name) {
    for (const ParameterInfo& parameter : declared_parameters<Problem>())
        if (name == parameter.name) return parameter;
    throw DefinitionError("problem '" + std::string(Problem::name) + "' reads parameter '" + name +
                          "', which its parameters() does not declare");
}

// The problem's parameter `name`: its value as given, else its declared default.
template <class Problem>
double parameter_value(const ProblemParameters& given, const std::string& name) {
    const ParameterInfo parameter = declared_parameter<Problem>(name);
    if (parameter.removing_default)
        throw DefinitionError("problem '" + std::string(Problem::name) + "' reads drift '" + name +
                              "' by parameter_value; its default is a rule (" + parameter.removing_default +
                              "): read it by drift_value");
    const auto it = given.find(name);
    return it != given.end() ? it->second : parameter.default_value;
}

// The problem's drift `name` (a parameter declared by drift_parameter): its value as given, else `removing`, the
// value of its rule that the problem computes.
template <class Problem>
double drift_value(const ProblemParameters& given, const std::string& name, double removing) {
    if (!declared_parameter<Problem>(name).removing_default)
        throw DefinitionError("problem '" + std::string(Problem::name) + "' reads parameter '" + name +
                              "' by drift_value, but declares it with a default value, not by drift_parameter");
    const auto it = given.find(name);
    return it != given.end() ? it->second : removing;
}

// The driver's gradient in z, df/dz, for the stability analysis (stability.h): c of an affine driver (driver_at
// returning an AffineDriver, affine_driver.h), or what a problem whose driver is linear in z but not affine declares
// as `driver_z_gradient()` (a point: a double in 1D, a Vec2 in 2D); a problem with neither (ex2's z^2 e^(-t^2) / 2) is
// analysed without its driver's z term, as one whose driver does not read z (ex1). An affine driver's c may change
// with t: the analysis, of frozen coefficients, takes the c of largest |c| at the times t = T q / 64, q = 0..64
// (driver_z_gradient_samples), since the growth rises with |c| sqrt(dt) (docs/scheme.md, Stability).
template <class Problem, class = void>
struct declares_driver_z_gradient : std::false_type {};
template <class Problem>
struct declares_driver_z_gradient<Problem, std::void_t<decltype(std::declval<const Problem&>().driver_z_gradient())>>
    : std::true_type {};

constexpr int driver_z_gradient_samples = 64;

// The problem's df/dz per axis over [0, T] (SchemeSettings::driver_z_gradient); zero where it has none.
template <class Problem>
std::array<double, 3> driver_z_gradient(const Problem& problem, double T) {
    std::array<double, 3> gradient{0.0, 0.0, 0.0};
    const auto take = [&](const Point<Problem::dimension>& c) {
        for (int k = 0; k < Problem::dimension; ++k) gradient[k] = component(c, k);
    };
    if constexpr (declares_driver_z_gradient<Problem>::value) {
        take(problem.driver_z_gradient());
    } else if constexpr (has_affine_driver<Problem>::value) {
        double largest = -1.0;
        for (int q = 0; q <= driver_z_gradient_samples; ++q) {
            const auto c = problem.driver_at(T * q / driver_z_gradient_samples).c;
            double size = 0.0;
            for (int k = 0; k < Problem::dimension; ++k) size += component(c, k) * component(c, k);
            if (size > largest) {
                largest = size;
                take(c);
            }
        }
    }
    return gradient;
}

// The paper's domain and Gauss-Hermite points per dimension (its Examples 1-2 and 4-5): R = 16, L = 32 in 1D;
// R = 8, L = 8 per axis in 2D, where L^2 nodes a point cost what L does in 1D. The defaults of problems defined in any d.
template <int d>
struct PaperGrid {
    static constexpr double R = d == 1 ? 16.0 : 8.0;
    static constexpr int L = d == 1 ? 32 : 8;
};

// Prices, strikes and volatilities must be > 0.
inline void check_positive(std::initializer_list<std::pair<const char*, double>> parameters) {
    for (const auto& [name, value] : parameters)
        if (!(value > 0)) throw InputError(std::string("--") + name + " " + format_number(value) + ": must be > 0");
}

// Rates a year (interest, drift, dividend yield) must lie in [-1, 1]: beyond 100 % a year the price's discount
// e^(-r T) and the forward drift leave the range where the grid around S0 holds the solution.
inline void check_rates(std::initializer_list<std::pair<const char*, double>> rates) {
    for (const auto& [name, rate] : rates)
        if (!(rate >= -1.0 && rate <= 1.0))
            throw InputError(std::string("--") + name + " " + format_number(rate) +
                             ": must lie in [-1, 1] (a rate a year; 0.05 is 5 %)");
}

// Dividend yields a year must lie in [0, 1]: an asset pays out, at most 100 % a year (check_rates' bound).
inline void check_dividend_yields(std::initializer_list<std::pair<const char*, double>> yields) {
    for (const auto& [name, yield] : yields)
        if (!(yield >= 0.0 && yield <= 1.0))
            throw InputError(std::string("--") + name + " " + format_number(yield) +
                             ": must lie in [0, 1] (a dividend yield a year; 0.05 is 5 %)");
}

}  // namespace bsde
