// Repeated timings (bsde bench and bsde study --repeats): the count's range and the median.
#pragma once
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "../algorithms/core/errors.h"

namespace bsde {

// --repeats R: R in 1..1000, else InputError naming the value.
inline void validate_repeats(int repeats) {
    if (repeats < 1 || repeats > 1000)
        throw InputError("--repeats " + std::to_string(repeats) + ": must be in 1..1000");
}

// The median of the values (the mean of the middle two for an even count); NaN for none.
inline double median_of(std::vector<double> values) {
    if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace bsde
