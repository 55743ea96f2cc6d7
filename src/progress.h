// The progress of a solve or a study on stderr: the case, the step and an estimate of the time left. On a terminal a
// line redrawn in place at most ten times a second; elsewhere (a log file, a pipe) a line of its own,
// "bsde: progress: ...", every log_seconds while the run lasts, so that a long run's log shows it is alive (a run
// shorter than that writes none).
#pragma once
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include "../algorithms/scheme/run_time.h"
#include "../algorithms/scheme/settings.h"

namespace bsde {

bool stderr_is_terminal();

class ProgressLine {
public:
    // on_stderr: the command writes its messages to std::cerr, which shows the progress (drawn where stderr is a
    // terminal, logged every log_seconds elsewhere); false: no progress.
    explicit ProgressLine(bool on_stderr, double log_seconds = 30);
    ~ProgressLine();
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;

    bool enabled() const { return mode_ != Mode::off; }
    // The callback for the next solve (empty when disabled). label names the case; seconds_after, when
    // >= 0, is the estimated time of what comes after this solve (the rest of a study).
    ProgressCallback for_solve(const std::string& label, double seconds_after = -1);
    // Ends the progress before other output on stderr, and at the end: erases the line on a terminal, stops the log's
    // lines elsewhere.
    void clear();
    // Writes `line` and a newline on err (stderr where the progress shows) while a solve runs: on a terminal the
    // progress line is erased first and drawn again after, so that the line stands alone and the progress still
    // shows (a warning before a long run precedes minutes without an update).
    void print(std::ostream& err, const std::string& line);

private:
    enum class Mode { off, terminal, log };
    struct State {
        std::mutex mutex;  // the log's writer thread reads what the solve's callback writes
        std::condition_variable stop_logging;
        bool stopping = false;
        std::string label;
        double seconds_after = -1;
        std::chrono::steady_clock::time_point start, last_draw;
        int steps_done = 0, steps_total = 0;  // as last reported
        bool drawn = false;
    };
    void report(int steps_done, int steps_total);
    void draw();
    std::string status_text(std::chrono::steady_clock::time_point now) const;  // with the state's mutex held
    void log_every_interval();
    void stop_logging();

    Mode mode_;
    std::chrono::duration<double> log_interval_;
    std::shared_ptr<State> state_;
    std::thread logger_;
};

}  // namespace bsde
