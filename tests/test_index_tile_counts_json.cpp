// Tile counts of visual layers as one JSON value (schema/010_tile_counts_json.sql):
// an index of the previous schema migrates in place and answers the same
// through layer_data_tiles, tile_counts and map_tiles; the writer stores a
// visual layer's counts as JSON and a physics layer's as rows; stored counts
// read back for reuse in tile order.
#include <sqlite3.h>

#include <doctest/doctest.h>

#include <algorithm>

#include "stages/common/hex.h"
#include "stages/write/index_db.h"
#include "stages/write/map_rows.h"
#include "stages/write/migrations.h"
#include "tests/test_index_helpers.h"

using namespace mapindex;
using namespace mapindex::index;
using namespace mapindex::index::testing;

namespace {

// The key's sha256 as layer_data stores it.
std::string hex_of(int n) { return to_hex(data_key_of(n, LayerKind::tiles).sha256); }

std::vector<std::string> counts_text(const std::vector<TileCount>& counts) {
  std::vector<std::string> out;
  for (const auto& t : counts)
    out.push_back(std::to_string(t.tile) + ":" + std::to_string(t.count));
  return out;
}

int layer_of(const MapStats& s, LayerKind kind) {
  for (const auto& l : s.layers)
    if (l.kind == kind) return l.layer_index;
  FAIL("no such layer");
  return -1;
}

}  // namespace

TEST_SUITE("index") {
  TEST_CASE(
      "an index of the previous schema moves visual tile counts into JSON, answering the same") {
    TempDir dir;
    const auto path = dir.file("v9.sqlite");
    const Migration& migration = migration_named("_tile_counts_json.sql");
    OpenOptions previous;
    previous.migrations = migrations_before(migration);
    const MapStats map = race_map_without_layer_data();
    const int tiles_layer = layer_of(map, LayerKind::tiles);
    const int game_layer = layer_of(map, LayerKind::game);
    const int tele_layer = layer_of(map, LayerKind::tele);
    // The rows as the previous schema held them: a keyed visual layer whose
    // tiles sort differently as text (2, 10, 255) with a count past 32 bits,
    // a keyed game layer, an unkeyed tele layer, and a SpriteTile row.
    const std::vector<std::string> data_tiles = {
        "1|tiles|2|7",  "1|tiles|10|3", "1|tiles|255|4000000000", "2|game|1|500",
        "2|game|9|600", "3|tele|26|2",  "4|spritetile|300|5"};
    const std::vector<std::string> tile_counts = {
        "1|" + std::to_string(game_layer) + "|game|1|500",
        "1|" + std::to_string(game_layer) + "|game|9|600",
        "1|" + std::to_string(tele_layer) + "|tele|26|2",
        "1|" + std::to_string(tiles_layer) + "|tiles|2|7",
        "1|" + std::to_string(tiles_layer) + "|tiles|10|3",
        "1|" + std::to_string(tiles_layer) + "|tiles|255|4000000000"};
    const std::vector<std::string> map_tiles = {"1|game|1|SOLID|500", "1|game|9|FREEZE|600",
                                                "1|tele|26|TELEIN|2"};
    const auto data_tiles_rows = [](sqlite3* h) {
      return query_rows(h, "SELECT * FROM layer_data_tiles ORDER BY layer_data_id, tile");
    };
    const auto tile_count_rows = [](sqlite3* h) {
      return query_rows(h, "SELECT * FROM tile_counts ORDER BY map_id, layer_kind, tile");
    };
    const auto map_tile_rows = [](sqlite3* h) {
      return query_rows(h, "SELECT * FROM map_tiles ORDER BY map_id, layer_kind, tile");
    };
    {
      auto db = open_index(path, previous);
      REQUIRE(db.schema_version() == migration.version - 1);
      const auto run = db.begin_run("test", "0.0-test");
      const auto source = db.source_id(run, "/srv/maps", SourceKind::folder);
      db.write_entry(run, map_entry(source, "a.map", 1), &map);
      db.finish_run(run, RunStatus::complete, {});
      const std::string extractor = std::to_string(kExtractorVersion);
      exec_sql(db.handle(),
               "INSERT INTO layer_data (layer_data_id, sha256, kind, width, height, version, "
               "data_size, extractor_version, non_empty, flip_x, flip_y, rotate) VALUES "
               "(1, '" +
                   hex_of(1) + "', 'tiles', 100, 50, 3, 20000, " + extractor +
                   ", 4000000010, 0, 0, 0), "
                   "(2, '" +
                   hex_of(2) + "', 'game', 100, 50, 3, 20000, " + extractor +
                   ", 1100, 0, 0, 0), "
                   "(3, NULL, 'tele', 100, 50, 3, NULL, NULL, 2, 0, 0, 0), "
                   "(4, NULL, 'spritetile', 8, 8, 0, NULL, NULL, 5, 0, 0, 0);"
                   "INSERT INTO layer_data_tiles VALUES (1, 'tiles', 2, 7), (1, 'tiles', 10, 3), "
                   "(1, 'tiles', 255, 4000000000), (2, 'game', 1, 500), (2, 'game', 9, 600), "
                   "(3, 'tele', 26, 2), (4, 'spritetile', 300, 5);"
                   "UPDATE layers SET layer_data_id = CASE layer_index WHEN " +
                   std::to_string(tiles_layer) + " THEN 1 WHEN " + std::to_string(game_layer) +
                   " THEN 2 WHEN " + std::to_string(tele_layer) + " THEN 3 END;");
      REQUIRE(data_tiles_rows(db.handle()) == data_tiles);
      REQUIRE(tile_count_rows(db.handle()) == tile_counts);
      REQUIRE(map_tile_rows(db.handle()) == map_tiles);
    }

    auto db = open_index(path);
    sqlite3* h = db.handle();
    CHECK(db.schema_version() == latest_schema_version());
    CHECK(query_rows(h, "PRAGMA foreign_key_check").empty());
    CHECK(query_text(h, "PRAGMA integrity_check") == "ok");
    // The same answers.
    CHECK(data_tiles_rows(h) == data_tiles);
    CHECK(tile_count_rows(h) == tile_counts);
    CHECK(map_tile_rows(h) == map_tiles);
    // Stored where the schema says: physics rows in their table, the others
    // as JSON objects in tile order.
    CHECK(query_rows(h, "SELECT * FROM layer_data_physics_tiles ORDER BY 1, 3") ==
          std::vector<std::string>{"2|game|1|500", "2|game|9|600", "3|tele|26|2"});
    CHECK(query_rows(h,
                     "SELECT layer_data_id, ifnull(tile_counts_json, 'NULL') FROM layer_data "
                     "ORDER BY 1") ==
          std::vector<std::string>{"1|{\"2\":7,\"10\":3,\"255\":4000000000}", "2|NULL", "3|NULL",
                                   "4|{\"300\":5}"});
    CHECK(query_int(h,
                    "SELECT count(*) FROM sqlite_schema WHERE name = 'layer_data_tiles' AND "
                    "type = 'view'") == 1);
    // A later run reuses the migrated result, its counts in tile order.
    StatementCache statements(h);
    const auto tiles =
        find_layer_data(statements, kExtractorVersion, data_key_of(1, LayerKind::tiles));
    REQUIRE(tiles);
    CHECK(counts_text(tiles->tile_counts) ==
          std::vector<std::string>{"2:7", "10:3", "255:4000000000"});
    CHECK(tiles->non_empty == 4000000010);
    const auto game =
        find_layer_data(statements, kExtractorVersion, data_key_of(2, LayerKind::game));
    REQUIRE(game);
    CHECK(counts_text(game->tile_counts) == std::vector<std::string>{"1:500", "9:600"});
  }

  TEST_CASE("a visual layer's tile counts are one JSON value, a physics layer's are rows") {
    TempDir dir;
    auto db = open_index(dir.file("json.sqlite"));
    sqlite3* h = db.handle();
    MapStats map = race_map();
    const int tiles_layer = layer_of(map, LayerKind::tiles);
    std::vector<TileCount> visual = {{2, 7}, {10, 3}, {255, std::int64_t{1} << 40}};
    std::vector<std::string> expected_counts;
    std::string expected_json;
    for (auto& l : map.layers) {
      if (l.kind == LayerKind::tiles) {
        l.tile_counts = visual;
        l.data_key = data_key_of(1, LayerKind::tiles);
      }
      if (l.kind == LayerKind::game) l.data_key = data_key_of(2, LayerKind::game);
      for (const auto& t : l.tile_counts)
        expected_counts.push_back(std::to_string(l.layer_index) + "|" +
                                  std::string(to_string(l.kind)) + "|" + std::to_string(t.tile) +
                                  "|" + std::to_string(t.count));
    }
    for (const auto& t : visual)
      expected_json += (expected_json.empty() ? "{\"" : ",\"") + std::to_string(t.tile) +
                       "\":" + std::to_string(t.count);
    expected_json += "}";
    std::sort(expected_counts.begin(), expected_counts.end());
    // A second map whose visual layer has no tiles at all.
    MapStats empty = race_map(1);
    for (auto& l : empty.layers)
      if (l.kind == LayerKind::tiles) l.tile_counts.clear();

    const auto run = db.begin_run("test", "0.0-test");
    const auto source = db.source_id(run, "/srv/maps", SourceKind::folder);
    db.write_entry(run, map_entry(source, "a.map", 1), &map);
    db.write_entry(run, map_entry(source, "b.map", 2), &empty);
    db.finish_run(run, RunStatus::complete, {});

    CHECK(query_text(h,
                     "SELECT d.tile_counts_json FROM layers l JOIN layer_data d "
                     "USING (layer_data_id) WHERE l.map_id = 1 AND l.layer_index = " +
                         std::to_string(tiles_layer)) == expected_json);
    // Physics layers have rows and no JSON; the map without visual tiles has
    // no value.
    CHECK(query_int(h, "SELECT count(*) FROM layer_data WHERE tile_counts_json IS NOT NULL") == 1);
    CHECK(query_int(
              h, "SELECT count(*) FROM layer_data_physics_tiles WHERE layer_kind = 'tiles'") == 0);
    CHECK(query_int(h, "SELECT count(DISTINCT layer_kind) FROM layer_data_physics_tiles") == 3);
    // Every count of the map through the view, as the statistics had them.
    CHECK(query_rows(h,
                     "SELECT layer_index || '|' || layer_kind || '|' || tile || '|' || count "
                     "FROM tile_counts WHERE map_id = 1 ORDER BY 1") == expected_counts);
    // And back, for reuse, in tile order.
    StatementCache statements(h);
    const auto stored =
        find_layer_data(statements, kExtractorVersion, data_key_of(1, LayerKind::tiles));
    REQUIRE(stored);
    CHECK(counts_text(stored->tile_counts) == counts_text(visual));
  }

  TEST_CASE("layer_data.tile_counts_json holds a JSON object or nothing") {
    TempDir dir;
    auto db = open_index(dir.file("check.sqlite"));
    sqlite3* h = db.handle();
    exec_sql(h,
             "INSERT INTO layer_data (layer_data_id, kind, width, height, version, non_empty, "
             "flip_x, flip_y, rotate, tile_counts_json) VALUES (1, 'tiles', 1, 1, 3, 1, 0, 0, 0, "
             "'{\"1\":1}')");
    CHECK_THROWS_AS(exec_sql(h, "UPDATE layer_data SET tile_counts_json = '[1, 1]'"), IndexError);
    CHECK_THROWS_AS(exec_sql(h, "UPDATE layer_data SET tile_counts_json = '{\"1\":'"), IndexError);
    CHECK_NOTHROW(exec_sql(h, "UPDATE layer_data SET tile_counts_json = NULL"));
    CHECK(query_int(h, "SELECT count(*) FROM layer_data_tiles") == 0);
  }

  TEST_CASE("queries that name physics kinds answer from the tile index") {
    TempDir dir;
    auto db = open_index(dir.file("plan.sqlite"));
    const auto plan = [&](const std::string& sql) {
      std::string all;
      for (const auto& row : query_rows(db.handle(), "EXPLAIN QUERY PLAN " + sql))
        all += row + "\n";
      return all;
    };
    for (const std::string kinds :
         {"layer_kind = 'game'", "layer_kind IN ('game', 'front')", "layer_kind = ?1"}) {
      const auto p = plan("SELECT map_id FROM tile_counts WHERE " + kinds + " AND tile = 9");
      CHECK_MESSAGE(p.find("INDEX tile_counts_by_tile") != std::string::npos, p);
      // The JSON part reads only layer data of the kinds asked for.
      CHECK_MESSAGE(p.find("INDEX layer_data_json_by_kind") != std::string::npos, p);
    }
  }
}
