// Where an execution context's last Thrust call was made, so that a Thrust failure (which carries the library's
// reason but no place) names the file and line of the call that raised it. The contexts (host_system.h,
// cuda_system.cuh) record it as their policy() or copy_to_host() is called: both take the compiler's
// __builtin_FILE() and __builtin_LINE() as default arguments, which are the caller's file and line. A vector's
// allocation or upload (constructor, assign, resize) is not recorded: a failed allocation throws std::bad_alloc,
// reported as running out of memory, and any other failure surfacing there names the Thrust call before it.
#pragma once
#include <string>

#include <thrust/copy.h>

namespace bsde {

class ThrustCalls {
public:
    // "file:line" of the last call recorded, or "" before any.
    std::string last_site() const { return file_ ? std::string(file_) + ":" + std::to_string(line_) : ""; }

    // Copies a backend vector's range to host memory (thrust::copy, synchronous).
    template <class Iterator, class HostIterator>
    void copy_to_host(Iterator first, Iterator last, HostIterator out, const char* file = __builtin_FILE(),
                      int line = __builtin_LINE()) const {
        record(file, line);
        thrust::copy(first, last, out);
    }

protected:
    void record(const char* file, int line) const {
        file_ = file;
        line_ = line;
    }

private:
    mutable const char* file_ = nullptr;
    mutable int line_ = 0;
};

}  // namespace bsde
