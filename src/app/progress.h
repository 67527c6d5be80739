// Progress display for `mapindex index`: a bar redrawn in place on a terminal,
// plain periodic lines otherwise, or nothing. Everything it shows is work the
// writer has finished, so its last line agrees with the run's summary.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include "pipeline/run_counters.h"

namespace mapindex {

enum class ProgressMode { automatic, bar, lines, none };

// One line describing the counters, at most `width` characters (fields that do
// not fit are left out, least important first); `elapsed` in seconds. The
// percentage and ETA follow input_bytes_finished against input_bytes_total.
std::string format_progress(const LiveCounters& c, double elapsed, bool with_bar,
                            std::size_t width = 80);

// Columns of the terminal `out` is on; else $COLUMNS; else 80.
std::size_t terminal_width(std::FILE* out);

class ProgressReporter {
 public:
  // automatic = bar when `out` is a terminal, none otherwise.
  ProgressReporter(const LiveCounters& counters, ProgressMode mode, std::FILE* out);
  ~ProgressReporter();  // stops (see stop())
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  // Stops and draws the final line from the final counters (the bar is left on
  // screen with a newline).
  void stop();

 private:
  void loop();
  void draw(bool final_line);

  const LiveCounters& counters_;
  ProgressMode mode_;
  std::FILE* out_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace mapindex
