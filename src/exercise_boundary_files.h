// The early-exercise boundary of a solve (SolveResult::exercise_boundary: 1D problems with an obstacle) as bsde solve
// gives it: a line of the report, and beside the --output CSV a table of S*(t), its gnuplot script and its plot
// (docs/cli.md, "Output files").
#pragma once
#include <ostream>
#include <string>

#include "../algorithms/scheme/settings.h"

namespace bsde {

// The boundary's files for --output `output`, named from its path: STEM.boundary.csv, .gp and .png, where STEM is the
// path less a final ".csv". None (csv empty) where the path names something other than a regular file (a FIFO,
// /dev/null), which is written in place.
struct ExerciseBoundaryPaths {
    std::string csv, script, png;  // paths as given
    std::string folder;            // their folder ("." for a bare name)
    std::string script_name, png_name;  // in that folder
};
ExerciseBoundaryPaths exercise_boundary_paths(const std::string& output);

// One row per layer t_n, n = 0..N-1: "t,w_star,S_star,edges" (S_star only where the problem has a state map), blank
// fields where the layer has no boundary.
void write_exercise_boundary_csv(std::ostream& out, const ExerciseBoundary& boundary);

// The gnuplot script of the plot paths.png_name: S*(t) (w*(t) without a state map) against t, the data inline.
std::string exercise_boundary_gnuplot(const ExerciseBoundary& boundary, const std::string& problem,
                                      const ExerciseBoundaryPaths& paths);

// The plot by gnuplot from the committed script (make_plots, plots.h); returns the PNG's path, "" where it was not
// made (a note on err says why).
std::string plot_exercise_boundary(const ExerciseBoundaryPaths& paths, std::ostream& err);

// The report's line after its label: the boundary at t = 0 and at the last layer before T, and the layers without
// an edge or with several.
std::string describe_exercise_boundary(const ExerciseBoundary& boundary);

}  // namespace bsde
