// A problem's checks of the run's grid, before anything is allocated: a problem that declares check_grid(settings, dx)
// checks its parameters against the grid (the options' asset range and price growth: problems/option_checks.h), and
// then its terminal kink (in 1D each of its kink points) must lie in the grid's inner half (after those checks, which
// refuse the parameters whose kink overflows: S0 = 1e-320 or sigma = 1e300 put ex3's at w = inf); terminal data below
// an obstacle are refused (obstacle.h). The sweep runs them (backward_sweep.h), and so does the command line before it
// solves anything (ProblemInfo::check_grid, problems/registry.h), so that `bsde grid` shows a refusal and a study
// refuses a case up front instead of after the cases before it.
#pragma once
#include <cmath>
#include <string>
#include <type_traits>
#include <utility>

#include "../core/errors.h"
#include "grid.h"
#include "obstacle.h"
#include "settings.h"
#include "terminal_smoothing.h"

namespace bsde {

template <class P, class = void>
struct checks_grid : std::false_type {};
template <class P>
struct checks_grid<P, std::void_t<decltype(std::declval<const P&>().check_grid(std::declval<const SchemeSettings&>(),
                                                                                0.0))>> : std::true_type {};

// Throws InputError naming what to change.
template <class Problem>
void check_problem_against_grid(const Problem& problem, const SchemeSettings& s) {
    const SpaceGrid space{space_intervals(s.Ky, s.Kz, s.N, s.T, s.R, s.grid_order), s.R, Problem::dimension};
    if constexpr (checks_grid<Problem>::value) problem.check_grid(s, space.dx());
    check_terminal_data_above_obstacle(problem, space, s.T);
    if constexpr (has_terminal_kink<Problem>::value) {
        // the kink's distance from w = 0 asks for R >= 2 |distance|: the smallest such R in the message
        const auto outside = [&](const std::string& where, double distance) {
            return InputError("the terminal data's kink " + where + ": the grid cannot resolve it (" +
                              Problem::kink_advice + ", or raise --R" +
                              (std::isfinite(distance) ? " to " + format_at_least(2.0 * distance) + " or more)" : ")"));
        };
        if constexpr (Problem::dimension == 1) {
            const KinkPoints kinks = kinks_of(problem.terminal_kink());
            for (int k = 0; k < kinks.count; ++k)
                if (!(std::fabs(kinks.at[k]) <= s.R / 2))
                    throw outside("at w = " + format_number(kinks.at[k]) + " lies outside [-R/2, R/2] = [" +
                                      format_number(-s.R / 2) + ", " + format_number(s.R / 2) + "]",
                                  std::fabs(kinks.at[k]));
        } else {
            const auto kink = problem.terminal_kink();  // a line in 2D, a plane in 3D
            if (!(std::fabs(kink.offset) <= s.R / 2))
                throw outside(std::string(Problem::dimension == 2 ? "line" : "plane") + " lies " +
                                  format_number(std::fabs(kink.offset)) + " from w = 0, beyond R/2 = " +
                                  format_number(s.R / 2),
                              std::fabs(kink.offset));
        }
    }
}

}  // namespace bsde
