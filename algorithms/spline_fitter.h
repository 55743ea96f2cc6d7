// Moments of several splines on one uniform grid from one batched tridiagonal solve, on any backend.
#pragma once
#include <thrust/copy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "backend.h"
#include "cubic_spline.h"

namespace bsde {

template <class Context>
class SplineFitter {
public:
    SplineFitter(Context& context, int M, SplineBoundary boundary, double dx)
        : context_(context), M_(M), boundary_(boundary), dx_(dx) {
        const TridiagonalBands bands = spline_system(M, boundary);
        lower_.assign(bands.lower.begin(), bands.lower.end());
        diag_.assign(bands.diag.begin(), bands.diag.end());
        upper_.assign(bands.upper.begin(), bands.upper.end());
    }

    // values: `columns` columns of M+1 values; moments: as many columns, overwritten.
    void fit(const double* values, double* moments, int columns) {
        const int points = M_ + 1;
        auto rhs = thrust::make_transform_iterator(thrust::counting_iterator<int>(0),
                                                   SplineRightHandSide{values, 1.0 / (dx_ * dx_), M_});
        thrust::copy(context_.policy(), rhs, rhs + points * columns, moments);
        context_.solve_tridiagonal(raw(lower_), raw(diag_), raw(upper_), moments, points, columns,
                                   TridiagonalLayout::shared_matrix, false);
        if (boundary_ == SplineBoundary::not_a_knot)
            thrust::for_each(context_.policy(), thrust::counting_iterator<int>(0),
                             thrust::counting_iterator<int>(columns), NotAKnotEnds{moments, M_});
    }

    double storage_bytes() const { return 3.0 * (M_ + 1) * sizeof(double); }

private:
    template <class V>
    static const double* raw(const V& v) { return thrust::raw_pointer_cast(v.data()); }

    Context& context_;
    int M_;
    SplineBoundary boundary_;
    double dx_;
    typename Context::template vector<double> lower_, diag_, upper_;
};

}  // namespace bsde
