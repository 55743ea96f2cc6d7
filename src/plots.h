// gnuplot's plots, as bsde study and bsde solve make them: the script's quoting and PNG terminal, and a run of gnuplot
// whose PNGs appear in their folder only when whole.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace bsde {

// s as one word of a POSIX shell: in single quotes, each ' as '\''.
std::string shell_quoted(const std::string& s);

// s as a gnuplot string: in double quotes, each " and \ escaped.
std::string gnuplot_string(const std::string& s);

// s as gnuplot's enhanced text shows it literally: each of _ ^ { } @ & ~ escaped.
std::string gnuplot_enhanced_literal(const std::string& s);

// A script's first lines for PNGs of width x height pixels: pngcairo (enhanced text) where gnuplot has it, else png.
std::string gnuplot_png_terminal(int width, int height);

// Makes the PNGs `names` by gnuplot (\$BSDE_GNUPLOT, else gnuplot on PATH) on `script`, a file of the opened folder
// `folder` (the path `dir`): gnuplot runs on ../SCRIPT in a folder of the run's own inside it (TemporaryFolder, named
// from `scratch_stem`), and each plot is moved into the folder once it is a complete PNG, so that a plot is there and
// listed only when whole, and none is left cut short by a full disk, a failing gnuplot or a signal. Returns the plots
// moved; a note on err ("bsde: note: plots skipped: ...") says why any other was not, and where gnuplot is missing,
// how to make them.
std::vector<std::string> make_plots(int folder, const std::string& dir, const std::string& script,
                                    const std::string& scratch_stem, const std::vector<std::string>& names,
                                    std::ostream& err);

}  // namespace bsde
