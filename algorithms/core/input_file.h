// Reading an input file (the config file, the host's memory figures) through one descriptor, so that what is checked
// is what is read: no check is made on the path, which may be swapped for a FIFO or a folder between a check and an
// open.
#pragma once
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace bsde {

// A regular file's first bytes, or why it was not read.
struct InputFile {
    bool read = false;
    std::string text;     // at most limit + 1 bytes: more than limit says that the file is larger
    std::string refusal;  // where not read: "is a directory, not a file", "cannot open the file for reading (...)", ...
};

// The file at path, opened without waiting (O_NONBLOCK: a FIFO opens at once instead of waiting for a writer;
// O_NOCTTY: a terminal does not become the controlling one), refused by fstat on that descriptor unless it is a
// regular file (a folder, FIFO, device or socket), then read in blocking mode up to limit + 1 bytes.
inline InputFile read_regular_file(const std::string& path, std::size_t limit) {
    InputFile file;
    const auto with_reason = [](const char* what) { return std::string(what) + " (" + std::strerror(errno) + ")"; };
    const int descriptor = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (descriptor < 0) {
        file.refusal = with_reason("cannot open the file for reading");
        return file;
    }
    struct stat info;
    const int flags = ::fcntl(descriptor, F_GETFL);
    if (::fstat(descriptor, &info) != 0 || flags == -1 || ::fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == -1)
        file.refusal = with_reason("cannot examine the opened file");
    else if (S_ISDIR(info.st_mode))
        file.refusal = "is a directory, not a file";
    else if (!S_ISREG(info.st_mode))
        file.refusal = "not a regular file (a FIFO, a device or a socket)";
    else {
        file.text.resize(limit + 1);
        std::size_t got = 0;
        while (got < file.text.size()) {
            const ssize_t n = ::read(descriptor, &file.text[got], file.text.size() - got);
            if (n > 0) got += static_cast<std::size_t>(n);
            else if (n == 0) break;
            else if (errno != EINTR) {
                file.refusal = with_reason("reading the file failed");
                break;
            }
        }
        file.text.resize(got);
        file.read = file.refusal.empty();
    }
    ::close(descriptor);
    return file;
}

}  // namespace bsde
