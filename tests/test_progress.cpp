// The progress line of `mapindex index` (app/progress.h) as a pure
// function: it fits the width, and its percentage and ETA follow the work the
// writer finished, not the bytes the reader ran ahead with.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/progress.h"

using namespace mapindex;

namespace {

// 298 maps written of an input of 10 MB; the reader is at the end already,
// the writer at 40 %.
void fill(LiveCounters& c) {
  c.input_bytes_total = 10'000'000;
  c.input_bytes_done = 10'000'000;
  c.input_bytes_finished = 4'000'000;
  c.entries = 700;
  c.written = 300;
  c.not_written = 0;
  c.maps_indexed = 250;
  c.maps_known = 48;
  c.bytes = 900ull << 20;
  c.bytes_finished = 300ull << 20;
}

}  // namespace

TEST_SUITE_BEGIN("progress");

TEST_CASE("progress: the percentage and ETA follow the entries written, not the bytes read") {
  LiveCounters c;
  fill(c);
  const auto line = format_progress(c, 10.0, false, 200);
  CHECK_MESSAGE(line.find(" 40%") == 0, line);
  CHECK(line.find("100%") == std::string::npos);
  CHECK_MESSAGE(line.find("300 entries") != std::string::npos, line);  // written, not 700 read
  CHECK_MESSAGE(line.find("250 maps indexed") != std::string::npos, line);
  CHECK_MESSAGE(line.find("48 known") != std::string::npos, line);
  // 40 % in 10 s: 15 s to go.
  CHECK_MESSAGE(line.find("ETA 0:15") != std::string::npos, line);
  CHECK_MESSAGE(line.find("300.0 MB") != std::string::npos, line);
  // With the bar: 40 % of its inside is filled.
  const auto bar = format_progress(c, 10.0, true, 200);
  REQUIRE(bar.front() == '[');
  const auto close = bar.find(']');
  const auto filled = bar.find('>');
  REQUIRE(filled != std::string::npos);
  CHECK(filled - 1 == (close - 1) * 4 / 10);
}

TEST_CASE("progress: the line fits the terminal's width, whatever it is") {
  LiveCounters c;
  fill(c);
  for (std::size_t width : {1u, 5u, 20u, 40u, 60u, 80u, 120u, 300u}) {
    CAPTURE(width);
    for (bool with_bar : {false, true}) {
      const auto line = format_progress(c, 10.0, with_bar, width);
      CHECK(line.size() < std::max<std::size_t>(width, 2));
      CHECK(!line.empty());
    }
  }
  // The most important fields stay: at 60 columns the percentage and counts.
  const auto narrow = format_progress(c, 10.0, true, 60);
  CHECK_MESSAGE(narrow.find(" 40%") != std::string::npos, narrow);
  CHECK_MESSAGE(narrow.find("300 entries") != std::string::npos, narrow);
  // Unknown input size (standard input): no percentage, no bar.
  c.input_bytes_total = 0;
  const auto unknown = format_progress(c, 10.0, true, 80);
  CHECK(unknown.find('%') == std::string::npos);
  CHECK(unknown.find('[') == std::string::npos);
  CHECK(unknown.size() < 80);
}

TEST_CASE("progress: the width comes from the terminal, else COLUMNS, else 80") {
  std::FILE* file = std::tmpfile();  // not a terminal
  REQUIRE(file);
  const char* saved = std::getenv("COLUMNS");
  const std::string saved_value = saved ? saved : "";
  ::setenv("COLUMNS", "57", 1);
  CHECK(terminal_width(file) == 57);
  ::setenv("COLUMNS", "wide", 1);
  CHECK(terminal_width(file) == 80);
  ::unsetenv("COLUMNS");
  CHECK(terminal_width(file) == 80);
  if (saved) ::setenv("COLUMNS", saved_value.c_str(), 1);
  std::fclose(file);
}

TEST_CASE("progress: the final line is drawn from the final counters") {
  LiveCounters c;
  fill(c);
  c.written = 700;
  c.input_bytes_finished = 10'000'000;
  std::FILE* file = std::tmpfile();
  REQUIRE(file);
  {
    ProgressReporter reporter(c, ProgressMode::lines, file);
    reporter.stop();
  }
  std::rewind(file);
  char buf[512] = {};
  const auto n = std::fread(buf, 1, sizeof buf - 1, file);
  std::fclose(file);
  const std::string text(buf, n);
  CHECK_MESSAGE(text.find("progress: 100%, 700 entries, 250 maps indexed, 48 known") == 0, text);
}

TEST_CASE("progress: at 60 columns the bar stays, less important fields give way") {
  LiveCounters c;
  fill(c);
  const auto line = format_progress(c, 10.0, true, 60);
  CHECK_MESSAGE(line.front() == '[', line);
  CHECK_MESSAGE(line.find(" 40%, 300 entries, 250 maps indexed") != std::string::npos, line);
  CHECK(line.size() < 60);
}

TEST_CASE(
    "progress: never more maps than entries (a map is counted just before its entry is written)") {
  LiveCounters c;
  fill(c);
  c.maps_indexed = 253;  // 253 + 48 maps counted, 300 entries written: one is being written
  const auto line = format_progress(c, 10.0, false, 200);
  CHECK_MESSAGE(line.find("301 entries, 253 maps indexed, 48 known") != std::string::npos, line);
}

TEST_SUITE_END();
