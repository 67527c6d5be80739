// How the index writer cuts its transactions (pipeline/index_run.h): by
// age (commit_interval), by count (--batch) and by the bytes it keeps for
// an open batch (held_bytes, IndexOptions::batch_memory).
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "extract/map_stats.h"
#include "pipeline/index_run.h"
#include "tests/support/archive_builder.h"
#include "tests/support/map_builder.h"
#include "tests/support/sqlite_probe.h"

namespace mapindex {
namespace {

using std::chrono::milliseconds;
using testing::TempDir;

TEST_SUITE("pipeline") {
  TEST_CASE("pipeline: a batch may grow to a fifth of the run's age, within its two bounds") {
    // The bounds are what the help and the guide say.
    CHECK(kCommitIntervalMin == milliseconds(200));
    CHECK(kCommitIntervalMax == milliseconds(1000));
    // A short run commits at the lower bound, so its log is copied as it goes.
    CHECK(commit_interval(milliseconds(0)) == kCommitIntervalMin);
    CHECK(commit_interval(milliseconds(999)) == kCommitIntervalMin);
    // In between, a fifth of the run's age.
    CHECK(commit_interval(milliseconds(1500)) == milliseconds(300));
    CHECK(commit_interval(milliseconds(4000)) == milliseconds(800));
    // A long run never holds a batch open longer than the upper bound.
    CHECK(commit_interval(milliseconds(5000)) == kCommitIntervalMax);
    CHECK(commit_interval(milliseconds(3'600'000)) == kCommitIntervalMax);
  }

  TEST_CASE("pipeline: held_bytes counts a map's statistics with what they allocated") {
    MapStats empty;
    CHECK(held_bytes(empty) == sizeof(MapStats));

    // Each part adds at least its own allocation, whatever else is counted.
    MapStats stats;
    const std::string long_name(1000, 'n');
    stats.layers.resize(100);
    for (auto& l : stats.layers) {
      l.name = long_name;
      l.tile_counts.resize(50);
      l.entities.push_back(NamedCount{long_name, 1});
    }
    const std::uint64_t layers =
        100 * (sizeof(LayerStats) + long_name.size() + 50 * sizeof(TileCount) + sizeof(NamedCount) +
               long_name.size());
    CHECK(held_bytes(stats) >= sizeof(MapStats) + layers);

    stats.problems.push_back(
        Problem{Code::text_not_utf8, std::string(5000, 'm'), Location::file()});
    stats.thumbnail_png.resize(20000);
    stats.author = std::string(3000, 'a');
    CHECK(held_bytes(stats) >= sizeof(MapStats) + layers + sizeof(Problem) + 5000 + 20000 + 3000);
  }

  TEST_CASE("pipeline: the writer commits once the entries kept for a batch reach batch_memory") {
    TempDir tmp;
    constexpr int kMaps = 12;
    std::filesystem::create_directory(tmp / "maps");
    for (int i = 0; i < kMaps; ++i) {
      testing::MapBuilder b;
      b.add_game_group();
      b.add_tile_layer(testing::TileGrid(LayerKind::game, 8 + i, 8).fill(0, 7, 8 + i, 1, 1));
      testing::write_file(tmp / "maps" / ("m" + std::to_string(i) + ".map"), b.build());
    }
    const auto run = [&](const std::string& db, std::uint64_t batch_memory) {
      IndexOptions options;
      options.db_path = tmp.file(db);
      options.inputs = {(tmp / "maps").string()};
      options.threads = 1;
      options.batch_memory = batch_memory;
      LiveCounters counters;
      auto summary = run_index(options, counters);
      REQUIRE_MESSAGE(summary.ok(), (summary.ok() ? "" : summary.error().message));
      CHECK(counters.maps_indexed.load() == kMaps);
      return *summary;
    };
    // Any entry reaches a bound of one byte: each one is a batch of its own,
    // and the most kept at once is one entry's.
    const IndexSummary each = run("each.sqlite", 1);
    CHECK(each.batches == kMaps);
    CHECK(each.peak_batch_bytes >= sizeof(MapStats));
    // The default bound holds them all: fewer batches (unless each entry
    // took a commit interval to write), and one entry's bytes or more kept.
    const IndexSummary all = run("all.sqlite", kBatchMemory);
    CHECK(all.batches < kMaps);
    CHECK(all.batches >= 1);  // the last, committed with the run's end, counts too
    CHECK(all.peak_batch_bytes >= each.peak_batch_bytes);
    CHECK(all.peak_batch_bytes < kBatchMemory);
    // Either way the same maps are indexed.
    const std::string maps = "SELECT count(*) FROM maps";
    CHECK(testing::sql_value(tmp / "each.sqlite", maps) == std::to_string(kMaps));
    CHECK(testing::sql_value(tmp / "all.sqlite", maps) == std::to_string(kMaps));
  }
}

}  // namespace
}  // namespace mapindex
