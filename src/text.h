// Small text helpers shared by the study runner and the benchmark.
#pragma once
#include <string>
#include <vector>

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

// `s` without leading and trailing blanks and tabs.
inline std::string trim(const std::string& s) {
    const std::size_t begin = s.find_first_not_of(" \t");
    if (begin == std::string::npos) return "";
    return s.substr(begin, s.find_last_not_of(" \t") - begin + 1);
}

}  // namespace bsde
