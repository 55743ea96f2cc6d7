// A batch of problem parameter sets (bsde surface): the values of each parameter (--sigma 0.1:0.3:5) and their
// Cartesian product, or the rows of a CSV file. Parsing only: which parameters a problem takes, and whether the batch
// fits in memory, are checked elsewhere. Every error is an InputError with a one-line message.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "../algorithms/scheme/settings.h"

namespace bsde {

// The most members (parameter sets) a batch may have, and the most values one parameter's list may have: a sanity
// limit on the parse's time and memory.
constexpr int max_batch_members = 1 << 20;

// The values of one parameter: comma-separated items (blanks allowed beside the commas, not around the whole text),
// each a finite number (0.2) or a range a:b:n, n >= 1 values from a to b inclusive, a + (b - a) i / (n - 1) for
// i < n - 1 and exactly b last (n = 1 only where a = b). Throws InputError naming the option, the text and the item's
// position ("--sigma '0.1,x,0.3': item 2, 'x', is not a number").
std::vector<double> parse_value_list(const std::string& option, const std::string& text);

struct BatchParameter {
    std::string name;  // without the dashes: sigma
    std::vector<double> values;
};

struct Batch {
    std::vector<std::string> varied;         // the parameters taking more than one value, in the order given
    std::vector<ProblemParameters> members;  // each holds every parameter given, varied or not
    std::vector<int> numbers;                // each member's number in the product or the file, from 1
};

// The number of the member at `index` (0-based): Batch::numbers', or index + 1 where it has none.
int member_number(const Batch& batch, int index);

// The batch without the members whose `left_out` is true; the others keep their numbers.
Batch without_members(const Batch& batch, const std::vector<bool>& left_out);

// The Cartesian product of the lists, the first varying slowest (sigma then strike: every strike of the first
// sigma, then of the second). Throws InputError for no list, a list without values, a name given twice, or a
// product of more than max_batch_members members.
Batch batch_product(const std::vector<BatchParameter>& lists);

// A CSV batch: '#' comment lines and blank lines skipped anywhere; the first other line is the header of parameter
// names, each further line one member with one number per column (fields trimmed of blanks). varied: the columns
// whose values are not all equal. Throws InputError naming `source`, the line and the column
// ("FILE, line 4, column 'sigma': 'abc' is not a number").
Batch read_batch_csv(std::istream& in, const std::string& source);

// The member at `index` (0-based) for a message, with its number (Batch::numbers) and its varied parameters, or every
// one where none varies: "member 3 (strike = 70, sigma = 0.2)".
std::string describe_member(const Batch& batch, int index);

}  // namespace bsde
