#include "exercise_boundary_files.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cmath>
#include <iomanip>
#include <sstream>
#include <vector>

#include "../algorithms/core/errors.h"
#include "output_files.h"
#include "plots.h"

namespace bsde {
namespace {

// S* where the problem has a state map, else w*.
const std::vector<double>& plotted(const ExerciseBoundary& b) { return b.has_state ? b.state : b.w; }

}  // namespace

ExerciseBoundaryPaths exercise_boundary_paths(const std::string& output) {
    struct stat info;
    if (::stat(output.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) return {};
    const std::string suffix = ".csv";
    const bool csv_named = output.size() > suffix.size() &&
                           output.compare(output.size() - suffix.size(), suffix.size(), suffix) == 0;
    const std::string stem = (csv_named ? output.substr(0, output.size() - suffix.size()) : output) + ".boundary";
    const std::size_t slash = stem.rfind('/');
    ExerciseBoundaryPaths paths;
    paths.csv = stem + ".csv";
    paths.script = stem + ".gp";
    paths.png = stem + ".png";
    paths.folder = slash == std::string::npos ? "." : slash == 0 ? "/" : stem.substr(0, slash);
    const std::string name = slash == std::string::npos ? stem : stem.substr(slash + 1);
    paths.script_name = name + ".gp";
    paths.png_name = name + ".png";
    return paths;
}

void write_exercise_boundary_csv(std::ostream& out, const ExerciseBoundary& b) {
    const auto field = [&out](double v) {
        out << ",";
        if (!std::isnan(v)) out << v;
    };
    out << std::setprecision(17) << "t,w_star" << (b.has_state ? ",S_star" : "") << ",edges\n";
    for (std::size_t n = 0; n < b.t.size(); ++n) {
        out << b.t[n];
        field(b.w[n]);
        if (b.has_state) field(b.state[n]);
        out << "," << b.edges[n] << "\n";
    }
}

std::string exercise_boundary_gnuplot(const ExerciseBoundary& b, const std::string& problem,
                                      const ExerciseBoundaryPaths& paths) {
    const std::string value = b.has_state ? "S*" : "w*";
    std::ostringstream gp;
    gp << "# bsde solve: " << problem << ", the early-exercise boundary " << value << "(t) at the layers t_n.\n"
       << "# Written by bsde solve with the data inline; run in this folder: gnuplot " << paths.script_name << "\n"
       << gnuplot_png_terminal(900, 640) << "set datafile missing \"?\"\n"
       << "$boundary << EOD\n# t " << (b.has_state ? "S_star" : "w_star") << "\n";
    for (std::size_t n = 0; n < b.t.size(); ++n)
        gp << format_number(b.t[n], "%.10g") << " "
           << (std::isnan(plotted(b)[n]) ? "?" : format_number(plotted(b)[n], "%.10g")) << "\n";
    gp << "EOD\n"
       << "set output " << gnuplot_string(paths.png_name) << "\n"
       << "set title " << gnuplot_string(gnuplot_enhanced_literal(problem) + ": early-exercise boundary") << "\n"
       << "set xlabel \"t\"\nset ylabel " << gnuplot_string(b.has_state ? "S*(t)" : "w*(t)") << "\n"
       << "set grid\nset key off\n"
       << "plot $boundary using 1:2 with linespoints lw 2 pt 7 ps 0.6\n"
       << "unset output\n";
    return gp.str();
}

std::string plot_exercise_boundary(const ExerciseBoundaryPaths& paths, std::ostream& err) {
    const Descriptor folder(::open(paths.folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (folder.get() < 0) {
        err << "bsde: note: plots skipped: the folder " << quoted(paths.folder) << " cannot be opened\n";
        return "";
    }
    const std::vector<std::string> made =
        make_plots(folder.get(), paths.folder, paths.script_name, paths.png_name, {paths.png_name}, err);
    return made.empty() ? "" : paths.png;
}

std::string describe_exercise_boundary(const ExerciseBoundary& b) {
    const std::vector<double>& v = plotted(b);
    const std::string name = b.has_state ? "S*" : "w*";
    const auto at = [&](std::size_t n) {
        return (std::isnan(v[n]) ? std::string("none") : format_number(v[n], "%.6g")) + " at t = " +
               format_number(b.t[n], "%.6g");
    };
    int empty = 0, several = 0;
    for (int edges : b.edges) {
        empty += edges == 0;
        several += edges > 1;
    }
    if (v.empty()) return "no layers";
    std::string line = "boundary " + name + " = " + at(0) + ", " + at(v.size() - 1) + " (the last layer before T); ";
    line += std::to_string(empty) + " of " + std::to_string(v.size()) + " layers without an edge (no exercise)";
    if (several > 0) line += ", " + std::to_string(several) + " with several edges";
    return line;
}

}  // namespace bsde
