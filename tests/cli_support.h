// Runs the bsde command line in-process for the CLI, fault, study and bench tests.
#pragma once
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "../src/cli.h"

namespace bsde::test {

struct CliResult {
    int code;
    std::string out, err;
};

inline CliResult run(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    const int code = bsde::run_cli(args, out, err);
    return {code, out.str(), err.str()};
}

// Runs args with the files this process writes limited to `bytes`, as `ulimit -f` limits them, and SIGXFSZ ignored,
// so that a write beyond the limit fails (EFBIG) as on a full disk, instead of ending the process.
inline CliResult run_with_file_size_limit(const std::vector<std::string>& args, rlim_t bytes) {
    rlimit saved;
    BOOST_REQUIRE(::getrlimit(RLIMIT_FSIZE, &saved) == 0);
    rlimit limited = saved;
    limited.rlim_cur = std::min(bytes, saved.rlim_max);
    const auto previous_handler = std::signal(SIGXFSZ, SIG_IGN);
    BOOST_REQUIRE(::setrlimit(RLIMIT_FSIZE, &limited) == 0);
    const CliResult r = run(args);
    ::setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, previous_handler);
    return r;
}

// A stream buffer that takes every byte and then fails to flush them, as standard output does on a full disk
// (/dev/full): the failure shows only when the output is flushed.
class UnflushableBuffer : public std::streambuf {
protected:
    int_type overflow(int_type c) override { return traits_type::not_eof(c); }
    int sync() override { return -1; }
};

// Runs args with such an output; what they wrote is lost (out is empty).
inline CliResult run_with_unflushable_out(const std::vector<std::string>& args) {
    UnflushableBuffer buffer;
    std::ostream out(&buffer);
    std::ostringstream err;
    const int code = bsde::run_cli(args, out, err);
    return {code, "", err.str()};
}

// The text as a C string literal would show it (control and non-ASCII bytes as \xNN), for messages.
inline std::string shown(const std::string& text) {
    std::string s;
    for (const char c : text) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (u < 0x20 || u >= 0x7F) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02X", u);
            s += hex;
        } else {
            s += c;
        }
    }
    return s;
}

// "bsde 'arg1' 'arg2' ...", each argument shown(), for messages.
inline std::string joined(const std::vector<std::string>& args) {
    std::string s = "bsde";
    for (const std::string& a : args) s += " '" + shown(a) + "'";
    return s;
}

// args followed by more.
inline std::vector<std::string> extended(std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

// Runs args and requires exit code 0, its stderr in the message otherwise.
inline CliResult run_succeeding(const std::vector<std::string>& args) {
    CliResult r = run(args);
    BOOST_REQUIRE_MESSAGE(r.code == 0, joined(args) << ": exit code " << r.code << " (" << shown(r.err) << ")");
    return r;
}

// "a, b, c", for messages.
inline std::string listed(const std::vector<std::string>& names) {
    std::string s;
    for (const std::string& name : names) s += (s.empty() ? "" : ", ") + shown(name);
    return s;
}

// The report's line that starts with `label` (after the first line), or "".
inline std::string report_line(const std::string& report, const std::string& label) {
    const std::size_t at = report.find("\n" + label);
    if (at == std::string::npos) return "";
    return report.substr(at + 1, report.find('\n', at + 1) - at - 1);
}

// Exactly one line, starting with prefix.
inline bool one_line(const std::string& text, const std::string& prefix) {
    return !text.empty() && text.back() == '\n' && text.find('\n') == text.size() - 1 &&
           text.compare(0, prefix.size(), prefix) == 0;
}

inline bool exists(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
}

// A file's bytes ("" where it cannot be read).
inline std::string file_contents(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(file), {}};
}

// The bsde binary beside this test runner (make builds both into build/bin).
inline std::string bsde_binary() {
    const std::filesystem::path runner = std::filesystem::read_symlink("/proc/self/exe");
    const std::string binary = runner.parent_path() / "bsde";
    BOOST_REQUIRE_MESSAGE(::access(binary.c_str(), X_OK) == 0, "no bsde beside the test runner: " << binary
                                                                    << " (build it with make)");
    return binary;
}

// The names in a folder, sorted.
inline std::vector<std::string> names_in(const std::string& folder) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) names.push_back(entry.path().filename());
    std::sort(names.begin(), names.end());
    return names;
}

// A bad command line, its exit code and a part of its message.
struct BadInput {
    std::vector<std::string> args;
    int code;
    std::string message_contains;
};

// The run of row.args in r: its exit code, exactly one line "bsde: error: ..." on err containing the expected
// text, nothing on out.
inline void check_failure(const BadInput& row, const CliResult& r) {
    const std::string what = joined(row.args);
    BOOST_CHECK_MESSAGE(r.code == row.code, what << ": expected exit code " << row.code << ", got " << r.code
                                                 << " (err: " << shown(r.err) << ")");
    BOOST_CHECK_MESSAGE(one_line(r.err, "bsde: error: "),
                        what << ": expected one line starting 'bsde: error: ' on err, got '" << shown(r.err) << "'");
    BOOST_CHECK_MESSAGE(r.err.find(row.message_contains) != std::string::npos,
                        what << ": expected the message to contain '" << shown(row.message_contains) << "', got '"
                             << shown(r.err) << "'");
    BOOST_CHECK_MESSAGE(r.out.empty(), what << ": expected nothing on out, got '" << r.out << "'");
}

// Exit code, exactly one line "bsde: error: ..." on err containing the expected text, nothing on out.
inline void check_bad_input(const BadInput& row) { check_failure(row, run(row.args)); }

// Sets an environment variable for the life of the object; its earlier value (or its absence) comes back after.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const std::string& value) : name_(name) {
        const char* previous = std::getenv(name);
        if (previous) previous_ = previous;
        had_value_ = previous != nullptr;
        ::setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv() {
        if (had_value_) ::setenv(name_, previous_.c_str(), 1);
        else ::unsetenv(name_);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* name_;
    std::string previous_;
    bool had_value_ = false;
};

// /tmp/bsde_test_<suite>_<pid>_<n>/ for the files and folders a test case names there, removed with its
// contents at the end.
class ScratchDir {
public:
    explicit ScratchDir(const std::string& suite) {
        static int count = 0;
        dir_ = "/tmp/bsde_test_" + suite + "_" + std::to_string(::getpid()) + "_" + std::to_string(count++);
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
        BOOST_REQUIRE_MESSAGE(exists(dir_), "cannot create the scratch directory " << dir_);
    }
    ~ScratchDir() {
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    // A path in the directory; the file is not created.
    std::string path(const std::string& name) const { return dir_ + "/" + name; }
    // A file with the given contents, byte for byte.
    std::string write(const std::string& name, const std::string& contents) const {
        const std::string p = path(name);
        std::ofstream(p, std::ios::binary) << contents;
        return p;
    }
    // A folder in the directory.
    std::string directory(const std::string& name) const {
        const std::string p = path(name);
        std::filesystem::create_directories(p);
        return p;
    }
    // The names in the directory, sorted: what a run left there.
    std::vector<std::string> names() const { return names_in(dir_); }

private:
    std::string dir_;
};

}  // namespace bsde::test
