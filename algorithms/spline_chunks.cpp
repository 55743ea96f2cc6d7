#include "spline_chunks.h"

namespace bsde {

SplineThomasFactors spline_thomas_factors(int M, SplineBoundary boundary) {
    const TridiagonalBands A = spline_system(M, boundary);  // throws InputError for M < 4
    SplineThomasFactors factors{std::vector<double>(M + 1), std::vector<double>(M + 1), std::vector<double>(M + 1)};
    for (int i = 0; i <= M; ++i) {
        const double pivot = i == 0 ? A.diag[0] : A.diag[i] - A.lower[i] * factors.upper_prime[i - 1];
        factors.scaled_lower[i] = A.lower[i] / pivot;
        factors.inverse_pivot[i] = 1.0 / pivot;
        factors.upper_prime[i] = A.upper[i] / pivot;
    }
    return factors;
}

}  // namespace bsde
