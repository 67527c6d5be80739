// Progress display for `mapindex index`: a bar redrawn in place on a terminal,
// plain periodic lines otherwise, or nothing.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include "pipeline/run_counters.h"

namespace mapindex {

enum class ProgressMode { automatic, bar, lines, none };

// One line describing the counters; `elapsed` in seconds.
std::string format_progress(const LiveCounters& c, double elapsed, bool with_bar);

class ProgressReporter {
 public:
  // automatic = bar when `out` is a terminal, none otherwise.
  ProgressReporter(const LiveCounters& counters, ProgressMode mode, std::FILE* out);
  ~ProgressReporter();  // stops and clears the bar
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  void stop();

 private:
  void loop();

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
