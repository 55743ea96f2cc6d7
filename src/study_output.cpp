// The study's outputs: the aligned text table, CSV and Markdown (with readers for the tests), the
// gnuplot script of the paper's figures and the bsde study command that writes them.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

std::string shell_quoted(const std::string& s) {
    std::string quoted = "'";
    for (char c : s) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
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
    std::string name;  // the problem's name as gnuplot's enhanced text shows it literally
    for (char c : study.problem) name += std::string(std::strchr("_^{}@&~", c) && c ? "\\" : "") + c;
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

std::string gnuplot_string(const std::string& s) {
    std::string quoted = "\"";
    for (char c : s) quoted += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    return quoted + "\"";
}

// The program that makes the plots: $BSDE_GNUPLOT or gnuplot, looked up on PATH; empty when missing.
std::string find_gnuplot() {
    const char* chosen = std::getenv("BSDE_GNUPLOT");
    const std::string name = chosen && *chosen ? chosen : "gnuplot";
    if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : "";
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "/usr/bin:/bin");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return "";
}

// How a child process ended, from its wait status (an end, not a stop): "exit status 1", "killed by signal 9 (Killed)".
std::string describe_wait_status(int status) {
    if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" + ::strsignal(WTERMSIG(status)) + ")";
}

// The CRC-32 of the PNG chunks (ISO 3309, as the PNG specification's annex D computes it).
std::uint32_t crc32(const unsigned char* data, std::size_t size) {
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    std::uint32_t crc = 0xFFFFFFFFu;
    for (std::size_t i = 0; i < size; ++i) crc = table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

std::uint32_t big_endian_32(const unsigned char* p) {
    return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

// The bytes of the regular file `name` in `folder`, up to `limit`; false (and why) otherwise.
bool read_file_at(int folder, const std::string& name, std::size_t limit, std::string& bytes, std::string& why) {
    const Descriptor file(::openat(folder, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    struct stat info;
    if (file.get() < 0) why = errno == ENOENT ? "missing" : std::string("unreadable: ") + std::strerror(errno);
    else if (::fstat(file.get(), &info) != 0 || !S_ISREG(info.st_mode)) why = "not a regular file";
    else if (std::size_t(info.st_size) > limit) why = "larger than " + std::to_string(limit >> 20) + " MiB";
    if (!why.empty()) return false;
    char buffer[65536];
    for (ssize_t n; (n = ::read(file.get(), buffer, sizeof buffer)) != 0 && bytes.size() <= limit;)
        if (n > 0) bytes.append(buffer, std::size_t(n));
        else if (errno != EINTR) return why = std::string("unreadable: ") + std::strerror(errno), false;
    return true;
}

// Why the plot `name` in `folder` is not a complete PNG ("" when it is): its 8-byte signature, then chunks (a 4-byte
// big-endian length, the type, the data, the CRC-32 of type and data) up to an IEND chunk that ends the file (PNG
// specification, 5.2 to 5.6). A full disk leaves a file cut short, which gnuplot may not report.
std::string png_defect(int folder, const std::string& name) {
    std::string bytes, why;
    if (!read_file_at(folder, name, std::size_t(256) << 20, bytes, why)) return why;
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (bytes.size() < 8 || std::memcmp(data, signature, 8) != 0) return "no PNG signature";
    for (std::size_t at = 8; bytes.size() - at >= 12;) {
        const std::size_t length = big_endian_32(data + at);
        if (length > bytes.size() - at - 12) break;
        if (crc32(data + at + 4, length + 4) != big_endian_32(data + at + 8 + length)) return "a chunk's CRC is wrong";
        const bool end = std::memcmp(data + at + 4, "IEND", 4) == 0;
        at += 12 + length;
        if (end) return at == bytes.size() ? "" : "data after its IEND chunk";
    }
    return "cut short before its IEND chunk";
}

// Why gnuplot's run failed ("" when it ended with exit status 0), from its wait status and output.
std::string gnuplot_failure(const std::string& gnuplot, int status, const std::string& output) {
    if (status == 0) return "";
    if (status == -1) return "cannot run " + gnuplot + " (" + std::strerror(errno) + ")";
    // gnuplot's last non-empty line names what failed.
    std::string last_line;
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);)
        if (!trim(line).empty()) last_line = trim(line);
    return gnuplot + " failed (" + describe_wait_status(status) + ")" + (last_line.empty() ? "" : ": " + last_line);
}

// Makes the plots: gnuplot runs on ../study.gp in a folder of the run's own inside --out, and each plot is moved into
// --out once it is a complete PNG, so that a plot is there and listed only when whole, and none is left cut short by a
// full disk, a failing gnuplot or a signal. Returns the plots moved; a note on err says why any other was not.
std::vector<std::string> make_plots(const OutputFolder& folder, const std::string& dir, const std::vector<Plot>& plots,
                                    std::ostream& err) {
    const std::string gnuplot = find_gnuplot();
    const std::string skipped = "bsde: note: plots skipped: ";
    if (gnuplot.empty()) {
        err << skipped << "gnuplot not found (install it with: apt-get install gnuplot-nox; then run: cd -- "
            << shell_quoted(dir) << " && gnuplot study.gp)\n";
        return {};
    }
    std::vector<std::string> names;
    for (const Plot& p : plots) names.push_back(p.file);
    try {
        const TemporaryFolder scratch(folder.descriptor(), "plots", names);
        std::string output;
        const int status = run_in_folder(scratch.descriptor(), gnuplot, {"../study.gp"}, output);
        const std::string failure = gnuplot_failure(gnuplot, status, output);
        if (!failure.empty()) {
            err << skipped << failure << "\n";
            return {};
        }
        std::vector<std::string> written, incomplete;
        for (const std::string& name : names) {
            std::string defect = png_defect(scratch.descriptor(), name);
            if (defect.empty() && !scratch.move_out(name))
                defect = std::string("cannot be moved into the folder: ") + std::strerror(errno);
            if (defect.empty()) written.push_back(name);
            else incomplete.push_back(name + " " + defect);
        }
        if (!incomplete.empty()) {
            err << skipped;
            for (std::size_t k = 0; k < incomplete.size(); ++k) err << (k ? ", " : "") << incomplete[k];
            err << " (removed; " << gnuplot << " ended with exit status 0)\n";
        }
        return written;
    } catch (const InputError& e) {
        err << skipped << e.what() << "\n";
        return {};
    }
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
    if (const int r = startup_refinement(s, problem.terminal_kinked, problem.dimension); r > 1)
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
       << "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
       << "    set terminal pngcairo size 900,640 enhanced font \"sans,12\"\n"
       << "} else {\n"
       << "    set terminal png size 900,640\n"
       << "}\n"
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
    for (const std::string& png : make_plots(folder, dir, plots, err)) files += ", " + dir + "/" + png;
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
