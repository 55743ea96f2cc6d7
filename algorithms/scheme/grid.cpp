#include "grid.h"

#include <algorithm>
#include <cmath>

namespace bsde {

int matched_order(int Ky, int Kz) { return std::min({Ky + 1, Kz, 3}); }

int space_intervals(int Ky, int Kz, int N, double T, double R, int order) {
    const double dt = T / N;
    const double dx0 = std::pow(dt, ((order > 0 ? order : matched_order(Ky, Kz)) + 1) / 4.0);
    const double ratio = R / dx0;
    const double nearest = std::round(ratio);
    const double cells = std::fabs(ratio - nearest) <= 1e-9 * ratio ? nearest : std::ceil(ratio);
    return 2 * static_cast<int>(cells);
}

}  // namespace bsde
