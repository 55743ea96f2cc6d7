// The diagnostics of a sweep's steps: each grid point's status in a step (StepStatus: y and z finite? Picard's last
// change and iterations), reduced to one status per step on the backend, read back now and then and checked on the
// host: a non-finite value stops the run (NumericalError), a step where Picard ended above its tolerance is
// remembered for the report (or stops the run with --strict).
#pragma once
#include <algorithm>
#include <climits>
#include <cstddef>
#include <string>
#include <vector>

#include "../core/errors.h"
#include "../core/raw_pointer.h"
#include "../scheme/settings.h"
#include "sweep_functors.h"

namespace bsde {

// The Picard settings and scale a step's convergence is judged by, for the messages.
struct PicardJudged {
    int iterations;            // --picard
    double tolerance;          // --picard-tol
    bool strict;               // --strict
    double scale;              // s of the tolerance (s + |y|)
    std::string scale_source;  // what gave s (BackwardSweep::picard_scale)
};

template <class Context>
class StepStatusLog {
public:
    // Room for `steps` steps over `points` grid points, `depth` steps of grid points kept before a reduction.
    void allocate(int steps, int points, int depth) {
        points_ = points;
        depth_ = depth;
        status_.resize(steps);
        host_status_.resize(steps);
        point_status_.resize(static_cast<std::size_t>(depth) * points);
    }
    double storage_bytes() const { return sizeof(StepStatus) * (point_status_.size() + status_.size()); }

    // From zero, for a new run.
    void clear() { tally_ = {}; }
    // The start-up sweep's steps as this run's first (its statuses all checked).
    void continue_from(const StepStatusLog& startup) {
        tally_ = startup.tally_;
        std::copy(startup.host_status_.begin(), startup.host_status_.begin() + tally_.steps_done, host_status_.begin());
    }

    int steps_done() const { return tally_.steps_done; }
    // The grid points' statuses of the step under way.
    StepStatus* point_statuses() {
        return raw(point_status_) + static_cast<std::size_t>(tally_.steps_done - tally_.steps_reduced) * points_;
    }
    // Marks the step under way (at t_n) done; true where that filled the kept steps, which are reduced now.
    bool step_done(Context& context, double t_n) {
        tally_.step_times.push_back(t_n);
        ++tally_.steps_done;
        if (tally_.steps_done - tally_.steps_reduced < depth_) return false;
        reduce(context);
        return true;
    }

    // Reads back and checks the statuses of the steps done and not yet checked, of `steps_total` in the run; `where`
    // describes grid point i. Throws NumericalError at the first non-finite value, and with judged.strict at the first
    // step where Picard ended above its tolerance.
    template <class Where>
    void check(Context& context, int steps_total, const PicardJudged& judged, const Where& where) {
        reduce(context);
        Tally& t = tally_;
        context.copy_to_host(status_.begin() + t.steps_checked, status_.begin() + t.steps_done,
                             host_status_.begin() + t.steps_checked);
        for (; t.steps_checked < t.steps_done; ++t.steps_checked) {
            const StepStatus& status = host_status_[t.steps_checked];
            if (status.first_nonfinite != INT_MAX) {
                const int i = status.first_nonfinite;
                throw NumericalError("non-finite y or z in step " + std::to_string(t.steps_checked + 1) + " of " +
                                     std::to_string(steps_total) + " (t = " +
                                     format_number(t.step_times[t.steps_checked]) + "), grid index " +
                                     std::to_string(i) + " (w = " + where(i) + ")");
            }
            t.picard_most = std::max(t.picard_most, status.picard_iterations);
            t.picard_change_largest = std::max(t.picard_change_largest, status.picard_change);
            if (status.picard_unconverged > 0) {  // Picard ended above its tolerance at some point
                if (t.picard_unconverged_steps++ == 0) t.picard_first_unconverged = t.steps_checked;
                t.picard_unconverged_change = std::max(t.picard_unconverged_change, status.picard_change);
                if (judged.strict)
                    throw NumericalError(picard_not_converged(t.steps_checked, steps_total, judged) + " (--strict)");
            }
        }
    }

    // What the checked steps give the result: Picard's most iterations and largest last change, and the warning
    // of the steps where it did not converge.
    void report(int steps_total, const PicardJudged& judged, SolveResult& result) const {
        result.picard_most_iterations = tally_.picard_most;
        result.picard_largest_change = tally_.picard_change_largest;
        result.picard_unconverged_steps = tally_.picard_unconverged_steps;
        result.picard_scale = judged.scale;
        if (tally_.picard_unconverged_steps > 0)
            result.picard_warning = picard_not_converged(tally_.picard_first_unconverged, steps_total, judged);
    }

private:
    // The statuses of the steps since the last reduction: status_[step] = CombineStepStatus over the grid points.
    void reduce(Context& context) {
        const int pending = tally_.steps_done - tally_.steps_reduced;
        if (pending == 0) return;
        context.reduce_segments_into(raw(point_status_), points_, pending, StepStatus{}, CombineStepStatus{},
                                     raw(status_) + tally_.steps_reduced);
        tally_.steps_reduced = tally_.steps_done;
    }

    // "Picard did not converge in step s of S (t = ...) at P of Q grid points: largest remaining change ...".
    std::string picard_not_converged(int step, int steps_total, const PicardJudged& judged) const {
        const StepStatus& status = host_status_[step];
        std::string text = "Picard did not converge in step " + std::to_string(step + 1) + " of " +
                           std::to_string(steps_total) + " (t = " + format_number(tally_.step_times[step]) + ") at " +
                           std::to_string(status.picard_unconverged) + " of " + std::to_string(points_) +
                           " grid points: largest remaining change " + format_number(status.picard_change) +
                           " after " + std::to_string(status.picard_iterations) + " iterations (--picard " +
                           std::to_string(judged.iterations) + "), tolerance " + format_number(judged.tolerance) +
                           " (" + format_number(judged.scale, "%.4g") + " + |y|) (--picard-tol; " +
                           format_number(judged.scale, "%.4g") + " by " + judged.scale_source + ")";
        if (tally_.picard_unconverged_steps > 1)
            text += "; " + std::to_string(tally_.picard_unconverged_steps) +
                    " steps did not converge, largest remaining change " +
                    format_number(tally_.picard_unconverged_change);
        return text;
    }

    struct Tally {
        std::vector<double> step_times;
        int steps_done = 0, steps_reduced = 0, steps_checked = 0;
        int picard_most = 0;
        double picard_change_largest = 0.0;
        int picard_unconverged_steps = 0, picard_first_unconverged = -1;  // steps where Picard ended above tolerance
        double picard_unconverged_change = 0.0;                           // the largest last change of those steps
    } tally_;
    int points_ = 0, depth_ = 1;
    typename Context::template vector<StepStatus> point_status_;  // depth_ steps of grid points
    typename Context::template vector<StepStatus> status_;         // per step
    std::vector<StepStatus> host_status_;
};

}  // namespace bsde
