// The study's outputs: the aligned text table, CSV and Markdown (with readers for the tests), the
// gnuplot script of the paper's figures and the bsde study command that writes them.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "../algorithms/core/errors.h"
#include "../problems/registry.h"
#include "build_info.h"
#include "options.h"
#include "output_files.h"
#include "plots.h"
#include "report.h"
#include "study.h"
#include "text.h"

namespace bsde {
namespace {

std::string csv_field(const std::string& cell) {
    if (cell.find_first_of(",\"\n") == std::string::npos) return cell;
    std::string quoted = "\"";
    for (char c : cell) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

// One CSV line into fields ("..." with "" for a quote).
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') fields.back() += '"', ++i;
            else if (c == '"') quoted = false;
            else fields.back() += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c != '\r') {
            fields.back() += c;
        }
    }
    if (quoted) throw std::runtime_error("unterminated quote in CSV line '" + line + "'");
    return fields;
}

// One plot of the paper's figures: a value against N, one curve per K.
struct Plot {
    std::string file, title, ylabel;
    bool log_y;
    double (*value)(const StudyCase&, Backend, Backend);
    Backend fast = Backend::cuda, slow = Backend::serial;
};

double y_error_of(const StudyCase& c, Backend, Backend) {
    return !c.seconds.empty() && c.has_exact ? c.y0_error : std::nan("");
}
double z_error_of(const StudyCase& c, Backend, Backend) {
    return !c.seconds.empty() && c.has_exact ? c.z0_error : std::nan("");
}
double speedup_of(const StudyCase& c, Backend fast, Backend slow) {
    return speedup(seconds_of(c, slow), seconds_of(c, fast));
}

bool plottable(const Plot& plot, double v) { return std::isfinite(v) && (!plot.log_y || v > 0); }

std::vector<int> study_Ks(const Study& study) {
    std::vector<int> Ks;
    for (const StudyCase& c : study.cases)
        if (Ks.empty() || Ks.back() != c.K) Ks.push_back(c.K);
    return Ks;
}

// The plots that have at least one point: y error, z error, then each speedup.
std::vector<Plot> study_plots(const Study& study) {
    const std::string name = gnuplot_enhanced_literal(study.problem);
    std::vector<Plot> candidates{
        {"y_error.png", name + ": error of y_0 against N, K = K_y = K_z", "|y_0 error|", true, y_error_of},
        {"z_error.png", name + ": error of z_0 against N, K = K_y = K_z", "|z_0 error|", true, z_error_of}};
    for (const auto& [fast, slow] : speedup_pairs(study.backends))
        candidates.push_back({"speedup_" + to_string(fast) + "_" + to_string(slow) + ".png",
                              name + ": speedup of " + to_string(fast) + " over " + to_string(slow),
                              "speedup (" + to_string(slow) + " time / " + to_string(fast) + " time)", false,
                              speedup_of, fast, slow});
    std::vector<Plot> plots;
    for (const Plot& p : candidates) {
        bool any = false;
        for (const StudyCase& c : study.cases) any = any || plottable(p, p.value(c, p.fast, p.slow));
        if (any) plots.push_back(p);
    }
    return plots;
}

// Every PNG name a study can write, to remove stale ones.
std::vector<std::string> every_plot_file() {
    std::vector<std::string> files{"y_error.png", "z_error.png"};
    for (const char* fast : {"cuda", "omp"})
        for (const char* slow : {"serial", "omp"})
            if (std::string(fast) != slow) files.push_back(std::string("speedup_") + fast + "_" + slow + ".png");
    return files;
}

}  // namespace

void write_text_table(std::ostream& out, const Table& table) {
    std::vector<std::size_t> width(table.header.size());
    for (std::size_t j = 0; j < width.size(); ++j) {
        width[j] = table.header[j].size();
        for (const auto& row : table.rows) width[j] = std::max(width[j], row[j].size());
    }
    const auto line = [&](const std::vector<std::string>& cells) {
        std::string text;
        for (std::size_t j = 0; j < cells.size(); ++j)
            text += (j ? "  " : "") + std::string(width[j] - cells[j].size(), ' ') + cells[j];
        out << text.substr(0, text.find_last_not_of(' ') + 1) << "\n";  // no trailing blanks
    };
    line(table.header);
    for (const auto& row : table.rows) line(row);
}

void write_markdown_table(std::ostream& out, const Table& table) {
    const auto line = [&](const std::vector<std::string>& cells) {
        out << "|";
        for (const std::string& cell : cells) out << " " << cell << " |";
        out << "\n";
    };
    line(table.header);
    out << "|";
    for (std::size_t j = 0; j < table.header.size(); ++j) out << "---|";
    out << "\n";
    for (const auto& row : table.rows) line(row);
}

void write_csv(std::ostream& out, const Table& table) {
    const auto line = [&](const std::vector<std::string>& cells) {
        for (std::size_t j = 0; j < cells.size(); ++j) out << (j ? "," : "") << csv_field(cells[j]);
        out << "\n";
    };
    line(table.header);
    for (const auto& row : table.rows) line(row);
}

Table read_csv(std::istream& in) {
    Table table;
    std::string line;
    if (!std::getline(in, line)) throw std::runtime_error("empty CSV: no header");
    table.header = csv_fields(line);
    for (int number = 2; std::getline(in, line); ++number) {
        if (trim(line).empty()) continue;
        table.rows.push_back(csv_fields(line));
        if (table.rows.back().size() != table.header.size())
            throw std::runtime_error("CSV line " + std::to_string(number) + " has " +
                                     std::to_string(table.rows.back().size()) + " fields, the header " +
                                     std::to_string(table.header.size()));
    }
    return table;
}

void write_markdown(std::ostream& out, const Study& study) {
    const SchemeSettings& s = study.settings;
    const ProblemInfo& problem = find_problem(study.problem);
    out << "# bsde study: " << study.problem << "\n\n";
    if (!study.command.empty()) out << "- command: `" << study.command << "`\n";
    out << "- build: bsde at commit `" << build_commit() << "`\n";
    out << "- problem: " << problem.name << " (" << problem.alias << ", " << problem.description << "), T = "
        << format_number(s.T, "%g") << ", R = " << format_number(s.R, "%g") << ", L = " << s.L;
    for (const auto& [name, value] : s.problem_parameters) out << ", " << name << " = " << format_number(value, "%g");
    out << "\n- scheme: K_y = K_z = K, at most " << s.picard_iterations << " Picard iterations (tolerance "
        << format_number(s.picard_tolerance, "%g") << "), start-up "
        << (s.startup == Startup::exact ? "EXACT (verification mode)" : to_string(s.startup));
    if (const int r = startup_refinement(s, problem.dimension); r > 1)
        out << " on a grid " << r << " times finer per axis";
    if (problem.dimension == 1 && s.interpolation == InterpolationKind::spline)
        out << ", spline " << to_string(s.spline);
    else
        out << ", interpolation " << to_string(s.interpolation);
    out << ", " << smoothing_description(study.terminal_kinked, s.smoothing);
    if (s.grid_order > 0) out << ", grid order " << s.grid_order;
    out << "\n- backends:";
    for (std::size_t i = 0; i < study.backends.size(); ++i) {
        const auto it = study.devices.find(study.backends[i]);
        out << (i ? ";" : "") << " " << (it != study.devices.end() ? it->second : to_string(study.backends[i]));
    }
    out << "\n- columns: errors at t = 0, w = 0 against the exact solution; order: log(e_prev / e) / log(N / N_prev) "
           "between successive N of one K; `<backend> s`: the sweep (start-up and backward steps, after set-up) "
           "in seconds; `a/b`: speedup, the time on b over the time on a, both measured in this run; arrays MiB: "
           "the solver's own arrays";
    if (study.estimated)
        out << "; `y_0 est`, `z_0 est`: a-posteriori estimates of the errors from the case at N/2 (docs/cli.md, Error "
               "estimate), `n/a` where none could be made (the notes say why)";
    if (study.slope_checked)
        out << "; `z check`: max |z - dy/dw| over max |dy/dw| at t = 0, dy/dw by 4th-order differences of y, over "
               "|w| <= R/2 (the options: their default spots), a warning above " << format_number(slope_check_limit)
            << " (docs/cli.md, z check)";
    if (std::find(study.backends.begin(), study.backends.end(), Backend::cuda) != study.backends.end())
        out << "; device MiB: device memory taken during the cuda solve (cudaMemGetInfo)";
    std::string warmed;
    for (Backend b : study.backends)
        if (warmed_up(b)) warmed += (warmed.empty() ? "" : " and ") + to_string(b);
    out << "\n";
    if (!warmed.empty())
        out << "- warm-up: " << warmed << " solved the first case once, untimed, before the timed runs\n";
    const std::vector<Plot> plots = study_plots(study);
    if (!plots.empty()) {
        out << "- plots (`gnuplot study.gp`):";
        for (std::size_t i = 0; i < plots.size(); ++i) out << (i ? ", " : " ") << "`" << plots[i].file << "`";
        out << "\n";
    }
    out << "\n";
    write_markdown_table(out, study_table(study, TableStyle::display));
    const std::string notes = study_notes(study);
    if (!notes.empty()) out << "\n" << notes;
}

Table read_markdown_table(std::istream& in) {
    Table table;
    const auto cells_of = [](const std::string& line) {
        std::vector<std::string> cells;
        std::size_t begin = line.find('|') + 1;
        for (std::size_t end; (end = line.find('|', begin)) != std::string::npos; begin = end + 1)
            cells.push_back(trim(line.substr(begin, end - begin)));
        return cells;
    };
    std::string line;
    while (std::getline(in, line) && trim(line).compare(0, 1, "|") != 0) {
    }
    if (!in) throw std::runtime_error("no table in the Markdown file");
    table.header = cells_of(line);
    if (!std::getline(in, line) || trim(line).compare(0, 4, "|---") != 0)
        throw std::runtime_error("the Markdown table has no |---| line under its header");
    while (std::getline(in, line) && trim(line).compare(0, 1, "|") == 0) {
        table.rows.push_back(cells_of(line));
        if (table.rows.back().size() != table.header.size())
            throw std::runtime_error("a Markdown table row has " + std::to_string(table.rows.back().size()) +
                                     " cells, the header " + std::to_string(table.header.size()));
    }
    return table;
}

std::string gnuplot_script(const Study& study) {
    std::ostringstream gp;
    const std::vector<Plot> plots = study_plots(study);
    const std::vector<int> Ks = study_Ks(study);
    std::vector<int> Ns;
    for (const StudyCase& c : study.cases)
        if (std::find(Ns.begin(), Ns.end(), c.N) == Ns.end()) Ns.push_back(c.N);
    std::sort(Ns.begin(), Ns.end());

    gp << "# bsde study: " << study.problem << ", the paper's figures (error of y and z, speedup against N per K).\n"
       << "# Written by bsde study with the data inline; run in this folder: gnuplot study.gp\n"
       << gnuplot_png_terminal(900, 640)
       << "set datafile missing \"?\"\n";
    // One data block per K: N, then one column per plot.
    for (int K : Ks) {
        gp << "$K" << K << " << EOD\n# N";
        for (const Plot& p : plots) gp << "  " << p.file.substr(0, p.file.size() - 4);
        gp << "\n";
        for (const StudyCase& c : study.cases) {
            if (c.K != K) continue;
            gp << c.N;
            for (const Plot& p : plots) {
                const double v = p.value(c, p.fast, p.slow);
                gp << " " << (plottable(p, v) ? format_number(v, "%.6e") : "?");
            }
            gp << "\n";
        }
        gp << "EOD\n";
    }
    gp << "set logscale x 2\nset xtics (";
    for (std::size_t i = 0; i < Ns.size(); ++i) gp << (i ? ", " : "") << Ns[i];
    gp << ")\n";
    if (!Ns.empty())
        gp << "set xrange [" << format_number(Ns.front() / 1.2, "%g") << ":" << format_number(Ns.back() * 1.2, "%g")
           << "]\n";
    gp << "set xlabel \"N (time steps)\"\nset grid\nset key outside right top\n";
    for (std::size_t column = 0; column < plots.size(); ++column) {
        const Plot& p = plots[column];
        gp << "\nset output " << gnuplot_string(p.file) << "\n"
           << "set title " << gnuplot_string(p.title) << "\n"
           << "set ylabel " << gnuplot_string(p.ylabel) << "\n";
        if (p.log_y) gp << "set logscale y 10\nset format y \"10^{%L}\"\nset autoscale y\nset offsets 0, 0, 0, 0\n";
        else gp << "unset logscale y\nset format y \"%g\"\nset yrange [0:*]\nset offsets 0, 0, graph 0.05, 0\n";
        std::vector<std::string> curves;
        for (int K : Ks) {
            bool any = false;
            for (const StudyCase& c : study.cases) any = any || (c.K == K && plottable(p, p.value(c, p.fast, p.slow)));
            if (any)
                curves.push_back("$K" + std::to_string(K) + " using 1:" + std::to_string(column + 2) +
                                 " with linespoints lw 2 pt 7 ps 1.2 title \"K = " + std::to_string(K) + "\"");
        }
        gp << "plot ";
        for (std::size_t i = 0; i < curves.size(); ++i) gp << (i ? ", \\\n     " : "") << curves[i];
        gp << "\n";
    }
    gp << "unset output\n";
    return gp.str();
}

namespace {

// Writes the study into DIR's files and makes the plots (a note on err where any is not made); returns the files
// written, "DIR/study.csv, ...".
std::string write_study_files(const Study& study, const OutputFolder& folder, const std::string& dir,
                              AtomicOutputFile& csv, AtomicOutputFile& markdown, AtomicOutputFile& script,
                              std::ostream& err) {
    write_csv(csv.stream(), study_table(study, TableStyle::csv));
    write_markdown(markdown.stream(), study);
    script.stream() << gnuplot_script(study);
    commit_together({&csv, &markdown, &script});
    std::string files = dir + "/study.csv, " + dir + "/study.md, " + dir + "/study.gp";
    for (const std::string& png : every_plot_file()) {  // none stale beside these tables
        struct stat info;
        if (::fstatat(folder.descriptor(), png.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(info.st_mode))
            ::unlinkat(folder.descriptor(), png.c_str(), 0);
    }
    const std::vector<Plot> plots = study_plots(study);
    if (plots.empty()) return files;
    std::vector<std::string> names;
    for (const Plot& p : plots) names.push_back(p.file);
    for (const std::string& png : make_plots(folder.descriptor(), dir, "study.gp", "plots", names, err))
        files += ", " + dir + "/" + png;
    return files;
}

}  // namespace

int study_command(const Invocation& invocation, const std::string& command, std::ostream& out, std::ostream& err,
                  bool show_progress) {
    Invocation resolved = invocation;
    resolved.backends = study_backends(invocation);  // InputError before anything is written

    // The files are opened before any solve: an unwritable --out fails at once, and an interrupted
    // study leaves no partial file.
    const std::string& dir = invocation.out;
    std::optional<OutputFolder> folder;
    std::unique_ptr<AtomicOutputFile> csv, markdown, script;
    if (!dir.empty()) {
        folder.emplace(dir);
        csv = folder->file("study.csv");
        markdown = folder->file("study.md");
        script = folder->file("study.gp");
    }

    const Study study = run_study(resolved, command, show_progress);
    for (const std::string& warning : study.warnings) err << "bsde: warning: " << warning << "\n";
    // The files first: a run that fails to write them prints nothing on out.
    const std::string files = dir.empty() ? "" : write_study_files(study, *folder, dir, *csv, *markdown, *script, err);
    write_text_table(out, study_table(study, TableStyle::display));
    out << study_notes(study);
    out << "build: bsde at commit " << build_commit() << "\n";
    if (!files.empty()) out << "files: " << files << "\n";
    return 0;
}

}  // namespace bsde
