#include "surface.h"

#include <algorithm>
#include <chrono>
#include <fcntl.h>
#include <map>
#include <cmath>
#include <filesystem>
#include <functional>
#include <memory>
#include <sstream>
#include <vector>

#include "../algorithms/backends/backend.h"
#include "../algorithms/core/errors.h"
#include "../problems/registry.h"
#include "estimate.h"
#include "output_files.h"
#include "plots.h"
#include "text.h"

namespace bsde {
namespace {

// A member's row: the solve's values, the exact ones and the estimate where there are.
struct MemberRow {
    const MemberSolution* solution;
    const ErrorEstimate* estimate;  // nullptr: not made
};

// The table's columns: a header and each member's cell ("" where it has no value).
struct Column {
    std::string header;
    std::function<std::string(int, const MemberRow&)> cell;
};

std::string error(double x) { return format_number(x, "%.3e"); }

// The columns of the table for a problem of `dimension` axes; values with `digits` significant digits (the CSV all 17,
// the printed table 10). A vector's components are columns of their own, name_1 and name_2 in 2D.
std::vector<Column> columns(const Batch& batch, const std::vector<std::string>& parameters, int dimension,
                            const MemberSolution& first, bool estimate, int digits) {
    const std::string format = "%." + std::to_string(digits) + "g";
    const auto number = [format](double x) { return format_number(x, format.c_str()); };
    const bool exact = first.has_exact;
    std::vector<Column> c{{"member", [&batch](int b, const MemberRow&) { return std::to_string(member_number(batch, b)); }}};
    for (const std::string& name : parameters)
        c.push_back({name, [&batch, name, number](int b, const MemberRow&) { return number(batch.members[b].at(name)); }});
    // a vector's columns: its components, and where `exact` is given their errors against it
    const auto components = [&](const std::string& name, std::vector<double> MemberSolution::*value,
                                std::vector<double> MemberSolution::*exact_value) {
        for (int k = 0; k < dimension; ++k) {
            const std::string header = dimension == 1 ? name : name + "_" + std::to_string(k + 1);
            c.push_back({header, [value, k, number](int, const MemberRow& r) { return number((r.solution->*value)[k]); }});
            if (exact_value)
                c.push_back({header + "_error", [value, exact_value, k](int, const MemberRow& r) {
                                 return error(std::fabs((r.solution->*value)[k] - (r.solution->*exact_value)[k]));
                             }});
        }
    };
    c.push_back({"y0", [number](int, const MemberRow& r) { return number(r.solution->y0); }});
    if (exact) {
        c.push_back({"y0_exact", [number](int, const MemberRow& r) { return number(r.solution->y0_exact); }});
        c.push_back({"y0_error", [](int, const MemberRow& r) { return error(std::fabs(r.solution->y0 - r.solution->y0_exact)); }});
    }
    if (estimate)
        c.push_back({"y0_estimate", [](int, const MemberRow& r) { return r.estimate->made ? error(r.estimate->y_error) : ""; }});
    components("z0", &MemberSolution::z0, exact ? &MemberSolution::z0_exact : nullptr);
    if (estimate)
        c.push_back({"z0_estimate", [](int, const MemberRow& r) { return r.estimate->made ? error(r.estimate->z_error) : ""; }});
    if (first.has_greeks) {
        components("spot", &MemberSolution::spot, nullptr);
        components("delta", &MemberSolution::delta, exact ? &MemberSolution::delta_exact : nullptr);
        for (int j = 0; j < dimension; ++j)  // gamma_jk, j <= k (it is symmetric)
            for (int k = j; k < dimension; ++k) {
                const int at = j * dimension + k;
                const std::string header = dimension == 1 ? "gamma" : "gamma_" + std::to_string(j + 1) + std::to_string(k + 1);
                c.push_back({header, [at, number](int, const MemberRow& r) { return number(r.solution->gamma[at]); }});
                if (exact)
                    c.push_back({header + "_error", [at](int, const MemberRow& r) {
                                     return error(std::fabs(r.solution->gamma[at] - r.solution->gamma_exact[at]));
                                 }});
            }
        c.push_back({"theta", [number](int, const MemberRow& r) { return number(r.solution->theta); }});
        if (exact)
            c.push_back({"theta_error", [](int, const MemberRow& r) {
                             return error(std::fabs(r.solution->theta - r.solution->theta_exact));
                         }});
    }
    return c;
}

void write_table(std::ostream& out, const std::vector<Column>& c, const std::vector<MemberRow>& rows, bool markdown) {
    const std::string begin = markdown ? "| " : "", separator = markdown ? " | " : ",", end = markdown ? " |\n" : "\n";
    for (std::size_t k = 0; k < c.size(); ++k) out << (k ? separator : begin) << c[k].header;
    out << end;
    if (markdown) {
        for (std::size_t k = 0; k < c.size(); ++k) out << (k ? "|" : "|") << "---";
        out << "|\n";
    }
    for (std::size_t b = 0; b < rows.size(); ++b) {
        for (std::size_t k = 0; k < c.size(); ++k) out << (k ? separator : begin) << c[k].cell(int(b), rows[b]);
        out << end;
    }
}

// The largest of a value over the members, with the member: "1.2e-09 (member 7 (strike = 70, sigma = 0.2))".
std::string largest(const Batch& batch, const std::vector<MemberRow>& rows,
                    const std::function<double(const MemberRow&)>& of) {
    int at = 0;
    for (std::size_t b = 1; b < rows.size(); ++b)
        if (of(rows[b]) > of(rows[at])) at = static_cast<int>(b);
    return error(of(rows[at])) + " (" + describe_member(batch, at) + ")";
}

// surface.gp: y_0 (price.png) and its error, the true one where there is an exact solution else the estimate
// (error.png), against the varied parameter of the most values (of equals the last: e.g. the strike), a curve for
// each value of the others (e.g. each volatility), in the order of x, the data inline. Empty where nothing varies.
std::string gnuplot_script(const Batch& batch, const std::vector<MemberRow>& rows, bool exact) {
    if (batch.varied.empty()) return "";
    std::string x;
    std::size_t most = 0;
    for (const std::string& name : batch.varied) {
        std::vector<double> values;
        for (const ProblemParameters& member : batch.members) values.push_back(member.at(name));
        std::sort(values.begin(), values.end());
        const std::size_t distinct = std::unique(values.begin(), values.end()) - values.begin();
        if (distinct >= most) most = distinct, x = name;
    }
    std::map<std::string, std::vector<int>> curves;  // the other varied parameters' values -> members, in order
    std::vector<std::string> order;
    for (std::size_t b = 0; b < rows.size(); ++b) {
        std::string label;
        for (const std::string& name : batch.varied)
            if (name != x) label += (label.empty() ? "" : ", ") + name + " = " + format_number(batch.members[b].at(name));
        if (!curves.count(label)) order.push_back(label);
        curves[label].push_back(static_cast<int>(b));
    }
    std::ostringstream gp;
    gp << "# bsde surface: y_0 and its error against " << x << "; run in this folder: gnuplot surface.gp\n"
       << gnuplot_png_terminal(900, 640) << "set datafile missing \"?\"\n$members << EOD\n";
    for (const std::string& label : order) {
        gp << "# " << label << "\n";
        std::vector<int>& members = curves[label];
        std::stable_sort(members.begin(), members.end(),
                         [&](int a, int b) { return batch.members[a].at(x) < batch.members[b].at(x); });
        for (int b : members) {
            const MemberSolution& m = *rows[b].solution;
            const double e = exact ? std::fabs(m.y0 - m.y0_exact) : rows[b].estimate ? rows[b].estimate->y_error : -1;
            gp << format_number(batch.members[b].at(x), "%.17g") << " " << format_number(m.y0, "%.17g") << " "
               << (e > 0 ? format_number(e, "%.6e") : "?") << "\n";
        }
        gp << "\n\n";
    }
    gp << "EOD\nset xlabel " << gnuplot_string(gnuplot_enhanced_literal(x)) << "\nset grid\nset key outside right top\n";
    const auto plot = [&](const std::string& file, const std::string& title, int column) {
        gp << "\nset output " << gnuplot_string(file) << "\nset title " << gnuplot_string(title) << "\nplot ";
        for (std::size_t i = 0; i < order.size(); ++i)
            gp << (i ? ", \\\n     " : "") << "$members index " << i << " using 1:" << column
               << " with linespoints lw 2 pt 7 ps 0.6 title "
               << gnuplot_string(gnuplot_enhanced_literal(order[i].empty() ? "y_0" : order[i]));
        gp << "\n";
    };
    plot("price.png", "y_0 against " + x, 2);
    gp << "set logscale y 10\nset format y \"10^{%L}\"\n";
    plot("error.png", std::string(exact ? "error of y_0" : "estimated error of y_0") + " against " + x, 3);
    gp << "unset output\n";
    return gp.str();
}

}  // namespace

int surface_command(const Invocation& invocation, const std::string& command, std::ostream& out, std::ostream& err) {
    const Backend backend = invocation.backend_given ? invocation.backend : default_backend();
    const BackendOps& ops = backend_ops(backend);
    const ProblemInfo& problem = find_problem(invocation.problem);
    const Batch& batch = invocation.batch;
    const SchemeSettings& settings = invocation.settings;
    std::unique_ptr<AtomicOutputFile> csv, markdown, script;
    if (!invocation.out.empty()) {
        std::error_code ignored;
        std::filesystem::create_directories(invocation.out, ignored);
        csv = std::make_unique<AtomicOutputFile>(invocation.out + "/surface.csv", "--out");
        markdown = std::make_unique<AtomicOutputFile>(invocation.out + "/surface.md", "--out");
        script = std::make_unique<AtomicOutputFile>(invocation.out + "/surface.gp", "--out");
    }
    const auto start = std::chrono::steady_clock::now();
    const SolveResult result = ops.solve_batch(invocation.problem, settings, batch.members);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!result.picard_warning.empty()) err << "bsde: warning: " << result.picard_warning << "\n";

    // the estimate: batches at N / 2 and N / 4, Richardson per member (estimate.h)
    const EstimatePlan plan = plan_estimate(settings, problem.dimension, invocation.estimate);
    std::vector<ErrorEstimate> estimates(batch.members.size());
    std::string estimate_line = "off" + std::string(invocation.estimate == EstimateMode::off
                                                        ? " (--estimate off)"
                                                        : ": " + estimate_steps(plan) + " would cost about " +
                                                              format_number(100 * plan.cost, "%.0f") + " % of this one");
    if (plan.wanted) {
        const std::vector<int> levels = estimate_levels(plan, settings, problem);
        if (levels.empty()) {
            estimate_line = "not available: " + estimate_unavailable(settings, problem);
        } else {
            const auto levels_start = std::chrono::steady_clock::now();
            std::vector<SolveResult> level_results;
            for (const int N : levels) {
                SchemeSettings level = settings;
                level.N = N;
                level_results.push_back(ops.solve_batch(invocation.problem, level, batch.members));
            }
            const double levels_seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - levels_start).count();
            const EstimateOrders orders = estimate_orders(settings, problem.reflected);
            const auto values = [&](std::size_t level, std::size_t b) {
                const MemberSolution& m = level_results[level].members[b];
                return PointValues{levels[level], m.y0, m.z0};
            };
            for (std::size_t b = 0; b < estimates.size(); ++b) {
                const MemberSolution& m = result.members[b];
                const PointValues coarser = levels.size() > 1 ? values(1, b) : PointValues{};
                estimates[b] = richardson_estimate({settings.N, m.y0, m.z0}, values(0, b), orders,
                                                   levels.size() > 1 ? &coarser : nullptr);
            }
            estimate_line = "a-posteriori per member: " + estimate_steps(estimates.front()) +
                            ", orders " + std::to_string(orders.y) + "/" + std::to_string(orders.z) + "; +" +
                            format_number(levels_seconds, "%.3g") + " s";
        }
    }
    std::vector<MemberRow> rows;
    for (std::size_t b = 0; b < batch.members.size(); ++b)
        rows.push_back({&result.members[b], estimates[b].made ? &estimates[b] : nullptr});
    const MemberSolution& first = result.members.front();
    const bool exact = first.has_exact;
    const bool with_estimate = std::any_of(estimates.begin(), estimates.end(), [](const ErrorEstimate& e) { return e.made; });
    std::vector<std::string> parameters;
    for (const auto& given : batch.members.front()) parameters.push_back(given.first);
    const std::vector<Column> table = columns(batch, parameters, result.dimension, first, with_estimate, 10);

    std::ostringstream report;
    report << "problem   " << problem.name << " (" << problem.description << "), " << batch.members.size()
           << " members";
    if (!batch.varied.empty()) {
        report << " varying";
        for (const std::string& name : batch.varied) report << " " << name;
    }
    if (!invocation.left_out.empty()) {
        report << "\nleft out  " << invocation.left_out.size() << " member" << (invocation.left_out.size() == 1 ? "" : "s")
               << " that a solve refuses (--skip-refused):";
        for (const std::string& refusal : invocation.left_out) report << "\n          " << refusal;
    }
    report << "\nscheme    Ky = " << settings.Ky << ", Kz = " << settings.Kz << ", N = " << settings.N
           << ", M = " << result.M << ", L = " << settings.L << ", T = " << format_number(settings.T)
           << ", R = " << format_number(settings.R) << " (one grid for every member), start-up "
           << to_string(result.startup) << "\nbackend   " << result.device << "\nsweep     "
           << format_number(result.sweep_seconds, "%.4g") << " s for " << batch.members.size() << " members ("
           << format_number(batch.members.size() / result.sweep_seconds, "%.4g") << " members a second; "
           << format_number(seconds, "%.3g") << " s with set-up)\nestimate  " << estimate_line << "\n";
    if (exact) {
        report << "largest   y_0 error " << largest(batch, rows, [](const MemberRow& r) {
            return std::fabs(r.solution->y0 - r.solution->y0_exact);
        }) << "\n          z_0 error " << largest(batch, rows, [](const MemberRow& r) {
            return r.solution->z0_error();
        }) << "\n";
        if (first.has_greeks)
            report << "          gamma error " << largest(batch, rows, [](const MemberRow& r) {
                double e = 0;
                for (std::size_t k = 0; k < r.solution->gamma.size(); ++k)
                    e = std::max(e, std::fabs(r.solution->gamma[k] - r.solution->gamma_exact[k]));
                return e;
            }) << "\n";
    }
    if (invocation.sequential) {  // the same members one after another, each its own solve, in this process
        double sweeps = 0;
        const auto sequential_start = std::chrono::steady_clock::now();
        for (const ProblemParameters& member : batch.members)
            sweeps += ops.solve(invocation.problem, member_settings(settings, problem, member)).sweep_seconds;
        const double total =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - sequential_start).count();
        const double members = double(batch.members.size());
        report << "one by one " << format_number(sweeps, "%.4g") << " s of sweeps, " << format_number(total, "%.4g")
               << " s in all (" << format_number(members / total, "%.4g") << " members a second; the batch "
               << format_number((members / seconds) / (members / total), "%.3g") << "x that, its sweep "
               << format_number(sweeps / result.sweep_seconds, "%.3g") << "x their sweeps)\n";
    }
    out << report.str();
    constexpr std::size_t rows_printed = 50;
    if (rows.size() <= rows_printed) {
        out << "\n";
        write_table(out, table, rows, true);
    } else {
        out << "table     " << rows.size() << " rows: " << (csv ? "in --out" : "--out DIR writes them") << "\n";
    }
    if (csv) {
        write_table(csv->stream(), columns(batch, parameters, result.dimension, first, with_estimate, 17), rows, false);
        markdown->stream() << "# bsde surface: " << problem.name << "\n\n- command: `" << command << "`\n\n```\n"
                           << report.str() << "```\n\n";
        write_table(markdown->stream(), table, rows, true);
        const std::string gp = gnuplot_script(batch, rows, exact);
        script->stream() << gp;
        commit_together({csv.get(), markdown.get(), script.get()});
        std::string files = invocation.out + "/surface.csv, " + invocation.out + "/surface.md, " + invocation.out +
                            "/surface.gp";
        const Descriptor folder(::open(invocation.out.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
        if (!gp.empty() && folder.get() >= 0)
            for (const std::string& png :
                 make_plots(folder.get(), invocation.out, "surface.gp", "plots", {"price.png", "error.png"}, err))
                files += ", " + invocation.out + "/" + png;
        out << "files     " << files << "\n";
    }
    return 0;
}

}  // namespace bsde
