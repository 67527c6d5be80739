// map_layers_by_def away while a large run writes (src/index/layer_index.h):
// a run that drops it leaves exactly the rows and schema a run that keeps it
// leaves, a map written again meanwhile leaves no layer_defs row nothing
// lists, and a run killed while the index was away has it made again by the
// next run.
#include <sqlite3.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include "index/index_db.h"
#include "index/layer_index.h"
#include "tests/test_index_helpers.h"

using namespace mapindex;
using namespace mapindex::index;
using namespace mapindex::sqlite;
using namespace mapindex::index::testing;

namespace {

constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

// race_map(variant) with a data key for each tile layer that has counts
// (`n` and the layer's index name its bytes), and `name` for layer 1.
MapStats version_of(int variant, int n, const std::string& name) {
  MapStats s = race_map(variant);
  for (auto& l : s.layers)
    if (!l.tile_counts.empty()) {
      LayerDataKey k;
      k.sha256.fill(static_cast<std::uint8_t>(n * 16 + l.layer_index));
      k.kind = l.kind;
      k.version = 3;
      k.width = l.width;
      k.height = l.height;
      k.data_size = l.width * l.height * 4;
      l.data_key = k;
    }
  s.layers[1].name = name;
  return s;
}

bool has_layer_index(sqlite3* db) {
  return query_int(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'map_layers_by_def'") == 1;
}

std::int64_t unlisted_defs(sqlite3* db) {
  return query_int(db,
                   "SELECT count(*) FROM layer_defs d WHERE NOT EXISTS "
                   "(SELECT 1 FROM map_layers l WHERE l.layer_def_id = d.layer_def_id)");
}

// Every row of every table but runs (their times differ), and the schema
// (without root pages: a remade index has a page of its own).
std::map<std::string, std::vector<std::string>> contents(sqlite3* db) {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& t : table_names(db))
    if (t != "runs") out[t] = table_rows(db, t);
  out["(schema)"] = query_rows(
      db,
      "SELECT type || ' ' || name || ' ' || coalesce(sql, '') FROM sqlite_schema ORDER BY name");
  return out;
}

// Run 1 writes four maps in versions (a batch each) with `older`'s
// extractor; run 2, by this build's, writes the first two again with other
// layer names (their old layer_defs rows then unlisted) and two new ones.
// With `defer_after` 1 the index is away from run 1's first commit on.
void index_history(const std::string& path, std::uint64_t defer_after, bool finish_second = true) {
  OpenOptions older;
  older.extractor_version = kExtractorVersion - 1;
  older.defer_layer_index_after_rows = defer_after;
  {
    auto db = open_index(path, older);
    const auto run = db.begin_run("test", "0.0-test");
    const auto source = db.source_id(run, "/srv/maps", SourceKind::folder);
    for (int i = 0; i < 4; ++i) {
      const auto v = version_of(i % 2, i, "deco " + std::to_string(i));
      db.write_entry(run, map_entry(source, "m" + std::to_string(i) + ".map", i + 1), &v);
      db.commit_batch();
      if (defer_after == 1) CHECK_FALSE(has_layer_index(db.handle()));
    }
    db.finish_run(run, RunStatus::complete, {});
    CHECK(has_layer_index(db.handle()));
    // Made with its sort in a file; the journals are in memory again.
    CHECK(query_int(db.handle(), "PRAGMA temp_store") == 2);
  }
  OpenOptions now;
  now.defer_layer_index_after_rows = defer_after;
  auto db = open_index(path, now);
  const auto run = db.begin_run("test", "0.0-test");
  const auto source = db.source_id(run, "/srv/maps", SourceKind::folder);
  for (int i = 0; i < 4; ++i) {
    const auto v = version_of(i % 2, i < 2 ? i : i + 4, "again " + std::to_string(i));
    db.write_entry(run, map_entry(source, "m" + std::to_string(i) + ".map", i < 2 ? i + 1 : i + 11),
                   &v);
    db.commit_batch();
  }
  if (finish_second) {
    db.finish_run(run, RunStatus::complete, {});
    return;
  }
  // Killed: the run stays 'running' under a process that is gone.
  exec_sql(db.handle(), "UPDATE runs SET pid = 2147483647 WHERE status = 'running'");
}

}  // namespace

TEST_SUITE("index") {
  TEST_CASE("index layers by def: dropped once a run wrote the least and a quarter of the table") {
    // The least (100 rows here) on an empty table; a quarter of a table
    // of 1000 rows (250) on a larger one. The table is counted once, when
    // the run has written the least.
    for (const auto& [rows_at_start, due_at] :
         {std::pair<std::uint64_t, std::uint64_t>{0, 100}, {1000, 250}}) {
      CAPTURE(rows_at_start);
      LayerIndexDeferral deferral(100);
      deferral.run_began();
      std::uint64_t written = 0, counts = 0;
      const auto write = [&](std::uint64_t rows) {
        deferral.wrote(rows);
        written += rows;
        if (deferral.needs_rows()) {
          deferral.counted(rows_at_start + written);  // the table holds this run's rows too
          ++counts;
        }
      };
      write(99);
      CHECK(counts == 0);  // below the least: not counted
      write(due_at - 100);
      CHECK_FALSE(deferral.due());
      write(1);
      CHECK(deferral.due());
      CHECK(counts == 1);
      deferral.run_began();  // a new run counts from nothing
      CHECK_FALSE(deferral.due());
      CHECK_FALSE(deferral.needs_rows());
    }
  }

  TEST_CASE("index layers by def: content written again as stored counts no rows, keeps it") {
    // As `--reindex` does: maps measured again by the same extractor keep
    // their rows, so the run writes no map_layers rows and keeps the index,
    // however many layers those maps have. A new map's rows do count.
    TempDir dir;
    const auto path = dir.file("again.sqlite");
    OpenOptions options;
    const auto v = version_of(0, 1, "deco");
    const auto other = version_of(1, 2, "other");
    options.defer_layer_index_after_rows = std::min(v.layers.size(), other.layers.size());
    {
      OpenOptions never = options;
      never.defer_layer_index_after_rows = kNever;
      auto db = open_index(path, never);
      const auto run = db.begin_run("test", "0.0-test");
      const auto source = db.source_id(run, "/srv/maps", SourceKind::folder);
      db.write_entry(run, map_entry(source, "m.map", 1), &v);
      db.finish_run(run, RunStatus::complete, {});
    }
    auto db = open_index(path, options);
    const auto run = db.begin_run("test", "0.0-test");
    const auto source = db.source_id(run, "/srv/maps", SourceKind::folder);
    for (int i = 0; i < 3; ++i) {
      db.write_entry(run, map_entry(source, "copy" + std::to_string(i) + ".map", 1), &v);
      db.commit_batch();
      CHECK(has_layer_index(db.handle()));
    }
    db.write_entry(run, map_entry(source, "new.map", 2), &other);
    db.commit_batch();
    // Its rows reach the least and a quarter of what the table held.
    CHECK_FALSE(has_layer_index(db.handle()));
    db.finish_run(run, RunStatus::complete, {});
    CHECK(has_layer_index(db.handle()));
  }

  TEST_CASE("index layers by def: the statement that makes it again is the schema's") {
    TempDir dir;
    auto db = open_index(dir.file("fresh.sqlite"));
    CHECK(query_text(db.handle(), "SELECT sql FROM sqlite_schema WHERE name = '" +
                                      std::string(kLayerIndexName) + "'") ==
          std::string(kLayerIndexSql));
  }

  TEST_CASE("index layers by def: a run that drops it leaves what a run that keeps it leaves") {
    TempDir dir;
    const auto kept = dir.file("kept.sqlite"), dropped = dir.file("dropped.sqlite");
    index_history(kept, kNever);
    index_history(dropped, 1);
    auto a = open_index(kept);
    auto b = open_index(dropped);
    CHECK(has_layer_index(b.handle()));
    // The rewritten maps' old layers are gone in both (the fixture has some).
    CHECK(query_int(a.handle(), "SELECT count(*) FROM layer_defs WHERE name LIKE 'deco %'") == 2);
    CHECK(unlisted_defs(a.handle()) == 0);
    CHECK(unlisted_defs(b.handle()) == 0);
    const auto ca = contents(a.handle()), cb = contents(b.handle());
    CHECK(ca.size() == cb.size());
    for (const auto& [name, rows] : ca) CHECK_MESSAGE(cb.at(name) == rows, name);
    CHECK(query_rows(b.handle(), "PRAGMA integrity_check") == std::vector<std::string>{"ok"});
  }

  TEST_CASE("index layers by def: a run killed while it was away has the next run make it again") {
    TempDir dir;
    const auto kept = dir.file("kept.sqlite"), killed = dir.file("killed.sqlite");
    index_history(kept, kNever);
    index_history(killed, 1, false);
    {
      auto db = open_index(killed);
      CHECK_FALSE(has_layer_index(db.handle()));
      CHECK(unlisted_defs(db.handle()) > 0);  // the rewritten maps' old layers
      // Queries answer meanwhile, from the table.
      CHECK(query_int(db.handle(), "SELECT count(*) FROM layers WHERE kind = 'game'") > 0);
      const auto run = db.begin_run("test", "0.0-test");
      CHECK(has_layer_index(db.handle()));
      CHECK(unlisted_defs(db.handle()) == 0);
      db.finish_run(run, RunStatus::complete, {});
    }
    auto a = open_index(kept);
    auto b = open_index(killed);
    for (const std::string table : {"layer_defs", "map_layers", "layer_data", "layer_data_tiles"})
      CHECK_MESSAGE(table_rows(a.handle(), table) == table_rows(b.handle(), table), table);
  }
}
