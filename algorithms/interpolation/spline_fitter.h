// Moments of several splines on one uniform grid, on any backend, by one of (SplineSolve):
//   tridiagonal:  one batched tridiagonal solve (Thomas on the host, cuSPARSE gtsv2_nopivot on cuda), then
//                 the not-a-knot ends;
//   inverse_band: one pass m = Q r over points x columns with the band of Q = (ends) A^{-1}
//                 (spline_inverse_band.h), no solve: on the GPU the solve is latency bound while the band
//                 pass is a plain streaming kernel. Equal to rounding.
// automatic: inverse_band when Context::runs_on_gpu, else tridiagonal (O(M) and cheapest on a CPU).
#pragma once
#include <algorithm>

#include <thrust/copy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "cubic_spline.h"
#include "../core/raw_pointer.h"
#include "spline_inverse_band.h"

namespace bsde {

template <class Context>
class SplineFitter {
public:
    SplineFitter(Context& context, int M, SplineBoundary boundary, double dx, SplineSolve solve)
        : context_(context), M_(M), boundary_(boundary), dx_(dx),
          solve_(resolve_spline_solve(solve, Context::runs_on_gpu)) {
        if (solve_ == SplineSolve::inverse_band) {  // the tables, built once on the host
            const SplineInverseBand band = spline_inverse_band(M, boundary);
            W_ = band.W;
            E_ = band.E;
            left_.assign(band.left.begin(), band.left.end());
            right_.assign(band.right.begin(), band.right.end());
            std::copy(band.kernel.begin(), band.kernel.end(), kernel_.q);  // 2W + 1 entries, unused where M < 2E
        } else {
            const TridiagonalBands bands = spline_system(M, boundary);
            lower_.assign(bands.lower.begin(), bands.lower.end());
            diag_.assign(bands.diag.begin(), bands.diag.end());
            upper_.assign(bands.upper.begin(), bands.upper.end());
        }
    }

    // values: `columns` columns of M+1 values; moments: as many columns, overwritten (not overlapping values).
    void fit(const double* values, double* moments, int columns) {
        const int points = M_ + 1;
        if (solve_ == SplineSolve::inverse_band) {
            context_.template for_each_group<inverse_band_lanes, inverse_band_blocks_per_sm>(
                points * columns, SplineMomentsByInverseBand{values, moments, raw(left_), raw(right_), kernel_,
                                                             1.0 / (dx_ * dx_), M_, W_, E_});
            return;
        }
        auto rhs = thrust::make_transform_iterator(thrust::counting_iterator<int>(0),
                                                   SplineRightHandSide{values, 1.0 / (dx_ * dx_), M_});
        thrust::copy(context_.policy(), rhs, rhs + points * columns, moments);
        context_.solve_tridiagonal(raw(lower_), raw(diag_), raw(upper_), moments, points, columns);
        if (boundary_ == SplineBoundary::not_a_knot)
            thrust::for_each(context_.policy(), thrust::counting_iterator<int>(0),
                             thrust::counting_iterator<int>(columns), NotAKnotEnds{moments, M_});
    }

    // The bands (3 (M+1) doubles) or the inverse-band's edge rows (2E (2W + 1) doubles; its kernel goes with each
    // launch).
    double storage_bytes() const {
        return sizeof(double) *
               static_cast<double>(lower_.size() + diag_.size() + upper_.size() + left_.size() + right_.size());
    }

private:
    // Lanes per moment on cuda, at most (spline_inverse_band.h; the context takes the most whose threads fit in
    // one wave): a 1D fit's 2 (M+1) moments are too few threads to hide the latency of their 2W+1 terms alone
    // (docs/performance.md, "The spline moments by the inverse band").
    static constexpr int inverse_band_lanes = 8;
    // Blocks of the fit on an SM of a GPU (registers capped at 64; it takes 56), its lanes then fitting in one wave
    // rather than the fewest lanes that fill a wave at 3 blocks (docs/performance.md, "Registers and warps per SM").
    static constexpr int inverse_band_blocks_per_sm = 4;

    Context& context_;
    int M_;
    SplineBoundary boundary_;
    double dx_;
    SplineSolve solve_;
    int W_ = 0, E_ = 0;
    typename Context::template vector<double> lower_, diag_, upper_;  // tridiagonal: the matrix, M+1 each
    typename Context::template vector<double> left_, right_;  // inverse_band: the edge rows
    SplineMomentsByInverseBand::Kernel kernel_{};              // and the kernel (in each launch's parameters)
};

}  // namespace bsde
