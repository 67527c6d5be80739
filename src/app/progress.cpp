#include "app/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdlib>
#include <vector>

namespace mapindex {

std::string format_progress(const LiveCounters& c, double elapsed, bool with_bar,
                            std::size_t width) {
  const auto total = c.input_bytes_total.load();
  const auto done = std::min(c.input_bytes_finished.load(), total);
  // The writer counts a map just before writing its entry: the entry in the
  // writer's hands counts as finished, so the line never shows more maps than
  // entries.
  const auto indexed = c.maps_indexed.load(), known = c.maps_known.load();
  const auto finished = std::max(c.written.load() + c.not_written.load(), indexed + known);
  const double rate = elapsed > 0 ? static_cast<double>(indexed + known) / elapsed : 0.0;
  const double mb = static_cast<double>(c.bytes_finished.load()) / (1024.0 * 1024.0);
  char buf[128];
  // Fields, most important first; those that do not fit are left out.
  std::vector<std::string> fields;
  constexpr std::size_t kCoreFields = 4;  // with a percentage: the bar comes after these
  double frac = -1;
  if (total > 0) {
    frac = static_cast<double>(done) / static_cast<double>(total);
    std::snprintf(buf, sizeof buf, "%3.0f%%", frac * 100.0);
    fields.emplace_back(buf);
  }
  std::snprintf(buf, sizeof buf, "%" PRIu64 " entries", finished);
  fields.emplace_back(buf);
  std::snprintf(buf, sizeof buf, "%" PRIu64 " maps indexed", indexed);
  fields.emplace_back(buf);
  std::snprintf(buf, sizeof buf, "%" PRIu64 " known", known);
  fields.emplace_back(buf);
  if (total > 0 && done > 0 && done < total && elapsed > 1.0) {
    const double eta = elapsed * static_cast<double>(total - done) / static_cast<double>(done);
    std::snprintf(buf, sizeof buf, "ETA %d:%02d", static_cast<int>(eta) / 60,
                  static_cast<int>(eta) % 60);
    fields.emplace_back(buf);
  }
  std::snprintf(buf, sizeof buf, "%.1f MB", mb);
  fields.emplace_back(buf);
  std::snprintf(buf, sizeof buf, "%.1f maps/s", rate);
  fields.emplace_back(buf);

  // The last column is left free: writing into it makes some terminals wrap.
  const std::size_t room = width > 1 ? width - 1 : 1;
  constexpr std::size_t kMinBar = 10, kMaxBar = 40;
  std::string text;
  std::size_t reserved = 0;  // columns kept for the bar ("[" inner "] ")
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (with_bar && frac >= 0 && i == kCoreFields && text.size() + 3 + kMinBar <= room)
      reserved = 3 + kMinBar;
    const std::string next = text.empty() ? fields[i] : text + ", " + fields[i];
    if (next.size() + reserved > room) break;
    text = next;
  }
  if (text.empty()) text = fields.front().substr(0, room);
  if (with_bar && frac >= 0 && text.size() + 3 + kMinBar <= room) {
    const std::size_t inner = std::min(kMaxBar, room - text.size() - 3);
    const auto filled = static_cast<std::size_t>(std::min(1.0, frac) * static_cast<double>(inner));
    std::string bar = "[";
    for (std::size_t i = 0; i < inner; ++i) bar += i < filled ? '=' : (i == filled ? '>' : ' ');
    bar += "] ";
    text = bar + text;
  }
  return text;
}

std::size_t terminal_width(std::FILE* out) {
  winsize ws{};
  if (::ioctl(::fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  if (const char* columns = std::getenv("COLUMNS")) {
    char* end = nullptr;
    const long n = std::strtol(columns, &end, 10);
    if (end != columns && *end == '\0' && n > 0 && n < 10000) return static_cast<std::size_t>(n);
  }
  return 80;
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
  if (mode_ != ProgressMode::none) draw(true);
}

void ProgressReporter::draw(bool final_line) {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (mode_ == ProgressMode::bar) {
    const std::string line = format_progress(counters_, elapsed, true, terminal_width(out_));
    std::fprintf(out_, "\r\033[K%s%s", line.c_str(), final_line ? "\n" : "");
  } else {
    // "progress: " takes 10 columns of the line.
    const auto width = std::max<std::size_t>(terminal_width(out_), 20);
    const std::string line = format_progress(counters_, elapsed, false, width - 10);
    std::fprintf(out_, "progress: %s\n", line.c_str());
  }
  std::fflush(out_);
}

void ProgressReporter::loop() {
  const auto period =
      mode_ == ProgressMode::bar ? std::chrono::milliseconds(200) : std::chrono::milliseconds(5000);
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, period, [this] { return stopping_; })) draw(false);
}

}  // namespace mapindex
