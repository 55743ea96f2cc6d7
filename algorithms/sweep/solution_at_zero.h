// The sweep's answer: layer 0 (t = 0) on the grid, copied to the host into a SolveResult, with the exact solution,
// the largest errors over |w| <= R/2 and the state map's spots and gradients where the problem has them.
#pragma once
#include <algorithm>
#include <cstddef>
#include <type_traits>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "../core/point.h"
#include "../core/raw_pointer.h"
#include "../scheme/settings.h"
#include "sweep_functors.h"

namespace bsde {

template <class Problem, class Context>
struct SolutionAtZero {
    static constexpr int d = Problem::dimension;
    Context& context;
    const Problem& problem;
    GridPoints<d> grid;
    int points, centre;  // (M+1)^d, and the index of w = 0
    double R;

    // w, y and z of layer 0, which lies in `ring` (a backend vector) at layer.base; y_0 and z_0 at the centre.
    template <class Vector>
    void collect(const Vector& ring, const LayerView& layer, SolveResult& result) const {
        const auto first = ring.begin() + (layer.base - raw(ring));
        result.y.assign(points, 0.0);
        result.z.assign(static_cast<std::size_t>(d) * points, 0.0);
        context.copy_to_host(first, first + points, result.y.begin());
        context.copy_to_host(first + points, first + std::ptrdiff_t(1 + d) * points, result.z.begin());
        result.w.resize(static_cast<std::size_t>(d) * points);
        for (int i = 0; i < points; ++i)
            for (int k = 0; k < d; ++k) result.w[std::size_t(k) * points + i] = component(grid(i), k);
        result.y0 = result.y[centre];
        result.z0.resize(d);
        for (int k = 0; k < d; ++k) result.z0[k] = result.z[std::size_t(k) * points + centre];
        result.has_exact = Problem::has_exact_solution;
        collect_exact(layer, result, std::integral_constant<bool, Problem::has_exact_solution>());
    }

private:
    void collect_exact(const LayerView& layer, SolveResult& result, std::true_type) const {
        result.y_exact.resize(points);
        result.z_exact.resize(static_cast<std::size_t>(d) * points);
        for (int i = 0; i < points; ++i) {
            const Point<d> w = grid(i);
            result.y_exact[i] = problem.exact_y(0.0, w);
            const Point<d> z = problem.exact_z(0.0, w);
            for (int k = 0; k < d; ++k) result.z_exact[std::size_t(k) * points + i] = component(z, k);
        }
        result.y0_exact = result.y_exact[centre];
        result.z0_exact.resize(d);
        for (int k = 0; k < d; ++k) result.z0_exact[k] = result.z_exact[std::size_t(k) * points + centre];
        collect_state(result, std::integral_constant<bool, has_state_map<Problem>::value>());
        double largest[2] = {0.0, 0.0};  // y, z (largest over the components)
        for (int c = 0; c < 1 + d; ++c) {
            auto errors = thrust::make_transform_iterator(thrust::counting_iterator<int>(0),
                                                          InnerError<Problem>{problem, layer, grid, R / 2, c});
            const double error = context.reduce(errors, points, 0.0, Maximum{});
            largest[c == 0 ? 0 : 1] = std::max(largest[c == 0 ? 0 : 1], error);
        }
        result.max_y_error_inner = largest[0];
        result.max_z_error_inner = largest[1];
    }
    void collect_exact(const LayerView&, SolveResult&, std::false_type) const {}

    // S(0, w), the computed dV/dS and the exact one, d columns each, for problems with a state map (the options).
    void collect_state(SolveResult& result, std::true_type) const {
        result.has_state = true;
        result.state.resize(std::size_t(d) * points);
        result.gradient.resize(std::size_t(d) * points);
        result.gradient_exact.resize(std::size_t(d) * points);
        for (int i = 0; i < points; ++i) {
            const Point<d> w = grid(i);
            Point<d> z, z_exact;
            for (int k = 0; k < d; ++k) {
                component(z, k) = result.z[std::size_t(k) * points + i];
                component(z_exact, k) = result.z_exact[std::size_t(k) * points + i];
            }
            const Point<d> state = problem.state(0.0, w), gradient = problem.value_gradient(0.0, w, z),
                           gradient_exact = problem.value_gradient(0.0, w, z_exact);
            for (int k = 0; k < d; ++k) {
                result.state[std::size_t(k) * points + i] = component(state, k);
                result.gradient[std::size_t(k) * points + i] = component(gradient, k);
                result.gradient_exact[std::size_t(k) * points + i] = component(gradient_exact, k);
            }
        }
    }
    void collect_state(SolveResult&, std::false_type) const {}
};

}  // namespace bsde
