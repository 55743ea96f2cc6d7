// The interpolations of a layer (--interp), each a family of interpolation.h (with_interpolation_family).
#pragma once

namespace bsde {

enum class InterpolationKind {
    spline,   // 1D: cubic spline (--spline end condition); 2D: tensor-product cubic spline (not-a-knot), one B-spline
              // coefficient per point and function
    bicubic,  // 2D: the paper's: values, first and mixed derivatives by 4th-order differences, 16 coefficients per cell
    hermite   // 1D: cubic Hermite with slopes from 4th-order differences (no solve)
};

}  // namespace bsde
