// Helpers for the index tests (TEST_SUITE "index"): temporary folders,
// hand-built MapStats, and reading tables back.
#pragma once

#include <sqlite3.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "common/hex.h"
#include "common/sha256.h"
#include "extract/map_stats.h"
#include "index/index_db.h"
#include "index/migrations.h"
#include "tests/support/archive_builder.h"

namespace mapindex::index::testing {

using mapindex::testing::TempDir;

// The schema version this build writes (the last migration's version).
inline int latest_schema_version() {
  const auto& migrations = default_migrations();
  return migrations.empty() ? 0 : migrations.back().version;
}

// The built-in migration whose file name ends in `suffix` ("_layer_data.sql"):
// found by name, as its number is wherever it landed. FAILs when there is none.
inline const Migration& migration_named(std::string_view suffix) {
  for (const auto& m : default_migrations())
    if (m.name.ends_with(suffix)) return m;
  FAIL("no built-in migration is named *" << suffix);
  throw;  // not reached: FAIL throws
}

// The built-in migrations before `migration` (OpenOptions::migrations for an
// index of the schema just before it).
inline Migrations migrations_before(const Migration& migration) {
  const auto& all = default_migrations();
  return Migrations(all.begin(), all.begin() + (&migration - all.data()));
}

// A distinct, valid SHA-256 hex string per number.
inline std::string sha_of(int n) {
  std::string s(64, '0');
  unsigned value = static_cast<unsigned>(n) * 2654435761u + 1u;
  for (std::size_t i = 0; i < 64; ++i) {
    s[i] = hex_digit(value >> ((i % 8) * 4));
    if (i % 8 == 7) value = value * 1103515245u + 12345u;
  }
  return s;
}

// The digest whose text is sha_of(n).
inline Sha256 digest_of(int n) { return *sha256_from_hex(sha_of(n)); }

inline LayerStats layer(std::int32_t index, std::int32_t group, LayerKind kind, std::string name) {
  LayerStats l;
  l.layer_index = index;
  l.group_index = group;
  l.kind = kind;
  l.item_type = kind == LayerKind::quads ? 3 : kind == LayerKind::sounds ? 10 : 2;
  l.version = 3;
  l.name = std::move(name);
  return l;
}

// A DDNet-style map: a game group with game, front and tele layers, a visual
// tiles layer using image 0, a quads layer with a color envelope, a sounds
// layer; image 1 is unused. `variant` changes a few numbers.
inline MapStats race_map(int variant = 0) {
  MapStats s;
  s.format = MapFormat::teeworlds;
  s.format_version = 4;
  s.num_items = 20 + variant;
  s.num_data = 9;
  s.uuid_types = {"mapitemtype-automapper-config@ddnet.tw"};
  s.author = "Author " + std::to_string(variant);
  s.map_version = "1.0";
  s.credits = "thanks";
  s.license = "CC-BY-SA";
  s.settings = {"sv_hit 0", "tune gravity 0.5"};
  s.game_width = 100 + variant;
  s.game_height = 50;
  s.num_automappers = 1;

  GroupStats background;
  background.group_index = 0;
  background.version = 3;
  background.name = "Background";
  background.start_layer = 0;
  background.num_layers = 2;
  background.parallax_x = background.parallax_y = 50;
  GroupStats game;
  game.group_index = 1;
  game.version = 3;
  game.name = "Game";
  game.start_layer = 2;
  game.num_layers = 4;
  game.game_group = true;
  s.groups = {background, game};

  auto quads = layer(0, 0, LayerKind::quads, "Sky");
  quads.image = -1;
  quads.color_envelope = -1;
  quads.num_quads = 3;
  quads.non_empty = 3;
  auto tiles = layer(1, 0, LayerKind::tiles, "Deco");
  tiles.image = 0;
  tiles.width = s.game_width;
  tiles.height = 50;
  tiles.non_empty = 40;
  tiles.flip_x = 2;
  tiles.tile_counts = {{1, 30}, {9, 10}};  // visual tile 9 is not FREEZE
  auto game_layer = layer(2, 1, LayerKind::game, "Game");
  game_layer.width = s.game_width;
  game_layer.height = 50;
  game_layer.non_empty = 1200 + variant;
  game_layer.tile_counts = {{1, 500}, {2, 20}, {9, 600 + variant}, {192, 1}, {199, 2}};
  game_layer.entities = {{"SPAWN", 1}, {"WEAPON_SHOTGUN", 2}};
  auto front = layer(3, 1, LayerKind::front, "Front");
  front.width = s.game_width;
  front.height = 50;
  front.non_empty = 5;
  front.tile_counts = {{9, 5}};
  auto tele = layer(4, 1, LayerKind::tele, "Tele");
  tele.width = s.game_width;
  tele.height = 50;
  tele.non_empty = 4;
  tele.tile_counts = {{26, 2}, {27, 2}};
  tele.numbers = {1, 2};
  auto sounds = layer(5, 1, LayerKind::sounds, "Birds");
  sounds.num_sources = 2;
  sounds.non_empty = 2;
  sounds.sound = 0;
  s.layers = {quads, tiles, game_layer, front, tele, sounds};

  ImageStats grass;
  grass.image_index = 0;
  grass.version = 1;
  grass.name = "grass_main";
  grass.width = grass.height = 1024;
  grass.external = true;
  grass.standard_name = true;
  grass.used_by = {{1, 0}};
  ImageStats unused;
  unused.image_index = 1;
  unused.version = 1;
  unused.name = "leftover";
  unused.width = 64;
  unused.height = 32;
  unused.data_stored_size = 900;
  unused.data_size = 64 * 32 * 4;
  s.images = {grass, unused};

  EnvelopeStats pulse;
  pulse.envelope_index = 0;
  pulse.version = 2;
  pulse.channels = 4;
  pulse.kind = EnvelopeKind::color;
  pulse.name = "pulse";
  pulse.start_point = 0;
  pulse.num_points = 3;
  pulse.curves = {0, 2, 0, 0, 0, 1, 0};
  pulse.used_by = {{0, EnvelopeRole::quad_color, 3}};
  s.envelopes = {pulse};
  s.num_envelope_points = 3;

  SoundStats bird;
  bird.sound_index = 0;
  bird.name = "bird";
  bird.data_stored_size = 5000;
  bird.data_size = 5000;
  bird.used_by = {{5, 2}};
  s.sounds = {bird};

  s.ddnet_features = {"DEATH", "TELE_GUN", "TELEIN"};
  s.problems = {{Code::image_unused, "image 1 'leftover' is not used", Location::image(1)}};
  finalize_status(s);
  return s;
}

// A map DDNet refuses: no game layer, two errors and a warning.
inline MapStats broken_map() {
  MapStats s;
  s.format = MapFormat::teeworlds;
  s.format_version = 4;
  s.problems = {{Code::M10, "no game layer, expected at least one", Location::file()},
                {Code::envelope_unused, "envelope 0 is not used", Location::envelope(0)},
                {Code::H5, "size 120 is not the file size 100", Location::file()}};
  finalize_status(s);
  return s;
}

inline MapStats spritetile_level() {
  MapStats s;
  s.format = MapFormat::spritetile;
  s.format_version = 2;
  s.tiles_per_set = 2048;
  auto l = layer(0, -1, LayerKind::spritetile, "");
  l.item_type = 0;
  l.version = 0;
  l.width = 20;
  l.height = 10;
  l.non_empty = 42;
  l.tile_counts = {{5, 40}, {7, 2}};
  SpriteTileLayerInfo info;
  info.tile_size_x = 1.0f;
  info.tile_size_y = 0.5f;
  info.z = 2.0f;
  info.cells = 200;
  info.colliders = 12;
  info.order_max = 3;
  info.triggers = {4, 9};
  l.spritetile = info;
  s.layers = {l};
  finalize_status(s);
  return s;
}

inline EntryRecord map_entry(std::int64_t source, std::string path, int content,
                             std::uint64_t size = 1000) {
  EntryRecord e;
  e.source_id = source;
  e.entry_path = std::move(path);
  e.kind = EntryKind::map;
  e.size = size;
  e.sha256 = digest_of(content);
  e.crc32 = static_cast<std::uint32_t>(content) * 7919u;
  return e;
}

inline IndexDb open_index(const std::string& path, OpenOptions options = {}) {
  auto db = IndexDb::open(path, OpenMode::read_write, std::move(options));
  if (!db) FAIL("opening " << path << ": " << db.error().to_string());
  return std::move(db).value();
}

inline std::int64_t query_int(sqlite3* db, const std::string& sql) {
  try {
    sqlite::Statement statement(db, sql);
    return statement.step() ? statement.column_int(0) : -1;
  } catch (const sqlite::IndexError& e) {
    FAIL(sql << ": " << e.what());
  }
  return -1;
}

// Every row of a query as "a|b|c" strings (NULL printed as "NULL").
inline std::vector<std::string> query_rows(sqlite3* db, const std::string& sql) {
  std::vector<std::string> rows;
  try {
    sqlite::Statement statement(db, sql);
    while (statement.step()) {
      std::string row;
      for (int i = 0; i < statement.column_count(); ++i) {
        if (i > 0) row += '|';
        row += statement.column_is_null(i) ? "NULL" : statement.column_text(i);
      }
      rows.push_back(row);
    }
  } catch (const sqlite::IndexError& e) {
    FAIL(sql << ": " << e.what());
  }
  return rows;
}

inline std::string query_text(sqlite3* db, const std::string& sql) {
  const auto rows = query_rows(db, sql);
  return rows.empty() ? "<no row>" : rows.front();
}

// Names of the tables of the index (not views, not SQLite's own).
inline std::vector<std::string> table_names(sqlite3* db) {
  return query_rows(db,
                    "SELECT name FROM sqlite_schema WHERE type = 'table' "
                    "AND name NOT LIKE 'sqlite_%' ORDER BY name");
}

// The columns of a table or view, in order.
inline std::vector<std::string> column_names(sqlite3* db, const std::string& table) {
  return query_rows(db, "SELECT name FROM pragma_table_info('" + table + "')");
}

// All rows of a table, sorted, with the given columns blanked out.
inline std::vector<std::string> table_rows(sqlite3* db, const std::string& table,
                                           const std::vector<std::string>& ignore = {}) {
  std::string columns;
  for (const auto& column : column_names(db, table)) {
    bool skip = false;
    for (const auto& i : ignore) skip = skip || i == column;
    if (!columns.empty()) columns += ", ";
    columns += skip ? "'*'" : "\"" + column + "\"";
  }
  auto rows = query_rows(db, "SELECT " + columns + " FROM \"" + table + "\"");
  std::sort(rows.begin(), rows.end());
  return rows;
}

// An index at the schema `older` leaves, at `older_path`, holding the rows of
// the index at `current_path` (written by this build's writer, which writes
// the current schema only): each of its tables is filled from the table or
// view of that name in the current index, its columns only. The views that
// replaced tables (schema/011_stored_once.sql) give the rows the older
// writer wrote there. tile_names and problem_codes keep what the open wrote.
inline void copy_into_older_index(const std::string& older_path, OpenOptions older,
                                  const std::string& current_path) {
  auto db = open_index(older_path, std::move(older));
  const auto h = db.handle();
  sqlite::exec_sql(h, "PRAGMA foreign_keys = OFF");
  sqlite::exec_sql(h, "ATTACH DATABASE '" + current_path + "' AS current");
  sqlite::exec_sql(h, "BEGIN");
  for (const auto& table : table_names(h)) {
    if (table == "tile_names" || table == "problem_codes") continue;
    std::string columns;
    for (const auto& c : column_names(h, table))
      columns += (columns.empty() ? "\"" : ", \"") + c + "\"";
    sqlite::exec_sql(h, "INSERT INTO main.\"" + table + "\" (" + columns + ") SELECT " + columns +
                            " FROM current.\"" + table + "\"");
  }
  sqlite::exec_sql(h, "COMMIT");
  sqlite::exec_sql(h, "DETACH DATABASE current");
  sqlite::exec_sql(h, "PRAGMA foreign_keys = ON");
}

// An index holding one complete run that saw one map ("a.map", race_map())
// in the folder "/srv/maps": the base of the query tests' fixtures.
struct OneMapIndex {
  TempDir dir;
  std::string path = dir.file("query.sqlite");
  OneMapIndex() {
    auto db = open_index(path);
    const auto run = db.begin_run("test", "0.0-test");
    const auto source = db.source_id(run, "/srv/maps", index::SourceKind::folder);
    const auto stats = race_map();
    db.write_entry(run, map_entry(source, "a.map", 1), &stats);
    db.finish_run(run, index::RunStatus::complete, {});
  }
};

}  // namespace mapindex::index::testing
