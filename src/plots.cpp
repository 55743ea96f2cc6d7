#include "plots.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "../algorithms/core/errors.h"
#include "output_files.h"
#include "text.h"

namespace bsde {

std::string shell_quoted(const std::string& s) {
    std::string quoted = "'";
    for (char c : s) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

std::string gnuplot_string(const std::string& s) {
    std::string quoted = "\"";
    for (char c : s) quoted += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    return quoted + "\"";
}

std::string gnuplot_enhanced_literal(const std::string& s) {
    std::string literal;
    for (char c : s) literal += std::string(std::strchr("_^{}@&~", c) && c ? "\\" : "") + c;
    return literal;
}

std::string gnuplot_png_terminal(int width, int height) {
    const std::string size = std::to_string(width) + "," + std::to_string(height);
    return "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
           "    set terminal pngcairo size " + size + " enhanced font \"sans,12\"\n"
           "} else {\n"
           "    set terminal png size " + size + "\n"
           "}\n";
}

namespace {

// A file name as the shell's word: itself where it needs no quotes (study.gp), else shell_quoted.
std::string shell_word(const std::string& name) {
    const bool plain = !name.empty() && name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                                "0123456789._-+") == std::string::npos && name[0] != '-';
    return plain ? name : shell_quoted(name);
}

// The program that makes the plots: $BSDE_GNUPLOT or gnuplot, looked up on PATH; empty when missing.
std::string find_gnuplot() {
    const char* chosen = std::getenv("BSDE_GNUPLOT");
    const std::string name = chosen && *chosen ? chosen : "gnuplot";
    if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : "";
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "/usr/bin:/bin");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return "";
}

// How a child process ended, from its wait status (an end, not a stop): "exit status 1", "killed by signal 9 (Killed)".
std::string describe_wait_status(int status) {
    if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" + ::strsignal(WTERMSIG(status)) + ")";
}

// The CRC-32 of the PNG chunks (ISO 3309, as the PNG specification's annex D computes it).
std::uint32_t crc32(const unsigned char* data, std::size_t size) {
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    std::uint32_t crc = 0xFFFFFFFFu;
    for (std::size_t i = 0; i < size; ++i) crc = table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

std::uint32_t big_endian_32(const unsigned char* p) {
    return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

// The bytes of the regular file `name` in `folder`, up to `limit`; false (and why) otherwise.
bool read_file_at(int folder, const std::string& name, std::size_t limit, std::string& bytes, std::string& why) {
    const Descriptor file(::openat(folder, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    struct stat info;
    if (file.get() < 0) why = errno == ENOENT ? "missing" : std::string("unreadable: ") + std::strerror(errno);
    else if (::fstat(file.get(), &info) != 0 || !S_ISREG(info.st_mode)) why = "not a regular file";
    else if (std::size_t(info.st_size) > limit) why = "larger than " + std::to_string(limit >> 20) + " MiB";
    if (!why.empty()) return false;
    char buffer[65536];
    for (ssize_t n; (n = ::read(file.get(), buffer, sizeof buffer)) != 0 && bytes.size() <= limit;)
        if (n > 0) bytes.append(buffer, std::size_t(n));
        else if (errno != EINTR) return why = std::string("unreadable: ") + std::strerror(errno), false;
    return true;
}

// Why the plot `name` in `folder` is not a complete PNG ("" when it is): its 8-byte signature, then chunks (a 4-byte
// big-endian length, the type, the data, the CRC-32 of type and data) up to an IEND chunk that ends the file (PNG
// specification, 5.2 to 5.6). A full disk leaves a file cut short, which gnuplot may not report.
std::string png_defect(int folder, const std::string& name) {
    std::string bytes, why;
    if (!read_file_at(folder, name, std::size_t(256) << 20, bytes, why)) return why;
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (bytes.size() < 8 || std::memcmp(data, signature, 8) != 0) return "no PNG signature";
    for (std::size_t at = 8; bytes.size() - at >= 12;) {
        const std::size_t length = big_endian_32(data + at);
        if (length > bytes.size() - at - 12) break;
        if (crc32(data + at + 4, length + 4) != big_endian_32(data + at + 8 + length)) return "a chunk's CRC is wrong";
        const bool end = std::memcmp(data + at + 4, "IEND", 4) == 0;
        at += 12 + length;
        if (end) return at == bytes.size() ? "" : "data after its IEND chunk";
    }
    return "cut short before its IEND chunk";
}

// Why gnuplot's run failed ("" when it ended with exit status 0), from its wait status and output.
std::string gnuplot_failure(const std::string& gnuplot, int status, const std::string& output) {
    if (status == 0) return "";
    if (status == -1) return "cannot run " + gnuplot + " (" + std::strerror(errno) + ")";
    // gnuplot's last non-empty line names what failed.
    std::string last_line;
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);)
        if (!trim(line).empty()) last_line = trim(line);
    return gnuplot + " failed (" + describe_wait_status(status) + ")" + (last_line.empty() ? "" : ": " + last_line);
}

}  // namespace

std::vector<std::string> make_plots(int folder, const std::string& dir, const std::string& script,
                                    const std::string& scratch_stem, const std::vector<std::string>& names,
                                    std::ostream& err) {
    const std::string gnuplot = find_gnuplot();
    const std::string skipped = "bsde: note: plots skipped: ";
    if (gnuplot.empty()) {
        err << skipped << "gnuplot not found (install it with: apt-get install gnuplot-nox; then run: cd -- "
            << shell_quoted(dir) << " && gnuplot " << shell_word(script) << ")\n";
        return {};
    }
    try {
        const TemporaryFolder scratch(folder, scratch_stem, names);
        std::string output;
        const int status = run_in_folder(scratch.descriptor(), gnuplot, {"../" + script}, output);
        const std::string failure = gnuplot_failure(gnuplot, status, output);
        if (!failure.empty()) {
            err << skipped << failure << "\n";
            return {};
        }
        std::vector<std::string> written, incomplete;
        for (const std::string& name : names) {
            std::string defect = png_defect(scratch.descriptor(), name);
            if (defect.empty() && !scratch.move_out(name))
                defect = std::string("cannot be moved into the folder: ") + std::strerror(errno);
            if (defect.empty()) written.push_back(name);
            else incomplete.push_back(name + " " + defect);
        }
        if (!incomplete.empty()) {
            err << skipped;
            for (std::size_t k = 0; k < incomplete.size(); ++k) err << (k ? ", " : "") << incomplete[k];
            err << " (removed; " << gnuplot << " ended with exit status 0)\n";
        }
        return written;
    } catch (const InputError& e) {
        err << skipped << e.what() << "\n";
        return {};
    }
}

}  // namespace bsde
