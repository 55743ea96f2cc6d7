// Shared helpers for problem headers: host-only parameter handling.
#pragma once
#include <initializer_list>
#include <string>
#include <utility>

#include "../algorithms/errors.h"
#include "../algorithms/host_device.h"
#include "../algorithms/solver.h"

namespace bsde {

// Rejects parameters the problem does not know, naming the allowed ones.
inline void check_parameter_names(const ProblemParameters& given, const std::string& problem,
                                  std::initializer_list<const char*> known) {
    for (const auto& entry : given) {
        bool found = false;
        std::string allowed;
        for (const char* name : known) {
            found = found || entry.first == name;
            allowed += (allowed.empty() ? "" : ", ") + std::string(name);
        }
        if (!found)
            throw InputError("--" + entry.first + ": not a parameter of problem " + problem +
                             (allowed.empty() ? " (it takes none)" : " (its parameters: " + allowed + ")"));
    }
}

// A parameter's value, or its default when not given.
inline double parameter_or(const ProblemParameters& given, const char* name, double fallback) {
    const auto it = given.find(name);
    return it == given.end() ? fallback : it->second;
}

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

}  // namespace bsde
