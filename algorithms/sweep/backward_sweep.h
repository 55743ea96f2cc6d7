// The backward sweep of the multistep scheme (scheme.md, "One backward step"), written once as
// Thrust algorithms over the backend's vectors; a template on the problem (its dimension d = 1 or 2),
// the interpolation family (interpolation.h) and the backend context.
#pragma once
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <thrust/copy.h>
#include <thrust/for_each.h>
#include <thrust/transform.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "../core/errors.h"
#include "../quadrature/gauss_hermite.h"
#include "../scheme/grid.h"
#include "../interpolation/interpolation.h"
#include "../scheme/multistep_weights.h"
#include "../scheme/problem_grid_checks.h"
#include "../core/raw_pointer.h"
#include "separable_pass.h"
#include "../scheme/settings.h"
#include "sweep_functors.h"

namespace bsde {

template <class Problem, class Interpolation, class Context>
class BackwardSweep {
public:
    static constexpr int d = Problem::dimension;
    using Vector = typename Context::template vector<double>;
    using Fitter = typename Interpolation::template Fitter<Context>;
    using Evaluator = decltype(std::declval<const Fitter&>().evaluator());
    using Node = AxisNode<typename Evaluator::Shift>;

    BackwardSweep(Context& context, const Problem& problem, const SchemeSettings& settings)
        : BackwardSweep(context, problem, settings, 1) {}

private:
    // A sweep on the grid of `refinement` M intervals per axis: 1 for the run's own, r > 1 for the start-up's
    // (startup_refinement), which runs only the start-up (run_startup) and takes its memory from the run's check.
    BackwardSweep(Context& context, const Problem& problem, const SchemeSettings& settings, int refinement)
        : context_(context), problem_(problem), s_(settings), time_{settings.N, settings.T},
          space_{refinement *
                     space_intervals(settings.Ky, settings.Kz, settings.N, settings.T, settings.R, settings.grid_order),
                 settings.R, d},
          K_(settings.K()), points_(space_.points()), grid_{-settings.R, space_.dx(), space_.M},
          fitter_(Interpolation::make_fitter(context, space_.M, -settings.R, space_.dx(),
                                              SplineOptions{settings.spline, settings.spline_solve})) {
        if (s_.startup == Startup::exact && !Problem::has_exact_solution)
            throw InputError("--startup exact: problem " + std::string(Problem::name) + " has no exact solution");
        substeps_ = static_cast<int>(startup_substeps(s_));
        const bool own_grid = refinement == 1;
        if (own_grid) {
            check_problem_against_grid(problem, s_);
            startup_refine_ = startup_refinement(s_, has_terminal_kink<Problem>::value, d);
        }
        const double needed_bytes = own_grid ? check_memory() : 0.0;
        if (s_.warn_before_run && own_grid) {
            if (const std::string long_startup = startup_warning(s_, d, startup_refine_); !long_startup.empty())
                s_.warn_before_run(long_startup);
            if constexpr (d == 1 && has_terminal_kink<Problem>::value)
                if (const std::string kinked_reads = kinked_rule_warning(s_); !kinked_reads.empty())
                    s_.warn_before_run(kinked_reads);
        }
        rule_ = gauss_hermite(s_.L);
        std::vector<double> weights(rule_.weights);
        for (double& omega : weights) omega /= std::sqrt(pi);
        nodes_.assign(rule_.nodes.begin(), rule_.nodes.end());
        weights_.assign(weights.begin(), weights.end());
        // rows k = 1..K of both weight tables, row k at offset k (K+1)
        std::vector<double>& gy = host_gamma_y_;
        std::vector<double>& g1 = host_gamma_z_;
        gy.assign((K_ + 1) * (K_ + 1), 0.0);
        g1.assign((K_ + 1) * (K_ + 1), 0.0);
        for (int k = 1; k <= K_; ++k) {
            const std::vector<double> row_y = gamma_y_weights(k), row_z = gamma_z_weights(k);
            std::copy(row_y.begin(), row_y.end(), gy.begin() + k * (K_ + 1));
            std::copy(row_z.begin(), row_z.end(), g1.begin() + k * (K_ + 1));
        }
        gamma_y_.assign(gy.begin(), gy.end());
        gamma_z_.assign(g1.begin(), g1.end());
        choose_stage();
        // An allocation that fails although check_memory passed (other processes, fragmentation) is reported
        // with the amount. Test hook (README, "Errors and exit codes"): BSDE_TEST_FAIL_ALLOCATION=1 makes it
        // fail here as an exhausted allocator does (std::bad_alloc).
        try {
            if (std::getenv("BSDE_TEST_FAIL_ALLOCATION")) throw std::bad_alloc();
            status_.resize(steps());
            host_status_.resize(steps());
            point_status_.resize(static_cast<std::size_t>(status_depth()) * points_);
            ring_.resize(ring_doubles());
            if (substeps_ > 0 && startup_refine_ <= 1) fine_ring_.resize(ring_.size());
            if (separable()) separable_.resize(SeparableWorkspace::doubles(space_.M));
            if (startup_refine_ > 1)
                startup_sweep_.reset(new BackwardSweep(context, problem, settings, startup_refine_));
        } catch (const std::bad_alloc& e) {  // Thrust's failed device allocations throw a std::bad_alloc too
            throw DeviceError("allocating " + mebibytes(needed_bytes) + " MiB for the solver's arrays failed (" +
                              e.what() + "; N = " + std::to_string(s_.N) + ", M = " + std::to_string(space_.M) +
                              ", d = " + std::to_string(d) + ", K = " + std::to_string(K_) + "); lower --N or --K");
        }
    }

public:
    SolveResult run() {
        context_.start_timer();
        context_.clear_marks();
        run_ = {};
        const LayerRingView ring = ring_view(ring_);
        set_layer(ring, s_.N, TerminalLayer<Problem>{problem_, ring.layer(s_.N), grid_, KreissKernel{s_.smoothing}});
        picard_.scale = picard_scale(ring.layer(s_.N));
        if (s_.startup == Startup::exact) {
            for (int n = s_.N - 1; n > s_.N - K_; --n)
                set_layer(ring, n, ExactLayer<Problem>{problem_, ring.layer(n), grid_, n * time_.dt()});
        } else if (startup_sweep_) {
            startup_sweep_->run_startup(picard_.scale, picard_scale_source_);
            take_startup(*startup_sweep_, ring);
        } else if (substeps_ > 0) {
            multistep_startup(ring);
        }
        for (int n = s_.N - K_; n >= 0; --n) step(ring, n, s_.Ky, s_.Kz, time_.dt(), s_.T - (s_.N - n) * time_.dt(), s_.N);
        check_status(run_.steps_done);
        context_.synchronize();
        SolveResult result;
        result.sweep_seconds = context_.elapsed_seconds();
        for (const PhaseSpan& span : run_.phase_spans) result.phase_seconds.*span.phase += context_.seconds_between(span.from, span.to);
        collect(ring.layer(0), result);
        return result;
    }

private:
    int functions() const { return 1 + d; }
    int steps() const { return startup_fine_steps(K_, substeps_) + (s_.N - K_ + 1); }
    std::size_t ring_doubles() const {
        return static_cast<std::size_t>(K_ + 1) * functions() * (points_ + fitter_.data_size());
    }
    LayerRingView ring_view(Vector& v) {
        return {raw(v), K_ + 1, points_, static_cast<int>(fitter_.data_size()), functions()};
    }

    // The arrays the run allocates next (rings, Picard and status arrays); the fitter's workspace is
    // already taken. Stops before allocating when they exceed the free memory (the device's; the host's
    // MemAvailable on serial and omp), naming both amounts and the largest N that fits, and when a ring
    // has more values than 32-bit indices reach. Returns the bytes needed. Test hook (README, "Errors and
    // exit codes"): BSDE_TEST_FREE_BYTES=B takes B bytes as the memory free before the run.
    double check_memory() {
        // For N steps (M, and the start-up's substeps, follow N), with the interpolation data and the
        // fitter's workspace per grid point of this grid: the bytes allocated after the fitter, the
        // fitter's bytes and the values of one ring.
        const double data_per_point = double(fitter_.data_size()) / points_;
        const double fitter_per_point = fitter_.storage_bytes() / points_;
        struct Estimate {
            double arrays, fitter, ring_values;
        };
        const auto estimate = [&](int N) {
            const int M = space_intervals(s_.Ky, s_.Kz, N, s_.T, s_.R, s_.grid_order);
            const double points = d == 1 ? M + 1.0 : (M + 1.0) * (M + 1.0);
            const double S = startup_substeps(s_, N);
            const double ring_values = (K_ + 1.0) * functions() * points * (1.0 + data_per_point);
            const double separable_values = separable() ? double(SeparableWorkspace::doubles(M)) : 0.0;
            const double statuses = sizeof(StepStatus) * (points * status_depth() + startup_fine_steps(K_, S) +
                                                          (N - K_ + 1.0));
            // The start-up's fine ring beside the run's; on a grid of r M intervals (startup_refine_ > 1) that and a
            // ring of its own, with their fitter, statuses and separable workspace, (r M + 1)^d / (M + 1)^d times as
            // many values a layer.
            const double r = std::max(1, startup_refine_);
            const double startup_points = std::pow(r * M + 1.0, d), finer = startup_points / points;
            double startup = 0;
            if (S > 0 && r == 1) startup = sizeof(double) * ring_values;
            if (S > 0 && r > 1)
                startup = sizeof(double) * (2 * ring_values + separable_values) * finer +
                          fitter_per_point * startup_points + statuses * finer;
            return Estimate{sizeof(double) * (ring_values + separable_values) + statuses + startup,
                            fitter_per_point * points, ring_values * (S > 0 ? finer : 1.0)};
        };
        double free = context_.free_bytes();  // < 0: unknown
        if (const char* test_free = std::getenv("BSDE_TEST_FREE_BYTES"))
            free = std::max(0.0, std::strtod(test_free, nullptr) - fitter_.storage_bytes());
        const Estimate now = estimate(s_.N);
        const bool too_many_values = now.ring_values > INT_MAX;
        if (!too_many_values && (free < 0 || now.arrays <= free)) return now.arrays;

        // The largest N below this one whose arrays, with its own (smaller) fitter, fit in the memory this
        // run has (free and this fitter's), and whose rings 32-bit indices reach; M(N) never decreases.
        const auto fits = [&](int N) {
            const Estimate e = estimate(N);
            return e.ring_values <= INT_MAX && (free < 0 || e.arrays + e.fitter <= free + fitter_.storage_bytes());
        };
        int low = K_ + 1, high = s_.N - 1;
        std::string largest;
        if (high >= low && fits(low)) {
            while (low < high) {
                const int middle = low + (high - low + 1) / 2;
                if (fits(middle)) low = middle;
                else high = middle - 1;
            }
            largest = "the largest N that fits is " + std::to_string(low) + "; lower --N";
        } else {
            largest = "not even N = K + 1 = " + std::to_string(K_ + 1) + " fits; lower --K or --R";
        }
        const std::string run = "(N = " + std::to_string(s_.N) + ", M = " + std::to_string(space_.M) +
                                ", d = " + std::to_string(d) + ", K = " + std::to_string(K_) + ")";
        if (too_many_values)
            throw InputError("the run's layers " + run + " hold " + format_number(now.ring_values) +
                             " values, more than the sweep's 32-bit indices reach (2^31 - 1): " + largest);
        throw InputError("the run needs " + mebibytes(now.arrays) + " MiB of memory on " + context_.description() +
                         " and " + mebibytes(free) + " MiB are free " + run + ": " + largest);
    }

    static std::string mebibytes(double bytes) {
        char text[32];
        std::snprintf(text, sizeof text, bytes >= 10 * 1048576.0 ? "%.0f" : "%.3g", bytes / 1048576.0);
        return text;
    }

    // Layer n from the problem (terminal condition or exact solution), with its interpolation data.
    template <class LayerValues>
    void set_layer(const LayerRingView& ring, int n, LayerValues values) {
        thrust::for_each(context_.policy(), thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(points_),
                         values);
        fit(ring.layer(n));
    }

    void fit(const LayerView& layer) { fitter_.fit(layer.values(0), layer.data(0), functions()); }

    // PicardStop's scale: the terminal data's mean magnitude E|g(W_T)| (TerminalMagnitude); where every term of it
    // underflows (data that are 0 but far out, beyond |w| = 3.9 at T = 0.01), their largest |y|, which scales with
    // them as well; 1 where the data are 0 (or not finite, which the first step's status check reports). Sets
    // picard_scale_source_.
    double picard_scale(const LayerView& terminal) {
        const auto sum = [&](const double* values) {
            const auto terms = thrust::make_transform_iterator(thrust::counting_iterator<int>(0),
                                                               TerminalMagnitude<d>{grid_, s_.T, values});
            return context_.reduce(terms, points_, 0.0, Sum{});
        };
        const auto usable = [](double scale) { return scale > 0.0 && std::isfinite(scale); };
        const double mean = sum(terminal.values(0)) / sum(nullptr);
        picard_scale_source_ = "E|g(W_T)|, the terminal data's mean magnitude";
        if (usable(mean)) return mean;
        const auto magnitudes = thrust::make_transform_iterator(terminal.values(0), AbsoluteValue{});
        const double largest = context_.reduce(magnitudes, points_, 0.0, Maximum{});
        picard_scale_source_ = "the terminal data's largest |y|, where each term of E|g(W_T)| underflows";
        if (usable(largest)) return largest;
        picard_scale_source_ = "the terminal data being 0";
        return 1.0;
    }

    // The start-up on this sweep's grid, r times finer than the run's: the terminal layer and the start-up's passes
    // (multistep_startup), with the run's Picard scale, which leave layers N-1..N-K+1 in ring_ for take_startup.
    void run_startup(double picard_scale, const std::string& picard_scale_source) {
        run_ = {};
        const LayerRingView ring = ring_view(ring_);
        set_layer(ring, s_.N, TerminalLayer<Problem>{problem_, ring.layer(s_.N), grid_, KreissKernel{s_.smoothing}});
        picard_.scale = picard_scale;
        picard_scale_source_ = picard_scale_source;
        multistep_startup(ring);
        check_status(run_.steps_done);
    }

    // Layers N-1..N-K+1 from the start-up's sweep on its grid r times finer: the values at this grid's points, each
    // its r-th point per axis (CoarseGridValues), fitted. The run's tally (steps, Picard, phases) goes on from the
    // start-up's; both sweeps count steps alike (steps()).
    void take_startup(BackwardSweep& startup, const LayerRingView& ring) {
        const LayerRingView fine = startup.ring_view(startup.ring_);
        for (int n = s_.N - 1; n > s_.N - K_; --n) {
            thrust::transform(context_.policy(), thrust::counting_iterator<int>(0),
                              thrust::counting_iterator<int>(functions() * points_), ring.layer(n).values(0),
                              CoarseGridValues<d>{fine.layer(n).values(0), startup.points_, space_.M, startup_refine_,
                                                  points_});
            fit(ring.layer(n));
        }
        run_ = std::move(startup.run_);
        run_.startup_grid_separable_layers = run_.separable_layers;
        std::copy(startup.host_status_.begin(), startup.host_status_.begin() + run_.steps_done, host_status_.begin());
    }

    // Layers N-1..N-K+1 by Richardson extrapolation (scheme.md, "Start-up values"): the same scheme from the
    // terminal layer on the fine steps h = dt / S and h / 2, its orders raised one step at a time (min(j, Ky),
    // min(j, Kz) at the j-th fine step), whose error is c h^2 + O(h^3) (the first, low-order steps': z's local
    // error at order 1 is O(h^2)); the layers (4 L_{h/2} - L_h) / 3 cancel the h^2 term. A single pass would need
    // h = O(dt^(3/2)) for the same order, and its many fine steps add up the interpolation's error.
    void multistep_startup(const LayerRingView& ring) {
        fine_startup(ring, substeps_, StartupLayer::store);
        fine_startup(ring, 2 * substeps_, StartupLayer::extrapolate);
    }

    enum class StartupLayer { store, extrapolate };

    // The start-up's fine steps dt / S: each coarse layer reached is stored in `ring`, or extrapolated with the
    // one stored there (RichardsonSquare) and fitted.
    void fine_startup(const LayerRingView& ring, int S, StartupLayer layer) {
        const LayerRingView fine = ring_view(fine_ring_);
        const int fine_N = s_.N * S;
        const double h = time_.dt() / S;
        const int slot = ring.slot_size(), values = functions() * points_;
        thrust::copy(context_.policy(), ring.layer(s_.N).base, ring.layer(s_.N).base + slot, fine.layer(fine_N).base);
        for (int m = fine_N - 1; m >= fine_N - (K_ - 1) * S; --m) {
            const int taken = fine_N - m;
            step(fine, m, std::min(taken, s_.Ky), std::min(taken, s_.Kz), h, s_.T - taken * h, fine_N);
            if (taken % S != 0) continue;
            double* coarse = ring.layer(m / S).base;
            const double* reached = fine.layer(m).base;
            if (layer == StartupLayer::store) {
                thrust::copy(context_.policy(), reached, reached + slot, coarse);
            } else {
                thrust::transform(context_.policy(), reached, reached + values, coarse, coarse, RichardsonSquare{});
                fit(ring.layer(m / S));
            }
        }
    }

    // Layer n of a ring whose terminal layer is `terminal` (N, or N S for the start-up's fine ring).
    void step(const LayerRingView& ring, int n, int ky, int kz, double dt, double t_n, int terminal) {
        // the 2D rule of a terminal layer kinked along a line (unused otherwise)
        KinkLineExpectation kink_line_rule{raw(nodes_), raw(weights_), s_.L, KinkLine{Vec2{{1.0, 0.0}}, 0.0},
                                            space_.dx(), std::max(4.0, KreissKernel{s_.smoothing}.half_width() + 1.0)};
        if constexpr (d == 2 && has_terminal_kink<Problem>::value) kink_line_rule.kink = problem_.terminal_kink();
        using Rule = GaussHermiteOnGrid<typename Evaluator::Shift>;
        const Rule smooth_rule{node_table(dt), s_.L, stage_};
        constexpr bool kinked = has_terminal_kink<Problem>::value;
        // the young layers' rule in 1D (in 2D every layer is read with L nodes a direction)
        constexpr bool young_layers_read = kinked && d == 1;
        const Rule young_rule = young_layers_read ? Rule{young_node_table(dt), young_rule_points(), stage_} : smooth_rule;
        const StepCoefficients<Evaluator> coefficients{ky,
                                                       kz,
                                                       raw(gamma_y_) + ky * (K_ + 1),
                                                       raw(gamma_z_) + kz * (K_ + 1),
                                                       smooth_rule,
                                                       CellGaussLegendreExpectation{space_.dx()},
                                                       kink_line_rule,
                                                       kinked ? terminal : -1,
                                                       young_rule,
                                                       young_layers_read ? K_ - 1 : 0};
        const int pass_start = phase_mark();
        const int K = std::max(ky, kz);
        // n + K <= terminal (the main loop's n <= N - K, the start-up's K = min(taken, K_)): a step that reads the
        // kinked terminal layer reads it as its oldest, n + K, which is how the separable pass takes it (separable_pass)
        const bool reads_kinked = coefficients.kinked_layer >= 0 && n + K == coefficients.kinked_layer;
        bool reads_young = false;
        for (int j = 1; j <= K; ++j) reads_young = reads_young || coefficients.young(n + j);
        // the fused pass's steps that read the kinked terminal layer or a young one run as a kernel of their own
        // (MultistepPointUpdate)
        if (separable()) {
            separable_pass(ring, n, coefficients, dt, t_n);
            run_.separable_layers += K;
        } else if (reads_kinked || reads_young) {
            pass_of_points<kinked>(ring, n, coefficients, dt, t_n);
        } else {
            pass_of_points<false>(ring, n, coefficients, dt, t_n);
        }
        const int pass_end = phase_span(&SweepPhaseSeconds::expectation, pass_start);
        if (stage_.stride > 0 && !separable())
            for (int j = 1; j <= K; ++j)
                if (n + j != coefficients.kinked_layer) run_.staged_axis_sums += staged_sums_[j - 1];
        run_.step_times.push_back(t_n);
        ++run_.steps_done;
        if (run_.steps_done - run_.steps_reduced == status_depth()) {
            reduce_statuses();
            phase_span(&SweepPhaseSeconds::status, pass_end);
        }
        if (run_.steps_done % status_check_interval == 0) check_status(run_.steps_done);
        if (s_.progress && run_.steps_done % progress_interval == 0) s_.progress(run_.steps_done, steps());
        const int fit_start = phase_mark();
        fit(ring.layer(n));
        phase_span(&SweepPhaseSeconds::fit, fit_start);
    }

    template <bool reads_kinked_layer, int P>
    using PointUpdate = MultistepPointUpdate<Problem, Evaluator, reads_kinked_layer, P>;

    // The fused pass of layer n with points_per_call() grid points per call (PointUpdate).
    template <bool reads_kinked_layer>
    void pass_of_points(const LayerRingView& ring, int n, const StepCoefficients<Evaluator>& coefficients, double dt,
                        double t_n) {
        static_assert(max_points_per_call == 3, "a case for each number of points per call");
        if constexpr (runs_possible) {
            switch (points_per_call()) {
            case 3:
                return pass<PointUpdate<reads_kinked_layer, 3>>(ring, n, coefficients, dt, t_n);
            case 2:
                return pass<PointUpdate<reads_kinked_layer, 2>>(ring, n, coefficients, dt, t_n);
            }
        }
        pass<PointUpdate<reads_kinked_layer, 1>>(ring, n, coefficients, dt, t_n);
    }

    // The fused pass of layer n: Update (MultistepPointUpdate) at every grid point, in the points' order of the pass.
    template <class Update>
    void pass(const LayerRingView& ring, int n, const StepCoefficients<Evaluator>& coefficients, double dt, double t_n) {
        const PointOrder<d> order{space_.M, stage_.stride > 0 ? 1 : 16};
        constexpr int per_call = Update::points_per_call;
        context_.template for_each_group<lanes_per_point, pass_blocks_per_sm>(
            (order.visits() + per_call - 1) / per_call,
            VisitInOrder<d, Update>{order, Update{problem_, fitter_.evaluator(), ring, grid_, coefficients, n, t_n, dt,
                                                  picard_, step_point_status()}},
            2 * stage_.buffer);
    }

    // This step's grid point statuses (status_depth()).
    StepStatus* step_point_status() {
        return raw(point_status_) + static_cast<std::size_t>(run_.steps_done - run_.steps_reduced) * points_;
    }

    // Whether the steps run the separable pass (separable_pass.h): a 2D problem with an affine driver and an
    // interpolation of the staged form (the tensor spline), unless the settings ask for the fused pass.
    static constexpr bool separable_possible =
        d == 2 && has_affine_driver<Problem>::value && stages_rows<Evaluator>::value;
    bool separable() const { return separable_possible && s_.separable_pass; }

    // The separable pass of layer n: for each stored layer, from the oldest (n + K) to the newest (n + 1, whose
    // fit the work before writes), its axis-1 sums over the grid's rows and ghosted columns, then its axis-2 sums
    // at the grid points, which add the layer's part to the points' sums; the newest's solve the points. A kinked
    // terminal layer is read so as the oldest (step()); then at the points where the kink-line rule resolves the
    // kink, that rule's sums replace the smooth rule's (SeparableKinkBandSums), and where it is the only layer
    // read, the points are solved after that (SeparableSolve).
    void separable_pass(const LayerRingView& ring, int n, const StepCoefficients<Evaluator>& coefficients, double dt,
                        double t_n) {
        if constexpr (separable_possible) {
            const int ky = coefficients.ky, kz = coefficients.kz, K = std::max(ky, kz);
            const double* gamma_y = host_gamma_y_.data() + ky * (K_ + 1);
            const double* gamma_z = host_gamma_z_.data() + kz * (K_ + 1);
            const SeparableWorkspace work{raw(separable_), space_.M};
            const Evaluator evaluator = fitter_.evaluator();
            const PointSolver<Problem> solve{problem_, ring, grid_, n, t_n, ky * dt * gamma_y[0], picard_,
                                             step_point_status()};
            const bool kinked_alone = n + 1 == coefficients.kinked_layer;
            for (int j = K; j >= 1; --j) {
                const Node* nodes = coefficients.smooth_rule.table + (j - 1) * s_.L;
                const SeparableLayerTerms terms =
                    SeparableLayerTerms::of(j, ky, kz, dt, gamma_y, gamma_z, driver_at(problem_, t_n + j * dt));
                context_.template for_each_group<1, axis1_blocks_per_sm>(
                    SeparableAxis1Sums<Evaluator>::visits(space_.M),
                    EachVisit<SeparableAxis1Sums<Evaluator>>{{evaluator, ring.layer(n + j), nodes, s_.L, terms, work}});
                context_.template for_each_group<1, axis2_blocks_per_sm>(
                    points_, EachVisit<SeparableAxis2Sums<Problem, Evaluator>>{
                                 {evaluator, nodes, s_.L, terms, work, j == K, j == 1 && !kinked_alone, gamma_z[0], solve}});
                if constexpr (has_terminal_kink<Problem>::value) {
                    if (n + j == coefficients.kinked_layer) {
                        const KinkBandVisits band = KinkBandVisits::of(coefficients.kink_line_rule, j * dt, grid_);
                        const SeparableKinkBandSums<Problem, Evaluator> sums{
                            evaluator, ring.layer(n + j), band, driver_at(problem_, t_n + j * dt), terms, work};
                        context_.template for_each_group_of<kink_band_lanes, kink_band_blocks_per_sm>(band.count(), sums);
                    }
                }
            }
            if (kinked_alone)
                context_.template for_each_group<1, axis2_blocks_per_sm>(
                    points_, EachVisit<SeparableSolve<Problem>>{{work, gamma_z[0], solve}});
        }
    }

    // Whether the 2D pass runs by sum factorisation (expectation_rules.h, GaussHermiteOnGrid): where the
    // interpolation has the staged form (the tensor spline) and the context's blocks stage (cuda), with the
    // stage of a block of Context::block_threads points in its shared memory: two buffers of the evaluator's
    // stage_layout for the widest rule's cell shifts (that of variance K dt).
    void choose_stage() {
        if constexpr (d == 2 && stages_rows<Evaluator>::value) {
            const int low = rule_node(time_.dt(), K_, 0).shift.cells;
            const int high = rule_node(time_.dt(), K_, s_.L - 1).shift.cells;
            const StageLayout layout = fitter_.evaluator().stage_layout(Context::block_threads, low, high, functions());
            if (2.0 * layout.buffer * sizeof(double) <= context_.stage_bytes_per_block()) stage_ = layout;
        }
    }

    // staged_sums_[j - 1]: the axis-1 sums the staged pass makes for a layer read with row j of the node table
    // `table`: over the pass's blocks and their rows' windows (the evaluator's row_windows), L nodes along axis 1,
    // every function.
    void count_staged_sums(const std::vector<Node>& table) {
        const int P = Context::block_threads;
        const Evaluator evaluator = fitter_.evaluator();
        staged_sums_.assign(K_, 0.0);
        for (int j = 1; j <= K_; ++j) {
            const Node* row = table.data() + (j - 1) * s_.L;
            const RowReach reach{row[0].shift.cells, row[s_.L - 1].shift.cells, stage_};
            double columns = 0.0;
            for (int first = 0; first < points_; first += P) {
                const auto windows = evaluator.row_windows(first, std::min(points_, first + P) - 1, reach);
                for (int r = windows.first_row; r <= windows.last_row; ++r)
                    columns += windows.end(r) - windows.begin(r) + 1;
            }
            staged_sums_[j - 1] = columns * s_.L * functions();
        }
    }

    // The smooth rule's node table for steps of size dt (GaussHermiteOnGrid, grid_nodes.h): row j - 1 holds
    // the L nodes of variance j dt, j = 1..K, each with its shift on the grid. Made on the host when dt
    // changes (the start-up's fine steps, then the main steps), K L entries.
    const Node* node_table(double dt) {
        if (dt != node_table_dt_) {
            const std::vector<Node> table = rule_rows(dt, rule_);
            node_table_.assign(table.begin(), table.end());
            node_table_dt_ = dt;
            if constexpr (stages_rows<Evaluator>::value)
                if (stage_.stride > 0) count_staged_sums(table);
        }
        return raw(node_table_);
    }

    // Node l of row j of the node table for steps of size dt: dW = sqrt(2 j dt) a_l (as GaussHermiteExpectation's
    // sqrt(2 v)), omega_l / sqrt(pi) and the interpolation's shift of dW; of the rule `rule` (the L nodes', or the
    // young layers' young_rule_points()).
    Node rule_node(double dt, int j, int l, const GaussHermiteRule& rule) const {
        const double dW = std::sqrt(2.0 * (j * dt)) * rule.nodes[l];
        return {dW, rule.weights[l] / std::sqrt(pi), fitter_.evaluator().shift(dW)};
    }
    Node rule_node(double dt, int j, int l) const { return rule_node(dt, j, l, rule_); }

    // The rows j = 1..K of `rule`'s nodes for steps of size dt (rule_node), one after the other.
    std::vector<Node> rule_rows(double dt, const GaussHermiteRule& rule) const {
        const int points = static_cast<int>(rule.nodes.size());
        std::vector<Node> rows;
        for (int j = 1; j <= K_; ++j)
            for (int l = 0; l < points; ++l) rows.push_back(rule_node(dt, j, l, rule));
        return rows;
    }

    // The nodes of the young layers' rule (StepCoefficients::young_rule): 2 L, at most the largest rule.
    int young_rule_points() const { return std::min(2 * s_.L, gauss_hermite_max_points); }

    // young_rule's table for steps of size dt, as node_table's: K rows of young_rule_points() nodes.
    const Node* young_node_table(double dt) {
        if (dt != young_node_table_dt_) {
            if (young_rule_.nodes.empty()) young_rule_ = gauss_hermite(young_rule_points());
            const std::vector<Node> table = rule_rows(dt, young_rule_);
            young_node_table_.assign(table.begin(), table.end());
            young_node_table_dt_ = dt;
        }
        return raw(young_node_table_);
    }

    // With settings.time_phases (bsde bench): a mark in the context's work (on cuda an event on the stream, so
    // that nothing waits and the instrumented sweep runs as the others), and a phase's span from the mark
    // `start` to a mark made now, added up after the sweep (run()). Without, 0 and nothing, at no cost.
    using PhaseSeconds = double SweepPhaseSeconds::*;
    struct PhaseSpan {
        PhaseSeconds phase;
        int from, to;  // the context's marks
    };
    int phase_mark() { return s_.time_phases ? context_.mark() : 0; }
    int phase_span(PhaseSeconds phase, int start) {
        if (!s_.time_phases) return 0;
        const int end = context_.mark();
        run_.phase_spans.push_back({phase, start, end});
        return end;
    }

    // Steps whose grid points' statuses are kept (point_status_) before they are reduced to one status per step
    // in one launch (and before each check).
    // 1D: 32 (24 bytes per point and step, 3.4x the ring of K = 6): on cuda a reduction is a launch as long as the 1D
    // fit, so 32 steps share one (docs/performance.md, "The status reduction"). Fewer where 32 steps of grid points
    // would pass the 32-bit offsets of the reduction's segments (M + 1 above 67 million).
    // 2D: 1, since the pass takes milliseconds there.
    int status_depth() const { return d == 1 ? std::min(32, INT_MAX / points_) : 1; }

    // The statuses of the steps since the last reduction: status_[step] = CombineStepStatus over the grid points.
    void reduce_statuses() {
        const int pending = run_.steps_done - run_.steps_reduced;
        if (pending == 0) return;
        context_.reduce_segments_into(raw(point_status_), points_, pending, StepStatus{}, CombineStepStatus{},
                                      raw(status_) + run_.steps_reduced);
        run_.steps_reduced = run_.steps_done;
    }

    // Reads back the statuses of the steps not yet checked; stops at the first non-finite value.
    void check_status(int steps) {
        reduce_statuses();
        context_.copy_to_host(status_.begin() + run_.steps_checked, status_.begin() + steps,
                              host_status_.begin() + run_.steps_checked);
        for (; run_.steps_checked < steps; ++run_.steps_checked) {
            const StepStatus& status = host_status_[run_.steps_checked];
            if (status.first_nonfinite != INT_MAX) {
                const int i = status.first_nonfinite;
                throw NumericalError("non-finite y or z in step " + std::to_string(run_.steps_checked + 1) + " of " +
                                     std::to_string(this->steps()) + " (t = " +
                                     format_number(run_.step_times[run_.steps_checked]) + "), grid index " +
                                     std::to_string(i) + " (w = " + describe(grid_(i)) + ")");
            }
            run_.picard_most = std::max(run_.picard_most, status.picard_iterations);
            run_.picard_change_largest = std::max(run_.picard_change_largest, status.picard_change);
            if (status.picard_unconverged > 0) {  // Picard ended above its tolerance at some point
                if (run_.picard_unconverged_steps++ == 0) run_.picard_first_unconverged = run_.steps_checked;
                run_.picard_unconverged_change = std::max(run_.picard_unconverged_change, status.picard_change);
                if (s_.picard_strict)
                    throw NumericalError(picard_not_converged(run_.steps_checked) + " (--strict)");
            }
        }
    }

    // "Picard did not converge in step s of S (t = ...) at P of Q grid points: largest remaining change ...".
    std::string picard_not_converged(int step) const {
        const StepStatus& status = host_status_[step];
        std::string text = "Picard did not converge in step " + std::to_string(step + 1) + " of " +
                           std::to_string(steps()) + " (t = " + format_number(run_.step_times[step]) + ") at " +
                           std::to_string(status.picard_unconverged) + " of " + std::to_string(points_) +
                           " grid points: largest remaining change " + format_number(status.picard_change) +
                           " after " + std::to_string(status.picard_iterations) + " iterations (--picard " +
                           std::to_string(s_.picard_iterations) + "), tolerance " +
                           format_number(s_.picard_tolerance) + " (" + format_number(picard_.scale, "%.4g") +
                           " + |y|) (--picard-tol; " + format_number(picard_.scale, "%.4g") + " by " +
                           picard_scale_source_ + ")";
        if (run_.picard_unconverged_steps > 1)
            text += "; " + std::to_string(run_.picard_unconverged_steps) + " steps did not converge, largest remaining change " +
                    format_number(run_.picard_unconverged_change);
        return text;
    }

    static std::string describe(const Point<d>& w) {
        std::string text = d == 1 ? "" : "(";
        for (int k = 0; k < d; ++k) text += (k ? ", " : "") + format_number(component(w, k));
        return text + (d == 1 ? "" : ")");
    }

    void collect(const LayerView& layer, SolveResult& result) {
        result.dimension = d;
        result.M = space_.M;
        result.startup_substeps = substeps_;
        result.startup_refine = startup_refine_;
        result.terminal_kinked = has_terminal_kink<Problem>::value;
        const auto first = ring_.begin() + (layer.base - raw(ring_));
        result.y.assign(points_, 0.0);
        result.z.assign(static_cast<std::size_t>(d) * points_, 0.0);
        context_.copy_to_host(first, first + points_, result.y.begin());
        context_.copy_to_host(first + points_, first + (1 + d) * points_, result.z.begin());
        result.w.resize(static_cast<std::size_t>(d) * points_);
        for (int i = 0; i < points_; ++i)
            for (int k = 0; k < d; ++k) result.w[k * points_ + i] = component(grid_(i), k);
        const int centre = space_.centre();
        result.y0 = result.y[centre];
        result.z0.resize(d);
        for (int k = 0; k < d; ++k) result.z0[k] = result.z[k * points_ + centre];
        result.picard_most_iterations = run_.picard_most;
        result.picard_largest_change = run_.picard_change_largest;
        result.picard_unconverged_steps = run_.picard_unconverged_steps;
        result.picard_scale = picard_.scale;
        if (run_.picard_unconverged_steps > 0) result.picard_warning = picard_not_converged(run_.picard_first_unconverged);
        result.staged_axis_sums = run_.staged_axis_sums;
        result.separable_layers = run_.separable_layers;
        result.startup_grid_separable_layers = run_.startup_grid_separable_layers;
        result.storage_bytes = storage_bytes();
        result.device_bytes_measured = context_.device_bytes_in_use();
        result.has_exact = Problem::has_exact_solution;
        collect_exact(layer, result, std::integral_constant<bool, Problem::has_exact_solution>());
    }

    void collect_exact(const LayerView& layer, SolveResult& result, std::true_type) {
        result.y_exact.resize(points_);
        result.z_exact.resize(static_cast<std::size_t>(d) * points_);
        for (int i = 0; i < points_; ++i) {
            const Point<d> w = grid_(i);
            result.y_exact[i] = problem_.exact_y(0.0, w);
            const Point<d> z = problem_.exact_z(0.0, w);
            for (int k = 0; k < d; ++k) result.z_exact[k * points_ + i] = component(z, k);
        }
        const int centre = space_.centre();
        result.y0_exact = result.y_exact[centre];
        result.z0_exact.resize(d);
        for (int k = 0; k < d; ++k) result.z0_exact[k] = result.z_exact[k * points_ + centre];
        collect_state(result, std::integral_constant<bool, has_state_map<Problem>::value>());
        double largest[2] = {0.0, 0.0};  // y, z (largest over the components)
        for (int c = 0; c < 1 + d; ++c) {
            auto errors = thrust::make_transform_iterator(thrust::counting_iterator<int>(0),
                                                          InnerError<Problem>{problem_, layer, grid_, s_.R / 2, c});
            const double error = context_.reduce(errors, points_, 0.0, Maximum{});
            largest[c == 0 ? 0 : 1] = std::max(largest[c == 0 ? 0 : 1], error);
        }
        result.max_y_error_inner = largest[0];
        result.max_z_error_inner = largest[1];
    }
    void collect_exact(const LayerView&, SolveResult&, std::false_type) {}

    // S(0, w), the computed dV/dS and the exact one, d columns each, for problems with a state map (the options).
    void collect_state(SolveResult& result, std::true_type) {
        result.has_state = true;
        result.state.resize(d * points_);
        result.gradient.resize(d * points_);
        result.gradient_exact.resize(d * points_);
        for (int i = 0; i < points_; ++i) {
            const Point<d> w = grid_(i);
            Point<d> z, z_exact;
            for (int k = 0; k < d; ++k) {
                component(z, k) = result.z[k * points_ + i];
                component(z_exact, k) = result.z_exact[k * points_ + i];
            }
            const Point<d> state = problem_.state(0.0, w), gradient = problem_.value_gradient(0.0, w, z),
                           gradient_exact = problem_.value_gradient(0.0, w, z_exact);
            for (int k = 0; k < d; ++k) {
                result.state[k * points_ + i] = component(state, k);
                result.gradient[k * points_ + i] = component(gradient, k);
                result.gradient_exact[k * points_ + i] = component(gradient_exact, k);
            }
        }
    }
    void collect_state(SolveResult&, std::false_type) {}

    double storage_bytes() const {
        return sizeof(double) * (ring_.size() + fine_ring_.size() + separable_.size() + nodes_.size() +
                                 weights_.size() + gamma_y_.size() + gamma_z_.size()) +
               sizeof(Node) * node_table_.size() + sizeof(StepStatus) * (point_status_.size() + status_.size()) +
               fitter_.storage_bytes() + (startup_sweep_ ? startup_sweep_->storage_bytes() : 0.0);
    }

    // Grid points per call of the fused pass (MultistepPointUpdate's P), where the update can take several (1D with an
    // evaluator of the run form): the settings' choice (SchemeSettings::points_per_call), else the P = 1, 2 or 3 whose
    // calls, ceil((M + 1) / P), each with the lanes the context gives them (lanes_for: a power of two up to
    // lanes_per_point on cuda, one on the host, lanes.h), make the most threads within the threads the context runs at
    // once (on cuda a wave of the pass, on the host its threads); a P within 1/16 of the most counts as equal, and of
    // equals the largest P is taken, since P points share a node's loads (2 P + 2 entries of each function's arrays for
    // P points, against 4 for each) and no second wave is started; where no P fits, pairs. On the host the threads are
    // few, so it is pairs unless a grid has at most three points per thread (docs/performance.md, "Points per call").
    int points_per_call() const {
        if constexpr (!runs_possible) {
            return 1;
        } else {
            if (s_.points_per_call > 0) return s_.points_per_call;
            const long long at_once = context_.threads_at_once(pass_blocks_per_sm);
            long long most_threads = 0;
            int chosen = 2;
            for (int P = 1; P <= max_points_per_call; ++P) {
                const long long calls = (points_ + P - 1LL) / P;
                const long long threads = calls * context_.lanes_for(calls, lanes_per_point, pass_blocks_per_sm);
                if (threads > at_once) continue;
                if (16 * threads >= 15 * most_threads) chosen = P;
                most_threads = std::max(most_threads, threads);
            }
            return chosen;
        }
    }

    // Most threads per call (a grid point or a run of them, points_per_call) in the fused pass on cuda (lanes.h; the
    // context takes the most that fit in one wave of the device, for_each_group). In 1D the grid alone
    // (M + 1 = 32769 points for ex2 at N = 1024) gives 132 SMs only 8 warps each, too few to hide the latency of
    // the K L dependent node evaluations per point; with G lanes each lane takes K L / G of them (of 1, 8 and 32
    // lanes, 8 in a warp ran fastest; docs/performance.md, "Lanes per point"). In 2D the (M+1)^2 points are enough.
    static constexpr int lanes_per_point = d == 1 ? 8 : 1;
    // Lanes per point and blocks per SM of the kinked layer's band in the separable pass (SeparableKinkBandSums; on
    // cuda, in as many waves as the band's points take): each lane takes every eighth node across the line and all L
    // along it: 8 lanes and 3 blocks (80 registers) ran fastest of the shapes tried (docs/performance.md,
    // "The separable 2D pass").
    static constexpr int kink_band_lanes = 8, kink_band_blocks_per_sm = 3;
    // Blocks per SM of the separable pass's axis-1 and axis-2 sums (on cuda; one thread per visit): the axis-1 sums
    // at 2 (128 registers), the axis-2 sums at 4 (64 registers), each the fastest of 2, 3 and 4 blocks
    // (docs/performance.md, "Registers and warps per SM").
    static constexpr int axis1_blocks_per_sm = 2, axis2_blocks_per_sm = 4;
    // Whether a call of the pass may take several neighbouring grid points (points_per_call).
    static constexpr bool runs_possible = MultistepPointUpdate<Problem, Evaluator>::runs_possible;
    // Blocks of the fused pass on an SM of a GPU, which caps its registers (cuda_system.cuh): in 1D 2 blocks (128
    // registers) with two or three evaluations in flight per thread (a run's points', or two nodes' of a single point:
    // the node loop unrolled by two, GaussHermiteOnGrid), their loads and exp, faster than 3 blocks (80 registers)
    // with one node at a time (which spilled when unrolled); in 2D 4 blocks (64 registers, with the kinked rule's steps
    // in a kernel of their own), faster than 3 or 2 (docs/performance.md, "Registers and warps per SM").
    static constexpr int pass_blocks_per_sm = d == 1 ? 2 : 4;
    static constexpr double pi = 3.14159265358979323846;
    static constexpr int status_check_interval = 64;
    static constexpr int progress_interval = 8;

    Context& context_;
    Problem problem_;
    SchemeSettings s_;
    TimeGrid time_;
    SpaceGrid space_;
    int K_, points_, substeps_ = 0;
    int startup_refine_ = 0;  // startup_refinement: of the run's own sweep; 0 in the start-up's
    std::unique_ptr<BackwardSweep> startup_sweep_;  // where startup_refine_ > 1
    GridPoints<d> grid_;
    Fitter fitter_;
    Vector ring_, fine_ring_, nodes_, weights_, gamma_y_, gamma_z_;
    Vector separable_;  // the separable pass's workspace (SeparableWorkspace), where it runs
    std::vector<double> host_gamma_y_, host_gamma_z_;  // gamma_y_, gamma_z_ on the host
    typename Context::template vector<Node> node_table_, young_node_table_;
    double node_table_dt_ = 0.0, young_node_table_dt_ = 0.0;  // the step sizes the tables were made for (0: none yet)
    GaussHermiteRule rule_, young_rule_;  // the L-point rule, young_rule_points()' (made when first needed)
    StageLayout stage_{0, 0};                    // the staged 2D pass's (choose_stage); stride 0: none
    std::vector<double> staged_sums_;            // per row of the node table (count_staged_sums)
    typename Context::template vector<StepStatus> point_status_;  // status_depth() steps of grid points
    typename Context::template vector<StepStatus> status_;         // per step
    std::vector<StepStatus> host_status_;
    PicardStop picard_{s_.picard_iterations, s_.picard_tolerance, 1.0};  // its scale from the terminal layer (run)
    std::string picard_scale_source_;  // what gave picard_.scale (picard_scale)
    // What a solve counts, from zero at every run().
    struct Tally {
        std::vector<double> step_times;
        int steps_done = 0, steps_reduced = 0, steps_checked = 0;
        int picard_most = 0;
        double picard_change_largest = 0.0;
        int picard_unconverged_steps = 0, picard_first_unconverged = -1;  // steps where Picard ended above tolerance
        double picard_unconverged_change = 0.0;                           // the largest last change of those steps
        std::vector<PhaseSpan> phase_spans;  // with settings.time_phases
        double staged_axis_sums = 0.0;       // SolveResult::staged_axis_sums
        int separable_layers = 0;            // SolveResult::separable_layers
        int startup_grid_separable_layers = 0;  // SolveResult::startup_grid_separable_layers
    } run_;
};

}  // namespace bsde
