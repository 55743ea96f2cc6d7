#include "progress.h"

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <system_error>

namespace bsde {

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

ProgressLine::ProgressLine(bool on_stderr, double log_seconds)
    : mode_(!on_stderr ? Mode::off : stderr_is_terminal() ? Mode::terminal : Mode::log),
      log_interval_(log_seconds),
      state_(std::make_shared<State>()) {}

ProgressLine::~ProgressLine() { clear(); }

ProgressCallback ProgressLine::for_solve(const std::string& label, double seconds_after) {
    if (mode_ == Mode::off) return {};
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        state_->label = label;
        state_->seconds_after = seconds_after;
        state_->start = std::chrono::steady_clock::now();
        state_->steps_done = state_->steps_total = 0;
    }
    if (mode_ == Mode::terminal) draw();
    else if (!logger_.joinable()) {
        try {
            logger_ = std::thread([this] { log_every_interval(); });
        } catch (const std::system_error&) {  // no thread to spare (a process or memory limit): no log lines
        }
    }
    return [this](int steps_done, int steps_total) { report(steps_done, steps_total); };
}

void ProgressLine::report(int steps_done, int steps_total) {
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        state_->steps_done = steps_done;
        state_->steps_total = steps_total;
    }
    if (mode_ == Mode::terminal &&
        !(state_->drawn && steps_done > 0 &&
          std::chrono::steady_clock::now() - state_->last_draw < std::chrono::milliseconds(100)))
        draw();
}

std::string ProgressLine::status_text(std::chrono::steady_clock::time_point now) const {
    const State& s = *state_;
    std::string text = s.label;
    const double elapsed = std::chrono::duration<double>(now - s.start).count();
    if (s.steps_total > 0) {
        const double left = elapsed * (s.steps_total - s.steps_done) / std::max(s.steps_done, 1);
        text += ": step " + std::to_string(s.steps_done) + "/" + std::to_string(s.steps_total) + ", about " +
                format_duration(left) + " left";
        if (s.seconds_after >= 0) text += " (study: about " + format_duration(left + s.seconds_after) + " left)";
    }
    return text;
}

void ProgressLine::draw() {
    const auto now = std::chrono::steady_clock::now();
    std::cerr << "\r\033[K" << status_text(now) << std::flush;
    state_->drawn = true;
    state_->last_draw = now;
}

// The log's writer thread: the status with the time so far, every log interval until stopped.
void ProgressLine::log_every_interval() {
    State& s = *state_;
    const auto interval = std::chrono::duration_cast<std::chrono::steady_clock::duration>(log_interval_);
    std::unique_lock<std::mutex> lock(s.mutex);
    while (!s.stop_logging.wait_for(lock, interval, [&s] { return s.stopping; })) {
        const auto now = std::chrono::steady_clock::now();
        std::cerr << "bsde: progress: " << status_text(now) << " ("
                  << format_duration(std::chrono::duration<double>(now - s.start).count()) << " so far)" << std::endl;
    }
}

void ProgressLine::stop_logging() {
    if (!logger_.joinable()) return;
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        state_->stopping = true;
    }
    state_->stop_logging.notify_all();
    logger_.join();
    state_->stopping = false;
}

void ProgressLine::clear() {
    if (mode_ == Mode::log) stop_logging();
    if (mode_ != Mode::terminal || !state_->drawn) return;
    std::cerr << "\r\033[K" << std::flush;
    state_->drawn = false;
}

void ProgressLine::print(std::ostream& err, const std::string& line) {
    if (mode_ == Mode::log) {
        std::lock_guard<std::mutex> lock(state_->mutex);  // not within one of the log's lines
        err << line << std::endl;
        return;
    }
    const bool was_drawn = mode_ == Mode::terminal && state_->drawn;
    clear();
    err << line << std::endl;  // flushed: the run may be long
    if (was_drawn) draw();
}

}  // namespace bsde
