// The backward sweep of the multistep scheme (scheme.md, "One backward step"), written once as
// Thrust algorithms over the backend's vectors; a template on the problem (its dimension d = 1, 2 or 3),
// the interpolation family (interpolation.h) and the backend context. Four hops from the time loop to a node:
//   BackwardSweep::run                   the time loop: terminal layer, start-up, steps N-K..0, the result
//   BackwardSweep::step                  one step: its weights and rules, a pass over the grid, statuses, the
//                                        projection onto an obstacle (reflected BSDEs), the fit
//   MultistepPointUpdate                 the step's equation at a grid point (sweep_functors.h; in 2D with an affine
//                                        driver the separable pass, separable_pass.h, takes the same LayerWeights)
//   LayerExpectations::add_node          one node: the interpolant and the driver at w + dW (sweep_functors.h)
// What is decided before the run (memory, launch shapes) is in sweep_plan.h, the steps' diagnostics in
// step_status_log.h, a reflected BSDE's exercise boundary in exercise_boundary.h, the copy of the answer in
// solution_at_zero.h.
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
#include "../scheme/run_time.h"
#include "exercise_boundary.h"
#include "feynman_kac_layer.h"
#include "member_solution.h"
#include "separable_pass.h"
#include "slab_link.h"
#include "../scheme/slabs.h"
#include "solution_at_zero.h"
#include "step_status_log.h"
#include "sweep_plan.h"
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
        : BackwardSweep(context, std::vector<Problem>{problem}, settings, 1) {}
    // A batch (Members): the members, B parameter sets of the problem with the same T, on one grid, in one sweep. For
    // problems with an obstacle, one member. A 2D batch's fused pass is not staged (choose_stage).
    BackwardSweep(Context& context, const std::vector<Problem>& members, const SchemeSettings& settings)
        : BackwardSweep(context, members, settings, 1) {}
    // Slab `slab` of settings.gpus slabs of the grid (slabs.h): its rows, with their halos exchanged through `link` after
    // each step's pass. The slab that owns the centre row holds the result's y_0 and z_0 (owns_centre).
    BackwardSweep(Context& context, const Problem& problem, const SchemeSettings& settings, int slab, SlabLink& link)
        : BackwardSweep(context, {problem}, settings, 1, slab, &link) {}

    // The rows this sweep holds and owns (SlabRows::whole without slabs), and whether its owned rows hold w = 0.
    const SlabRows& rows() const { return rows_; }
    bool owns_centre() const { return rows_.owned_first <= space_.M / 2 && space_.M / 2 <= rows_.owned_last; }

private:
    // A sweep on the grid of `refinement` M intervals per axis: 1 for the run's own, r > 1 for the start-up's
    // (startup_refinement), which runs only the start-up (run_startup) and takes its memory from the run's check.
    BackwardSweep(Context& context, const std::vector<Problem>& members, const SchemeSettings& settings, int refinement,
                  int slab = 0, SlabLink* link = nullptr)
        : context_(context), s_(settings), time_{settings.N, settings.T},
          space_{refinement *
                     space_intervals(settings.Ky, settings.Kz, settings.N, settings.T, settings.R, settings.grid_order),
                 settings.R, d},
          K_(settings.K()), B_(static_cast<int>(members.size())),
          rows_(link ? slab_of(settings, space_.M, slab) : SlabRows::whole(space_.M)), link_(link),
          member_points_(rows_.count() * row_points()), points_(checked_points(B_, member_points_)),
          first_owned_((rows_.owned_first - rows_.first) * row_points()), owned_points_(rows_.owned_count() * row_points()),
          grid_{-settings.R, space_.dx(), space_.M, rows_.first, rows_.count() - 1},
          fitter_(make_fitter(context, space_, rows_, SplineOptions{settings.spline, settings.spline_solve})),
          host_members_(members), problems_(members.begin(), members.end()) {
        if (B_ > 1 && has_obstacle<Problem>::value)
            throw InputError(std::string("a batch of problem ") + Problem::name +
                             ": a problem with an obstacle is solved one at a time");
        if (s_.startup == Startup::exact && !Problem::has_exact_solution)
            throw InputError("--startup exact: problem " + std::string(Problem::name) + " has no exact solution");
        s_.startup = resolved_startup(s_.startup, feynman_kac_applies<Problem>);
        s_.terminal_kinked = has_terminal_kink<Problem>::value;
        if (s_.startup == Startup::feynman_kac && !feynman_kac_applies<Problem>)
            throw InputError("--startup feynman-kac: problem " + std::string(Problem::name) +
                             (has_obstacle<Problem>::value ? " is reflected on an obstacle" : "'s driver is not affine") +
                             "; --startup multistep takes any problem");
        substeps_ = static_cast<int>(startup_substeps(s_));
        const bool own_grid = refinement == 1;
        if (own_grid) {
            for (int b = 0; b < B_; ++b) {
                try {
                    check_problem_against_grid(host_members_[b], s_);
                } catch (const InputError& e) {
                    if (B_ == 1) throw;
                    throw InputError("member " + std::to_string(b + 1) + " of the batch: " + e.what());
                }
            }
            startup_refine_ = startup_refinement(s_, d);
        }
        const double needed_bytes = own_grid ? check_memory() : 0.0;
        if (s_.warn_before_run && own_grid) {
            const std::string long_run =
                long_run_warning(s_, d, separable(), context_.pace());
            if (!long_run.empty()) s_.warn_before_run(long_run);
            if (const std::string reflected = reflected_order_warning<Problem>(s_); !reflected.empty())
                s_.warn_before_run(reflected);
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
        // with the amount. Test hook (docs/cli.md, "Errors and exit codes"): BSDE_TEST_FAIL_ALLOCATION=1 makes it
        // fail here as an exhausted allocator does (std::bad_alloc).
        try {
            if (std::getenv("BSDE_TEST_FAIL_ALLOCATION")) throw std::bad_alloc();
            statuses_.allocate(steps(), points_, status_depth(d, points_));
            exercise_.allocate(time_, s_.R, points_);
            ring_.resize(ring_doubles());
            if (substeps_ > 0 && startup_refine_ <= 1) fine_ring_.resize(ring_.size());
            if (separable()) {
                separable_.resize(B_ * SeparableWorkspace<d == 3 ? 3 : 2>::doubles(space_.M, rows_.count() - 1));
                separable_terms_.resize(std::size_t(K_) * B_);
            }
            picard_scales_.resize(B_);
            picard_sums_.resize(2 * B_ + 1);
            if (s_.startup == Startup::feynman_kac) flows_.resize(std::size_t(K_ - 1) * B_);
            if (startup_refine_ > 1)
                startup_sweep_.reset(new BackwardSweep(context, members, settings, startup_refine_));
            if (link_) halo_transfers_ = halo_rows(settings, slab);
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
        statuses_.clear();
        const LayerRingView ring = ring_view(ring_);
        set_layer(ring, s_.N, TerminalLayer<Problem>{members(), ring.layer(s_.N), grid_, KreissKernel{s_.smoothing}});
        set_picard_scales(ring.layer(s_.N));
        if (s_.startup == Startup::exact) {
            for (int n = s_.N - 1; n > s_.N - K_; --n)
                set_layer(ring, n, ExactLayer<Problem>{members(), ring.layer(n), grid_, n * time_.dt()});
        } else if (startup_sweep_) {
            startup_sweep_->run_startup(*this);
            take_startup(*startup_sweep_, ring);
        } else if (s_.startup == Startup::feynman_kac) {
            feynman_kac_startup(ring);
        } else if (substeps_ > 0) {
            multistep_startup(ring);
        }
        for (int n = s_.N - K_; n >= 0; --n) {
            step(ring, n, s_.Ky, s_.Kz, time_.dt(), s_.T - (s_.N - n) * time_.dt(), s_.N);
            exercise_.record(context_, n, grid_);
        }
        check_statuses();
        context_.synchronize();
        SolveResult result;
        result.sweep_seconds = context_.elapsed_seconds();
        for (const PhaseSpan& span : run_.phase_spans) result.phase_seconds.*span.phase += context_.seconds_between(span.from, span.to);
        collect(ring.layer(0), result);
        return result;
    }

private:
    // The rows of slab `slab` of settings.gpus, the settings checked for a split grid (check_slabs).
    static SlabRows slab_of(const SchemeSettings& settings, int M, int slab) {
        check_slabs(settings, d, has_obstacle<Problem>::value, 1);
        return slab_rows(M, settings.gpus, slab, slab_halo(settings, settings.N, d, has_terminal_kink<Problem>::value));
    }
    // The interpolation's fitter on the rows held: a family that splits rows (the tensor splines) takes them; the others
    // run on the whole grid alone (check_slabs).
    static Fitter make_fitter(Context& context, const SpaceGrid& space, const SlabRows& rows, SplineOptions spline) {
        if constexpr (Interpolation::splits_rows)
            return Interpolation::make_fitter(context, space.M, -space.R, space.dx(), spline, rows.count() - 1,
                                              space.point(rows.first));
        else
            return Interpolation::make_fitter(context, space.M, -space.R, space.dx(), spline);
    }
    // (M+1)^(d-1): the points of a row i_1.
    int row_points() const {
        int points = 1;
        for (int axis = 1; axis < d; ++axis) points *= space_.M + 1;
        return points;
    }

    // The rows this slab sends to, and receives from, each other slab after a step: its owned rows that the other
    // holds, and its halo rows that the other owns (rows relative to this slab's first).
    struct HaloRows {
        int peer, send_first, send_count, receive_first, receive_count;
    };
    std::vector<HaloRows> halo_rows(const SchemeSettings& settings, int slab) const {
        const int halo = slab_halo(settings, settings.N, d, has_terminal_kink<Problem>::value);
        std::vector<HaloRows> transfers;
        for (int peer = 0; peer < settings.gpus; ++peer) {
            if (peer == slab) continue;
            const SlabRows other = slab_rows(space_.M, settings.gpus, peer, halo);
            const int send_first = std::max(rows_.owned_first, other.first);
            const int send_last = std::min(rows_.owned_last, other.last);
            const int receive_first = std::max(rows_.first, other.owned_first);
            const int receive_last = std::min(rows_.last, other.owned_last);
            const int send_count = std::max(0, send_last - send_first + 1);
            const int receive_count = std::max(0, receive_last - receive_first + 1);
            if (send_count + receive_count > 0)
                transfers.push_back({peer, send_first - rows_.first, send_count, receive_first - rows_.first,
                                     receive_count});
        }
        return transfers;
    }

    // A new layer's halo rows from the slabs that own them, each function's (HaloRows), before its fit.
    void exchange_halos(const LayerView& layer) {
        if (!link_) return;
        std::vector<HaloTransfer> transfers;
        const std::ptrdiff_t row = row_points();
        for (const HaloRows& h : halo_transfers_)
            for (int k = 0; k < functions(); ++k) {
                double* values = layer.values(k);
                if (h.send_count > 0)
                    transfers.push_back({h.peer, values + h.send_first * row, nullptr, std::size_t(h.send_count * row)});
                if (h.receive_count > 0)
                    transfers.push_back({h.peer, nullptr, values + h.receive_first * row,
                                         std::size_t(h.receive_count * row)});
            }
        link_->exchange(transfers);
    }

    // B (M+1)^d, which the sweep's 32-bit indices must reach; at least one member.
    static int checked_points(int members, int member_points) {
        if (members < 1) throw InputError("an empty batch: no member to solve");
        if (double(members) * member_points > INT_MAX)
            throw InputError("a batch of " + std::to_string(members) + " members of " + std::to_string(member_points) +
                             " grid points each: more than the sweep's 32-bit indices reach (2^31 - 1)");
        return members * member_points;
    }

    // The first member, the problem of a solve of one: the solution on the grid and the exercise boundary (batches of
    // one member), and the separable pass's solver before each member's problem replaces it (MemberPointSolver).
    const Problem& problem() const { return host_members_.front(); }
    int functions() const { return 1 + d; }
    int steps() const { return startup_fine_steps(K_, substeps_) + (s_.N - K_ + 1); }
    int member_data() const { return static_cast<int>(fitter_.data_size()); }
    std::size_t ring_doubles() const {
        return static_cast<std::size_t>(K_ + 1) * functions() * (points_ + std::size_t(B_) * member_data());
    }
    LayerRingView ring_view(Vector& v) { return {raw(v), K_ + 1, points_, B_ * member_data(), functions()}; }
    Members<Problem> members() const { return {raw(problems_), raw(picard_scales_), member_points_, member_data()}; }

    // The arrays the run allocates next (rings, Picard and status arrays; the fitter's workspace is already taken),
    // checked against the free memory (SweepMemory::check). Returns the bytes needed.
    double check_memory() {
        const SweepMemory memory{s_,
                                 d,
                                 double(fitter_.data_size()) / points_,
                                 fitter_.storage_bytes() / points_,
                                 fitter_.storage_bytes(),
                                 separable(),
                                 status_depth(d, points_),
                                 startup_refine_,
                                 B_,
                                 link_ ? s_.gpus : 1,
                                 why_not_split(s_, d, has_obstacle<Problem>::value, B_).empty()};
        return memory.check(context_.free_bytes(), context_.description(), space_.M);
    }

    // Layer n from the problem (terminal condition or exact solution), with its interpolation data.
    template <class LayerValues>
    void set_layer(const LayerRingView& ring, int n, LayerValues values) {
        thrust::for_each(context_.policy(), thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(points_),
                         values);
        fit(ring.layer(n));
    }

    void fit(const LayerView& layer) { fitter_.fit(layer.values(0), layer.data(0), B_ * functions()); }

    // Each member's PicardStop scale (picard_scales_): its terminal data's mean magnitude E|g(W_T)| (TerminalMagnitude,
    // summed over each member's points by the context's segmented reduction); where every term of it underflows (data
    // that are 0 but far out, beyond |w| = 3.9 at T = 0.01), their largest |y|, which scales with them as well; 1 where
    // the data are 0 (or not finite, which the first step's status check reports). picard_.scale is the smallest, for
    // the statuses' messages, and picard_scale_source_ says what gave it. On a slab, its owned points' sums added up
    // over the slabs (the link), so that every slab takes the whole grid's scales.
    void set_picard_scales(const LayerView& terminal) {
        const auto terms = [&](const double* values) {
            return thrust::make_transform_iterator(thrust::counting_iterator<int>(first_owned_),
                                                   TerminalMagnitude<d>{grid_, s_.T, values, member_points_});
        };
        double* sums = raw(picard_sums_);  // B weighted sums, the weight, then B largest |y|
        const double* owned = terminal.values(0) + first_owned_;
        context_.reduce_segments_into(terms(terminal.values(0)), owned_points_, B_, 0.0, Sum{}, sums);
        context_.reduce_segments_into(terms(nullptr), owned_points_, 1, 0.0, Sum{}, sums + B_);
        context_.reduce_segments_into(thrust::make_transform_iterator(owned, AbsoluteValue{}), owned_points_, B_, 0.0,
                                      Maximum{}, sums + B_ + 1);
        if (link_) {
            link_->add_up(sums, B_ + 1);
            link_->take_largest(sums + B_ + 1, B_);
        }
        std::vector<double> host(2 * B_ + 1);
        context_.copy_to_host(picard_sums_.begin(), picard_sums_.end(), host.begin());
        const double weight = host[B_];
        const auto usable = [](double scale) { return scale > 0.0 && std::isfinite(scale); };
        std::vector<double> scales(B_);
        for (int b = 0; b < B_; ++b) {
            const double mean = host[b] / weight, largest = host[B_ + 1 + b];
            scales[b] = usable(mean) ? mean : usable(largest) ? largest : 1.0;
        }
        const int smallest = static_cast<int>(std::min_element(scales.begin(), scales.end()) - scales.begin());
        picard_.scale = scales[smallest];
        picard_scale_source_ = usable(host[smallest] / weight)
                                   ? "E|g(W_T)|, the terminal data's mean magnitude"
                                   : usable(host[B_ + smallest])
                                         ? "the terminal data's largest |y|, where each term of E|g(W_T)| underflows"
                                         : "the terminal data being 0";
        if (B_ > 1) picard_scale_source_ += " (each member its own; the smallest shown)";
        thrust::copy(scales.begin(), scales.end(), picard_scales_.begin());
    }

    // The start-up on this sweep's grid, r times finer than the run's: the terminal layer and the start-up's passes
    // (multistep_startup), with the run's Picard scales, which leave layers N-1..N-K+1 in ring_ for take_startup.
    void run_startup(const BackwardSweep& run) {
        run_ = {};
        statuses_.clear();
        const LayerRingView ring = ring_view(ring_);
        set_layer(ring, s_.N, TerminalLayer<Problem>{members(), ring.layer(s_.N), grid_, KreissKernel{s_.smoothing}});
        picard_.scale = run.picard_.scale;
        picard_scale_source_ = run.picard_scale_source_;
        picard_scales_ = run.picard_scales_;
        multistep_startup(ring);
        check_statuses();
    }

    // Layers N-1..N-K+1 from the start-up's sweep on its grid r times finer: the values at this grid's points, each
    // its r-th point per axis (CoarseGridValues), fitted. The run's tally (steps, Picard, phases) goes on from the
    // start-up's; both sweeps count steps alike (steps()).
    void take_startup(BackwardSweep& startup, const LayerRingView& ring) {
        const LayerRingView fine = startup.ring_view(startup.ring_);
        for (int n = s_.N - 1; n > s_.N - K_; --n) {
            for (int k = 0; k < functions(); ++k)
                thrust::transform(context_.policy(), thrust::counting_iterator<int>(0),
                                  thrust::counting_iterator<int>(points_), ring.layer(n).values(k),
                                  CoarseGridValues<d>{fine.layer(n).values(k), space_.M, startup_refine_,
                                                      member_points_, startup.member_points_});
            fit(ring.layer(n));
        }
        run_ = std::move(startup.run_);
        run_.startup_grid_separable_layers = run_.separable_layers;
        statuses_.continue_from(startup.statuses_);
        exercise_.continue_from(context_, startup.exercise_, s_.N - K_ + 1, s_.N - 1);
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
    // one stored there (RichardsonSquare), projected onto an obstacle (project_on_obstacle) and fitted; its exercise
    // boundary is the finer pass's step's there.
    void fine_startup(const LayerRingView& ring, int S, StartupLayer layer) {
        const LayerRingView fine = ring_view(fine_ring_);
        const int fine_N = s_.N * S;
        const double h = time_.dt() / S;
        const std::ptrdiff_t slot = ring.slot_size(), values = std::ptrdiff_t(functions()) * points_;
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
                exercise_.record(context_, m / S, grid_);
                thrust::transform(context_.policy(), reached, reached + values, coarse, coarse, RichardsonSquare{});
                project_on_obstacle(ring.layer(m / S), s_.T - taken * h, ObstacleGaps{});
                fit(ring.layer(m / S));
            }
        }
    }

    // Layer n of a ring whose terminal layer is `terminal` (N, or N S for the start-up's fine ring).
    void step(const LayerRingView& ring, int n, int ky, int kz, double dt, double t_n, int terminal) {
        // the rule of a terminal layer kinked along a line (2D) or a plane (3D; unused otherwise), each member's kink
        // set where it is read (MultistepPointUpdate, separable_pass)
        using KinkRule = decltype(StepCoefficients<Evaluator, d>::kink_rule);
        const KinkRule kink_rule{raw(nodes_), raw(weights_), s_.L, {}, space_.dx(),
                                 std::max(4.0, KreissKernel{s_.smoothing}.half_width() + 1.0)};
        using Rule = GaussHermiteOnGrid<typename Evaluator::Shift>;
        const Rule smooth_rule{node_table(dt), s_.L, stage_};
        constexpr bool kinked = has_terminal_kink<Problem>::value;
        // the young layers' rule (2D: unstaged, its nodes reaching beyond the stage's rows)
        constexpr bool young_layers_read = kinked;
        const Rule young_rule = young_layers_read
                                    ? Rule{young_node_table(dt), young_rule_points(), d == 1 ? stage_ : StageLayout{}}
                                    : smooth_rule;
        const StepCoefficients<Evaluator, d> coefficients{ky,
                                                       kz,
                                                       raw(gamma_y_) + ky * (K_ + 1),
                                                       raw(gamma_z_) + kz * (K_ + 1),
                                                       smooth_rule,
                                                       CellGaussLegendreExpectation{space_.dx()},
                                                       kink_rule,
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
            fused_pass<kinked>(ring, n, coefficients, dt, t_n);
        } else {
            fused_pass<false>(ring, n, coefficients, dt, t_n);
        }
        exchange_halos(ring.layer(n));
        const int pass_end = phase_span(&SweepPhaseSeconds::expectation, pass_start);
        if (stage_.stride > 0 && !separable())
            for (int j = 1; j <= K; ++j)
                if (n + j != coefficients.kinked_layer) run_.staged_axis_sums += staged_sums_[j - 1];
        if (statuses_.step_done(context_, t_n)) phase_span(&SweepPhaseSeconds::status, pass_end);
        const int done = statuses_.steps_done();
        if (done % status_check_interval == 0) check_statuses();
        if (s_.progress && done % progress_interval == 0) s_.progress(done, steps());
        project_on_obstacle(ring.layer(n), t_n, exercise_.gaps());
        const int fit_start = phase_mark();
        fit(ring.layer(n));
        phase_span(&SweepPhaseSeconds::fit, fit_start);
    }

    // Layers N-1..N-K+1 of a problem with an affine driver and no obstacle by the Feynman-Kac formula, each from the
    // terminal data (feynman_kac_layer.h).
    void feynman_kac_startup(const LayerRingView& ring) {
        if constexpr (feynman_kac_applies<Problem>) {
            std::vector<AffineFlow<d>> host_flows;  // layer N - j's members' at (j - 1) B
            for (int j = 1; j < K_; ++j)
                for (const Problem& member : host_members_)
                    host_flows.push_back(AffineFlow<d>::over(member, s_.T - j * time_.dt(), s_.T));
            thrust::copy(host_flows.begin(), host_flows.end(), flows_.begin());
            for (int j = 1; j < K_; ++j) {
                const FeynmanKacLayer<Problem> layer{members(), raw(flows_) + (j - 1) * B_, ring.layer(s_.N - j), grid_,
                                                     j * time_.dt(), {raw(nodes_), raw(weights_), s_.L}};
                thrust::for_each(context_.policy(), thrust::counting_iterator<int>(0),
                                 thrust::counting_iterator<int>(points_), layer);
                fit(ring.layer(s_.N - j));
            }
        }
    }

    // A reflected BSDE's layer at t, computed and not yet fitted, projected onto y >= h(t, w) (ObstacleProjection),
    // which writes `gaps` for the exercise boundary where given; nothing for a problem without an obstacle.
    void project_on_obstacle(const LayerView& layer, double t, ObstacleGaps gaps) {
        if constexpr (has_obstacle<Problem>::value)
            thrust::for_each(context_.policy(), thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(points_),
                             ObstacleProjection<Problem>{members(), layer, grid_, t, gaps});
    }

    // The fused pass of layer n: the point update (MultistepPointUpdate) at every grid point, in the points' order of
    // the pass, with points_per_call() points per call (each count a kernel of its own on cuda).
    template <bool reads_kinked_layer>
    void fused_pass(const LayerRingView& ring, int n, const StepCoefficients<Evaluator, d>& coefficients, double dt,
                    double t_n) {
        const auto launch = [&](auto points_per_call) {
            constexpr int P = decltype(points_per_call)::value;
            using Update = MultistepPointUpdate<Problem, Evaluator, reads_kinked_layer, P>;
            const PointOrder<d> order{rows_.owned_first - rows_.first, rows_.owned_last - rows_.first, space_.M,
                                      stage_.stride > 0 ? 1 : 16, member_points_};
            context_.template for_each_group<Shapes::lanes_per_point, Shapes::pass_blocks_per_sm>(
                B_ * ((order.visits() + P - 1) / P),
                VisitInOrder<d, Update>{order, Update{members(), fitter_.evaluator(), ring, grid_, coefficients, n, t_n,
                                                      dt, picard_, statuses_.point_statuses()}},
                2 * stage_.buffer);
        };
        static_assert(max_points_per_call == 3, "a case for each number of points per call");
        if constexpr (runs_possible) {
            switch (points_per_call()) {
            case 3:
                return launch(std::integral_constant<int, 3>{});
            case 2:
                return launch(std::integral_constant<int, 2>{});
            }
        }
        launch(std::integral_constant<int, 1>{});
    }


    // Whether the steps run the separable pass (separable_pass.h): a problem with an affine driver and, in 2D, an
    // interpolation of the staged form (the tensor spline), in 3D the tensor spline, unless the settings ask for the
    // fused pass.
    static constexpr bool separable_possible =
        has_affine_driver<Problem>::value && ((d == 2 && stages_rows<Evaluator>::value) ||
                                              (d == 3 && std::is_same_v<Evaluator, TensorSpline3DEvaluator>));
    bool separable() const { return separable_possible && s_.separable_pass; }

    // The separable pass of layer n: for each stored layer, from the oldest (n + K) to the newest (n + 1, whose
    // fit the work before writes), its axis-1 sums over the grid's rows and ghosted columns, then its axis-2 sums
    // at the grid points, which add the layer's part to the points' sums; the newest's solve the points. A kinked
    // terminal layer is read so as the oldest (step()); then at the points where the kink-line rule resolves the
    // kink, that rule's sums replace the smooth rule's (SeparableKinkBandSums), and where it is the only layer
    // read, the points are solved after that (SeparableSolve). A batch's members each with their own terms (their
    // drivers), workspace and kink band.
    void separable_pass(const LayerRingView& ring, int n, const StepCoefficients<Evaluator, d>& coefficients, double dt,
                        double t_n) {
        if constexpr (separable_possible) {
            const int ky = coefficients.ky, kz = coefficients.kz, K = std::max(ky, kz);
            const double* gamma_y = host_gamma_y_.data() + ky * (K_ + 1);
            const double* gamma_z = host_gamma_z_.data() + kz * (K_ + 1);
            const SeparableWorkspace<d> work{raw(separable_), space_.M, rows_.count() - 1};
            const int first_row = rows_.owned_first - rows_.first, last_row = rows_.owned_last - rows_.first;
            const int rows = last_row - first_row + 1;
            const Evaluator evaluator = fitter_.evaluator();
            const MemberPointSolver<Problem> solve{
                members(), {problem(), ring, grid_, n, t_n, ky * dt * gamma_y[0], picard_, statuses_.point_statuses()}};
            const bool kinked_alone = n + 1 == coefficients.kinked_layer;
            thrust::transform(context_.policy(), thrust::counting_iterator<int>(0),
                              thrust::counting_iterator<int>(K * B_), separable_terms_.begin(),
                              MemberLayerTerms<Problem>{members(), B_, ky, kz, dt, t_n, coefficients.gamma_y,
                                                        coefficients.gamma_z});
            for (int j = K; j >= 1; --j) {
                const bool young = coefficients.young(n + j);
                const GaussHermiteOnGrid<typename Evaluator::Shift>& rule =
                    young ? coefficients.young_rule : coefficients.smooth_rule;
                const Node* nodes = rule.table + (j - 1) * rule.L;
                const SeparableLayerTerms<d>* terms = raw(separable_terms_) + (j - 1) * B_;
                if constexpr (d == 2) {
                    context_.template for_each_group<1, Shapes::axis1_blocks_per_sm>(
                        B_ * SeparableAxis1Sums<Evaluator>::visits(rows, space_.M),
                        EachVisit<SeparableAxis1Sums<Evaluator>>{{evaluator, ring.layer(n + j), member_points_,
                                                                  member_data(), nodes, rule.L, terms, work, first_row,
                                                                  last_row}});
                    using Axis2 = SeparableAxis2Sums<Problem, Evaluator>;
                    context_.template for_each_group<1, Shapes::axis2_blocks_per_sm>(
                        B_ * owned_points_,
                        EachVisit<FromPoint<Axis2>>{{first_owned_, Axis2{evaluator, nodes, rule.L, terms, work, j == K,
                                                                         j == 1 && !kinked_alone, gamma_z[0], solve}}});
                } else {
                    context_.template for_each_group<1, Shapes::axis1_blocks_per_sm>(
                        B_ * SeparableAxis1Sums3D<Evaluator>::visits(rows, space_.M),
                        EachVisit<SeparableAxis1Sums3D<Evaluator>>{{evaluator, ring.layer(n + j), member_points_,
                                                                    member_data(), nodes, rule.L, terms, work,
                                                                    first_row, last_row}});
                    context_.template for_each_group<1, Shapes::axis2_blocks_per_sm>(
                        B_ * SeparableAxis2Sums3D<Evaluator>::visits(rows, space_.M),
                        EachVisit<SeparableAxis2Sums3D<Evaluator>>{{evaluator, nodes, rule.L, work, first_row,
                                                                    last_row}});
                    using Axis3 = SeparableAxis3Sums<Problem, Evaluator>;
                    context_.template for_each_group<1, Shapes::axis2_blocks_per_sm>(
                        B_ * owned_points_,
                        EachVisit<FromPoint<Axis3>>{{first_owned_, Axis3{evaluator, nodes, rule.L, terms, work, j == K,
                                                                         j == 1 && !kinked_alone, gamma_z[0], solve}}});
                }
                if constexpr (has_terminal_kink<Problem>::value) {
                    if (n + j == coefficients.kinked_layer) {
                        for (int b = 0; b < B_; ++b) {  // each member's band across its own kink line or plane
                            KinkFlatExpectation<d> rule = coefficients.kink_rule;
                            rule.kink = host_members_[b].terminal_kink();
                            const KinkBandVisits<d> band = KinkBandVisits<d>::of(rule, j * dt, grid_);
                            const DriverAtTime<Problem> driver = driver_at(host_members_[b], t_n + j * dt);
                            const SeparableKinkBandSums<Problem, Evaluator> sums{
                                evaluator,
                                ring.layer(n + j).member(b, member_points_, member_data()),
                                band,
                                driver,
                                SeparableLayerTerms<d>::of(j, ky, kz, dt, gamma_y, gamma_z, driver),
                                work.member(b)};
                            context_.template for_each_group_of<Shapes::kink_band_lanes,
                                                                Shapes::kink_band_blocks_per_sm>(band.count(), sums);
                        }
                    }
                }
            }
            if (kinked_alone)
                context_.template for_each_group<1, Shapes::axis2_blocks_per_sm>(
                    B_ * owned_points_,
                    EachVisit<FromPoint<SeparableSolve<Problem>>>{{first_owned_, {work, gamma_z[0], solve}}});
        }
    }

    // Whether the 2D pass runs by sum factorisation (expectation_rules.h, GaussHermiteOnGrid): where the
    // interpolation has the staged form (the tensor spline) and the context's blocks stage (cuda), with the
    // stage of a block of Context::block_threads points in its shared memory: two buffers of the evaluator's
    // stage_layout for the widest rule's cell shifts (that of variance K dt).
    // A batch is not staged: a block's points, and so its stage's rows, would span two members.
    void choose_stage() {
        if constexpr (d == 2 && stages_rows<Evaluator>::value) {
            if (B_ > 1) return;
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
            const int end = first_owned_ + owned_points_;
            for (int first = first_owned_; first < end; first += P) {
                const auto windows = evaluator.row_windows(first, std::min(end, first + P) - 1, reach);
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

    // Reads back and checks the statuses of the steps done (StepStatusLog::check).
    void check_statuses() {
        statuses_.check(context_, steps(), picard_judged(), [&](int g) { return describe(g); });
    }
    PicardJudged picard_judged() const {
        return {s_.picard_iterations, s_.picard_tolerance, s_.picard_strict, picard_.scale, picard_scale_source_};
    }

    // Sweep point g's w, "w (member b)" in a batch.
    std::string describe(int g) const {
        const Point<d> w = grid_(g % member_points_);
        std::string text = d == 1 ? "" : "(";
        for (int k = 0; k < d; ++k) text += (k ? ", " : "") + format_number(component(w, k));
        text += d == 1 ? "" : ")";
        return B_ > 1 ? text + " (member " + std::to_string(g / member_points_ + 1) + " of the batch)" : text;
    }

    void collect(const LayerView& layer, SolveResult& result) {
        result.dimension = d;
        result.M = space_.M;
        result.startup = s_.startup;
        result.startup_substeps = substeps_;
        result.startup_refine = startup_refine_;
        result.terminal_kinked = has_terminal_kink<Problem>::value;
        if (B_ == 1)
            SolutionAtZero<Problem, Context>{context_, problem(), grid_, points_, centre(), s_.R}.collect(ring_, layer,
                                                                                                      result);
        if (owns_centre()) collect_members(layer, result);
        statuses_.report(steps(), picard_judged(), result);
        exercise_.collect(context_, problem(), result);
        result.staged_axis_sums = run_.staged_axis_sums;
        result.separable_layers = run_.separable_layers;
        result.startup_grid_separable_layers = run_.startup_grid_separable_layers;
        result.storage_bytes = storage_bytes();
        result.device_bytes_measured = context_.device_bytes_in_use();
    }

    // The index of w = 0 among the points held where the owned rows hold it, else 0 (owns_centre).
    int centre() const {
        if (!owns_centre()) return 0;
        return space_.centre() - rows_.first * row_points();
    }

    // Each member's MemberSolution from its y and z near w = 0 (MemberStencil), gathered in one pass and one copy.
    void collect_members(const LayerView& layer, SolveResult& result) {
        constexpr int W = MemberStencil::width;
        const int gathered = functions() * B_ * d * W;
        Vector near(gathered);
        thrust::transform(context_.policy(), thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(gathered),
                          near.begin(),
                          MemberStencil{layer.values(0), points_, member_points_, centre(), B_, d, space_.M});
        std::vector<double> host(near.size());
        context_.copy_to_host(near.begin(), near.end(), host.begin());
        const auto at = [&](int f, int b, int a, int k) { return host[((f * B_ + b) * d + a) * W + k]; };
        result.members.clear();
        for (int b = 0; b < B_; ++b) {
            MemberValues<d> near_zero;
            for (int a = 0; a < d; ++a)
                for (int k = 0; k < W; ++k) {
                    near_zero.y[a][k] = at(0, b, a, k);
                    for (int j = 0; j < d; ++j) near_zero.z[j][a][k] = at(1 + j, b, a, k);
                }
            result.members.push_back(member_solution(host_members_[b], space_.dx(), near_zero));
        }
    }

    double storage_bytes() const {
        return sizeof(double) * (ring_.size() + fine_ring_.size() + separable_.size() + nodes_.size() +
                                 weights_.size() + gamma_y_.size() + gamma_z_.size()) +
               sizeof(Node) * node_table_.size() + statuses_.storage_bytes() + exercise_.storage_bytes() +
               fitter_.storage_bytes() + (startup_sweep_ ? startup_sweep_->storage_bytes() : 0.0);
    }

    // Grid points per call of the fused pass (MultistepPointUpdate's P): several only in 1D with an evaluator of the
    // run form (LaunchShapes::points_per_call).
    int points_per_call() const {
        if constexpr (!runs_possible) return 1;
        else return Shapes::points_per_call(context_, B_, member_points_, s_.points_per_call);
    }

    using Shapes = LaunchShapes<d>;
    // Whether a call of the pass may take several neighbouring grid points (points_per_call).
    static constexpr bool runs_possible = MultistepPointUpdate<Problem, Evaluator>::runs_possible;
    static constexpr double pi = 3.14159265358979323846;
    static constexpr int status_check_interval = 64;
    static constexpr int progress_interval = 8;

    Context& context_;
    SchemeSettings s_;
    TimeGrid time_;
    SpaceGrid space_;
    int K_;
    int B_;              // members (Members): 1 for a solve of one problem
    SlabRows rows_;      // the rows held and owned: all of them but on a slab (slabs.h)
    SlabLink* link_;     // to the other slabs; nullptr on the whole grid
    std::vector<HaloRows> halo_transfers_;  // a slab's (halo_rows)
    int member_points_;  // (M1+1)(M+1)^(d-1) of this grid's rows held, M1 = M but on a slab
    int points_;         // B_ member_points_: the sweep's points
    int first_owned_;    // the first sweep point of the owned rows (0 but on a slab)
    int owned_points_;   // a member's points in the owned rows (member_points_ but on a slab)
    int substeps_ = 0;
    int startup_refine_ = 0;  // startup_refinement: of the run's own sweep; 0 in the start-up's
    std::unique_ptr<BackwardSweep> startup_sweep_;  // where startup_refine_ > 1
    GridPoints<d> grid_;
    Fitter fitter_;
    std::vector<Problem> host_members_;
    typename Context::template vector<Problem> problems_;  // host_members_ in the backend's memory
    Vector picard_scales_, picard_sums_;                    // B_ and 2 B_ (set_picard_scales)
    typename Context::template vector<AffineFlow<d>> flows_;  // the Feynman-Kac start-up's, (K - 1) B_
    Vector ring_, fine_ring_, nodes_, weights_, gamma_y_, gamma_z_;
    Vector separable_;  // the separable pass's workspaces (SeparableWorkspace), one a member, where it runs
    // a step's, K B (MemberLayerTerms; unused in 1D)
    typename Context::template vector<SeparableLayerTerms<d == 3 ? 3 : 2>> separable_terms_;
    std::vector<double> host_gamma_y_, host_gamma_z_;  // gamma_y_, gamma_z_ on the host
    typename Context::template vector<Node> node_table_, young_node_table_;
    double node_table_dt_ = 0.0, young_node_table_dt_ = 0.0;  // the step sizes the tables were made for (0: none yet)
    GaussHermiteRule rule_, young_rule_;  // the L-point rule, young_rule_points()' (made when first needed)
    StageLayout stage_{0, 0};                    // the staged 2D pass's (choose_stage); stride 0: none
    std::vector<double> staged_sums_;            // per row of the node table (count_staged_sums)
    StepStatusLog<Context> statuses_;
    ExerciseBoundaryLog<Problem, Context> exercise_;  // where the problem has one (records_exercise_boundary)
    PicardStop picard_{s_.picard_iterations, s_.picard_tolerance, 1.0};  // its scale from the terminal layer (run)
    std::string picard_scale_source_;  // what gave picard_.scale (picard_scale)
    // What a solve counts besides the steps' statuses, from zero at every run().
    struct Tally {
        std::vector<PhaseSpan> phase_spans;  // with settings.time_phases
        double staged_axis_sums = 0.0;       // SolveResult::staged_axis_sums
        int separable_layers = 0;            // SolveResult::separable_layers
        int startup_grid_separable_layers = 0;  // SolveResult::startup_grid_separable_layers
    } run_;
};

}  // namespace bsde
