#include "solver.h"

#include <algorithm>
#include <cmath>

#include "errors.h"
#include "gauss_hermite.h"

namespace bsde {

std::string to_string(Startup startup) { return startup == Startup::exact ? "exact" : "multistep"; }

std::string to_string(Interpolation2D interpolation) {
    return interpolation == Interpolation2D::bicubic ? "bicubic" : "spline";
}

Interpolation2D parse_interpolation(const std::string& name) {
    if (name == "spline") return Interpolation2D::spline;
    if (name == "bicubic") return Interpolation2D::bicubic;
    throw InputError("--interp '" + name + "': allowed values are spline, bicubic");
}

Startup parse_startup(const std::string& name) {
    if (name == "multistep") return Startup::multistep;
    if (name == "exact") return Startup::exact;
    throw InputError("--startup '" + name + "': allowed values are multistep, exact");
}

std::string to_string(Smoothing smoothing) {
    switch (smoothing) {
        case Smoothing::none: return "none";
        case Smoothing::kreiss2: return "kreiss2";
        case Smoothing::kreiss4: return "kreiss4";
    }
    return "?";
}

Smoothing parse_smoothing(const std::string& name) {
    for (Smoothing s : {Smoothing::none, Smoothing::kreiss2, Smoothing::kreiss4})
        if (name == to_string(s)) return s;
    throw InputError("--smoothing '" + name + "': allowed values are kreiss4, kreiss2, none");
}

namespace {
void require(bool ok, const std::string& message) {
    if (!ok) throw InputError(message);
}
}  // namespace

void validate(const SchemeSettings& s) {
    require(s.Ky >= 1, "--Ky " + std::to_string(s.Ky) + ": must be >= 1");
    require(s.Kz >= 1, "--Kz " + std::to_string(s.Kz) + ": must be >= 1");
    require(s.N >= s.K() + 1, "--N " + std::to_string(s.N) + ": must be >= K + 1 = " + std::to_string(s.K() + 1));
    require(std::isfinite(s.T) && s.T > 0, "--T " + std::to_string(s.T) + ": must be > 0");
    require(std::isfinite(s.R) && s.R > 0, "--R " + std::to_string(s.R) + ": must be > 0");
    require(s.L >= 2 && s.L <= gauss_hermite_max_points,
            "--L " + std::to_string(s.L) + ": must be in [2, " + std::to_string(gauss_hermite_max_points) + "]");
    require(s.picard_iterations >= 1, "--picard " + std::to_string(s.picard_iterations) + ": must be >= 1");
    require(std::isfinite(s.picard_tolerance) && s.picard_tolerance >= 0,
            "--picard-tol: must be >= 0");
    require(s.grid_order >= 0 && s.grid_order <= 8, "--grid-order " + std::to_string(s.grid_order) +
                                                        ": must be in [0, 8] (0 = the paper's rule)");
    require(s.startup_substeps >= 0, "--startup-substeps: must be >= 0 (0 = automatic)");
}

double SolveResult::z0_error() const {
    double largest = 0;
    for (std::size_t k = 0; k < z0.size() && k < z0_exact.size(); ++k)
        largest = std::max(largest, std::fabs(z0[k] - z0_exact[k]));
    return largest;
}

}  // namespace bsde
