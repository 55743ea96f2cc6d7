// The study runner: list parsing, the table's columns, orders, speedups and empty cells from known
// inputs, the CSV and Markdown round trips, and a tiny study end to end through the command line.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "../algorithms/core/errors.h"
#include "../src/build_info.h"
#include "../src/cli.h"
#include "../src/progress.h"
#include "../src/repeats.h"
#include "../src/study.h"
#include "cli_support.h"
#include "test_support.h"

using namespace bsde;

using bsde::test::CliResult;
using bsde::test::run;
using bsde::test::run_succeeding;
using bsde::test::joined;
using bsde::test::exists;
using bsde::test::ScratchDir;

namespace {

// A study from known numbers: K = 1 at N = 16, 32, 64 and K = 2 at N = 16; serial left out of K = 1,
// N = 64; no cuda memory measured at K = 2.
Study known_study() {
    Study study;
    study.problem = "ex1";
    study.backends = {Backend::serial, Backend::omp, Backend::cuda};
    study.devices = {{Backend::serial, "serial (1 core)"}, {Backend::omp, "omp (2 threads)"}, {Backend::cuda, "cuda (test)"}};
    study.max_seconds = 10;
    study.command = "bsde study --problem ex1 --K 1-2 --N 16,32,64";
    const auto add = [&](int K, int N, int M, double ey, double ez, std::map<Backend, double> seconds, double device) {
        StudyCase c;
        c.K = K;
        c.N = N;
        c.M = M;
        c.has_exact = true;
        c.y0 = 0.5 + ey;
        c.z0 = 0.25 + ez;
        c.y0_error = ey;
        c.z0_error = ez;
        c.seconds = seconds;
        c.storage_bytes = 3 * 1048576.0;
        c.device_bytes = device;
        study.cases.push_back(c);
    };
    add(1, 16, 128, 1e-2, 4e-2, {{Backend::serial, 8.0}, {Backend::omp, 2.0}, {Backend::cuda, 0.5}}, 4 * 1048576.0);
    add(1, 32, 182, 2.5e-3, 2e-2, {{Backend::serial, 16.0}, {Backend::omp, 3.0}, {Backend::cuda, 0.25}}, 4 * 1048576.0);
    add(1, 64, 256, 3.125e-4, 1e-2, {{Backend::omp, 6.0}, {Backend::cuda, 0.5}}, 6 * 1048576.0);
    add(2, 16, 256, 1e-4, 1e-3, {{Backend::serial, 1.0}, {Backend::omp, 1.0}, {Backend::cuda, 1.0}}, -1);
    return study;
}

std::size_t column(const Table& table, const std::string& name) {
    for (std::size_t j = 0; j < table.header.size(); ++j)
        if (table.header[j] == name) return j;
    BOOST_FAIL("no column '" << name << "' in the table");
    return 0;
}

void check_tables_equal(const std::string& what, const Table& expected, const Table& got) {
    BOOST_CHECK_MESSAGE(got.header == expected.header, what << ": the header differs");
    BOOST_REQUIRE_MESSAGE(got.rows.size() == expected.rows.size(),
                          what << ": expected " << expected.rows.size() << " rows, got " << got.rows.size());
    for (std::size_t i = 0; i < got.rows.size(); ++i)
        for (std::size_t j = 0; j < expected.header.size(); ++j)
            BOOST_CHECK_MESSAGE(j < got.rows[i].size() && got.rows[i][j] == expected.rows[i][j],
                                what << ": row " << i + 1 << ", column '" << expected.header[j] << "': expected '"
                                     << expected.rows[i][j] << "', got '"
                                     << (j < got.rows[i].size() ? got.rows[i][j] : "(missing)") << "'");
}

void check_input_error(const std::function<void()>& f, const std::string& what, const std::string& contains) {
    try {
        f();
        BOOST_ERROR(what << ": expected an InputError");
    } catch (const InputError& e) {
        BOOST_CHECK_MESSAGE(std::string(e.what()).find(contains) != std::string::npos,
                            what << ": expected the message to contain '" << contains << "', got '" << e.what() << "'");
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(study)

BOOST_AUTO_TEST_CASE(lists_and_ranges) {
    BOOST_TEST_MESSAGE("--K and --N lists: ranges, values, sorted without repeats; a single value elsewhere");
    BOOST_CHECK((parse_int_list("--K", "1-6") == std::vector<int>{1, 2, 3, 4, 5, 6}));
    BOOST_CHECK((parse_int_list("--N", "128,256,512,1024") == std::vector<int>{128, 256, 512, 1024}));
    BOOST_CHECK((parse_int_list("--N", "64, 16,32,16") == std::vector<int>{16, 32, 64}));
    BOOST_CHECK((parse_int_list("--K", "1-3,5") == std::vector<int>{1, 2, 3, 5}));
    BOOST_CHECK((parse_int_list("--K", "4", false) == std::vector<int>{4}));
    BOOST_CHECK((parse_int_list("--K", "-1", false) == std::vector<int>{-1}));  // range checks come later
    check_input_error([] { parse_int_list("--K", "1-6", false); }, "--K 1-6 for solve", "--K '1-6': one integer");
    check_input_error([] { parse_int_list("--K", "1-x"); }, "--K 1-x", "--K '1-x'");
    check_input_error([] { parse_int_list("--K", "6-1"); }, "--K 6-1", "--K '6-1'");
    check_input_error([] { parse_int_list("--N", "16,,32"); }, "--N 16,,32", "--N '16,,32'");
    check_input_error([] { parse_int_list("--N", ""); }, "--N ''", "--N ''");
    // blanks around the value are refused, as the option parser refuses them around a real number (--T ' 1')
    check_input_error([] { parse_int_list("--K", " 3", false); }, "--K ' 3'", "--K ' 3': blanks around the value");
    check_input_error([] { parse_int_list("--N", "8,16 "); }, "--N '8,16 '", "--N '8,16 ': blanks around the value");
    BOOST_CHECK((parse_backend_list("cuda,serial,omp,omp") ==
                 std::vector<Backend>{Backend::serial, Backend::omp, Backend::cuda}));
    check_input_error([] { parse_backend_list("omp,tpu"); }, "--backends omp,tpu", "--backends 'omp,tpu'");
}

BOOST_AUTO_TEST_CASE(orders_and_speedups) {
    BOOST_TEST_MESSAGE("observed order log2(e_N / e_2N) (and log(e1/e2)/log(N2/N1) otherwise); speedup = slow/fast");
    test::check_close("order of 1e-2 -> 2.5e-3 at N 16 -> 32", 2.0, observed_order(1e-2, 16, 2.5e-3, 32), 1e-14);
    test::check_close("order of 1 -> 1/27 at N 8 -> 24", 3.0, observed_order(1.0, 8, 1.0 / 27, 24), 1e-14);
    test::check_close("order of a growing error", -1.0, observed_order(1e-3, 32, 2e-3, 64), 1e-14);
    BOOST_CHECK(std::isnan(observed_order(0.0, 16, 1e-3, 32)));
    BOOST_CHECK(std::isnan(observed_order(1e-3, 16, 0.0, 32)));
    BOOST_CHECK(std::isnan(observed_order(std::nan(""), 16, 1e-3, 32)));
    test::check_close("speedup 8 s / 0.5 s", 16.0, speedup(8.0, 0.5), 1e-15);
    BOOST_CHECK(std::isnan(speedup(std::nan(""), 0.5)));
    BOOST_CHECK(std::isnan(speedup(8.0, 0.0)));

    using P = std::vector<std::pair<Backend, Backend>>;
    BOOST_CHECK((speedup_pairs({Backend::serial, Backend::omp, Backend::cuda}) ==
                 P{{Backend::cuda, Backend::serial}, {Backend::cuda, Backend::omp}}));
    BOOST_CHECK((speedup_pairs({Backend::serial, Backend::omp}) == P{{Backend::omp, Backend::serial}}));
    BOOST_CHECK((speedup_pairs({Backend::omp, Backend::cuda}) == P{{Backend::cuda, Backend::omp}}));
    BOOST_CHECK(speedup_pairs({Backend::cuda}).empty());
}

BOOST_AUTO_TEST_CASE(time_limit_leaves_larger_cases_out) {
    BOOST_TEST_MESSAGE("--max-seconds S: a backend over S s on (K, N) is left out of every case with K' >= K, N' >= N");
    std::vector<StudyCase> done(3);
    done[0].K = 2, done[0].N = 128, done[0].seconds = {{Backend::serial, 3.0}, {Backend::omp, 1.0}};
    done[1].K = 2, done[1].N = 256, done[1].seconds = {{Backend::serial, 12.0}, {Backend::omp, 2.0}};
    done[2].K = 3, done[2].N = 128, done[2].seconds = {{Backend::serial, 5.0}, {Backend::omp, 1.5}};
    const double S = 10;
    BOOST_CHECK(left_out_by_time(done, Backend::serial, 2, 512, S));
    BOOST_CHECK(left_out_by_time(done, Backend::serial, 3, 256, S));
    BOOST_CHECK(left_out_by_time(done, Backend::serial, 6, 1024, S));
    BOOST_CHECK(!left_out_by_time(done, Backend::serial, 2, 256, S));  // the case itself ran
    BOOST_CHECK(!left_out_by_time(done, Backend::serial, 1, 512, S));  // smaller K
    BOOST_CHECK(!left_out_by_time(done, Backend::serial, 3, 128, S));  // smaller N
    BOOST_CHECK(!left_out_by_time(done, Backend::omp, 6, 1024, S));    // omp was fast enough
    BOOST_CHECK(!left_out_by_time(done, Backend::serial, 6, 1024, 0));  // 0: no limit
}

BOOST_AUTO_TEST_CASE(table_from_known_inputs) {
    BOOST_TEST_MESSAGE("the printed table: columns, orders, speedups, memory, empty cells for a left-out backend");
    const Study study = known_study();
    const Table table = study_table(study, TableStyle::display);
    BOOST_CHECK((table.header ==
                 std::vector<std::string>{"K", "N", "M", "y_0 error", "order y", "z_0 error", "order z", "serial s",
                                          "omp s", "cuda s", "cuda/serial", "cuda/omp", "arrays MiB", "device MiB"}));
    BOOST_REQUIRE_EQUAL(table.rows.size(), 4u);
    using Row = std::vector<std::string>;
    const std::vector<Row> expected{
        {"1", "16", "128", "1.000e-02", "", "4.000e-02", "", "8.0000", "2.0000", "0.5000", "16.0", "4.0", "3.00", "4.00"},
        {"1", "32", "182", "2.500e-03", "2.00", "2.000e-02", "1.00", "16.0000", "3.0000", "0.2500", "64.0", "12.0", "3.00",
         "4.00"},
        {"1", "64", "256", "3.125e-04", "3.00", "1.000e-02", "1.00", "", "6.0000", "0.5000", "", "12.0", "3.00", "6.00"},
        {"2", "16", "256", "1.000e-04", "", "1.000e-03", "", "1.0000", "1.0000", "1.0000", "1.0", "1.0", "3.00", ""}};
    check_tables_equal("display table", Table{table.header, expected}, table);

    // Without an exact solution the error and order cells are empty; without cuda there is no device column
    // and the speedup is omp over serial.
    Study no_exact = known_study();
    no_exact.backends = {Backend::serial, Backend::omp};
    for (StudyCase& c : no_exact.cases) {
        c.has_exact = false;
        c.seconds.erase(Backend::cuda);
    }
    const Table t2 = study_table(no_exact, TableStyle::display);
    BOOST_CHECK((t2.header == std::vector<std::string>{"K", "N", "M", "y_0 error", "order y", "z_0 error", "order z",
                                                       "serial s", "omp s", "omp/serial", "arrays MiB"}));
    for (const Row& row : t2.rows)
        for (const char* name : {"y_0 error", "order y", "z_0 error", "order z"})
            BOOST_CHECK_MESSAGE(row[column(t2, name)].empty(), "'" << name << "' should be empty, got '"
                                                                   << row[column(t2, name)] << "'");
    BOOST_CHECK_EQUAL(t2.rows[0][column(t2, "omp/serial")], "4.0");
    BOOST_CHECK_EQUAL(t2.rows[2][column(t2, "omp/serial")], "");

    // The notes name the left-out backend and the rule.
    const std::string notes = study_notes(study);
    BOOST_CHECK_MESSAGE(notes.find("--max-seconds 10") != std::string::npos && notes.find("serial (1 case)") != std::string::npos,
                        "notes: '" << notes << "'");
    BOOST_CHECK(study_notes(no_exact).find("serial") != std::string::npos);
    // and say why the error columns are empty, where they are
    const std::string why = "Empty error and order columns: problem " + no_exact.problem + " has no exact solution";
    BOOST_CHECK_MESSAGE(study_notes(no_exact).find(why) != std::string::npos,
                        "expected '" << why << "' in the notes, got '" << study_notes(no_exact) << "'");
    BOOST_CHECK_MESSAGE(notes.find("Empty error") == std::string::npos,
                        "expected no such note with an exact solution, got '" << notes << "'");
}

BOOST_AUTO_TEST_CASE(repeated_solves_report_their_median_and_spread) {
    BOOST_TEST_MESSAGE("with --repeats the time cells are the medians, study.csv adds each backend's least and most "
                       "time, and the notes give the largest spread");
    Study study = known_study();
    study.repeats = 3;
    study.cases.resize(1);
    StudyCase& c = study.cases.front();
    c.runs = {{Backend::serial, {9.0, 8.0, 12.0}}, {Backend::omp, {2.0, 2.5, 1.0}}, {Backend::cuda, {0.5, 0.5, 0.5}}};
    for (const auto& [backend, runs] : c.runs) c.seconds[backend] = median_of(runs);

    const Table display = study_table(study, TableStyle::display);
    BOOST_CHECK_EQUAL(display.rows[0][column(display, "serial s")], "9.0000");
    BOOST_CHECK_EQUAL(display.rows[0][column(display, "omp s")], "2.0000");
    BOOST_CHECK_EQUAL(display.rows[0][column(display, "cuda/serial")], "18.0");  // 9 / 0.5, of the medians
    BOOST_CHECK_EQUAL(display.header.size(), 14u);  // no spread columns on the printed table

    const Table csv = study_table(study, TableStyle::csv);
    const std::vector<std::pair<std::string, double>> expected{
        {"seconds_serial", 9.0}, {"seconds_min_serial", 8.0}, {"seconds_max_serial", 12.0},
        {"seconds_omp", 2.0},    {"seconds_min_omp", 1.0},    {"seconds_max_omp", 2.5},
        {"seconds_min_cuda", 0.5}, {"seconds_max_cuda", 0.5}};
    for (const auto& [name, value] : expected)
        BOOST_CHECK_MESSAGE(std::stod(csv.rows[0][column(csv, name)]) == value,
                            name << ": expected " << value << ", got '" << csv.rows[0][column(csv, name)] << "'");

    // The spread: serial 12 / 8 = 1.5x, omp 2.5 / 1 = 2.5x, cuda 1x.
    const std::string notes = study_notes(study);
    for (const char* part : {"the median of 3 solves", "serial 1.500x, omp 2.500x, cuda 1.000x"})
        BOOST_CHECK_MESSAGE(notes.find(part) != std::string::npos, "expected '" << part << "' in the notes: '" << notes << "'");

    // One solve per case: neither the columns nor the note.
    study.repeats = 1;
    const Table single = study_table(study, TableStyle::csv);
    BOOST_CHECK(std::find(single.header.begin(), single.header.end(), "seconds_min_serial") == single.header.end());
    BOOST_CHECK(study_notes(study).find("median") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(text_table_is_aligned) {
    BOOST_TEST_MESSAGE("the text table right-aligns every column, two blanks apart");
    const Table table = study_table(known_study(), TableStyle::display);
    std::ostringstream text;
    write_text_table(text, table);
    std::vector<std::size_t> width(table.header.size());
    for (std::size_t j = 0; j < width.size(); ++j) {
        width[j] = table.header[j].size();
        for (const auto& row : table.rows) width[j] = std::max(width[j], row[j].size());
    }
    std::istringstream lines(text.str());
    std::vector<std::vector<std::string>> all{table.header};
    all.insert(all.end(), table.rows.begin(), table.rows.end());
    for (const auto& cells : all) {
        std::string line;
        BOOST_REQUIRE(std::getline(lines, line));
        std::size_t end = 0;
        for (std::size_t j = 0; j < cells.size(); ++j) {
            end += (j ? 2 : 0) + width[j];
            if (cells[j].empty()) continue;
            BOOST_CHECK_MESSAGE(end <= line.size() && line.compare(end - cells[j].size(), cells[j].size(), cells[j]) == 0,
                                "'" << cells[j] << "' is not right-aligned at column " << end << " of '" << line << "'");
        }
        BOOST_CHECK_MESSAGE(line.empty() || line.back() != ' ', "trailing blanks in '" << line << "'");
    }
}

BOOST_AUTO_TEST_CASE(csv_and_markdown_round_trip) {
    BOOST_TEST_MESSAGE("CSV and Markdown written then parsed back give the same cells; CSV keeps every digit");
    const Study study = known_study();
    const Table csv_table = study_table(study, TableStyle::csv);
    std::stringstream csv;
    write_csv(csv, csv_table);
    const Table parsed = read_csv(csv);
    check_tables_equal("CSV", csv_table, parsed);
    for (std::size_t i = 0; i < study.cases.size(); ++i) {
        const StudyCase& c = study.cases[i];
        BOOST_CHECK_EQUAL(std::stod(parsed.rows[i][column(parsed, "y0_error")]), c.y0_error);
        BOOST_CHECK_EQUAL(std::stod(parsed.rows[i][column(parsed, "z0")]), c.z0);
        BOOST_CHECK_EQUAL(std::stod(parsed.rows[i][column(parsed, "seconds_omp")]), c.seconds.at(Backend::omp));
    }
    BOOST_CHECK_EQUAL(parsed.rows[2][column(parsed, "seconds_serial")], "");
    BOOST_CHECK_EQUAL(std::stod(parsed.rows[1][column(parsed, "order_y")]), 2.0);
    BOOST_CHECK_EQUAL(std::stod(parsed.rows[1][column(parsed, "speedup_cuda_serial")]), 64.0);

    // Cells with separators and quotes survive too.
    const Table tricky{{"a", "b,c", "d"}, {{"x \"quoted\"", "", "1,2"}, {"", "", ""}}};
    std::stringstream tricky_csv;
    write_csv(tricky_csv, tricky);
    check_tables_equal("CSV with quotes", tricky, read_csv(tricky_csv));
    std::istringstream bad("a,b\n1,2,3\n");
    BOOST_CHECK_THROW(read_csv(bad), std::runtime_error);

    std::stringstream markdown;
    write_markdown(markdown, study);
    const std::string text = markdown.str();
    BOOST_CHECK_MESSAGE(text.find("serial (1 core); omp (2 threads); cuda (test)") != std::string::npos, text);
    BOOST_CHECK_MESSAGE(text.find("`" + study.command + "`") != std::string::npos, text);
    check_tables_equal("Markdown", study_table(study, TableStyle::display), read_markdown_table(markdown));
}

BOOST_AUTO_TEST_CASE(gnuplot_script_has_the_figures) {
    BOOST_TEST_MESSAGE("the gnuplot script plots y and z errors and each speedup, one curve per K, '?' for gaps");
    const std::string script = gnuplot_script(known_study());
    for (const char* piece : {"set output \"y_error.png\"", "set output \"z_error.png\"",
                              "set output \"speedup_cuda_serial.png\"", "set output \"speedup_cuda_omp.png\"",
                              "$K1 << EOD", "$K2 << EOD", "title \"K = 2\"", "set logscale x 2", "64 3.125000e-04 1.000000e-02 ? 1.200000e+01"})
        BOOST_CHECK_MESSAGE(script.find(piece) != std::string::npos, "no '" << piece << "' in the script:\n" << script);
}

BOOST_AUTO_TEST_CASE(durations) {
    BOOST_CHECK_EQUAL(format_duration(0.42), "0.4 s");
    BOOST_CHECK_EQUAL(format_duration(12.2), "12 s");
    BOOST_CHECK_EQUAL(format_duration(185), "3 min 05 s");
    BOOST_CHECK_EQUAL(format_duration(7800), "2 h 10 min");
    BOOST_CHECK_EQUAL(format_duration(-1), "?");
}

BOOST_AUTO_TEST_CASE(bad_study_input_exits_2) {
    BOOST_TEST_MESSAGE("bad study input: one 'bsde: error:' line naming the option, exit 2, nothing on out");
    ScratchDir scratch("study");
    std::ofstream(scratch.path("file")) << "not a folder\n";
    const std::vector<test::BadInput> rows{
        {{"study", "--K", "1-x"}, 2, "--K '1-x'"},
        {{"study", "--K", "0-2"}, 2, "--K 0"},
        {{"study", "--K", "1-3", "--N", "3,8"}, 2, "--N 3"},
        {{"study", "--N", "abc"}, 2, "--N 'abc'"},
        {{"study", "--N", "8,-99999999999"}, 2, "--N '8,-99999999999': -99999999999 is out of range (at least -2147483648)"},
        {{"study", "--K", "1-99999999999"}, 2, "--K '1-99999999999': 99999999999 is out of range (at most 2147483647)"},
        {{"study", "--backends", "serial,tpu"}, 2, "--backends 'serial,tpu'"},
        {{"study", "--backend", "omp"}, 2, "--backend: bsde study takes --backends"},
        {{"study", "--output", "x.csv"}, 2, "--output: bsde study takes --out"},
        {{"study", "--Ky", "2"}, 2, "--Ky"},
        {{"study", "--max-seconds", "-1"}, 2, "--max-seconds -1"},
        {{"study", "--repeats", "0"}, 2, "--repeats 0: must be in 1..1000"},
        {{"study", "--repeats", "1001"}, 2, "--repeats 1001"},
        {{"study", "--problem", "nope"}, 2, "--problem 'nope'"},
        {{"solve", "--K", "1-6"}, 2, "--K '1-6': one integer"},
        {{"grid", "--N", "128,256"}, 2, "--N '128,256'"},
        {{"solve", "--backends", "omp"}, 2, "--backends: only for bsde study"},
        {{"solve", "--out", "dir"}, 2, "--out: only for bsde study"},
        {{"study", "--problem", "ex1", "--K", "1", "--N", "8", "--backends", "serial", "--out", scratch.path("file/sub")},
         2, "--out '" + scratch.path("file/sub") + "'"},
        {{"study", "--problem", "ex2", "--S0", "90", "--out", scratch.path("parameter/sub")}, 2,
         "--S0: not a parameter of problem log-sine"},
        {{"study", "--problem", "ex2", "--K", "6", "--N", "643", "--backends", "serial", "--out",
          scratch.path("unstable/sub")},
         2, "--K 6, --N 643, --L 32: the scheme is unstable on this grid"},
    };
    for (const test::BadInput& row : rows) test::check_bad_input(row);
    for (const char* made : {"parameter", "unstable"})
        BOOST_CHECK_MESSAGE(!test::exists(scratch.path(made)), "a study that failed left its --out folder "
                                                                   << scratch.path(made) << " behind");
}

BOOST_AUTO_TEST_CASE(cuda_requested_without_a_device_exits_2) {
    if (backend_available(Backend::cuda)) {
        BOOST_TEST_MESSAGE("a CUDA device is present: nothing to check");
        return;
    }
    const std::vector<std::string> args{"study", "--problem", "ex1", "--K", "1", "--N", "8", "--backends", "omp,cuda"};
    const CliResult r = run(args);
    BOOST_CHECK_MESSAGE(r.code == 2,
                        joined(args) << ": expected exit code 2 (a backend this machine lacks), got " << r.code);
    BOOST_CHECK_MESSAGE(
        test::one_line(r.err, "bsde: error: --backends cuda: not available; this machine runs serial, omp"),
                        joined(args) << ": got '" << r.err << "'");
    BOOST_CHECK(r.out.empty());
}

BOOST_AUTO_TEST_CASE(tiny_study_end_to_end) {
    BOOST_TEST_MESSAGE("bsde study --problem ex1 --K 1-2 --N 8,16 --backends serial,omp --out DIR: table, files, plots");
    ScratchDir scratch("study");
    const std::string dir = scratch.path("out");
    const std::vector<std::string> args{"study", "--problem", "ex1", "--K", "1-2", "--N", "8,16",
                                        "--backends", "serial,omp", "--out", dir};
    const CliResult r = run_succeeding(args);
    BOOST_CHECK_MESSAGE(r.out.find("omp/serial") != std::string::npos, "no speedup column in:\n" << r.out);
    BOOST_CHECK_MESSAGE(r.out.find("build: bsde at commit " + build_commit()) != std::string::npos,
                        "the output does not name the build's commit " << build_commit() << ":\n" << r.out);
    for (const char* file : {"study.csv", "study.md", "study.gp"})
        BOOST_CHECK_MESSAGE(exists(dir + "/" + file), dir << "/" << file << " was not written");
    for (const std::string& name : test::names_in(dir))
        BOOST_CHECK_MESSAGE(name.find(".partial") == std::string::npos,
                            "a temporary file remains: " << dir << "/" << name);

    std::ifstream csv_file(dir + "/study.csv");
    const Table csv = read_csv(csv_file);
    BOOST_REQUIRE_EQUAL(csv.rows.size(), 4u);
    const int Ks[] = {1, 1, 2, 2}, Ns[] = {8, 16, 8, 16};
    for (std::size_t i = 0; i < 4; ++i) {
        const auto& row = csv.rows[i];
        BOOST_CHECK_EQUAL(std::stoi(row[column(csv, "K")]), Ks[i]);
        BOOST_CHECK_EQUAL(std::stoi(row[column(csv, "N")]), Ns[i]);
        BOOST_CHECK(std::stod(row[column(csv, "y0_error")]) > 0);
        BOOST_CHECK(std::stod(row[column(csv, "z0_error")]) > 0);
        BOOST_CHECK(std::stod(row[column(csv, "seconds_serial")]) > 0);
        BOOST_CHECK(std::stod(row[column(csv, "seconds_omp")]) > 0);
        BOOST_CHECK(std::stod(row[column(csv, "speedup_omp_serial")]) > 0);
        BOOST_CHECK_EQUAL(row[column(csv, "order_y")].empty(), Ns[i] == 8);
        // z against the slope of y: within the check's limit, and not 0 (z carries the scheme's error)
        const double z_check = std::stod(row[column(csv, "z_check")]);
        BOOST_CHECK_MESSAGE(z_check > 0 && z_check < slope_check_limit,
                            "row " << i + 1 << ": expected a z check in (0, 1), got " << z_check);
    }
    // z converges at order K between N = 8 and 16 (loosely, so small N stays robust).
    BOOST_CHECK_GT(std::stod(csv.rows[1][column(csv, "order_z")]), 0.5);
    BOOST_CHECK_GT(std::stod(csv.rows[3][column(csv, "order_z")]), 1.5);

    std::ifstream markdown_file(dir + "/study.md");
    const Table markdown = read_markdown_table(markdown_file);
    BOOST_CHECK_EQUAL(markdown.rows.size(), 4u);
    // with the error estimates' two columns (on by default here) and the z check's
    BOOST_CHECK_EQUAL(markdown.header.size(), 14u);

    // Plots when gnuplot is present; otherwise one note on err and still every table.
    const bool skipped = r.err.find("bsde: note: plots skipped") != std::string::npos;
    BOOST_CHECK_MESSAGE(skipped || r.err.empty(), "unexpected err: '" << r.err << "'");
    for (const char* png : {"y_error.png", "z_error.png", "speedup_omp_serial.png"})
        BOOST_CHECK_MESSAGE(exists(dir + "/" + png) != skipped, dir << "/" << png << (skipped ? " exists" : " is missing"));

    // Without gnuplot (a smaller study into the same folder): the tables, no PNG (none stale), one note.
    const std::vector<std::string> smaller{"study", "--problem", "ex1", "--K", "1", "--N", "8,16",
                                           "--backends", "serial", "--out", dir};
    const CliResult without = [&] {
        test::ScopedEnv missing("BSDE_GNUPLOT", "/nonexistent/gnuplot");
        return run(smaller);
    }();
    BOOST_CHECK_MESSAGE(without.code == 0, "without gnuplot: exit code " << without.code << " (" << without.err << ")");
    BOOST_CHECK_MESSAGE(without.err.find("plots skipped") != std::string::npos &&
                            without.err.find('\n') == without.err.size() - 1,
                        "without gnuplot: expected one note on err, got '" << without.err << "'");
    BOOST_CHECK(exists(dir + "/study.csv") && exists(dir + "/study.md"));
    BOOST_CHECK_MESSAGE(!exists(dir + "/y_error.png"), "a stale y_error.png remains");
}

BOOST_AUTO_TEST_CASE(plots_skipped_say_how_gnuplot_ended) {
    BOOST_TEST_MESSAGE("a gnuplot that fails without a word (BSDE_GNUPLOT=false): one note with its exit status, 1, "
                       "not the raw wait status, and no empty reason after it");
    ScratchDir scratch("study");
    const std::vector<std::string> args{"study", "--problem", "ex1", "--K", "1", "--N", "8,16", "--backends", "serial",
                                        "--out", scratch.path("out")};
    test::ScopedEnv failing("BSDE_GNUPLOT", "false");
    const CliResult r = run(args);
    const std::string ending = "false failed (exit status 1)\n";
    BOOST_CHECK_MESSAGE(r.code == 0, joined(args) << ": exit code " << r.code << " (" << r.err << ")");
    BOOST_CHECK_MESSAGE(test::one_line(r.err, "bsde: note: plots skipped: ") && r.err.size() >= ending.size() &&
                            r.err.compare(r.err.size() - ending.size(), ending.size(), ending) == 0,
                        "expected one note ending '" << test::shown(ending) << "', got '" << test::shown(r.err) << "'");
}

BOOST_AUTO_TEST_CASE(study_whose_files_cannot_be_written_prints_nothing) {
    BOOST_TEST_MESSAGE("a study whose --out files cannot be written (files limited to 1 KiB, as on a full disk): exit "
                       "code 2, one error line naming --out and the file, nothing on out, no folder left behind");
    ScratchDir scratch("study");
    const std::string dir = scratch.path("out");
    const std::vector<std::string> args{"study", "--problem", "ex1", "--K", "1-2", "--N", "8,16",
                                        "--backends", "serial", "--out", dir};
    test::check_failure({args, 2, "--out '" + dir + "/study."}, test::run_with_file_size_limit(args, 1024));
    BOOST_CHECK_MESSAGE(!exists(dir), "the study left its --out folder " << dir << " behind");
}

BOOST_AUTO_TEST_CASE(study_md_says_the_smoothing_as_the_solve_report_does) {
    BOOST_TEST_MESSAGE("study.md's scheme line ends with the solve report's words on the smoothing: 'no smoothing "
                       "(smooth terminal data)' for ex1, the smoothing of the kinked terminal data for ex3");
    ScratchDir scratch("study");
    for (const std::string problem : {"ex1", "ex3"}) {
        const CliResult solve = run({"solve", "--problem", problem, "--K", "1", "--N", "8", "--backend", "serial"});
        const std::size_t scheme = solve.out.find("scheme    ");
        BOOST_REQUIRE_MESSAGE(solve.code == 0 && scheme != std::string::npos,
                              problem << ": no scheme line in '" << solve.out << "'");
        const std::string line = solve.out.substr(scheme, solve.out.find('\n', scheme) - scheme);
        const std::string smoothing = line.substr(line.rfind(", ") + 2);  // the line's last part
        const std::string dir = scratch.path(problem);
        const CliResult study =
            run({"study", "--problem", problem, "--K", "1", "--N", "8", "--backends", "serial", "--out", dir});
        BOOST_REQUIRE_MESSAGE(study.code == 0,
                              problem << ": study exit code " << study.code << " (" << study.err << ")");
        std::ifstream markdown_file(dir + "/study.md");
        const std::string markdown(std::istreambuf_iterator<char>(markdown_file), {});
        BOOST_CHECK_MESSAGE(markdown.find(", " + smoothing + "\n") != std::string::npos,
                            problem << ": expected study.md's scheme line to end with '" << smoothing << "', got:\n"
                                    << markdown);
    }
}

BOOST_AUTO_TEST_CASE(repeated_study_end_to_end) {
    BOOST_TEST_MESSAGE("bsde study --problem ex1 --K 1 --N 8 --backends serial,omp --repeats 3 --out DIR: each time the "
                       "median of three solves, between their least and most");
    ScratchDir scratch("study");
    const std::string dir = scratch.path("out");
    const std::vector<std::string> args{"study", "--problem", "ex1", "--K", "1", "--N", "8", "--backends", "serial,omp",
                                        "--repeats", "3", "--out", dir};
    const CliResult r = run_succeeding(args);
    BOOST_CHECK_MESSAGE(r.out.find("Times: the median of 3 solves") != std::string::npos, "no note on the repeats in:\n"
                                                                                             << r.out);
    std::ifstream csv_file(dir + "/study.csv");
    const Table csv = read_csv(csv_file);
    BOOST_REQUIRE_EQUAL(csv.rows.size(), 1u);
    for (const char* backend : {"serial", "omp"}) {
        const auto value = [&](const std::string& name) { return std::stod(csv.rows[0][column(csv, name)]); };
        const double median = value(std::string("seconds_") + backend), least = value(std::string("seconds_min_") + backend),
                     most = value(std::string("seconds_max_") + backend);
        BOOST_CHECK_MESSAGE(least > 0 && least <= median && median <= most,
                            backend << ": expected 0 < min <= median <= max, got " << least << ", " << median << ", " << most);
    }
    std::ifstream markdown_file(dir + "/study.md");
    const std::string markdown(std::istreambuf_iterator<char>(markdown_file), {});
    BOOST_CHECK_MESSAGE(markdown.find("Times: the median of 3 solves") != std::string::npos,
                        "study.md does not say how the times were taken");
}

BOOST_AUTO_TEST_SUITE_END()
