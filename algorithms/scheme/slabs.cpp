#include "slabs.h"

#include <algorithm>
#include <cmath>

#include "../core/errors.h"
#include "../interpolation/spline_inverse_band.h"
#include "../quadrature/gauss_hermite.h"
#include "expectation_rules.h"
#include "grid.h"

namespace bsde {

SlabRows slab_rows(int M, int slabs, int slab, int halo) {
    const int rows = M + 1, base = rows / slabs, extra = rows % slabs;
    const int owned_first = slab * base + std::min(slab, extra);
    const int owned_last = owned_first + base + (slab < extra ? 1 : 0) - 1;
    return {std::max(0, owned_first - halo), std::min(M, owned_last + halo), owned_first, owned_last};
}

int slab_halo(const SchemeSettings& s, int N, int dimension, bool kinked) {
    const int M = space_intervals(s.Ky, s.Kz, N, s.T, s.R, s.grid_order);
    const double dx = 2 * s.R / M, sd = std::sqrt(s.K() * (s.T / N));
    const auto largest_node = [](int L) { return gauss_hermite(L).nodes.back(); };
    double reach = std::sqrt(2.0) * largest_node(s.L);  // in standard deviations
    if (kinked) {
        const int young = std::min(2 * s.L, gauss_hermite_max_points);
        reach = std::max({reach, std::sqrt(2.0) * largest_node(young),
                          KinkFlatExpectation<2>::reach + (dimension - 1) * std::sqrt(2.0) * largest_node(s.L)});
    }
    const double cells = std::ceil(reach * sd / dx) + 3 + spline_inverse_band_width;
    return static_cast<int>(std::min<double>(cells, M));
}

std::string why_not_split(const SchemeSettings& s, int dimension, bool has_obstacle, int members) {
    if (dimension == 1) return "a 1D problem runs on one GPU (the grid is split in 2D and 3D)";
    if (s.interpolation != InterpolationKind::spline) return "the grid is split with --interp spline (the tensor spline) alone";
    if (has_obstacle) return "a problem with an obstacle runs on one GPU";
    if (members > 1) return "a batch (a price surface) runs on one GPU";
    if (s.startup_refine > 1) return "the start-up on a finer grid (--startup-refine) runs on one GPU";
    return "";
}

void check_slabs(const SchemeSettings& s, int dimension, bool has_obstacle, int members) {
    if (s.gpus == 1) return;
    const std::string gpus = "--gpus " + std::to_string(s.gpus) + ": ";
    if (const std::string why = why_not_split(s, dimension, has_obstacle, members); !why.empty())
        throw InputError(gpus + why);
    const int M = space_intervals(s.Ky, s.Kz, s.N, s.T, s.R, s.grid_order);
    if (s.gpus > M + 1)
        throw InputError(gpus + "more GPUs than the grid's " + std::to_string(M + 1) + " rows; lower --gpus");
}

void SlabResults::take(int slab, SolveResult result, const SlabRows& rows, bool owns_centre) {
    results_[slab] = std::move(result);
    rows_[slab] = rows;
    if (owns_centre) centre_owner_ = slab;
}

SolveResult SlabResults::combined(int dimension) const {
    if (centre_owner_ < 0) throw DefinitionError("no slab of the split grid owns w = 0");
    const SolveResult& owner = results_[centre_owner_];
    SolveResult all = owner;
    const std::size_t row_points = static_cast<std::size_t>(std::pow(owner.M + 1.0, dimension - 1));
    const std::size_t points = row_points * (owner.M + 1);
    const auto assemble = [&](std::vector<double> SolveResult::*field, int components) {
        if ((owner.*field).empty()) return;
        std::vector<double> whole(components * points);
        for (std::size_t g = 0; g < results_.size(); ++g) {
            const std::vector<double>& slab = results_[g].*field;
            const SlabRows& rows = rows_[g];
            const std::size_t held = rows.count() * row_points, owned = rows.owned_count() * row_points;
            for (int c = 0; c < components; ++c) {
                const auto from = slab.begin() + c * held + (rows.owned_first - rows.first) * row_points;
                std::copy(from, from + owned, whole.begin() + c * points + rows.owned_first * row_points);
            }
        }
        all.*field = std::move(whole);
    };
    assemble(&SolveResult::w, dimension);
    assemble(&SolveResult::y, 1);
    assemble(&SolveResult::z, dimension);
    assemble(&SolveResult::state, dimension);
    assemble(&SolveResult::gradient, dimension);
    assemble(&SolveResult::gradient_exact, dimension);
    assemble(&SolveResult::y_exact, 1);
    assemble(&SolveResult::z_exact, dimension);
    all.storage_bytes = 0;
    all.device_bytes_measured = 0;
    for (const SolveResult& slab : results_) {
        all.max_y_error_inner = std::max(all.max_y_error_inner, slab.max_y_error_inner);
        all.max_z_error_inner = std::max(all.max_z_error_inner, slab.max_z_error_inner);
        all.picard_most_iterations = std::max(all.picard_most_iterations, slab.picard_most_iterations);
        all.picard_largest_change = std::max(all.picard_largest_change, slab.picard_largest_change);
        if (slab.picard_unconverged_steps > all.picard_unconverged_steps) {
            all.picard_unconverged_steps = slab.picard_unconverged_steps;
            all.picard_warning = slab.picard_warning;
        }
        if (slab.sweep_seconds > all.sweep_seconds) {
            all.sweep_seconds = slab.sweep_seconds;
            all.phase_seconds = slab.phase_seconds;
        }
        all.storage_bytes += slab.storage_bytes;
        all.device_bytes_measured = slab.device_bytes_measured < 0 || all.device_bytes_measured < 0
                                        ? -1.0
                                        : all.device_bytes_measured + slab.device_bytes_measured;
    }
    return all;
}

}  // namespace bsde
