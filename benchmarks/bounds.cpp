// mapindex-bench-bounds: the times that bound how work grows, each against its
// bound. They were assertions in the tests; a test must not fail because the
// machine is busy, so they are measured here (benchmarks/run.sh runs it):
//
//   mapindex-bench-bounds MAPS_FOLDER
//
// - opening a datafile container (Datafile::open, no data inflated): the mean
//   over every .map in MAPS_FOLDER, each opened 20 times: microseconds, not
//   milliseconds;
// - measuring a map of 20000 envelopes whose point ranges all overlap
//   200000 points, and a datafile of 16000 UUID types after 200000 index
//   items (tests/support/slow_inputs.h): once seconds growing with the
//   product of the two counts, now linear;
// - the audit of 6000 entries over two runs (tests/test_audit_scale.h).
//
// Prints one markdown row per bound (name, measured, bound, PASS or MISS) and
// exits 1 when a bound is missed. The bounds hold in sanitizer builds too.
#define DOCTEST_CONFIG_DISABLE  // the audit test helpers, without their checks
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "decode/datafile/datafile.h"
#include "extract/teeworlds_measure.h"
#include "tests/support/corpus.h"
#include "tests/support/slow_inputs.h"
#include "tests/test_audit_scale.h"

namespace {

using namespace mapindex;

// Seconds one call of `f` takes.
template <class F>
double seconds_of(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

bool g_missed = false;

void row(const char* name, double measured, double bound, const char* unit) {
  const bool pass = measured < bound;
  g_missed = g_missed || !pass;
  std::printf("| %s | %.3f %s | < %.0f %s | %s |\n", name, measured, unit, bound, unit,
              pass ? "PASS" : "**MISS**");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: mapindex-bench-bounds MAPS_FOLDER\n");
    return 2;
  }
  std::vector<std::vector<std::uint8_t>> maps;
  for (const auto& e : std::filesystem::directory_iterator(argv[1]))
    if (e.is_regular_file() && e.path().extension() == ".map")
      maps.push_back(testing::read_file(e.path()));
  if (maps.empty()) {
    std::fprintf(stderr, "mapindex-bench-bounds: no .map file in %s\n", argv[1]);
    return 2;
  }

  std::printf("| work | measured | bound | result |\n|---|---:|---:|:---:|\n");
  constexpr int kRounds = 20;
  std::size_t opened = 0;
  const double open_seconds = seconds_of([&] {
    for (const auto& bytes : maps)
      for (int r = 0; r < kRounds; ++r) opened += datafile::Datafile::open(Bytes(bytes)) ? 1 : 0;
  });
  if (opened == 0) {
    std::fprintf(stderr, "mapindex-bench-bounds: no map in %s opens\n", argv[1]);
    return 2;
  }
  row("datafile open, mean per map",
      1e6 * open_seconds / (static_cast<double>(maps.size()) * kRounds), 1000, "us");

  const auto envelopes = testing::overlapping_envelopes_map(20000, 200000, 70000);
  row("measure: 20000 envelopes over 200000 points",
      seconds_of([&] { measure_teeworlds(Bytes(envelopes)); }), 3, "s");
  const auto uuids = testing::many_uuid_types_file(16000, 200000);
  row("measure: 16000 UUID types after 200000 index items",
      seconds_of([&] { measure_teeworlds(Bytes(uuids.file)); }), 3, "s");

  audit::testing::AuditIndex index;
  audit::testing::write_two_nights(index, 6000);
  row("audit: 6000 entries over two runs", seconds_of([&] { index.audit(); }), 20, "s");
  return g_missed ? 1 : 0;
}
