// Points of W-space and gradients: a double in 1D, a Vec2 in 2D, a Vec3 in 3D, so that 1D problems keep plain doubles.
#pragma once
#include "host_device.h"

namespace bsde {

struct Vec2 {
    double v[2];
    __host__ __device__ double& operator[](int k) { return v[k]; }
    __host__ __device__ const double& operator[](int k) const { return v[k]; }
};

__host__ __device__ inline Vec2 operator+(const Vec2& a, const Vec2& b) { return {{a[0] + b[0], a[1] + b[1]}}; }

struct Vec3 {
    double v[3];
    __host__ __device__ double& operator[](int k) { return v[k]; }
    __host__ __device__ const double& operator[](int k) const { return v[k]; }
};

__host__ __device__ inline Vec3 operator+(const Vec3& a, const Vec3& b) {
    return {{a[0] + b[0], a[1] + b[1], a[2] + b[2]}};
}

template <int d>
struct PointOf;
template <>
struct PointOf<1> {
    using type = double;
};
template <>
struct PointOf<2> {
    using type = Vec2;
};
template <>
struct PointOf<3> {
    using type = Vec3;
};
template <int d>
using Point = typename PointOf<d>::type;

// Component k of a point or gradient, in any dimension.
__host__ __device__ inline double component(const double& x, int) { return x; }
__host__ __device__ inline double component(const Vec2& x, int k) { return x[k]; }
__host__ __device__ inline double& component(double& x, int) { return x; }
__host__ __device__ inline double& component(Vec2& x, int k) { return x[k]; }
__host__ __device__ inline double component(const Vec3& x, int k) { return x[k]; }
__host__ __device__ inline double& component(Vec3& x, int k) { return x[k]; }

}  // namespace bsde
