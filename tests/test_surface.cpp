// bsde surface: a batch's table as each member's solve gives it, and its refusals of bad input.
#include <sstream>
#include <string>
#include <vector>

#include "../src/text.h"
#include "cli_support.h"
#include "test_support.h"

using namespace bsde;
using namespace bsde::test;

BOOST_AUTO_TEST_SUITE(surface_command)

BOOST_AUTO_TEST_CASE(surface_writes_each_member_as_its_solve_gives_it) {
    BOOST_TEST_MESSAGE("bsde surface --problem bs-call --strike 90,110 --sigma 0.2 --K 3 --N 16 --backend serial --out "
                       "DIR: exit 0, the table on out, DIR/surface.csv with a header and 2 rows whose y0 equal bsde "
                       "solve's y_0 of each member to its 12 printed digits, surface.md and surface.gp (its plots where "
                       "gnuplot is)");
    ScratchDir scratch("surface");
    const std::string folder = scratch.path("out");
    const CliResult r = run_succeeding({"surface", "--problem", "bs-call", "--strike", "90,110", "--sigma", "0.2",
                                        "--K", "3", "--N", "16", "--backend", "serial", "--out", folder});
    BOOST_CHECK_MESSAGE(r.out.find("2 members varying strike") != std::string::npos, "got '" << r.out << "'");
    BOOST_REQUIRE(exists(folder + "/surface.csv") && exists(folder + "/surface.md") && exists(folder + "/surface.gp"));
    BOOST_CHECK_MESSAGE(file_contents(folder + "/surface.gp").find("$members index 0 using 1:2") != std::string::npos,
                        "surface.gp: expected the price against the strike, a curve per sigma");
    std::istringstream csv(file_contents(folder + "/surface.csv"));
    std::string header, line;
    std::getline(csv, header);
    BOOST_CHECK_MESSAGE(header.rfind("member,sigma,strike,y0,y0_exact,y0_error", 0) == 0, "header '" << header << "'");
    int rows = 0;
    for (const char* strike : {"90", "110"}) {
        BOOST_REQUIRE(std::getline(csv, line));
        ++rows;
        const std::vector<std::string> cells = split(line, ',');
        const CliResult alone = run_succeeding({"solve", "--problem", "bs-call", "--strike", strike, "--sigma", "0.2",
                                                "--K", "3", "--N", "16", "--backend", "serial", "--estimate", "off"});
        const std::string y0 = report_line(alone.out, "y_0       ");
        const double solved = std::stod(y0.substr(10, y0.find(' ', 10) - 10)), batched = std::stod(cells.at(3));
        check_close(std::string("strike ") + strike + ": y0 of the surface against bsde solve's", solved, batched,
                    1e-11, solved);
    }
    BOOST_CHECK_EQUAL(rows, 2);
    BOOST_CHECK_MESSAGE(!std::getline(csv, line), "expected 2 rows, got another: '" << line << "'");
}

BOOST_AUTO_TEST_CASE(surface_refuses_bad_input) {
    BOOST_TEST_MESSAGE("an empty list, a bad value (its position), lists and --batch together, no members, a problem "
                       "with an obstacle, a refused member (named with its parameters), a batch beyond the memory (the largest "
                       "B that fits): one line, exit 2");
    const std::vector<std::string> base{"surface", "--problem", "bs-call", "--K", "3", "--N", "16", "--backend", "serial"};
    const auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = base;
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    };
    const BadInput rows[]{
        {with({"--strike", ""}), 2, "--strike '': no values"},
        {with({"--strike", "90,x,110"}), 2, "item 2, 'x', is not a number"},
        {with({"--strike", "90", "--batch", "members.csv"}), 2, "from the file or from the lists, not both"},
        {base, 2, "no members"},
        {{"surface", "--problem", "am-put", "--strike", "90,100"}, 2, "has an obstacle; batches are of problems without one"},
        {with({"--sigma", "0.2,-0.2"}), 2, "member 2 (sigma = -0.2): "},
    };
    for (const BadInput& row : rows) check_bad_input(row);
    ScopedEnv little("BSDE_TEST_FREE_BYTES", "20000000");
    check_bad_input({with({"--strike", "60:140:400"}), 2, "the largest batch that fits has "});
}

BOOST_AUTO_TEST_CASE(skip_refused_leaves_out_the_refused_members_and_solves_the_rest) {
    BOOST_TEST_MESSAGE("bsde surface --problem bs-call --sigma 0.2,-0.2,0.3 --skip-refused: exit 0, member 2 named on "
                       "the 'left out' line with its refusal, members 1 and 3 in the table with their numbers and the "
                       "y_0 of bsde solve; every member refused: one line, exit 2");
    const std::vector<std::string> base{"surface", "--problem", "bs-call", "--K", "3", "--N", "16", "--backend",
                                        "serial", "--estimate", "off", "--skip-refused"};
    std::vector<std::string> args = base;
    for (const char* extra : {"--sigma", "0.2,-0.2,0.3"}) args.push_back(extra);
    const CliResult r = run_succeeding(args);
    BOOST_CHECK_MESSAGE(r.out.find("left out  1 member that a solve refuses (--skip-refused):\n          member 2 "
                                   "(sigma = -0.2): ") != std::string::npos,
                        "no 'left out' line for member 2 in:\n" << r.out);
    for (const auto& [number, sigma] : std::vector<std::pair<std::string, std::string>>{{"1", "0.2"}, {"3", "0.3"}}) {
        const std::string row = report_line(r.out, "| " + number + " | " + sigma + " | ");
        const CliResult alone = run_succeeding({"solve", "--problem", "bs-call", "--sigma", sigma, "--K", "3", "--N",
                                                "16", "--backend", "serial", "--estimate", "off"});
        const std::string y0 = report_line(alone.out, "y_0       ");
        const double solved = std::stod(y0.substr(10, y0.find(' ', 10) - 10));
        const double batched = std::stod(split(row, '|').at(3));
        check_close("member " + number + " (sigma " + sigma + "): y0 of the surface against bsde solve's", solved,
                    batched, 1e-9, solved);
    }
    args = base;
    for (const char* extra : {"--sigma", "-0.2,-0.3"}) args.push_back(extra);
    check_bad_input({args, 2, "--skip-refused: every member is refused, the first as member 1 (sigma = -0.2): "});
}

BOOST_AUTO_TEST_SUITE_END()
