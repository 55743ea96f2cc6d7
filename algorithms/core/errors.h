// Error types shared by every layer. Each carries the process exit code the CLI uses:
// 2 bad input, 3 numerical failure, 4 device or library failure, 5 a defect of the problems' definitions.
#pragma once
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace bsde {

// A number in a message as the user would write it: %g with up to 15 significant digits ("0.001",
// "1e-05", "inf", "nan"), never std::to_string's "0.001000"; or by another printf conversion of one double.
inline std::string format_number(double value, const char* spec = "%.15g") {
    char text[64];
    std::snprintf(text, sizeof text, spec, value);
    return text;
}

// A bound a message asks for ("raise --R to 10.3 or more"): `value` rounded up to 3 significant digits, so that the
// number printed, read back, is not below it (%.3g rounds down half the time: 10.24 would print as 10.2).
inline std::string format_at_least(double value) {
    if (!(value > 0) || !(value < 1e300)) return format_number(value, "%.3g");
    const double unit = std::pow(10.0, std::floor(std::log10(value)) - 2);
    double bound = std::ceil(value / unit - 1e-9) * unit;  // 10.3 stays 10.3 (10.3 / 0.1 = 103.00000000000001)
    while (std::strtod(format_number(bound, "%.3g").c_str(), nullptr) < value) bound += unit;
    return format_number(bound, "%.3g");
}

// A large positive quantity in a message (a count, a growth factor): format_number, or "more than 1e308" where it
// overflowed a double.
inline std::string format_large(double value, const char* spec = "%.15g") {
    return value <= 1.7976931348623157e308 ? format_number(value, spec) : "more than 1e308";
}

// A value in a message, in single quotes: whole up to 80 characters, else its first 60 and its length ('aaaa...'
// (27000 characters)), so that a message about any value, megabytes long too, stays a short line.
inline std::string quoted(const std::string& value) {
    constexpr std::size_t whole = 80, shown = 60;
    if (value.size() <= whole) return "'" + value + "'";
    return "'" + value.substr(0, shown) + "...' (" + std::to_string(value.size()) + " characters)";
}

class Error : public std::runtime_error {
public:
    Error(const std::string& message, int exit_code) : std::runtime_error(message), exit_code_(exit_code) {}
    int exit_code() const { return exit_code_; }

private:
    int exit_code_;
};

struct InputError : Error {
    explicit InputError(const std::string& message) : Error(message, 2) {}
};

struct NumericalError : Error {
    explicit NumericalError(const std::string& message) : Error(message, 3) {}
};

struct DeviceError : Error {
    explicit DeviceError(const std::string& message) : Error(message, 4) {}
};

// Problems defined against the rules of problems/problem_list.h (two problems called alike, a parameter declared
// twice, named as an option of bsde or read without being declared): a defect of this build, not of its input.
struct DefinitionError : Error {
    explicit DefinitionError(const std::string& message) : Error(message, 5) {}
};

// action(), an Error it throws thrown again with `context` before its message ("K = 3, N = 16 on serial: ...") and of
// the same type, so that what a catcher does with the type stays: an InputError's --config line (cli.cpp), the exit
// code.
template <class Action>
auto in_context(const std::string& context, Action&& action) -> decltype(action()) {
    try {
        return action();
    } catch (const InputError& e) {
        throw InputError(context + e.what());
    } catch (const NumericalError& e) {
        throw NumericalError(context + e.what());
    } catch (const DeviceError& e) {
        throw DeviceError(context + e.what());
    } catch (const DefinitionError& e) {
        throw DefinitionError(context + e.what());
    } catch (const Error& e) {
        throw Error(context + e.what(), e.exit_code());
    }
}

}  // namespace bsde
