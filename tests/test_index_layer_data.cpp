// The layer_data schema (schema/006_layer_data.sql): an index written by the
// previous schema migrates in place, its rows answering the same through the
// views with the old names; the writer stores each distinct layer data once.
#include <sqlite3.h>
#include <algorithm>

#include <doctest/doctest.h>

#include "index/index_db.h"
#include "index/migrations.h"
#include "tests/test_index_helpers.h"

using namespace mapindex;
using namespace mapindex::index;
using namespace mapindex::sqlite;
using namespace mapindex::index::testing;

namespace {

const std::vector<std::string> kTileCounts = {"7|0|game|1|50", "7|0|game|192|1", "7|1|tiles|1|30",
                                              "7|1|tiles|9|4", "8|0|tele|26|2",  "8|1|game|1|10",
                                              "8|1|game|9|3"};
const std::vector<std::string> kEntities = {"7|0|game|SPAWN|1"};
const std::vector<std::string> kNumbers = {"8|0|1", "8|0|2"};
// map_tiles: physics layers only, summed per map and kind, named.
const std::vector<std::string> kMapTiles = {"7|game|1|SOLID|50", "7|game|192|SPAWN|1",
                                            "8|game|1|SOLID|10", "8|game|9|FREEZE|3",
                                            "8|tele|26|TELEIN|2"};

std::vector<std::string> views_rows(sqlite3* h, const std::string& view) {
  if (view == "tile_counts")
    return query_rows(h,
                      "SELECT map_id, layer_index, layer_kind, tile, count FROM tile_counts "
                      "ORDER BY 1, 2, 4");
  if (view == "entities")
    return query_rows(h,
                      "SELECT map_id, layer_index, layer_kind, entity, count FROM entities "
                      "ORDER BY 1, 2, 4");
  if (view == "layer_numbers")
    return query_rows(h, "SELECT map_id, layer_index, number FROM layer_numbers ORDER BY 1, 2, 3");
  // The tile's name is map_tiles.name up to schema 9, tile_name from 10 on.
  const auto columns = column_names(h, "map_tiles");
  const bool tile_name = std::find(columns.begin(), columns.end(), "tile_name") != columns.end();
  return query_rows(h, std::string("SELECT map_id, layer_kind, tile, ") +
                           (tile_name ? "tile_name" : "name") +
                           ", count FROM map_tiles ORDER BY 1, 2, 3");
}

// A data key: `n` names its bytes.
LayerDataKey key_of(int n, LayerKind kind) {
  LayerDataKey k;
  k.sha256.fill(static_cast<std::uint8_t>(n));
  k.kind = kind;
  k.version = 3;
  k.width = 100;
  k.height = 50;
  k.data_size = 100 * 50 * 4;
  return k;
}

}  // namespace

TEST_SUITE("index") {
  TEST_CASE(
      "index: an index of the previous schema migrates to layer_data, its rows answering the same") {
    TempDir dir;
    const auto path = dir.file("v4.sqlite");
    const Migration& layer_data = migration_named("_layer_data.sql");
    const int layer_data_version = layer_data.version;
    OpenOptions previous;
    previous.migrations = migrations_before(layer_data);
    {
      auto db = open_index(path, previous);
      CHECK(db.schema_version() == layer_data_version - 1);
      // Rows as the previous schema's writer wrote them.
      const std::string map_columns =
          "(map_id, sha256, crc32, size, extractor_version, first_run_id, measured_run_id, "
          "format, format_version, status, errors, warnings, game_width, game_height, "
          "crude_header, reversed_magic, num_items, num_data, uuid_types, tiles_per_set, "
          "num_groups, num_layers, num_images, num_envelopes, num_envelope_points, num_sounds, "
          "num_settings, num_automappers, num_quads, num_sound_sources)";
      const std::string layer_columns =
          "(map_id, layer_index, group_index, kind, item_type, version, name, width, height, "
          "detail, color_r, color_g, color_b, color_a, skip_compressed, non_empty, flip_x, "
          "flip_y, rotate, num_quads, num_sources)";
      const std::string sql =
          "INSERT INTO runs (run_id, started_at, status, tool_version, extractor_version, command) "
          "VALUES (1, '2026-01-01T00:00:00Z', 'complete', 'old', " +
          std::to_string(kExtractorVersion) +
          ", 'index');"
          "INSERT INTO maps " +
          map_columns + " VALUES (7, '" + sha_of(1) + "', 1, 100, " +
          std::to_string(kExtractorVersion) +
          ", 1, 1, 'teeworlds', 4, 'ok', 0, 0, 10, 10, 0, 0, 1, 1, '', 0, 1, 3, 0, 0, 0, 0, 0, 0, "
          "0, 0), (8, '" +
          sha_of(2) + "', 2, 100, " + std::to_string(kExtractorVersion) +
          ", 1, 1, 'teeworlds', 4, 'ok', 0, 0, 10, 10, 0, 0, 1, 1, '', 0, 1, 2, 0, 0, 0, 0, 0, 0, "
          "0, 0);"
          "INSERT INTO layers " +
          layer_columns +
          " VALUES (7, 0, 0, 'game', 2, 3, 'Game', 10, 10, 0, 255, 255, 255, 255, 0, 51, 0, 0, 0, "
          "0, 0), (7, 1, 0, 'tiles', 2, 3, 'Deco', 10, 10, 0, 255, 255, 255, 255, 0, 34, 2, 0, 1, "
          "0, 0), (7, 2, 0, 'quads', 3, 2, 'Quads', 0, 0, 0, 255, 255, 255, 255, 0, 1, 0, 0, 0, "
          "1, 0), (8, 0, 0, 'tele', 2, 3, 'Tele', 10, 10, 0, 255, 255, 255, 255, 0, 2, 0, 0, 0, "
          "0, 0), (8, 1, 0, 'game', 2, 3, 'Game', 10, 10, 0, 255, 255, 255, 255, 0, 13, 0, 0, 0, "
          "0, 0);"
          "INSERT INTO tile_counts VALUES (7, 0, 'game', 1, 50), (7, 0, 'game', 192, 1), "
          "(7, 1, 'tiles', 1, 30), (7, 1, 'tiles', 9, 4), (8, 0, 'tele', 26, 2), "
          "(8, 1, 'game', 1, 10), (8, 1, 'game', 9, 3);"
          "INSERT INTO entities VALUES (7, 0, 'game', 'SPAWN', 1);"
          "INSERT INTO layer_numbers VALUES (8, 0, 1), (8, 0, 2);";
      exec_sql(db.handle(), sql);
      // What the previous schema answers (the fixture's rows, as written).
      CHECK(views_rows(db.handle(), "tile_counts") == kTileCounts);
      CHECK(views_rows(db.handle(), "entities") == kEntities);
      CHECK(views_rows(db.handle(), "layer_numbers") == kNumbers);
      CHECK(views_rows(db.handle(), "map_tiles") == kMapTiles);
    }

    auto db = open_index(path);
    sqlite3* h = db.handle();
    CHECK(db.schema_version() == latest_schema_version());
    CHECK(query_rows(h, "PRAGMA foreign_key_check").empty());
    CHECK(query_text(h, "PRAGMA integrity_check") == "ok");
    CHECK(query_int(h,
                    "SELECT count(*) FROM sqlite_schema WHERE name = 'tile_counts' AND "
                    "type = 'view'") == 1);
    // The same answers through the views.
    CHECK(views_rows(h, "tile_counts") == kTileCounts);
    CHECK(views_rows(h, "entities") == kEntities);
    CHECK(views_rows(h, "layer_numbers") == kNumbers);
    CHECK(views_rows(h, "map_tiles") == kMapTiles);
    // One layer_data row per old layer with rows (not the quads layer), with
    // no key, and the layer's counts.
    CHECK(query_int(h, "SELECT count(*) FROM layer_data") == 4);
    CHECK(query_int(h, "SELECT count(*) FROM layer_data WHERE sha256 IS NULL") == 4);
    CHECK(query_rows(h,
                     "SELECT l.map_id, l.layer_index, d.kind, d.non_empty, d.flip_x, d.rotate "
                     "FROM layers l JOIN layer_data d USING (layer_data_id) ORDER BY 1, 2") ==
          std::vector<std::string>{"7|0|game|51|0|0", "7|1|tiles|34|2|1", "8|0|tele|2|0|0",
                                   "8|1|game|13|0|0"});
    CHECK(query_text(h,
                     "SELECT ifnull(layer_data_id, 'NULL') FROM layers WHERE map_id = 7 AND "
                     "layer_index = 2") == "NULL");
    // One row per map content: ddnet_mapinfo's history (ddnet_mapinfo itself
    // lists the map entries of complete runs, which these hand-written rows lack).
    CHECK(query_int(h, "SELECT count(*) FROM ddnet_mapinfo_history") == 2);

    // The next run: two maps whose game layers have the same data (one key),
    // and whose tele layers differ. The shared layer is stored once.
    const auto run = db.begin_run("test", "0.0-test");
    const auto source = db.source_id(run, "/srv/maps", SourceKind::folder);
    MapStats a = race_map(0), b = race_map(0);
    b.author = "someone else";
    for (auto* s : {&a, &b})
      for (auto& l : s->layers) {
        if (l.kind == LayerKind::game) l.data_key = key_of(1, LayerKind::game);
        if (l.kind == LayerKind::tele) l.data_key = key_of(s == &a ? 2 : 3, LayerKind::tele);
      }
    db.write_entry(run, map_entry(source, "a.map", 10), &a);
    db.write_entry(run, map_entry(source, "b.map", 11), &b);
    db.finish_run(run, RunStatus::complete, {});
    CHECK(query_int(h, "SELECT count(*) FROM layer_data WHERE sha256 IS NOT NULL") == 3);
    // Both maps' game layers read their counts from the one row.
    const std::string game_rows =
        "SELECT t.tile || ':' || t.count FROM tile_counts t JOIN maps m USING (map_id) "
        "WHERE t.layer_kind = 'game' AND m.sha256 = ";
    std::vector<std::string> expected;
    for (const auto& l : a.layers)
      if (l.kind == LayerKind::game)
        for (const auto& t : l.tile_counts)
          expected.push_back(std::to_string(t.tile) + ":" + std::to_string(t.count));
    CHECK(query_rows(h, game_rows + "'" + sha_of(10) + "' ORDER BY t.tile") == expected);
    CHECK(query_rows(h, game_rows + "'" + sha_of(11) + "' ORDER BY t.tile") == expected);
    // The old rows are untouched.
    CHECK(query_rows(h,
                     "SELECT map_id, layer_index, layer_kind, tile, count FROM tile_counts "
                     "WHERE map_id IN (7, 8) ORDER BY 1, 2, 4") == kTileCounts);
  }
  TEST_CASE("index: every tile count of a layer is stored, however many tiles it has") {
    // The writer inserts a layer's counts several rows per statement: layers
    // of 0 to 200 distinct tiles, each tile's count derived from the tile,
    // layer and key (so a row bound to the wrong tile, layer or count shows).
    TempDir dir;
    auto db = open_index(dir.file("tiles.sqlite"));
    const auto run = db.begin_run("test", "0.0-test");
    const auto source = db.source_id(run, "/srv/maps", SourceKind::folder);
    MapStats map = race_map(0);
    const std::vector<int> sizes = {33, 200, 64, 0, 31, 32, 65, 1};  // per tile layer, in order
    std::vector<std::string> expected;
    int key = 20;
    std::size_t tile_layers = 0;
    for (auto& l : map.layers) {
      if (l.kind == LayerKind::quads || l.kind == LayerKind::sounds) continue;
      const int n = sizes[tile_layers++ % sizes.size()];
      l.tile_counts.clear();
      for (int i = 0; i < n; ++i) {
        const std::int32_t tile = (i * 37 + l.layer_index) % 256;  // distinct for n <= 256
        l.tile_counts.push_back({tile, std::int64_t{1000} * l.layer_index + tile + 1});
      }
      std::sort(l.tile_counts.begin(), l.tile_counts.end(),
                [](const auto& a, const auto& b) { return a.tile < b.tile; });
      for (const auto& t : l.tile_counts)
        expected.push_back(std::to_string(l.layer_index) + "|" + std::to_string(t.tile) + "|" +
                           std::to_string(1000 * l.layer_index + t.tile + 1));
      if (l.layer_index % 2 == 0) l.data_key = key_of(key++, l.kind);  // keyed and not
    }
    // Layers of 64 tiles and more, else the test says little of the batches.
    REQUIRE(tile_layers >= 3);
    db.write_entry(run, map_entry(source, "many.map", 30), &map);
    db.finish_run(run, RunStatus::complete, {});
    CHECK(query_rows(db.handle(),
                     "SELECT layer_index, tile, count FROM tile_counts ORDER BY 1, 2") == expected);
  }
}
