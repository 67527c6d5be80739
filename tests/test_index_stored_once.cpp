// What a map's versions share is stored once (schema/011_stored_once.sql):
// layers (layer_defs, map_layers), bodies (settings, groups, images,
// envelopes, sounds and their users), DDNet feature sets and thumbnails. An
// index of the previous schema migrates with every old table and view
// answering the same; the writer shares a part whenever it would have
// written the same rows, and a map measured again leaves no part that
// nothing refers to.
#include <sqlite3.h>

#include <doctest/doctest.h>

#include <map>

#include "index/index_db.h"
#include "index/migrations.h"
#include "index/part_key.h"
#include "render/png.h"
#include "tests/test_index_helpers.h"

using namespace mapindex;
using namespace mapindex::index;
using namespace mapindex::sqlite;
using namespace mapindex::index::testing;

namespace {

// The tables that became views, and the views of the schema that read them:
// everything a query saw of a map's parts before.
const std::vector<std::string> kOldNames = {"layers",
                                            "settings",
                                            "groups",
                                            "images",
                                            "image_users",
                                            "envelopes",
                                            "envelope_users",
                                            "sounds",
                                            "sound_users",
                                            "ddnet_features",
                                            "thumbnails",
                                            "tile_counts",
                                            "entities",
                                            "layer_numbers",
                                            "map_tiles",
                                            "ddnet_mapinfo",
                                            "unused_images",
                                            "map_thumbnails",
                                            "ddnet_mapinfo_history"};

// Every row of each of `names` (its columns as `db` has them), sorted.
std::map<std::string, std::vector<std::string>> rows_of(sqlite3* db,
                                                        const std::vector<std::string>& names) {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& name : names) out[name] = table_rows(db, name);
  return out;
}

// A PNG of a w x h image whose pixels are all `tile_class`.
std::vector<std::uint8_t> png_of(std::int32_t w, std::int32_t h, std::uint8_t tile_class) {
  render::ClassImage image;
  image.width = w;
  image.height = h;
  image.pixels.assign(static_cast<std::size_t>(w * h), tile_class);
  auto png = render::encode_png(image);
  REQUIRE(png);
  return *png;
}

std::string hex_blob(const std::vector<std::uint8_t>& bytes) {
  return "x'" + to_hex(std::span<const std::uint8_t>(bytes)) + "'";
}

// A data key: `n` names its bytes.
LayerDataKey key_of(int n, LayerKind kind, std::int64_t width) {
  LayerDataKey k;
  k.sha256.fill(static_cast<std::uint8_t>(n));
  k.kind = kind;
  k.version = 3;
  k.width = width;
  k.height = 50;
  k.data_size = width * 50 * 4;
  return k;
}

// race_map() with a key for each tile layer's data (its layer index and
// kind) and a thumbnail drawn from its game layer.
MapStats keyed_map(int variant = 0) {
  MapStats s = race_map(variant);
  for (auto& l : s.layers)
    if (!l.tile_counts.empty()) l.data_key = key_of(10 + l.layer_index, l.kind, l.width);
  s.thumbnail_png = png_of(4, 2, 1);
  Sha256 thumbnail_key{};
  thumbnail_key.fill(0x7e);
  s.thumbnail_key = thumbnail_key;
  return s;
}

std::int64_t count(sqlite3* db, const std::string& table) {
  return query_int(db, "SELECT count(*) FROM " + table);
}

}  // namespace

TEST_SUITE("index") {
  TEST_CASE(
      "index stored once: an index of schema 10 migrates, every old table and view the same") {
    TempDir dir;
    const auto path = dir.file("v9.sqlite");
    const Migration& stored_once = migration_named("_stored_once.sql");
    OpenOptions previous;
    previous.migrations = migrations_before(stored_once);
    const auto png_a = png_of(4, 2, 1), png_b = png_of(2, 2, 3);
    const std::string key_k = "x'" + std::string(64, 'a') + "'";
    std::map<std::string, std::vector<std::string>> before;
    std::map<std::string, std::vector<std::string>> columns_before;
    {
      auto db = open_index(path, previous);
      REQUIRE(db.schema_version() == stored_once.version - 1);
      // Rows as the previous schema's writer wrote them: maps 7 and 8 with
      // the same layers, body, features and thumbnail (their own rows
      // each); map 9 a SpriteTile level with its own layer data, a setting
      // and a layer name that are not UTF-8, no feature, a thumbnail without
      // a key; map 10 with nothing but a quads layer.
      const std::string ev = std::to_string(kExtractorVersion);
      const auto map_row = [&](int id, int sha, const std::string& format, int layers) {
        return "(" + std::to_string(id) + ", '" + sha_of(sha) + "', 1, 100, " + ev + ", 1, 1, '" +
               format + "', 4, 'ok', 0, 0, 10, 10, 0, 0, 1, 1, '', 0, 1, " +
               std::to_string(layers) + ", 0, 0, 0, 0, 0, 0, 0, 0)";
      };
      const std::string layer_columns =
          "(map_id, layer_index, group_index, kind, item_type, version, name, width, height, "
          "detail, image, color_envelope, color_r, color_g, color_b, color_a, skip_compressed, "
          "non_empty, flip_x, flip_y, rotate, num_quads, num_sources, sound, st_tile_size_x, "
          "st_tile_size_y, st_z, st_scroll_x, st_scroll_y, st_preview_size, st_layer_lock, "
          "st_add_border, st_colliders, st_flip_both, st_order_min, st_order_max, name_raw, "
          "layer_data_id)";
      const auto layer_row = [](int map, int index, const std::string& rest) {
        return "(" + std::to_string(map) + ", " + std::to_string(index) + ", " + rest + ")";
      };
      const std::string game =
          "0, 'game', 2, 3, 'Game', 10, 10, 0, NULL, NULL, 255, 255, 255, 255, 0, 51, 0, 0, 0, 0, "
          "0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
          "NULL, 1";
      const std::string deco =
          "0, 'tiles', 2, 3, 'Deco', 10, 10, 1, 0, 0, 200, 100, 50, 255, 0, 34, 2, 0, 1, 0, 0, "
          "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 2";
      const std::string quads =
          "0, 'quads', 3, 2, 'Quads', 0, 0, 0, NULL, 0, 255, 255, 255, 255, 0, 1, 0, 0, 0, 1, 0, "
          "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
          "NULL";
      const std::string sprite =
          "NULL, 'spritetile', 0, 0, CAST(x'4CE979' AS TEXT), 20, 10, 0, NULL, NULL, 255, 255, "
          "255, 255, 0, 42, 3, 0, 0, 0, 0, NULL, 1.0, 0.5, 2.0, 1, 0, 16, 0, 1, 12, 3, 0, 3, "
          "x'4CE979', 3";
      const std::string sql =
          "INSERT INTO runs (run_id, started_at, status, tool_version, extractor_version, command) "
          "VALUES (1, '2026-01-01T00:00:00Z', 'complete', 'old', " +
          ev +
          ", 'index');"
          "INSERT INTO maps (map_id, sha256, crc32, size, extractor_version, first_run_id, "
          "measured_run_id, format, format_version, status, errors, warnings, game_width, "
          "game_height, crude_header, reversed_magic, num_items, num_data, uuid_types, "
          "tiles_per_set, num_groups, num_layers, num_images, num_envelopes, "
          "num_envelope_points, num_sounds, num_settings, num_automappers, num_quads, "
          "num_sound_sources) VALUES " +
          map_row(7, 1, "teeworlds", 2) + ", " + map_row(8, 2, "teeworlds", 3) + ", " +
          map_row(9, 3, "spritetile", 1) + ", " + map_row(10, 4, "teeworlds", 1) +
          ";"
          "INSERT INTO layer_data (layer_data_id, sha256, kind, width, height, version, data_size, "
          "extractor_version, non_empty, flip_x, flip_y, rotate) VALUES "
          "(1, '" +
          sha_of(11) + "', 'game', 10, 10, 3, 400, " + ev +
          ", 51, 0, 0, 0), "
          "(2, '" +
          sha_of(12) + "', 'tiles', 10, 10, 3, 400, " + ev +
          ", 34, 2, 0, 1), "
          "(3, NULL, 'spritetile', 20, 10, 0, NULL, NULL, 42, 3, 0, 0);"
          "INSERT INTO layer_data_tiles VALUES (1, 'game', 1, 50), (1, 'game', 9, 1), "
          "(2, 'tiles', 1, 34), (3, 'spritetile', 5, 40), (3, 'spritetile', 7, 2);"
          "INSERT INTO layer_data_entities VALUES (1, 'game', 'SPAWN', 1);"
          "INSERT INTO layer_data_numbers VALUES (3, 4), (3, 9);"
          "INSERT INTO layers " +
          layer_columns + " VALUES " + layer_row(7, 0, game) + ", " + layer_row(7, 1, deco) + ", " +
          layer_row(8, 0, game) + ", " + layer_row(8, 1, deco) + ", " + layer_row(8, 2, quads) +
          ", " + layer_row(9, 0, sprite) + ", " + layer_row(10, 0, quads) +
          ";"
          "INSERT INTO settings VALUES (7, 0, 'sv_hit 0', NULL), (7, 1, 'tune gravity 0.5', NULL), "
          "(8, 0, 'sv_hit 0', NULL), (8, 1, 'tune gravity 0.5', NULL), "
          "(9, 0, CAST(x'7376FF' AS TEXT), x'7376FF');"
          "INSERT INTO groups VALUES (7, 0, 3, 'Game', 0, 0, 100, 100, 0, 2, 0, 0, 0, 0, 0, 1, "
          "NULL), (8, 0, 3, 'Game', 0, 0, 100, 100, 0, 3, 0, 0, 0, 0, 0, 1, NULL);"
          "INSERT INTO images VALUES (7, 0, 1, 'grass_main', 1024, 1024, 1, 1, 1, NULL, NULL, "
          "NULL), (7, 1, 1, 'leftover', 64, 32, 0, 1, 0, 900, 8192, NULL), "
          "(8, 0, 1, 'grass_main', 1024, 1024, 1, 1, 1, NULL, NULL, NULL);"
          "INSERT INTO image_users VALUES (7, 0, 1, 0), (8, 0, 1, 0);"
          "INSERT INTO envelopes VALUES (8, 0, 2, 4, 'color', 'pulse', 0, 0, 3, 0, 2, 0, 0, 0, 1, "
          "0, NULL);"
          "INSERT INTO envelope_users VALUES (8, 0, 2, 'quad_color', 3);"
          "INSERT INTO sounds VALUES (8, 0, 'bird', 0, 5000, 5000, NULL);"
          "INSERT INTO sound_users VALUES (8, 0, 2, 2);"
          "INSERT INTO ddnet_features VALUES (7, 'DEATH'), (7, 'TELEIN'), (8, 'DEATH'), "
          "(8, 'TELEIN'), (10, 'DEATH');"
          "INSERT INTO thumbnails (map_id, width, height, png, layers_key) VALUES "
          "(7, 4, 2, " +
          hex_blob(png_a) + ", " + key_k +
          "), "
          "(8, 4, 2, " +
          hex_blob(png_a) + ", " + key_k +
          "), "
          "(9, 2, 2, " +
          hex_blob(png_b) + ", NULL), (10, 2, 2, " + hex_blob(png_b) + ", " + key_k + ");";
      exec_sql(db.handle(), sql);
      REQUIRE(query_rows(db.handle(), "PRAGMA foreign_key_check").empty());
      before = rows_of(db.handle(), kOldNames);
      for (const auto& name : kOldNames) columns_before[name] = column_names(db.handle(), name);
    }
    // The fixture holds rows in every table that moves.
    for (const auto& name : kOldNames)
      if (name != "unused_images" && name != "ddnet_mapinfo")  // no entries: no current map
        CHECK_MESSAGE(!before.at(name).empty(), name);
    CHECK(before.at("unused_images").size() == 1);  // map 7's "leftover"

    auto db = open_index(path);
    sqlite3* h = db.handle();
    CHECK(db.schema_version() == latest_schema_version());
    CHECK(query_rows(h, "PRAGMA foreign_key_check").empty());
    CHECK(query_text(h, "PRAGMA integrity_check") == "ok");
    for (const auto& name :
         {"layers", "settings", "groups", "images", "image_users", "envelopes", "envelope_users",
          "sounds", "sound_users", "ddnet_features", "thumbnails"})
      CHECK_MESSAGE(query_int(h,
                              "SELECT count(*) FROM sqlite_schema WHERE type = 'view' AND "
                              "name = '" +
                                  std::string(name) + "'") == 1,
                    name);
    const auto after = rows_of(h, kOldNames);
    for (const auto& name : kOldNames) {
      CAPTURE(name);
      CHECK(column_names(h, name) == columns_before.at(name));
      CHECK(after.at(name) == before.at(name));
    }
    // Shared among the old maps: maps 7 and 8's game and deco layers, and the
    // quads layer of 8 and 10 (4 distinct of 7); 7 and 8's features; one
    // thumbnail for the same key and PNG (7, 8), one each for the same key
    // with another PNG (10) and for no key (9). Bodies stay each map's own.
    CHECK(count(h, "layer_defs") == 4);
    CHECK(count(h, "map_layers") == 7);
    CHECK(count(h, "layer_defs WHERE key IS NULL") == 4);
    CHECK(count(h, "feature_sets") == 2);
    CHECK(count(h, "feature_set_members") == 3);
    CHECK(count(h, "thumbnail_images") == 3);
    CHECK(count(h, "map_bodies") == 4);
    CHECK(count(h, "map_parts") == 4);
    CHECK(count(h, "map_parts WHERE feature_set_id IS NULL") == 1);  // map 9

    // Map 7 measured again (an older extractor wrote it): its own body goes,
    // what map 8 shares stays, and the views answer for both.
    const auto run = db.begin_run("test", "0.0-test");
    const auto source = db.source_id(run, "/srv/maps", SourceKind::folder);
    const MapStats fresh = keyed_map(1);
    exec_sql(h, "UPDATE maps SET extractor_version = 1 WHERE map_id = 7");
    db.write_entry(run, map_entry(source, "seven.map", 1), &fresh);
    db.finish_run(run, RunStatus::complete, {});
    CHECK(query_rows(h, "PRAGMA foreign_key_check").empty());
    CHECK(count(h, "map_bodies WHERE body_id = 7") == 0);
    CHECK(count(h, "body_images WHERE body_id = 7") == 0);
    CHECK(count(h, "layers WHERE map_id = 7") == static_cast<std::int64_t>(fresh.layers.size()));
    const auto kept = rows_of(h, kOldNames);
    for (const auto& name : kOldNames) {
      CAPTURE(name);
      std::vector<std::string> others_before, others_after;
      for (const auto& r : before.at(name))
        if (!r.starts_with("7|")) others_before.push_back(r);
      for (const auto& r : kept.at(name))
        if (!r.starts_with("7|")) others_after.push_back(r);
      if (name != "ddnet_mapinfo" && name != "ddnet_mapinfo_history")  // rows by name
        CHECK(others_after == others_before);
    }
  }

  TEST_CASE("index stored once: an index of schema 10 the writer filled answers as a new one") {
    // An index of this build's writer: maps in versions that share layers,
    // bodies, features and thumbnails, a SpriteTile level, a broken map, a
    // content seen again in a later run and a map measured again; its rows
    // then copied into an index of schema 10 through the tables and views of
    // that schema, which is migrated.
    TempDir dir;
    const auto current = dir.file("current.sqlite"), ten = dir.file("ten.sqlite");
    {
      auto db = open_index(current);
      const auto run1 = db.begin_run("night 1", "0.0-test");
      const auto maps = db.source_id(run1, "/srv/maps", SourceKind::folder);
      const MapStats a = keyed_map(), sprite = spritetile_level(), broken = broken_map();
      MapStats b = a, c = a;
      b.layers[1].name = "Deco v2";
      b.envelopes[0].name = "pulse 2";
      c.ddnet_features = {"BOOST"};
      c.thumbnail_png = png_of(2, 2, 3);
      db.write_entry(run1, map_entry(maps, "a.map", 1), &a);
      db.write_entry(run1, map_entry(maps, "b.map", 2), &b);
      db.write_entry(run1, map_entry(maps, "c.map", 3), &c);
      db.write_entry(run1, map_entry(maps, "level.map", 4), &sprite);
      db.write_entry(run1, map_entry(maps, "broken.map", 5), &broken);
      db.finish_run(run1, RunStatus::complete, {});
      const auto run2 = db.begin_run("night 2", "0.0-test");
      const auto again = db.source_id(run2, "/srv/maps", SourceKind::folder);
      db.write_entry(run2, map_entry(again, "a.map", 1), nullptr);
      db.write_entry(run2, map_entry(again, "b.map", 6), &a);
      db.finish_run(run2, RunStatus::complete, {});
    }
    OpenOptions schema10;
    schema10.migrations = migrations_before(migration_named("_stored_once.sql"));
    copy_into_older_index(ten, schema10, current);
    // What a query of schema 10 saw in it: every table and view, its columns.
    std::vector<std::string> names;
    std::map<std::string, std::vector<std::string>> before;
    {
      auto db = open_index(ten, schema10);
      REQUIRE(db.schema_version() == 10);
      names = query_rows(db.handle(),
                         "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND "
                         "name NOT LIKE 'sqlite_%' ORDER BY name");
      before = rows_of(db.handle(), names);
    }
    for (const auto& name : {"layers", "settings", "images", "envelopes", "ddnet_features",
                             "thumbnails", "current_maps", "ddnet_mapinfo", "ddnet_mapinfo_history",
                             "run_entries", "tile_counts", "map_tiles"})
      CHECK_MESSAGE(!before.at(name).empty(), name);
    auto migrated = open_index(ten);
    sqlite3* h = migrated.handle();
    CHECK(migrated.schema_version() == latest_schema_version());
    CHECK(query_rows(h, "PRAGMA foreign_key_check").empty());
    auto fresh = open_index(current);
    for (const auto& name : names) {
      CAPTURE(name);
      CHECK(table_rows(h, name) == before.at(name));
      CHECK(table_rows(fresh.handle(), name) == before.at(name));
    }
    // The migration shares what the old maps repeat: a's layers in b and c.
    CHECK(count(h, "layer_defs") < count(h, "map_layers"));
  }

  TEST_CASE("index stored once: a map's versions share what they repeat, layers to thumbnail") {
    TempDir dir;
    auto db = open_index(dir.file("versions.sqlite"));
    sqlite3* h = db.handle();
    const auto run = db.begin_run("test", "0.0-test");
    const auto source = db.source_id(run, "/srv/maps", SourceKind::folder);
    const MapStats a = keyed_map();
    MapStats renamed = a;  // one layer renamed: one new layer
    renamed.layers[1].name = "Deco v2";
    MapStats author = a;  // another maps row, every part the same
    author.author = "someone else";
    MapStats envelope = a;  // another body
    envelope.envelopes[0].name = "pulse 2";
    MapStats features = a;  // another feature set, and no thumbnail
    features.ddnet_features = {"TELEIN", "DEATH", "DEATH"};
    features.thumbnail_png.clear();
    features.thumbnail_key.reset();
    const std::vector<const MapStats*> maps = {&a, &renamed, &author, &envelope, &features};
    for (std::size_t i = 0; i < maps.size(); ++i)
      db.write_entry(run,
                     map_entry(source, "v" + std::to_string(i) + ".map", 20 + static_cast<int>(i)),
                     maps[i]);
    db.finish_run(run, RunStatus::complete, {});

    CHECK(count(h, "maps") == 5);
    CHECK(count(h, "map_layers") == 30);
    CHECK(count(h, "layer_defs") == 7);  // a's 6, the renamed one
    CHECK(count(h, "map_bodies") == 2);
    CHECK(count(h, "feature_sets") == 2);
    CHECK(count(h, "thumbnail_images") == 1);
    CHECK(count(h, "map_parts WHERE thumbnail_id IS NULL") == 1);
    CHECK(query_rows(h, "PRAGMA foreign_key_check").empty());
    // Each map's views say what its statistics say.
    for (std::size_t i = 0; i < maps.size(); ++i) {
      CAPTURE(i);
      const std::string of_map = " WHERE map_id = (SELECT map_id FROM maps WHERE sha256 = '" +
                                 sha_of(20 + static_cast<int>(i)) + "')";
      std::vector<std::string> names;
      for (const auto& l : maps[i]->layers)
        names.push_back(std::to_string(l.layer_index) + "|" + l.name);
      CHECK(query_rows(h, "SELECT layer_index, name FROM layers" + of_map + " ORDER BY 1") ==
            names);
      CHECK(query_text(h, "SELECT group_concat(name) FROM envelopes" + of_map) ==
            maps[i]->envelopes[0].name);
      CHECK(query_text(h, "SELECT group_concat(feature) FROM (SELECT feature FROM ddnet_features" +
                              of_map + " ORDER BY 1)") ==
            (i == 4 ? "DEATH,TELEIN" : "DEATH,TELEIN,TELE_GUN"));
      CHECK(query_int(h, "SELECT count(*) FROM thumbnails" + of_map) == (i == 4 ? 0 : 1));
      CHECK(query_int(h, "SELECT count(*) FROM image_users" + of_map) == 1);
    }
    // A later run sharing with this one's rows adds no part.
    const auto run2 = db.begin_run("test", "0.0-test");
    MapStats again = renamed;
    again.author = "third";
    db.write_entry(run2, map_entry(source, "v5.map", 30), &again);
    db.finish_run(run2, RunStatus::complete, {});
    CHECK(count(h, "layer_defs") == 7);
    CHECK(count(h, "map_bodies") == 2);
    CHECK(count(h, "feature_sets") == 2);
    CHECK(count(h, "thumbnail_images") == 1);
  }

  TEST_CASE("index stored once: a key is the SHA-256 of its values' bytes, as indexes hold them") {
    // Keys written by earlier runs are looked up by later ones: the encoding
    // must not change. Each value is a tag, 8 bytes least significant first,
    // and for text and blobs their bytes; built here by hand.
    std::string bytes;
    const auto word = [&](char tag, std::uint64_t u) {
      bytes += tag;
      for (int i = 0; i < 8; ++i) bytes += static_cast<char>((u >> (8 * i)) & 0xff);
    };
    word('t', 5);
    bytes += "layer";
    word('i', static_cast<std::uint64_t>(std::int64_t{-2}));
    bytes += 'n';
    word('r', 0x3ff8000000000000ull);  // 1.5
    const std::uint8_t blob[3] = {1, 0, 255};
    word('b', 3);
    bytes.append(reinterpret_cast<const char*>(blob), 3);
    // Past the encoder's first 1024 bytes, so that its buffer grows to what
    // a value needs, then to twice its size; and an empty text.
    const std::string long_text(3000, 'x'), more_text(500, 'y');
    for (const std::string* t : {&long_text, &more_text}) {
      word('t', t->size());
      bytes += *t;
    }
    word('t', 0);
    KeyEncoder k;
    k.text("layer").integer(-2).optional_integer(std::optional<int>{}).real(1.5);
    k.blob(Bytes(blob, 3)).text(long_text).text(more_text).text(std::string_view{});
    CHECK(k.digest() ==
          sha256(Bytes(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size())));
  }

  TEST_CASE("index stored once: two maps' keys are equal exactly when their parts' rows would be") {
    const MapStats a = keyed_map();
    const auto ka = part_keys(a, kExtractorVersion);
    REQUIRE(ka.layers.size() == a.layers.size());
    CHECK(part_keys(a, kExtractorVersion).body == ka.body);
    // Every field a layer row is written from changes its key, and only its.
    const auto changed_layer = [&](auto change) {
      MapStats b = a;
      change(b.layers[2]);
      const auto kb = part_keys(b, kExtractorVersion);
      CHECK(kb.layers[2] != ka.layers[2]);
      for (std::size_t i = 0; i < a.layers.size(); ++i)
        if (i != 2) CHECK(kb.layers[i] == ka.layers[i]);
      CHECK(kb.body == ka.body);
    };
    changed_layer([](LayerStats& l) { l.name = "Game 2"; });
    changed_layer([](LayerStats& l) { l.group_index = 0; });
    changed_layer([](LayerStats& l) { l.non_empty += 1; });
    changed_layer([](LayerStats& l) { l.color[3] = 0; });
    changed_layer([](LayerStats& l) { l.image = 1; });
    changed_layer([](LayerStats& l) { l.data_key->sha256[0] ^= 1; });
    changed_layer([](LayerStats& l) { l.data_key->data_size += 4; });
    changed_layer([](LayerStats& l) {
      l.data_key.reset();
      l.tile_counts.clear();
      l.entities.clear();
    });
    // Its layer data comes from another extractor version: another key.
    CHECK(part_keys(a, kExtractorVersion + 1).layers[2] != ka.layers[2]);
    // A layer with rows but no data key has its own layer data: no key.
    MapStats own = a;
    own.layers[2].data_key.reset();
    CHECK_FALSE(part_keys(own, kExtractorVersion).layers[2]);
    // The body: any of its rows.
    const auto changed_body = [&](auto change) {
      MapStats b = a;
      change(b);
      CHECK(part_keys(b, kExtractorVersion).body != ka.body);
    };
    changed_body([](MapStats& s) { s.settings.push_back("sv_x 1"); });
    changed_body([](MapStats& s) { s.settings = {"sv_hit 0tune gravity 0.5"}; });
    changed_body([](MapStats& s) { s.groups[0].parallax_x += 1; });
    changed_body([](MapStats& s) { s.images[0].used_by.push_back({2, 1}); });
    changed_body([](MapStats& s) { s.envelopes[0].curves[6] = 1; });
    changed_body([](MapStats& s) { s.sounds[0].used_by[0].sources = 3; });
    // Features: as a set (each once, in any order).
    MapStats shuffled = a;
    shuffled.ddnet_features = {"TELEIN", "DEATH", "TELE_GUN", "DEATH"};
    CHECK(part_keys(shuffled, kExtractorVersion).features == ka.features);
    shuffled.ddnet_features.pop_back();
    shuffled.ddnet_features.pop_back();
    CHECK(part_keys(shuffled, kExtractorVersion).features != ka.features);
    MapStats none = a;
    none.ddnet_features.clear();
    CHECK_FALSE(part_keys(none, kExtractorVersion).features);
    // The thumbnail: its layers_key and PNG; none without a layers_key.
    MapStats other_png = a;
    other_png.thumbnail_png = png_of(2, 2, 3);
    CHECK(part_keys(other_png, kExtractorVersion).thumbnail != ka.thumbnail);
    MapStats unkeyed = a;
    unkeyed.thumbnail_key.reset();
    CHECK_FALSE(part_keys(unkeyed, kExtractorVersion).thumbnail);
  }

  TEST_CASE("index stored once: a map measured again leaves no part nothing refers to") {
    TempDir dir;
    const auto path = dir.file("again.sqlite");
    MapStats x = keyed_map(), y = keyed_map();
    y.author = "y";
    x.layers[1].name = "only in x";
    x.settings = {"only in x"};
    x.ddnet_features = {"BOOST"};
    x.thumbnail_key.reset();  // x's thumbnail is its own
    {
      OpenOptions older;
      older.extractor_version = kExtractorVersion - 1;
      auto db = open_index(path, older);
      const auto run = db.begin_run("test", "0.0-test");
      const auto source = db.source_id(run, "/srv/maps", SourceKind::folder);
      db.write_entry(run, map_entry(source, "x.map", 1), &x);
      db.finish_run(run, RunStatus::complete, {});
    }
    auto db = open_index(path);
    sqlite3* h = db.handle();
    // x measured again shows y's parts exactly (all of them shared with y).
    MapStats x2 = y;
    x2.author = "x";
    const auto run = db.begin_run("test", "0.0-test");
    const auto source = db.source_id(run, "/srv/maps", SourceKind::folder);
    db.write_entry(run, map_entry(source, "y.map", 2), &y);
    // x's 6 and y's tile layers (their data by another extractor version);
    // the quads and sounds layers, without layer data, are x's.
    CHECK(count(h, "layer_defs") == 10);
    CHECK(count(h, "map_bodies") == 2);
    CHECK(count(h, "feature_sets") == 2);
    CHECK(count(h, "thumbnail_images") == 2);
    db.write_entry(run, map_entry(source, "x.map", 1), &x2);
    db.finish_run(run, RunStatus::complete, {});
    CHECK(query_rows(h, "PRAGMA foreign_key_check").empty());
    CHECK(count(h, "layer_defs") == 6);
    CHECK(count(h, "layer_defs WHERE name = 'only in x'") == 0);
    CHECK(count(h, "map_bodies") == 1);
    CHECK(count(h, "body_settings WHERE command = 'only in x'") == 0);
    CHECK(count(h, "feature_sets") == 1);
    CHECK(count(h, "feature_set_members WHERE feature = 'BOOST'") == 0);
    CHECK(count(h, "thumbnail_images") == 1);  // x's own (no key) went
    // Layer data with a key stays (later runs reuse it): x's by the older
    // extractor, y's.
    CHECK(count(h, "layer_data") == 8);
    CHECK(count(h, "layers") == 12);
    CHECK(query_rows(h,
                     "SELECT map_id, layer_index, name, layer_data_id FROM layers "
                     "WHERE map_id = 1 EXCEPT "
                     "SELECT 1, layer_index, name, layer_data_id FROM layers WHERE map_id = 2")
              .empty());
  }

  TEST_CASE("index stored once: an entry refused after writing new parts leaves none to take") {
    for (const bool savepoints : {true, false}) {
      CAPTURE(savepoints);
      TempDir dir;
      OpenOptions options;
      options.entry_savepoints = savepoints;
      auto db = open_index(dir.file("refused.sqlite"), options);
      sqlite3* h = db.handle();
      // Refuses the files row of bad.map: its map and new parts were written.
      exec_sql(h,
               "CREATE TRIGGER refuse BEFORE INSERT ON files WHEN NEW.entry_path = 'bad.map' "
               "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
      const auto run = db.begin_run("test", "0.0-test");
      const auto source = db.source_id(run, "/srv/maps", SourceKind::folder);
      db.commit_batch();
      const MapStats first = keyed_map();
      MapStats fresh = keyed_map(3);  // new layers, body, features, thumbnail
      fresh.layers[1].name = "new";
      fresh.settings = {"new"};
      fresh.ddnet_features = {"BOOST"};
      fresh.thumbnail_png = png_of(3, 3, 2);
      db.write_entry(run, map_entry(source, "first.map", 1), &first);
      CHECK_THROWS_WITH_AS(db.write_entry(run, map_entry(source, "bad.map", 2), &fresh),
                           doctest::Contains("refused by the test"), IndexError);
      CHECK(db.pending_entries() == (savepoints ? 1u : 0u));
      if (!savepoints) db.write_entry(run, map_entry(source, "first.map", 1), &first);
      db.write_entry(run, map_entry(source, "later.map", 3), &fresh);
      db.finish_run(run, RunStatus::complete, {});
      CHECK(query_rows(h, "PRAGMA foreign_key_check").empty());
      CHECK(query_rows(h, "SELECT entry_path FROM files ORDER BY 1") ==
            std::vector<std::string>{"first.map", "later.map"});
      const std::string later = " WHERE map_id = (SELECT map_id FROM files WHERE name = 'later')";
      CHECK(query_int(h, "SELECT count(*) FROM layers" + later) ==
            static_cast<std::int64_t>(fresh.layers.size()));
      CHECK(query_text(h, "SELECT command FROM settings" + later) == "new");
      CHECK(query_text(h, "SELECT feature FROM ddnet_features" + later) == "BOOST");
      CHECK(query_int(h, "SELECT width FROM thumbnails" + later) == 3);
    }
  }
}
