// What the output files and standard streams hold when the world around the run changes: links and folders changed
// under it, standard descriptors closed or broken, a file-size limit, an address-space limit, a plotting program that
// leaves a PNG cut short.
// The cases that need the program's start (main: the standard descriptors, SIGPIPE, SIGXFSZ) run build/bin/bsde, the
// binary beside this test runner, in a child process; the others run the command line in-process or in a fork.

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "../src/cli.h"
#include "cli_support.h"

using bsde::test::bsde_binary;
using bsde::test::CliResult;
using bsde::test::exists;
using bsde::test::file_contents;
using bsde::test::joined;
using bsde::test::listed;
using bsde::test::names_in;
using bsde::test::one_line;
using bsde::test::run;
using bsde::test::ScopedEnv;
using bsde::test::ScratchDir;
using bsde::test::shown;

namespace {

// How a child process ended, for messages: "exit code 2", "signal 13".
std::string ending(int status) {
    if (WIFEXITED(status)) return "exit code " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return "signal " + std::to_string(WTERMSIG(status));
    return "status " + std::to_string(status);
}

bool exited_with(int status, int code) { return WIFEXITED(status) && WEXITSTATUS(status) == code; }

struct ProcessResult {
    int status;  // the wait status
    std::string out, err;
};

// Runs the bsde binary with args in a child process, its standard output and error into files of `logs`; `prepare`
// runs in the child just before the program (after those redirections), as a shell's redirections and ulimit do:
// closing a descriptor, setting a limit. It makes async-signal-safe calls only (the test runner has threads).
ProcessResult run_binary(const std::vector<std::string>& args, const ScratchDir& logs,
                         const std::function<void()>& prepare = [] {}) {
    const std::string binary = bsde_binary(), out = logs.path("stdout"), err = logs.path("stderr");
    std::vector<char*> argv{const_cast<char*>(binary.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const int out_file = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    const int err_file = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    BOOST_REQUIRE(out_file >= 0 && err_file >= 0);
    const pid_t child = ::fork();
    BOOST_REQUIRE_MESSAGE(child >= 0, "fork failed");
    if (child == 0) {
        ::signal(SIGPIPE, SIG_DFL);  // as a shell starts a program
        ::signal(SIGXFSZ, SIG_DFL);
        if (::dup2(out_file, 1) < 0 || ::dup2(err_file, 2) < 0) ::_exit(127);
        prepare();
        ::execv(binary.c_str(), argv.data());
        ::_exit(127);
    }
    ::close(out_file);
    ::close(err_file);
    int status = 0;
    ::waitpid(child, &status, 0);
    return {status, file_contents(out), file_contents(err)};
}

// The names in a folder that hold ".partial.": temporary files or folders a run left.
std::vector<std::string> partial_names(const std::string& folder) {
    std::vector<std::string> partial;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(folder))
        if (entry.path().filename().string().find(".partial.") != std::string::npos)
            partial.push_back(entry.path().string());
    return partial;
}

// A run in a forked child of this process, hours long, until `ready` holds of the scratch folder (at most 60 s); then
// `meanwhile` runs and the child is sent SIGTERM. Returns the child's wait status.
int stopped_run(const std::vector<std::string>& args, const std::function<bool()>& ready,
                const std::function<void()>& meanwhile) {
    const pid_t child = ::fork();
    BOOST_REQUIRE_MESSAGE(child >= 0, "fork failed");
    if (child == 0) {
        std::ostringstream out, err;
        ::_exit(bsde::run_cli(args, out, err));
    }
    for (int waited = 0; waited < 600 && !ready(); ++waited) ::usleep(100000);
    BOOST_CHECK_MESSAGE(ready(), joined(args) << ": what the run writes did not appear within 60 s");
    meanwhile();
    ::kill(child, SIGTERM);
    int status = 0;
    ::waitpid(child, &status, 0);
    return status;
}

const std::vector<std::string> hours_long{"--problem", "ex1", "--K", "3", "--N", "20000"};

}  // namespace

BOOST_AUTO_TEST_SUITE(files_and_streams)

BOOST_AUTO_TEST_CASE(links_and_folders_changed_under_the_run) {
    BOOST_TEST_MESSAGE("a study whose --out is a dangling symbolic link fails (exit code 2) and leaves the link; a "
                       "solve whose --output folder is renamed while it runs, and a study whose --out folder is, then "
                       "stopped by SIGTERM: no *.partial.* file is left in the renamed folder, and the folder the study "
                       "created around it, now empty, is removed");
    ScratchDir scratch("files_and_streams");
    const std::string link = scratch.path("dangling");
    std::filesystem::create_symlink("nowhere", link);
    const std::vector<std::string> study{"study", "--problem", "ex1", "--K", "1", "--N", "8", "--backends", "serial",
                                         "--out", link};
    const CliResult r = run(study);
    BOOST_CHECK_MESSAGE(r.code == 2 && one_line(r.err, "bsde: error: --out '" + link + "'"),
                        joined(study) << ": expected exit code 2 and one error line naming --out, got " << r.code
                                      << ", '" << shown(r.err) << "'");
    BOOST_CHECK_MESSAGE(std::filesystem::is_symlink(std::filesystem::symlink_status(link)),
                        link << ": the user's symbolic link was removed");

    struct Case {
        std::vector<std::string> command;  // the output's path is appended
        std::string output, renamed;       // relative to the scratch folder: the output, the folder renamed
        std::vector<std::string> left;     // what the scratch folder holds at the end
    };
    const Case cases[]{{{"solve", "--backend", "serial", "--output"}, "folder/y.csv", "folder", {"moved"}},
                       {{"study", "--backends", "serial", "--out"}, "new/deeper", "new/deeper", {"folder", "moved"}}};
    for (const Case& c : cases) {
        ScratchDir inner("files_and_streams");
        inner.directory("folder");
        std::vector<std::string> args = c.command;
        args.push_back(inner.path(c.output));
        args.insert(args.begin() + 1, hours_long.begin(), hours_long.end());
        const std::string watched = inner.path(c.renamed);
        const int status = stopped_run(
            args, [&] { return exists(watched) && !partial_names(watched).empty(); },
            [&] { std::filesystem::rename(watched, inner.path("moved")); });
        BOOST_CHECK_MESSAGE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
                            c.command.front() << ": expected the end by SIGTERM, got " << ending(status));
        const std::vector<std::string> partial = partial_names(inner.path("moved"));
        BOOST_CHECK_MESSAGE(partial.empty(), c.command.front() << ": left " << listed(partial));
        BOOST_CHECK_MESSAGE(inner.names() == c.left, c.command.front() << ": expected " << listed(c.left)
                                                                       << " left, got " << listed(inner.names()));
    }
}

BOOST_AUTO_TEST_CASE(standard_streams_closed_or_broken) {
    BOOST_TEST_MESSAGE("bsde (the binary) with stderr closed, and with stdout and stderr closed, writes a solve's "
                       "--output CSV without its warning (--R 2 warns) and exits 0; with stdout a pipe whose reader "
                       "has gone, it exits with code 2 and one error line, not by SIGPIPE, and the --output written "
                       "before stays whole with no temporary file beside it");
    ScratchDir scratch("files_and_streams"), logs("files_and_streams_logs");
    const std::string csv = scratch.path("y.csv");
    const std::vector<std::string> solve{"solve", "--problem", "ex1", "--K", "2", "--N", "8", "--backend", "serial",
                                         "--output", csv};
    const std::vector<std::string> warning_solve = bsde::test::extended(solve, {"--R", "2"});
    const std::string header = "w,y,z,y_exact,z_exact,y_error,z_error\n";
    const struct {
        const char* what;
        std::function<void()> prepare;
    } closed[]{{"2>&-", [] { ::close(2); }}, {">&- 2>&-", [] {
                                                  ::close(1);
                                                  ::close(2);
                                              }}};
    for (const auto& c : closed) {
        const ProcessResult r = run_binary(warning_solve, logs, c.prepare);
        const std::string written = file_contents(csv);
        BOOST_CHECK_MESSAGE(exited_with(r.status, 0), c.what << ": expected exit code 0, got " << ending(r.status));
        BOOST_CHECK_MESSAGE(written.compare(0, header.size(), header) == 0 && written.find("bsde") == std::string::npos,
                            c.what << ": expected the CSV alone in " << csv << ", got '"
                                   << shown(written.substr(0, 300)) << "'");
        std::filesystem::remove(csv);
    }

    int ends[2];
    BOOST_REQUIRE(::pipe2(ends, O_CLOEXEC) == 0);
    ::close(ends[0]);  // no reader
    for (const std::vector<std::string>& args : {std::vector<std::string>{"coefficients", "--K", "32"}, solve}) {
        const ProcessResult r = run_binary(args, logs, [&] { ::dup2(ends[1], 1); });
        BOOST_CHECK_MESSAGE(exited_with(r.status, 2) && one_line(r.err, "bsde: error: writing the standard output"),
                            joined(args) << " | (closed): expected exit code 2 and one error line, got "
                                         << ending(r.status) << ", '" << shown(r.err) << "'");
    }
    ::close(ends[1]);
    const std::string written = file_contents(csv);
    BOOST_CHECK_MESSAGE(written.compare(0, header.size(), header) == 0 && written.back() == '\n',
                        "expected the whole CSV in " << csv << ", got '" << shown(written.substr(0, 100)) << "'");
    BOOST_CHECK_MESSAGE(scratch.names() == std::vector<std::string>{"y.csv"},
                        "expected y.csv alone, got " << listed(scratch.names()));
}

BOOST_AUTO_TEST_CASE(file_size_limit_exits_2_without_temporary_files) {
    BOOST_TEST_MESSAGE("bsde (the binary) under a 2 KiB file-size limit (ulimit -f, SIGXFSZ at its default action, which "
                       "kills a process writing beyond it) for a solve's --output CSV (ex1 K = 2, N = 64: 108 KiB), a "
                       "study's --out files (study.csv 3.7 KiB) and stdout (the coefficients up to K = 32: 46 KiB): exit code 2, one error line naming the file, and "
                       "no temporary file, no folder left");
    ScratchDir scratch("files_and_streams"), logs("files_and_streams_logs");
    const auto limited = [] {
        const rlimit limit{2048, 2048};
        ::setrlimit(RLIMIT_FSIZE, &limit);
    };
    const struct {
        std::vector<std::string> args;
        std::string message;
    } rows[]{{{"solve", "--problem", "ex1", "--K", "2", "--N", "64", "--backend", "serial", "--output",
               scratch.path("y.csv")},
              "bsde: error: --output '" + scratch.path("y.csv") + "': writing the file failed (File too large)"},
             {{"study", "--problem", "ex1", "--K", "1-3", "--N", "8,16,32,64,128", "--backends", "serial", "--out",
               scratch.path("study")},
              "bsde: error: --out '" + scratch.path("study") + "/study."}};
    for (const auto& row : rows) {
        const ProcessResult r = run_binary(row.args, logs, limited);
        BOOST_CHECK_MESSAGE(exited_with(r.status, 2) && one_line(r.err, row.message),
                            joined(row.args) << ": expected exit code 2 and '" << row.message << "...', got "
                                             << ending(r.status) << ", '" << shown(r.err) << "'");
        BOOST_CHECK_MESSAGE(scratch.names().empty(), joined(row.args) << ": left " << listed(scratch.names()));
    }
    const ProcessResult r = run_binary({"coefficients", "--K", "32"}, logs, limited);
    BOOST_CHECK_MESSAGE(exited_with(r.status, 2) && one_line(r.err, "bsde: error: writing the standard output failed"),
                        "coefficients to a limited stdout: expected exit code 2 and one error line, got "
                            << ending(r.status) << ", '" << shown(r.err) << "'");
}

BOOST_AUTO_TEST_CASE(address_space_limit_exits_4_without_temporary_files) {
    BOOST_TEST_MESSAGE("bsde (the binary) under a 16 MB address-space limit (ulimit -v; the loader needs about 10) "
                       "for a solve on omp with --output: libgomp cannot create its threads and calls exit(1) (or, "
                       "on one core, an allocation fails, or the solve fits): exit code 4 with the last line 'bsde: "
                       "error: ...', or 0 with the CSV; no temporary file either way");
    ScratchDir scratch("files_and_streams"), logs("files_and_streams_logs");
    const std::vector<std::string> args{"solve", "--problem", "ex1", "--K", "2", "--N", "8", "--backend", "omp",
                                        "--output", scratch.path("y.csv")};
    const ProcessResult r = run_binary(args, logs, [] {
        const rlimit limit{16000 << 10, 16000 << 10};
        ::setrlimit(RLIMIT_AS, &limit);
    });
    const std::size_t last_line = r.err.rfind('\n', r.err.size() >= 2 ? r.err.size() - 2 : 0);
    const std::string last = r.err.substr(last_line == std::string::npos ? 0 : last_line + 1);
    const bool failed = exited_with(r.status, 4) && one_line(last, "bsde: error: ");
    const bool fitted = exited_with(r.status, 0) && scratch.names() == std::vector<std::string>{"y.csv"};
    BOOST_CHECK_MESSAGE(failed || fitted, joined(args) << ": expected exit code 4 and a last error line, or 0, got "
                                                       << ending(r.status) << ", '" << shown(r.err) << "'");
    BOOST_CHECK_MESSAGE(!failed || scratch.names().empty(), "left " << listed(scratch.names()));
}

BOOST_AUTO_TEST_CASE(plots_are_listed_only_when_complete) {
    BOOST_TEST_MESSAGE("a study whose gnuplot ($BSDE_GNUPLOT: a script) exits 0 having written z_error.png whole (a "
                       "1x1 PNG) and y_error.png cut short (its first 20 bytes, as on a full disk): z_error.png is kept "
                       "and listed, y_error.png removed, not listed, and named in one note; nothing *.partial.* left");
    ScratchDir scratch("files_and_streams");
    // A 1x1 grayscale PNG: signature, IHDR, IDAT (zlib of the row "\0\0"), IEND, each chunk's CRC-32 as zlib computes it.
    const unsigned char one_pixel[] = {
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00,
        0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0x3A, 0x7E, 0x9B, 0x55, 0x00,
        0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01,
        0x48, 0xAF, 0xA4, 0x71, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82};
    const std::string png = scratch.write("one.png", std::string(reinterpret_cast<const char*>(one_pixel), sizeof one_pixel));
    // Reads the script's 'set output "NAME"' lines as gnuplot would, writing each NAME in its working folder.
    const std::string fake = scratch.write(
        "fake_gnuplot", "#!/bin/bash\n"
                        "while IFS= read -r line; do\n"
                        "    [[ $line == 'set output \"'*'\"' ]] || continue\n"
                        "    name=${line#set output \\\"}; name=${name%\\\"}\n"
                        "    if [[ $name == z_error.png ]]; then cat '" + png + "' > \"$name\"\n"
                        "    else head -c 20 '" + png + "' > \"$name\"; fi\n"
                        "done < \"$1\"\n");
    BOOST_REQUIRE(::chmod(fake.c_str(), 0700) == 0);
    const std::string dir = scratch.path("out");
    const std::vector<std::string> args{"study", "--problem", "ex1", "--K", "1", "--N", "8,16", "--backends", "serial",
                                        "--out", dir};
    const CliResult r = [&] {
        ScopedEnv fake_gnuplot("BSDE_GNUPLOT", fake);
        return run(args);
    }();
    BOOST_CHECK_MESSAGE(r.code == 0, joined(args) << ": exit code " << r.code << " (" << shown(r.err) << ")");
    const std::vector<std::string> expected{"study.csv", "study.gp", "study.md", "z_error.png"};
    BOOST_CHECK_MESSAGE(names_in(dir) == expected,
                        "expected " << listed(expected) << " in " << dir << ", got " << listed(names_in(dir)));
    BOOST_CHECK_MESSAGE(file_contents(dir + "/z_error.png") == file_contents(png), "z_error.png is not the PNG written");
    BOOST_CHECK_MESSAGE(r.out.find(dir + "/z_error.png") != std::string::npos &&
                            r.out.find("y_error.png") == std::string::npos,
                        "expected z_error.png listed and y_error.png not, got '" << r.out << "'");
    BOOST_CHECK_MESSAGE(one_line(r.err, "bsde: note: plots skipped: y_error.png "),
                        "expected one note naming y_error.png, got '" << shown(r.err) << "'");
}

BOOST_AUTO_TEST_SUITE_END()
