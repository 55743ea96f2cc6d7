#include "progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace bsde {

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

ProgressLine::ProgressLine(bool enabled) : enabled_(enabled), state_(std::make_shared<State>()) {}

ProgressLine::~ProgressLine() { clear(); }

ProgressCallback ProgressLine::for_solve(const std::string& label, double seconds_after) {
    if (!enabled_) return {};
    state_->label = label;
    state_->seconds_after = seconds_after;
    state_->start = std::chrono::steady_clock::now();
    draw(0, 0);
    return [this](int steps_done, int steps_total) { draw(steps_done, steps_total); };
}

void ProgressLine::draw(int steps_done, int steps_total) {
    State& s = *state_;
    const auto now = std::chrono::steady_clock::now();
    if (s.drawn && steps_done > 0 && now - s.last_draw < std::chrono::milliseconds(100)) return;
    std::string line = s.label;
    if (steps_total > 0) {
        const double elapsed = std::chrono::duration<double>(now - s.start).count();
        const double left = elapsed * (steps_total - steps_done) / std::max(steps_done, 1);
        line += ": step " + std::to_string(steps_done) + "/" + std::to_string(steps_total) + ", about " +
                format_duration(left) + " left";
        if (s.seconds_after >= 0) line += " (study: about " + format_duration(left + s.seconds_after) + " left)";
    }
    std::cerr << "\r\033[K" << line << std::flush;
    s.drawn = true;
    s.last_draw = now;
    s.steps_done = steps_done;
    s.steps_total = steps_total;
}

void ProgressLine::clear() {
    if (!enabled_ || !state_->drawn) return;
    std::cerr << "\r\033[K" << std::flush;
    state_->drawn = false;
}

void ProgressLine::print(std::ostream& err, const std::string& line) {
    const bool was_drawn = enabled_ && state_->drawn;
    clear();
    err << line << std::endl;  // flushed: the run may be long
    if (was_drawn) draw(state_->steps_done, state_->steps_total);
}

}  // namespace bsde
