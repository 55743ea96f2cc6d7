// The backward sweep of the multistep scheme (scheme.md, "One backward step"), written once as
// Thrust algorithms over the backend's vectors; a template on the problem and the backend context.
#pragma once
#include <algorithm>
#include <climits>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include <thrust/copy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "cubic_spline.h"
#include "errors.h"
#include "expectation_rules.h"
#include "gauss_hermite.h"
#include "grid.h"
#include "multistep_weights.h"
#include "solver.h"
#include "spline_fitter.h"
#include "terminal_smoothing.h"

namespace bsde {

// A stored time layer: y and z with their spline moments, [y | z | y'' | z''], M+1 each.
constexpr int layer_columns = 4;

// K+1 layers in a ring: layer n lives in slot n mod (K+1), so the step that writes layer n never
// touches the K layers n+1..n+K it reads, and no layer is ever copied.
struct LayerRingView {
    double* base;
    int slots, points;
    __host__ __device__ double* layer(int n) const { return base + (n % slots) * layer_columns * points; }
};

// Largest Picard change, most Picard iterations and first non-finite grid index of one step.
struct StepStatus {
    double picard_change;
    int picard_iterations;
    int first_nonfinite;  // INT_MAX when every value is finite
};

__host__ __device__ inline bool is_finite(double x) { return x - x == 0.0; }  // false for inf and NaN

struct CombineStepStatus {
    __host__ __device__ StepStatus operator()(const StepStatus& a, const StepStatus& b) const {
        return {a.picard_change > b.picard_change ? a.picard_change : b.picard_change,
                a.picard_iterations > b.picard_iterations ? a.picard_iterations : b.picard_iterations,
                a.first_nonfinite < b.first_nonfinite ? a.first_nonfinite : b.first_nonfinite};
    }
};

// Status of grid point i after a step.
struct PointStatus {
    const double* y;
    const double* z;
    const double* picard_change;
    const int* picard_iterations;
    __host__ __device__ StepStatus operator()(int i) const {
        const bool finite = is_finite(y[i]) && is_finite(z[i]);
        return {picard_change[i], picard_iterations[i], finite ? INT_MAX : i};
    }
};

// Coefficients of one step: the rows of gamma^{ky}_{ky,.} and gamma^1_{kz,.}, and the rules.
struct StepCoefficients {
    int ky, kz;
    const double* gamma_y;  // ky + 1 entries
    const double* gamma_z;  // kz + 1 entries
    GaussHermiteExpectation smooth_rule;
    CellGaussLegendreExpectation kinked_rule;
    int kinked_layer;  // the terminal layer when its data have a kink (read with kinked_rule), else -1
};

// Sums E_j[y], E_j[z], E_j[f_j], E_j[f_j dW] of one stored layer at the grid point w over a rule's increments.
template <class Problem>
struct LayerExpectations {
    const Problem& problem;
    UniformGridLocator locate;
    CubicSplineColumn y_spline, z_spline;
    double w, t_j;
    double y = 0.0, z = 0.0, f = 0.0, f_dw = 0.0;

    __host__ __device__ void add(double dW, double omega) {
        const CellPosition p = locate(w + dW);
        const double x = locate.x_min + (p.cell + p.t) * locate.dx;  // the clamped point
        const double y_at = y_spline(p), z_at = z_spline(p);
        const double f_at = problem.driver(t_j, x, y_at, z_at);
        y += omega * y_at;
        z += omega * z_at;
        f += omega * f_at;
        f_dw += omega * f_at * dW;
    }
};

// One step at grid point i: the fused pass over the K stored layers and their rules' nodes, then z^n and y^n.
//   z^n = ( E_1[z] + sum_{j<=kz} g1_j (E_j[f_j dW] - E_j[z_{n+j}]) ) / g1_0
//   y^n = E_ky[y] + ky dt sum_{j<=ky} gy_j E_j[f_j] + ky dt gy_0 f(t_n, w_i, y^n, z^n)   (Picard)
// with E_j over dW ~ N(0, j dt) (expectation_rules.h), read off the spline of layer n+j.
template <class Problem>
struct MultistepPointUpdate {
    Problem problem;
    LayerRingView ring;
    UniformGridLocator locate;
    StepCoefficients c;
    int n;             // the layer being computed
    double t_n, dt;
    int picard_iterations;
    double picard_tolerance;
    double* picard_change;
    int* picard_used;

    __host__ __device__ void operator()(int i) const {
        const double w = locate.x_min + i * locate.dx;
        const int K = c.ky > c.kz ? c.ky : c.kz;
        double expected_y = 0.0;       // E_ky[y_{n+ky}]
        double driver_sum = 0.0;       // sum_{j<=ky} gy_j E_j[f_j]
        double expected_z1 = 0.0;      // E_1[z_{n+1}]
        double z_sum = 0.0;            // sum_{j<=kz} g1_j (E_j[f_j dW] - E_j[z_{n+j}])
        for (int j = 1; j <= K; ++j) {
            const double* layer = ring.layer(n + j);
            LayerExpectations<Problem> e{problem, locate,
                                         CubicSplineColumn{layer, layer + 2 * ring.points, locate.dx},
                                         CubicSplineColumn{layer + ring.points, layer + 3 * ring.points, locate.dx},
                                         w, t_n + j * dt};
            if (n + j == c.kinked_layer)
                c.kinked_rule(j * dt, e);
            else
                c.smooth_rule(j * dt, e);
            if (j == c.ky) expected_y = e.y;
            if (j == 1) expected_z1 = e.z;
            driver_sum += (j <= c.ky ? c.gamma_y[j] : 0.0) * e.f;
            z_sum += (j <= c.kz ? c.gamma_z[j] : 0.0) * (e.f_dw - e.z);
        }
        const double z = (expected_z1 + z_sum) / c.gamma_z[0];
        const double step = c.ky * dt;
        const double explicit_y = expected_y + step * driver_sum;
        double y = ring.layer(n + 1)[i];  // start Picard from y^{n+1} at the same point
        double change = 0.0;
        int used = 0;
        while (used < picard_iterations) {
            const double next = explicit_y + step * c.gamma_y[0] * problem.driver(t_n, w, y, z);
            change = fabs(next - y);
            y = next;
            ++used;
            if (!(change > picard_tolerance * (1.0 + fabs(y)))) break;
        }
        double* out = ring.layer(n);
        out[i] = y;
        out[ring.points + i] = z;
        picard_change[i] = change;
        picard_used[i] = used;
    }
};

// The terminal y (component 0) or z (component 1) as a function of w alone, for the smoothing's averages.
template <class Problem>
struct TerminalComponent {
    Problem problem;
    int component;
    __host__ __device__ double operator()(double w) const {
        return component == 0 ? problem.terminal_y(w) : problem.terminal_z(w);
    }
};

// Terminal layer at grid point i: g and grad g, smoothed near a kink (terminal_smoothing.h).
template <class Problem>
struct TerminalLayer {
    Problem problem;
    double* layer;
    int points;
    double x_min, dx;
    KreissKernel kernel;
    __host__ __device__ void operator()(int i) const {
        const double w = x_min + i * dx;
        layer[i] = problem.terminal_y(w);
        layer[points + i] = problem.terminal_z(w);
        if constexpr (has_terminal_kink<Problem>::value) {
            const double kink = problem.terminal_kink();
            if (kernel.smoothing != Smoothing::none && fabs(w - kink) < kernel.half_width() * dx) {
                layer[i] = kernel.average(TerminalComponent<Problem>{problem, 0}, w, dx, kink);
                layer[points + i] = kernel.average(TerminalComponent<Problem>{problem, 1}, w, dx, kink);
            }
        }
    }
};

// The exact solution at time t at grid point i (the exact start-up of verification runs).
template <class Problem>
struct ExactLayer {
    Problem problem;
    double* layer;
    int points;
    double x_min, dx, t;
    __host__ __device__ void operator()(int i) const {
        if constexpr (Problem::has_exact_solution) {
            const double w = x_min + i * dx;
            layer[i] = problem.exact_y(t, w);
            layer[points + i] = problem.exact_z(t, w);
        }
    }
};

// |numerical - exact| of y (component 0) or z (component 1) at t = 0 for grid point i with
// |w_i| <= inner_half_width, 0 elsewhere (the truncated domain's edges are not the scheme's error).
template <class Problem>
struct InnerError {
    Problem problem;
    const double* layer;
    int points;
    double x_min, dx, inner_half_width;
    int component;
    __host__ __device__ double operator()(int i) const {
        const double w = x_min + i * dx;
        if (fabs(w) > inner_half_width) return 0.0;
        const double exact = component == 0 ? problem.exact_y(0.0, w) : problem.exact_z(0.0, w);
        return fabs(layer[component * points + i] - exact);
    }
};

// Problems whose forward process is a state S(t, w) with a value gradient dV/dS (options).
template <class P, class = void>
struct has_state_map : std::false_type {};
template <class P>
struct has_state_map<P, std::void_t<decltype(std::declval<const P&>().value_gradient(0.0, 0.0, 0.0))>>
    : std::true_type {};

struct Maximum {
    __host__ __device__ double operator()(double a, double b) const { return a > b ? a : b; }
};

template <class Problem, class Context>
class BackwardSweep {
public:
    using Vector = typename Context::template vector<double>;

    BackwardSweep(Context& context, const Problem& problem, const SchemeSettings& settings)
        : context_(context), problem_(problem), s_(settings), time_{settings.N, settings.T},
          space_{space_intervals(settings.Ky, settings.Kz, settings.N, settings.T, settings.R, settings.grid_order),
                 settings.R},
          K_(settings.K()), points_(space_.points()),
          fitter_(context, space_.M, settings.spline, space_.dx()),
          picard_change_(points_), picard_used_(points_) {
        if (s_.startup == Startup::exact && !Problem::has_exact_solution)
            throw InputError("--startup exact: problem " + std::string(Problem::name) + " has no exact solution");
        if constexpr (has_terminal_kink<Problem>::value) {
            const double kink = problem.terminal_kink();
            if (!(std::fabs(kink) <= s_.R / 2))
                throw InputError("the terminal data's kink at w = " + std::to_string(kink) + " lies outside [-R/2, R/2] = [" +
                                 std::to_string(-s_.R / 2) + ", " + std::to_string(s_.R / 2) +
                                 "]: the grid cannot resolve it (for an option: sigma too small or the strike too far "
                                 "from S0; raise --sigma or --R)");
        }
        const GaussHermiteRule rule = gauss_hermite(s_.L);
        std::vector<double> weights(rule.weights);
        const double pi = 3.14159265358979323846;
        for (double& omega : weights) omega /= std::sqrt(pi);
        nodes_.assign(rule.nodes.begin(), rule.nodes.end());
        weights_.assign(weights.begin(), weights.end());
        // rows k = 1..K of both weight tables, row k at offset k (K+1)
        std::vector<double> gy((K_ + 1) * (K_ + 1), 0.0), g1((K_ + 1) * (K_ + 1), 0.0);
        for (int k = 1; k <= K_; ++k) {
            const std::vector<double> row_y = gamma_y_weights(k), row_z = gamma_z_weights(k);
            std::copy(row_y.begin(), row_y.end(), gy.begin() + k * (K_ + 1));
            std::copy(row_z.begin(), row_z.end(), g1.begin() + k * (K_ + 1));
        }
        gamma_y_.assign(gy.begin(), gy.end());
        gamma_z_.assign(g1.begin(), g1.end());
        substeps_ = s_.startup == Startup::exact || K_ == 1 ? 0
                    : s_.startup_substeps > 0 ? s_.startup_substeps
                                              : static_cast<int>(std::ceil(1.0 / std::sqrt(time_.dt())));
        const int steps = (K_ - 1) * substeps_ + (s_.N - K_ + 1);
        status_.resize(steps);
        host_status_.resize(steps);
        ring_.resize(static_cast<std::size_t>(K_ + 1) * layer_columns * points_);
        if (substeps_ > 0) fine_ring_.resize(ring_.size());
    }

    SolveResult run() {
        context_.start_timer();
        const LayerRingView ring{raw(ring_), K_ + 1, points_};
        set_layer(ring, s_.N, TerminalLayer<Problem>{problem_, ring.layer(s_.N), points_, -s_.R, space_.dx(),
                                                     KreissKernel{s_.smoothing}});
        if (s_.startup == Startup::exact) {
            for (int n = s_.N - 1; n > s_.N - K_; --n)
                set_layer(ring, n, ExactLayer<Problem>{problem_, ring.layer(n), points_, -s_.R, space_.dx(), n * time_.dt()});
        } else if (substeps_ > 0) {
            multistep_startup(ring);
        }
        for (int n = s_.N - K_; n >= 0; --n) step(ring, n, s_.Ky, s_.Kz, time_.dt(), s_.T - (s_.N - n) * time_.dt(), s_.N);
        check_status(steps_done_);
        context_.synchronize();
        SolveResult result;
        result.sweep_seconds = context_.elapsed_seconds();
        collect(ring.layer(0), result);
        return result;
    }

private:
    template <class V>
    static auto raw(V& v) { return thrust::raw_pointer_cast(v.data()); }

    // Layer n from the problem (terminal condition or exact solution), with its moments.
    template <class LayerValues>
    void set_layer(const LayerRingView& ring, int n, LayerValues values) {
        thrust::for_each(context_.policy(), thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(points_),
                         values);
        fitter_.fit(ring.layer(n), ring.layer(n) + 2 * points_, 2);
    }

    // Layers N-1..N-K+1: the same scheme on the step h = dt / S from the terminal layer, its orders
    // raised one step at a time (min(j, Ky), min(j, Kz) at the j-th fine step). With S = dt^(-1/2)
    // the low-order first steps contribute O(h^2) = O(dt^3) to z and O(h^3) to y, below the scheme's
    // own error, and the fine steps' interpolation errors add up to O(dt^(q+1/2)).
    void multistep_startup(const LayerRingView& ring) {
        const LayerRingView fine{raw(fine_ring_), K_ + 1, points_};
        const int S = substeps_, fine_N = s_.N * S;
        const double h = time_.dt() / S;
        thrust::copy(context_.policy(), ring.layer(s_.N), ring.layer(s_.N) + layer_columns * points_,
                     fine.layer(fine_N));
        for (int m = fine_N - 1; m >= fine_N - (K_ - 1) * S; --m) {
            const int taken = fine_N - m;
            step(fine, m, std::min(taken, s_.Ky), std::min(taken, s_.Kz), h, s_.T - taken * h, fine_N);
            if (taken % S == 0)
                thrust::copy(context_.policy(), fine.layer(m), fine.layer(m) + layer_columns * points_,
                             ring.layer(m / S));
        }
    }

    // Layer n of a ring whose terminal layer is `terminal` (N, or N S for the start-up's fine ring).
    void step(const LayerRingView& ring, int n, int ky, int kz, double dt, double t_n, int terminal) {
        const StepCoefficients coefficients{ky,
                                            kz,
                                            raw(gamma_y_) + ky * (K_ + 1),
                                            raw(gamma_z_) + kz * (K_ + 1),
                                            GaussHermiteExpectation{raw(nodes_), raw(weights_), s_.L},
                                            CellGaussLegendreExpectation{space_.dx()},
                                            has_terminal_kink<Problem>::value ? terminal : -1};
        thrust::for_each(context_.policy(), thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(points_),
                         MultistepPointUpdate<Problem>{problem_, ring, locator(), coefficients, n, t_n, dt,
                                                       s_.picard_iterations, s_.picard_tolerance,
                                                       raw(picard_change_), raw(picard_used_)});
        double* layer = ring.layer(n);
        auto point_status = thrust::make_transform_iterator(
            thrust::counting_iterator<int>(0),
            PointStatus{layer, layer + points_, raw(picard_change_), raw(picard_used_)});
        context_.reduce_into(point_status, points_, StepStatus{0.0, 0, INT_MAX}, CombineStepStatus{},
                             raw(status_) + steps_done_);
        step_times_.push_back(t_n);
        ++steps_done_;
        if (steps_done_ % status_check_interval == 0) check_status(steps_done_);
        if (s_.progress && steps_done_ % progress_interval == 0) s_.progress(steps_done_, static_cast<int>(status_.size()));
        fitter_.fit(layer, layer + 2 * points_, 2);
    }

    // Reads back the statuses of the steps not yet checked; stops at the first non-finite value.
    void check_status(int steps) {
        thrust::copy(status_.begin() + steps_checked_, status_.begin() + steps, host_status_.begin() + steps_checked_);
        for (; steps_checked_ < steps; ++steps_checked_) {
            const StepStatus& status = host_status_[steps_checked_];
            if (status.first_nonfinite != INT_MAX) {
                const int i = status.first_nonfinite;
                throw NumericalError("non-finite y or z in step " + std::to_string(steps_checked_ + 1) + " (t = " +
                                     std::to_string(step_times_[steps_checked_]) + "), grid index " +
                                     std::to_string(i) + " (w = " + std::to_string(space_.point(i)) + ")");
            }
            picard_most_ = std::max(picard_most_, status.picard_iterations);
            picard_change_largest_ = std::max(picard_change_largest_, status.picard_change);
        }
    }

    UniformGridLocator locator() const { return {-s_.R, space_.dx(), space_.M}; }

    void collect(const double* layer, SolveResult& result) {
        result.M = space_.M;
        result.dx = space_.dx();
        result.dt = time_.dt();
        result.startup_substeps = substeps_;
        const auto first = ring_.begin() + (layer - raw(ring_));
        result.y.assign(points_, 0.0);
        result.z.assign(points_, 0.0);
        thrust::copy(first, first + points_, result.y.begin());
        thrust::copy(first + points_, first + 2 * points_, result.z.begin());
        result.w.resize(points_);
        for (int i = 0; i < points_; ++i) result.w[i] = space_.point(i);
        result.y0 = result.y[space_.centre()];
        result.z0 = {result.z[space_.centre()]};
        result.picard_most_iterations = picard_most_;
        result.picard_largest_change = picard_change_largest_;
        result.storage_bytes = storage_bytes();
        result.device_bytes_measured = context_.device_bytes_in_use();
        result.has_exact = Problem::has_exact_solution;
        collect_exact(layer, result, std::integral_constant<bool, Problem::has_exact_solution>());
    }

    void collect_exact(const double* layer, SolveResult& result, std::true_type) {
        result.y_exact.resize(points_);
        result.z_exact.resize(points_);
        for (int i = 0; i < points_; ++i) {
            result.y_exact[i] = problem_.exact_y(0.0, result.w[i]);
            result.z_exact[i] = problem_.exact_z(0.0, result.w[i]);
        }
        result.y0_exact = result.y_exact[space_.centre()];
        result.z0_exact = {result.z_exact[space_.centre()]};
        collect_state(result, std::integral_constant<bool, has_state_map<Problem>::value>());
        for (int component = 0; component < 2; ++component) {
            auto errors = thrust::make_transform_iterator(
                thrust::counting_iterator<int>(0),
                InnerError<Problem>{problem_, layer, points_, -s_.R, space_.dx(), s_.R / 2, component});
            (component == 0 ? result.max_y_error_inner : result.max_z_error_inner) =
                context_.reduce(errors, points_, 0.0, Maximum{});
        }
    }
    void collect_exact(const double*, SolveResult&, std::false_type) {}

    // S(0, w), the computed dV/dS and the exact one, for problems with a state map (options).
    void collect_state(SolveResult& result, std::true_type) {
        result.has_state = true;
        result.state.resize(points_);
        result.gradient.resize(points_);
        result.gradient_exact.resize(points_);
        for (int i = 0; i < points_; ++i) {
            result.state[i] = problem_.state(0.0, result.w[i]);
            result.gradient[i] = problem_.value_gradient(0.0, result.w[i], result.z[i]);
            result.gradient_exact[i] = problem_.value_gradient(0.0, result.w[i], result.z_exact[i]);
        }
    }
    void collect_state(SolveResult&, std::false_type) {}

    double storage_bytes() const {
        return sizeof(double) * (ring_.size() + fine_ring_.size() + picard_change_.size() + nodes_.size() +
                                 weights_.size() + gamma_y_.size() + gamma_z_.size()) +
               sizeof(int) * picard_used_.size() + sizeof(StepStatus) * status_.size() + fitter_.storage_bytes();
    }

    static constexpr int status_check_interval = 64;
    static constexpr int progress_interval = 8;

    Context& context_;
    Problem problem_;
    SchemeSettings s_;
    TimeGrid time_;
    SpaceGrid space_;
    int K_, points_, substeps_ = 0;
    SplineFitter<Context> fitter_;
    Vector ring_, fine_ring_, nodes_, weights_, gamma_y_, gamma_z_, picard_change_;
    typename Context::template vector<int> picard_used_;
    typename Context::template vector<StepStatus> status_;
    std::vector<StepStatus> host_status_;
    std::vector<double> step_times_;
    int steps_done_ = 0, steps_checked_ = 0;
    int picard_most_ = 0;
    double picard_change_largest_ = 0.0;
};

}  // namespace bsde
