// run_index's read_back (pipeline/index_run.h): the command's report reads
// what the run wrote through the run's own connection, once the run's end is
// written, and the index is still stamped when it closes; a run that fails is
// not read back.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "pipeline/index_run.h"
#include "sqlite/statement.h"
#include "tests/support/archive_builder.h"
#include "tests/support/map_builder.h"
#include "tests/support/sqlite_probe.h"

namespace mapindex {
namespace {

using testing::TempDir;

// One value of `sql` (one `?`: the run) on `index`.
std::string value_for_run(sqlite3* index, const std::string& sql, std::int64_t run_id) {
  sqlite::Statement st(index, sql);
  st.bind_all(run_id);
  REQUIRE(st.step());
  return st.column_text(0);
}

TEST_SUITE("pipeline") {
  TEST_CASE("pipeline: read_back sees the finished run on its connection; the index is stamped") {
    TempDir tmp;
    std::filesystem::create_directory(tmp / "maps");
    constexpr int kMaps = 3;
    for (int i = 0; i < kMaps; ++i) {
      testing::MapBuilder b;
      b.add_game_group();
      b.add_tile_layer(testing::TileGrid(LayerKind::game, 8 + i, 8).fill(0, 7, 8 + i, 1, 1));
      testing::write_file(tmp / "maps" / ("m" + std::to_string(i) + ".map"), b.build());
    }
    // Not a datafile: the run writes it as an entry that is not a map.
    testing::write_file(tmp / "maps" / "notes.txt", std::vector<std::uint8_t>{'h', 'i', '\n'});
    const std::string db = tmp.file("index.sqlite");
    const bool stamps = testing::keeps_user_xattrs(tmp.path());
    if (!stamps) MESSAGE("the stamp not checked: " << tmp.path() << " keeps no user xattrs");
    for (const unsigned threads : {1u, 2u}) {
      CAPTURE(threads);
      IndexOptions options;
      options.db_path = db;
      options.inputs = {(tmp / "maps").string()};
      options.threads = threads;
      LiveCounters counters;
      int calls = 0;
      std::int64_t read_run = 0;
      std::string status, entries, filename;
      auto summary = run_index(options, counters, [&](sqlite3* index, std::int64_t run_id) {
        ++calls;
        read_run = run_id;
        status = value_for_run(index, "SELECT status FROM runs WHERE run_id = ?", run_id);
        entries = value_for_run(index, "SELECT count(*) FROM run_entries WHERE run_id = ?", run_id);
        filename = sqlite3_db_filename(index, "main");
      });
      REQUIRE_MESSAGE(summary.ok(), (summary.ok() ? "" : summary.error().message));
      CHECK(calls == 1);
      CHECK(read_run == summary->run_id);
      CHECK(status == "complete");  // the run's end, committed before it is read back
      CHECK(entries == std::to_string(kMaps + 1));
      // The index itself, not a copy or an in-memory database.
      CHECK(std::filesystem::equivalent(filename, db));
      // Reading on the writer's connection leaves the stamp to be written at
      // its close, as a run without read_back does.
      if (stamps) CHECK_FALSE(testing::index_stamp(db).empty());
    }
    CHECK(testing::sql_value(tmp / "index.sqlite", "SELECT count(*) FROM runs") == "2");
  }

  TEST_CASE("pipeline: a run whose index cannot be opened is not read back") {
    TempDir tmp;
    // Not a SQLite database: the run is refused at open.
    testing::write_file(tmp / "index.sqlite", std::vector<std::uint8_t>(4096, 'x'));
    testing::MapBuilder b;
    b.add_game_group();
    b.add_tile_layer(testing::TileGrid(LayerKind::game, 8, 8).fill(0, 7, 8, 1, 1));
    testing::write_file(tmp / "m.map", b.build());
    IndexOptions options;
    options.db_path = tmp.file("index.sqlite");
    options.inputs = {tmp.file("m.map")};
    options.threads = 1;
    LiveCounters counters;
    int calls = 0;
    auto summary = run_index(options, counters, [&](sqlite3*, std::int64_t) { ++calls; });
    CHECK_FALSE(summary.ok());
    CHECK(calls == 0);
  }
}  // TEST_SUITE

}  // namespace
}  // namespace mapindex
