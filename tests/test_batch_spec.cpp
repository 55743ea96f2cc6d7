// The batch of problem parameter sets of bsde surface (src/batch_spec.h): one parameter's values (numbers and ranges
// a:b:n), their Cartesian product, a CSV batch, a member named for a message, and every refusal's one-line message.
#include <cmath>
#include <cstdio>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "../algorithms/core/errors.h"
#include "../src/batch_spec.h"

using namespace bsde;

namespace {

// "{0.1, 0.2}" with every digit, and "{sigma, strike}", for messages.
std::string shown(const std::vector<double>& values) {
    std::string text;
    for (double v : values) {
        char digits[32];
        std::snprintf(digits, sizeof digits, "%.17g", v);
        text += (text.empty() ? "" : ", ") + std::string(digits);
    }
    return "{" + text + "}";
}

std::string shown_names(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
    return "{" + text + "}";
}

void check_values(const std::string& text, const std::vector<double>& expected) {
    const std::vector<double> got = parse_value_list("--sigma", text);
    BOOST_CHECK_MESSAGE(got == expected,
                        "--sigma " << text << ": expected " << shown(expected) << ", got " << shown(got));
}

// The action throws an InputError whose message is one line containing every one of `parts`.
void check_refused(const std::string& label, const std::function<void()>& action,
                   const std::vector<std::string>& parts) {
    try {
        action();
        BOOST_ERROR(label << ": expected an InputError, got none");
    } catch (const InputError& e) {
        const std::string message = e.what();
        BOOST_TEST_MESSAGE(label << ": " << message);
        BOOST_CHECK_MESSAGE(message.find('\n') == std::string::npos,
                            label << ": expected one line, got '" << message << "'");
        for (const std::string& part : parts)
            BOOST_CHECK_MESSAGE(message.find(part) != std::string::npos,
                                label << ": expected the message to contain '" << part << "', got '" << message << "'");
    }
}

void check_list_refused(const std::string& text, const std::vector<std::string>& parts) {
    check_refused("parse_value_list", [&] { parse_value_list("--sigma", text); }, parts);
}

void check_csv_refused(const std::string& label, const std::string& csv, const std::vector<std::string>& parts) {
    check_refused(label, [&] {
        std::istringstream in(csv);
        read_batch_csv(in, "batch.csv");
    }, parts);
}

Batch read_csv(const std::string& csv) {
    std::istringstream in(csv);
    return read_batch_csv(in, "batch.csv");
}

// The member's value of `name`, NaN where it lacks it (reported).
double value_of(const ProblemParameters& member, const std::string& name) {
    const auto it = member.find(name);
    if (it != member.end()) return it->second;
    BOOST_ERROR("expected the member to hold " << name << ", it does not");
    return std::nan("");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(batch_spec)

BOOST_AUTO_TEST_CASE(a_range_spaces_its_values_evenly_and_ends_exactly_at_b) {
    BOOST_TEST_MESSAGE("a:b:n: n values a + (b - a) i / (n - 1), the last exactly b; descending where b < a; n = 1 "
                       "with a = b one value");
    check_values("0:1:5", {0, 0.25, 0.5, 0.75, 1});
    check_values("5:1:3", {5, 3, 1});
    check_values("2:2:1", {2});
    check_values("0.1:0.1:3", {0.1, 0.1, 0.1});
    // 0.3 + (0.9 - 0.3) 3 / 3 is 0.9000000000000001: the last value is b itself
    const std::vector<double> got = parse_value_list("--sigma", "0.3:0.9:4");
    BOOST_REQUIRE_MESSAGE(got.size() == 4, "0.3:0.9:4: expected 4 values, got " << shown(got));
    BOOST_CHECK_MESSAGE(got.back() == 0.9, "0.3:0.9:4: expected the last value exactly 0.9, got " << shown(got));
    for (int i = 0; i < 3; ++i)
        BOOST_CHECK_MESSAGE(got[i] == 0.3 + (0.9 - 0.3) * i / 3, "0.3:0.9:4: expected value " << i << " = "
                                                                     << shown({0.3 + (0.9 - 0.3) * i / 3}) << ", got "
                                                                     << shown(got));
    BOOST_CHECK_MESSAGE(parse_value_list("--sigma", "0:1:1048576").size() == std::size_t(max_batch_members),
                        "0:1:1048576: expected max_batch_members values, the most a list may have");
}

BOOST_AUTO_TEST_CASE(a_list_mixes_numbers_and_ranges) {
    BOOST_TEST_MESSAGE("comma-separated numbers and ranges in the order given, blanks beside the commas and colons");
    check_values("0.2", {0.2});
    check_values("0.1, 0:1:3 ,7,-2e-1", {0.1, 0, 0.5, 1, 7, -0.2});
    check_values("1e2,0 : 4 : 3,+3", {100, 0, 2, 4, 3});
}

BOOST_AUTO_TEST_CASE(a_bad_list_is_refused_naming_the_item) {
    BOOST_TEST_MESSAGE("every refusal of a list names the option, the whole text and the bad item's position");
    check_list_refused("", {"--sigma '': no values"});
    check_list_refused(" 0.1", {"blanks around the value"});
    check_list_refused("0.1,,0.3", {"--sigma '0.1,,0.3': item 2 is empty"});
    check_list_refused("0.1,", {"item 2 is empty"});
    check_list_refused("0.1,x,0.3", {"--sigma '0.1,x,0.3': item 2, 'x', is not a number"});
    check_list_refused("0.2x", {"item 1, '0.2x', is not a number"});
    check_list_refused("0x10", {"item 1, '0x10', is not a number"});
    check_list_refused("0.1,1e400", {"item 2, '1e400', is not a finite number"});
    check_list_refused("inf", {"item 1, 'inf', is not a finite number"});
    check_list_refused("1,nan", {"item 2, 'nan', is not a finite number"});
    check_list_refused("1e-400", {"item 1, '1e-400', rounds to 0"});
    check_list_refused("0:1", {"item 1, '0:1', is neither a number nor a range a:b:n"});
    check_list_refused("0:1:2:3", {"item 1, '0:1:2:3', is neither a number nor a range a:b:n"});
    check_list_refused("1,0:y:3", {"item 2, '0:y:3', its end 'y' is not a number"});
    check_list_refused("inf:1:3", {"item 1, 'inf:1:3', its start 'inf' is not a finite number"});
    check_list_refused("0:1:0", {"item 1, '0:1:0', its count '0' is not a positive integer"});
    check_list_refused("0:1:-3", {"its count '-3' is not a positive integer"});
    check_list_refused("0:1:2.5", {"its count '2.5' is not a positive integer"});
    check_list_refused("0:1:", {"its count '' is not a positive integer"});
    check_list_refused("1,0:1:1", {"item 2, '0:1:1', one value (n = 1) from a to b needs a = b"});
    check_list_refused("0.5,0:1:1048576", {"item 2, '0:1:1048576', brings the list to more than 1048576 values"});
    check_list_refused("0:1:99999999999", {"item 1, '0:1:99999999999', has more than 1048576 values"});
    check_list_refused("-1e308:1e308:3", {"item 1, '-1e308:1e308:3', its values overflow a double"});
}

BOOST_AUTO_TEST_CASE(the_product_varies_the_first_list_slowest) {
    BOOST_TEST_MESSAGE("sigma {0.1, 0.2} x strike {70, 80, 90} x r {0.03}: 6 members, every strike of sigma 0.1 then "
                       "of 0.2, each holding r; varied: sigma, strike");
    const Batch batch = batch_product({{"sigma", {0.1, 0.2}}, {"strike", {70, 80, 90}}, {"r", {0.03}}});
    const std::vector<std::string> varied{"sigma", "strike"};
    BOOST_CHECK_MESSAGE(batch.varied == varied,
                        "expected varied " << shown_names(varied) << ", got " << shown_names(batch.varied));
    BOOST_REQUIRE_MESSAGE(batch.members.size() == 6, "expected 6 members, got " << batch.members.size());
    const double sigma[] = {0.1, 0.1, 0.1, 0.2, 0.2, 0.2}, strike[] = {70, 80, 90, 70, 80, 90};
    for (int m = 0; m < 6; ++m) {
        const ProblemParameters& member = batch.members[m];
        BOOST_CHECK_MESSAGE(member.size() == 3, "member " << m << ": expected 3 parameters, got " << member.size());
        const double got[] = {value_of(member, "sigma"), value_of(member, "strike"), value_of(member, "r")};
        BOOST_CHECK_MESSAGE(got[0] == sigma[m] && got[1] == strike[m] && got[2] == 0.03,
                            "member " << m << ": expected (sigma, strike, r) = " << shown({sigma[m], strike[m], 0.03})
                                      << ", got " << shown({got[0], got[1], got[2]}));
    }
    const Batch one = batch_product({{"sigma", {0.2}}});
    BOOST_CHECK_MESSAGE(one.members.size() == 1 && one.varied.empty(),
                        "one value: expected 1 member and nothing varied, got "
                            << one.members.size() << " members, varied " << shown_names(one.varied));
}

BOOST_AUTO_TEST_CASE(a_bad_product_is_refused) {
    BOOST_TEST_MESSAGE("no list, a list without values, a name twice, more than max_batch_members members (1024 x "
                       "1025, and 1e5^4, which would overflow an integer count)");
    check_refused("no list", [] { batch_product({}); }, {"at least one parameter"});
    check_refused("no values", [] { batch_product({{"sigma", {}}}); }, {"--sigma: no values"});
    check_refused("sigma twice", [] { batch_product({{"sigma", {0.1}}, {"strike", {70}}, {"sigma", {0.2}}}); },
                  {"--sigma is given twice"});
    check_refused("1024 x 1025", [] {
        batch_product({{"sigma", std::vector<double>(1024, 0.1)}, {"strike", std::vector<double>(1025, 70)}});
    }, {"a batch of 1049600 members", "1024 of --sigma x 1025 of --strike", "more than 1048576 members"});
    check_refused("1e5^4", [] {
        const std::vector<double> values(100000, 1.0);
        batch_product({{"a", values}, {"b", values}, {"c", values}, {"d", values}});
    }, {"a batch of 1e+20 members", "more than 1048576 members"});
}

BOOST_AUTO_TEST_CASE(a_csv_gives_one_member_per_row) {
    BOOST_TEST_MESSAGE("comments and blank lines anywhere, blanks around names and numbers, CRLF: 3 members; varied: "
                       "the columns whose values differ (sigma, strike, not r), in the header's order");
    const Batch batch = read_csv("# a batch\n  sigma , strike ,r\n\n0.1, 70, 0.03\n# between rows\n0.2 ,80 ,0.03\r\n"
                                 "   \n  # indented comment\n0.2,90,0.03");
    const std::vector<std::string> varied{"sigma", "strike"};
    BOOST_CHECK_MESSAGE(batch.varied == varied,
                        "expected varied " << shown_names(varied) << ", got " << shown_names(batch.varied));
    BOOST_REQUIRE_MESSAGE(batch.members.size() == 3, "expected 3 members, got " << batch.members.size());
    const double sigma[] = {0.1, 0.2, 0.2}, strike[] = {70, 80, 90};
    for (int m = 0; m < 3; ++m) {
        const ProblemParameters& member = batch.members[m];
        const double got[] = {value_of(member, "sigma"), value_of(member, "strike"), value_of(member, "r")};
        BOOST_CHECK_MESSAGE(member.size() == 3 && got[0] == sigma[m] && got[1] == strike[m] && got[2] == 0.03,
                            "row " << m + 1 << ": expected (sigma, strike, r) = " << shown({sigma[m], strike[m], 0.03})
                                   << " and nothing else, got " << shown({got[0], got[1], got[2]}) << " of "
                                   << member.size() << " parameters");
    }
    const Batch same = read_csv("sigma,r\n0.2,0.03\n0.2,0.03\n");
    BOOST_CHECK_MESSAGE(same.varied.empty() && same.members.size() == 2,
                        "two equal rows: expected nothing varied and 2 members, got varied "
                            << shown_names(same.varied) << ", " << same.members.size() << " members");
}

BOOST_AUTO_TEST_CASE(a_bad_csv_is_refused_naming_the_line_and_column) {
    BOOST_TEST_MESSAGE("every refusal of a CSV names the source, and the line and column where it has them");
    check_csv_refused("not a number", "sigma,strike\n0.1,70\n\n0.2,abc\n",
                      {"batch.csv, line 4, column 'strike': 'abc' is not a number"});
    check_csv_refused("non-finite", "# c\nsigma\ninf\n",
                      {"batch.csv, line 3, column 'sigma': 'inf' is not a finite number"});
    check_csv_refused("overflow", "sigma\n1e999\n", {"line 2, column 'sigma': '1e999' is not a finite number"});
    check_csv_refused("trailing junk", "sigma\n0.2abc\n", {"line 2, column 'sigma': '0.2abc' is not a number"});
    check_csv_refused("empty field", "sigma,strike\n0.1,\n", {"line 2, column 'strike': '' is not a number"});
    check_csv_refused("too few fields", "sigma,strike\n0.1\n",
                      {"batch.csv, line 2: 1 field, where the header has 2 columns"});
    check_csv_refused("too many fields", "sigma,strike\n0.1,70\n0.1,70,3\n",
                      {"batch.csv, line 3: 3 fields, where the header has 2 columns"});
    check_csv_refused("empty name", "sigma, ,strike\n", {"batch.csv, line 1: column 2 of the header has no name"});
    check_csv_refused("name twice", "\n# c\nsigma,strike, sigma\n",
                      {"batch.csv, line 3: column 'sigma' is named twice (columns 1 and 3)"});
    check_csv_refused("header only", "# c\nsigma,strike\n\n# no rows\n", {"batch.csv: no members (an empty batch)"});
    check_csv_refused("empty file", "# only a comment\n\n", {"batch.csv: no header"});
    std::string rows = "sigma\n";
    for (int m = 0; m <= max_batch_members; ++m) rows += "1\n";
    check_csv_refused("max_batch_members + 1 rows", rows, {"batch.csv, line 1048578: more than 1048576 members"});
}

BOOST_AUTO_TEST_CASE(describe_member_names_the_varied_parameters) {
    BOOST_TEST_MESSAGE("member numbered from 1, with its varied parameters in the order given; every parameter "
                       "(alphabetical) where none varies");
    const Batch batch = batch_product({{"strike", {70, 80}}, {"r", {0.03}}, {"sigma", {0.1, 0.2}}});
    const std::string got = describe_member(batch, 2), expected = "member 3 (strike = 80, sigma = 0.1)";
    BOOST_CHECK_MESSAGE(got == expected, "expected '" << expected << "', got '" << got << "'");
    const Batch fixed = batch_product({{"sigma", {0.2}}, {"r", {0.03}}});
    const std::string got_fixed = describe_member(fixed, 0), expected_fixed = "member 1 (r = 0.03, sigma = 0.2)";
    BOOST_CHECK_MESSAGE(got_fixed == expected_fixed, "expected '" << expected_fixed << "', got '" << got_fixed << "'");
    const Batch csv = read_csv("sigma,strike\n0.2,70\n0.2,1e-3\n");
    const std::string got_csv = describe_member(csv, 1), expected_csv = "member 2 (strike = 0.001)";
    BOOST_CHECK_MESSAGE(got_csv == expected_csv, "expected '" << expected_csv << "', got '" << got_csv << "'");
}

BOOST_AUTO_TEST_SUITE_END()
