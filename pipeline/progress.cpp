#include "pipeline/progress.h"

#include <unistd.h>

#include <cinttypes>

namespace mapindex {

std::string format_progress(const LiveCounters& c, double elapsed, bool with_bar) {
  const auto total = c.input_bytes_total.load();
  const auto done = c.input_bytes_done.load();
  const auto maps = c.maps_indexed.load() + c.maps_known.load();
  const double rate = elapsed > 0 ? static_cast<double>(maps) / elapsed : 0.0;
  const double mb = static_cast<double>(c.bytes.load()) / (1024.0 * 1024.0);
  char line[256];
  std::string out;
  if (total > 0) {
    const double frac = std::min(1.0, static_cast<double>(done) / static_cast<double>(total));
    if (with_bar) {
      constexpr int width = 24;
      const int filled = static_cast<int>(frac * width);
      out += '[';
      for (int i = 0; i < width; ++i) out += i < filled ? '=' : (i == filled ? '>' : ' ');
      out += "] ";
    }
    std::snprintf(line, sizeof line, "%3.0f%% ", frac * 100.0);
    out += line;
  }
  std::snprintf(line, sizeof line,
                "%" PRIu64 " entries, %" PRIu64 " maps (%" PRIu64 " new, %" PRIu64
                " known), %.1f MB, %.1f maps/s",
                c.entries.load(), maps, c.maps_indexed.load(), c.maps_known.load(), mb, rate);
  out += line;
  if (total > 0 && done > 0 && done < total && elapsed > 1.0) {
    const double eta = elapsed * static_cast<double>(total - done) / static_cast<double>(done);
    std::snprintf(line, sizeof line, ", ETA %d:%02d", static_cast<int>(eta) / 60,
                  static_cast<int>(eta) % 60);
    out += line;
  }
  return out;
}

ProgressReporter::ProgressReporter(const LiveCounters& counters, ProgressMode mode, std::FILE* out)
    : counters_(counters), mode_(mode), out_(out), start_(std::chrono::steady_clock::now()) {
  if (mode_ == ProgressMode::automatic)
    mode_ = ::isatty(::fileno(out_)) ? ProgressMode::bar : ProgressMode::none;
  if (mode_ != ProgressMode::none) thread_ = std::thread([this] { loop(); });
}

ProgressReporter::~ProgressReporter() { stop(); }

void ProgressReporter::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (mode_ == ProgressMode::bar) {
    std::fputs("\r\033[K", out_);
    std::fflush(out_);
  }
}

void ProgressReporter::loop() {
  const auto period = mode_ == ProgressMode::bar ? std::chrono::milliseconds(200)
                                                 : std::chrono::milliseconds(5000);
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, period, [this] { return stopping_; })) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const std::string line = format_progress(counters_, elapsed, mode_ == ProgressMode::bar);
    if (mode_ == ProgressMode::bar) {
      std::fprintf(out_, "\r\033[K%s", line.c_str());
    } else {
      std::fprintf(out_, "progress: %s\n", line.c_str());
    }
    std::fflush(out_);
  }
}

}  // namespace mapindex
