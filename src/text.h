// Small text helpers shared by the option parser, the study runner and the benchmark.
#pragma once
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "../algorithms/core/errors.h"

namespace bsde {

// The pieces of `text` between separators (an empty text gives one empty piece).
inline std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::size_t begin = 0;
    for (;;) {
        const std::size_t end = text.find(separator, begin);
        parts.push_back(text.substr(begin, end - begin));
        if (end == std::string::npos) return parts;
        begin = end + 1;
    }
}

// `s` without leading and trailing blanks, tabs and carriage returns.
inline std::string trim(const std::string& s) {
    const std::size_t begin = s.find_first_not_of(" \t\r");
    if (begin == std::string::npos) return "";
    return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

// The most characters an option's value (a config file's too) may have: a path's PATH_MAX, far beyond any number, name
// or list the options take. A longer value is refused before it is parsed, so that no parse and no message grows with it.
constexpr std::size_t longest_value = 4096;

// Throws InputError where value is longer than longest_value: `subject` (such as "--cases ", or "N = " in a config
// file) with the value's start.
inline void check_value_length(const std::string& subject, const std::string& value) {
    if (value.size() > longest_value)
        throw InputError(subject + quoted(value) + ": longer than " + std::to_string(longest_value) +
                         " characters, the most a value may have");
}

// The whole of `text` as an int (an optional sign, then digits); false for anything else or out of range.
inline bool to_int(const std::string& text, int& value) {
    if (text.empty() || text.find_first_not_of("+-0123456789") != std::string::npos) return false;
    errno = 0;
    char* end = nullptr;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (errno != 0 || *end != '\0' || v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
        return false;
    value = static_cast<int>(v);
    return true;
}

// An optional sign, then one digit or more: an integer's text, whether or not it fits an int.
inline bool is_digits(const std::string& text) {
    const std::size_t sign = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
    return text.size() > sign && text.find_first_not_of("0123456789", sign) == std::string::npos;
}

// What an integer's text (is_digits) that to_int refuses is: "out of range (at most 2147483647)", or for a negative one
// "out of range (at least -2147483648)".
inline std::string int_range_refusal(const std::string& digits) {
    return digits[0] == '-' ? "out of range (at least " + std::to_string(std::numeric_limits<int>::min()) + ")"
                            : "out of range (at most " + std::to_string(std::numeric_limits<int>::max()) + ")";
}

// The whole of `text` as a finite decimal number (digits, a sign, a point, an exponent: as the command line takes
// them); false for anything else, such as hex, inf, nan or a number beyond double's range (1e400). A number below
// the smallest normal double is taken as strtod rounds it (1e-320 a subnormal, 1e-400 zero), for the checks of its
// option to judge.
inline bool to_finite_double(const std::string& text, double& value) {
    if (text.empty() || text.find_first_not_of("+-.0123456789eE") != std::string::npos) return false;
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    return *end == '\0' && std::isfinite(value);
}

// An option's value as one int: the whole text, without blanks around it. Throws InputError naming the option and the
// value ("--L '1.5': an integer expected"); `expected` says what was expected.
inline int parse_integer(const std::string& option, const std::string& text,
                         const std::string& expected = "an integer expected") {
    if (trim(text) != text) throw InputError(option + " " + quoted(text) + ": blanks around the value");
    int value = 0;
    if (to_int(text, value)) return value;
    if (is_digits(text)) throw InputError(option + " " + quoted(text) + ": " + int_range_refusal(text));
    throw InputError(option + " " + quoted(text) + ": " + expected);
}

// An option's value as one finite number (to_finite_double), without blanks around it. Throws InputError naming the
// option and the value ("--T 'nan': a finite number expected"), and for a number that is not 0 but rounds to it
// ("--T '1e-400'", which its option's check would otherwise print as 0).
inline double parse_real(const std::string& option, const std::string& text) {
    if (trim(text) != text) throw InputError(option + " " + quoted(text) + ": blanks around the value");
    double value = 0;
    if (!to_finite_double(text, value)) throw InputError(option + " " + quoted(text) + ": a finite number expected");
    const std::string mantissa = text.substr(0, text.find_first_of("eE"));
    if (value == 0 && mantissa.find_first_of("123456789") != std::string::npos)
        throw InputError(option + " " + quoted(text) + ": rounds to 0, below the smallest positive double (4.9e-324)");
    return value;
}

}  // namespace bsde
