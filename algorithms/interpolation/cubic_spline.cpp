#include "cubic_spline.h"

#include "../core/errors.h"

namespace bsde {

std::string to_string(SplineBoundary boundary) {
    return boundary == SplineBoundary::natural ? "natural" : "not-a-knot";
}

SplineBoundary parse_spline_boundary(const std::string& name) {
    if (name == "natural") return SplineBoundary::natural;
    if (name == "not-a-knot") return SplineBoundary::not_a_knot;
    throw InputError("--spline " + quoted(name) + ": allowed values are natural, not-a-knot");
}

std::string to_string(SplineSolve solve) {
    switch (solve) {
        case SplineSolve::automatic: return "auto";
        case SplineSolve::tridiagonal: return "tridiagonal";
        case SplineSolve::inverse_band: return "inverse-band";
    }
    return "?";
}

SplineSolve parse_spline_solve(const std::string& name) {
    for (SplineSolve s : {SplineSolve::automatic, SplineSolve::tridiagonal, SplineSolve::inverse_band})
        if (name == to_string(s)) return s;
    throw InputError("--spline-solve " + quoted(name) + ": allowed values are auto, tridiagonal, inverse-band");
}

TridiagonalBands spline_system(int M, SplineBoundary boundary) {
    if (M < 4) throw InputError("spline grid of " + std::to_string(M) + " intervals: at least 4 are needed");
    TridiagonalBands bands{std::vector<double>(M + 1, 1.0), std::vector<double>(M + 1, 4.0),
                           std::vector<double>(M + 1, 1.0)};
    bands.lower[0] = bands.upper[0] = 0.0;  // row 0: m_0 = 0 (natural) or a placeholder (not-a-knot)
    bands.lower[M] = bands.upper[M] = 0.0;
    bands.diag[0] = bands.diag[M] = 1.0;
    if (boundary == SplineBoundary::not_a_knot) {
        for (int row : {1, M - 1}) {
            bands.lower[row] = bands.upper[row] = 0.0;
            bands.diag[row] = 6.0;
        }
    }
    return bands;
}

}  // namespace bsde
