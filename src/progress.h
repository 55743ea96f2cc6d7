// A progress line on stderr while a solve or a study runs: the case, the step and an estimate of the
// time left, redrawn in place at most ten times a second. Shown only when stderr is a terminal.
#pragma once
#include <chrono>
#include <memory>
#include <ostream>
#include <string>

#include "../algorithms/scheme/run_time.h"
#include "../algorithms/scheme/settings.h"

namespace bsde {

bool stderr_is_terminal();

class ProgressLine {
public:
    explicit ProgressLine(bool enabled);
    ~ProgressLine();
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;

    bool enabled() const { return enabled_; }
    // The callback for the next solve (empty when disabled). label names the case; seconds_after, when
    // >= 0, is the estimated time of what comes after this solve (the rest of a study).
    ProgressCallback for_solve(const std::string& label, double seconds_after = -1);
    void clear();  // erases the line (before other output on stderr, and at the end)
    // Writes `line` and a newline on err (stderr where the progress line shows) while a solve runs: the progress line
    // is erased first and drawn again after, so that the line stands alone and the progress still shows (a warning
    // before a long start-up precedes minutes without an update).
    void print(std::ostream& err, const std::string& line);

private:
    struct State {
        std::string label;
        double seconds_after = -1;
        std::chrono::steady_clock::time_point start, last_draw;
        int steps_done = 0, steps_total = 0;  // as last drawn
        bool drawn = false;
    };
    void draw(int steps_done, int steps_total);

    bool enabled_;
    std::shared_ptr<State> state_;
};

}  // namespace bsde
