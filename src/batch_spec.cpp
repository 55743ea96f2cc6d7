#include "batch_spec.h"

#include <cmath>
#include <cstdlib>
#include <istream>
#include <map>
#include <set>
#include <tuple>

#include "../algorithms/core/errors.h"
#include "text.h"

namespace bsde {
namespace {

// Why `text` is not a number as the options take one (to_finite_double, and not a nonzero number that rounds to 0,
// as parse_real): "is not a number", "is not a finite number" (inf, nan, 1e400) or "rounds to 0, ..."; empty where
// it is one, its value then in `value`.
std::string number_refusal(const std::string& text, double& value) {
    if (to_finite_double(text, value)) {
        const std::string mantissa = text.substr(0, text.find_first_of("eE"));
        return value == 0 && mantissa.find_first_of("123456789") != std::string::npos
                   ? "rounds to 0, below the smallest positive double (4.9e-324)"
                   : "";
    }
    char* end = nullptr;
    const double parsed = std::strtod(text.c_str(), &end);
    return !text.empty() && *end == '\0' && !std::isfinite(parsed) ? "is not a finite number" : "is not a number";
}

// "more than 1048576 values, the most a batch may have", of `what` (values, members)
std::string beyond_limit(const std::string& what) {
    return "more than " + std::to_string(max_batch_members) + " " + what + ", the most a batch may have";
}

// "1 field", "3 fields"
std::string counted(std::size_t count, const std::string& noun) {
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

}  // namespace

std::vector<double> parse_value_list(const std::string& option, const std::string& text) {
    const std::string given = option + " " + quoted(text) + ": ";
    if (trim(text).empty()) throw InputError(given + "no values (an empty list)");
    if (trim(text) != text) throw InputError(given + "blanks around the value");
    std::vector<double> values;
    const std::vector<std::string> items = split(text, ',');
    for (std::size_t k = 0; k < items.size(); ++k) {
        const std::string item = trim(items[k]);
        if (item.empty()) throw InputError(given + "item " + std::to_string(k + 1) + " is empty");
        const std::string where = given + "item " + std::to_string(k + 1) + ", " + quoted(item) + ", ";
        // a number is the range a:a:1
        const std::vector<std::string> fields = split(item, ':');
        double a = 0, b = 0;
        int n = 1;
        if (fields.size() == 1) {
            const std::string refusal = number_refusal(item, a);
            if (!refusal.empty()) throw InputError(where + refusal);
            b = a;
        } else if (fields.size() == 3) {
            for (const auto& [what, field, value] : {std::tuple{"start", trim(fields[0]), &a},
                                                     std::tuple{"end", trim(fields[1]), &b}}) {
                const std::string refusal = number_refusal(field, *value);
                if (!refusal.empty()) throw InputError(where + "its " + what + " " + quoted(field) + " " + refusal);
            }
            const std::string count = trim(fields[2]);
            const bool is_int = to_int(count, n);
            if (!is_int && is_digits(count) && count[0] != '-')
                throw InputError(where + "has " + beyond_limit("values"));
            if (!is_int || n < 1)
                throw InputError(where + "its count " + quoted(count) + " is not a positive integer");
            if (n == 1 && a != b) throw InputError(where + "one value (n = 1) from a to b needs a = b");
        } else {
            throw InputError(where + "is neither a number nor a range a:b:n");
        }
        if (values.size() + n > static_cast<std::size_t>(max_batch_members))
            throw InputError(where + "brings the list to " + beyond_limit("values"));
        for (int i = 0; i < n; ++i) {
            const double value = i == n - 1 ? b : a + (b - a) * i / (n - 1);
            if (!std::isfinite(value)) throw InputError(where + "its values overflow a double (b - a is too large)");
            values.push_back(value);
        }
    }
    return values;
}

Batch batch_product(const std::vector<BatchParameter>& lists) {
    if (lists.empty()) throw InputError("a batch needs at least one parameter with values");
    double count = 1;  // in floating point: no overflow
    std::string sizes;
    std::set<std::string> names;
    for (const BatchParameter& p : lists) {
        if (p.values.empty()) throw InputError("--" + p.name + ": no values (an empty list)");
        if (!names.insert(p.name).second) throw InputError("--" + p.name + " is given twice");
        count *= static_cast<double>(p.values.size());
        sizes += (sizes.empty() ? "" : " x ") + std::to_string(p.values.size()) + " of --" + p.name;
    }
    if (count > max_batch_members)
        throw InputError("a batch of " + format_large(count) + " members (" + sizes + "): " + beyond_limit("members"));
    Batch batch;
    for (const BatchParameter& p : lists)
        if (p.values.size() > 1) batch.varied.push_back(p.name);
    batch.members.resize(static_cast<std::size_t>(count));
    for (std::size_t m = 0; m < batch.members.size(); ++m) batch.numbers.push_back(static_cast<int>(m) + 1);
    // member m: its index in each list, row-major (the last list's index m mod its size, and so on up)
    for (std::size_t m = 0; m < batch.members.size(); ++m) {
        std::size_t rest = m;
        for (std::size_t j = lists.size(); j-- > 0;) {
            const std::vector<double>& values = lists[j].values;
            batch.members[m][lists[j].name] = values[rest % values.size()];
            rest /= values.size();
        }
    }
    return batch;
}

Batch read_batch_csv(std::istream& in, const std::string& source) {
    Batch batch;
    std::vector<std::string> names;  // the header's
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string at = source + ", line " + std::to_string(number);
        const std::string content = trim(line);
        if (content.empty() || content[0] == '#') continue;
        std::vector<std::string> fields = split(content, ',');
        for (std::string& field : fields) field = trim(field);
        if (names.empty()) {
            std::map<std::string, std::size_t> columns;  // name -> its first column
            for (std::size_t k = 0; k < fields.size(); ++k) {
                if (fields[k].empty())
                    throw InputError(at + ": column " + std::to_string(k + 1) + " of the header has no name");
                const auto [first, inserted] = columns.emplace(fields[k], k);
                if (!inserted)
                    throw InputError(at + ": column " + quoted(fields[k]) + " is named twice (columns " +
                                     std::to_string(first->second + 1) + " and " + std::to_string(k + 1) + ")");
            }
            names = fields;
            continue;
        }
        if (fields.size() != names.size())
            throw InputError(at + ": " + counted(fields.size(), "field") + ", where the header has " +
                             counted(names.size(), "column"));
        if (batch.members.size() == static_cast<std::size_t>(max_batch_members))
            throw InputError(at + ": " + beyond_limit("members"));
        ProblemParameters member;
        for (std::size_t k = 0; k < fields.size(); ++k) {
            const std::string refusal = number_refusal(fields[k], member[names[k]]);
            if (!refusal.empty())
                throw InputError(at + ", column " + quoted(names[k]) + ": " + quoted(fields[k]) + " " + refusal);
        }
        batch.members.push_back(std::move(member));
        batch.numbers.push_back(static_cast<int>(batch.members.size()));
    }
    if (in.bad()) throw InputError(source + ": could not be read");
    if (names.empty()) throw InputError(source + ": no header of parameter names (an empty file)");
    if (batch.members.empty()) throw InputError(source + ": no members (an empty batch)");
    for (const std::string& name : names)
        for (const ProblemParameters& member : batch.members)
            if (member.at(name) != batch.members.front().at(name)) {
                batch.varied.push_back(name);
                break;
            }
    return batch;
}

int member_number(const Batch& batch, int index) {
    const std::size_t at = static_cast<std::size_t>(index);
    return at < batch.numbers.size() ? batch.numbers[at] : index + 1;
}

Batch without_members(const Batch& batch, const std::vector<bool>& left_out) {
    Batch kept;
    kept.varied = batch.varied;
    for (std::size_t b = 0; b < batch.members.size(); ++b)
        if (!left_out.at(b)) {
            kept.members.push_back(batch.members[b]);
            kept.numbers.push_back(batch.numbers.at(b));
        }
    return kept;
}

std::string describe_member(const Batch& batch, int index) {
    const ProblemParameters& member = batch.members.at(static_cast<std::size_t>(index));
    std::string text;
    const auto add = [&](const std::string& name) {
        text += (text.empty() ? "" : ", ") + name + " = " + format_number(member.at(name));
    };
    if (batch.varied.empty())
        for (const auto& parameter : member) add(parameter.first);
    else
        for (const std::string& name : batch.varied) add(name);
    return "member " + std::to_string(member_number(batch, index)) + " (" + text + ")";
}

}  // namespace bsde
