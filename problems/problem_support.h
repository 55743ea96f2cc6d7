// Shared helpers for problem headers: host-only parameter handling.
#pragma once
#include <initializer_list>
#include <string>

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

}  // namespace bsde
