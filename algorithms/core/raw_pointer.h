// The raw pointer to a backend vector's elements, for the functors: thrust::raw_pointer_cast of data()
// (a const pointer for a const vector).
#pragma once
#include <thrust/memory.h>

namespace bsde {

template <class Vector>
auto raw(Vector& v) {
    return thrust::raw_pointer_cast(v.data());
}

}  // namespace bsde
