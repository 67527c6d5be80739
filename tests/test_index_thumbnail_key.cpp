// The thumbnail key (schema/008_thumbnail_key.sql): an index of the previous
// schema migrates in place, its thumbnails keeping their rows without a key,
// and a thumbnail is found by the key it was stored with.
#include <doctest/doctest.h>

#include <algorithm>

#include "index/index_db.h"
#include "index/map_rows.h"
#include "index/migrations.h"
#include "tests/test_index_helpers.h"

using namespace mapindex;
using namespace mapindex::index;
using namespace mapindex::sqlite;
using namespace mapindex::index::testing;

TEST_SUITE("index") {
  TEST_CASE(
      "index: an index of the previous schema gets thumbnails.layers_key, found by that key") {
    TempDir dir;
    const auto path = dir.file("v7.sqlite");
    const Migration* migration = &migration_named("_thumbnail_key.sql");
    OpenOptions previous;
    previous.migrations = migrations_before(*migration);
    {
      auto db = open_index(path, previous);
      CHECK(db.schema_version() == migration->version - 1);
      // A map and its thumbnail as version 7 wrote them.
      exec_sql(db.handle(),
               "INSERT INTO runs (run_id, started_at, status, tool_version, extractor_version, "
               "command) VALUES (1, '2026-01-01T00:00:00Z', 'complete', 'old', 4, 'index');"
               "INSERT INTO maps (map_id, sha256, crc32, size, extractor_version, first_run_id, "
               "measured_run_id, format, format_version, status, errors, warnings, game_width, "
               "game_height, crude_header, reversed_magic, num_items, num_data, uuid_types, "
               "tiles_per_set, num_groups, num_layers, num_images, num_envelopes, "
               "num_envelope_points, num_sounds, num_settings, num_automappers, num_quads, "
               "num_sound_sources) VALUES (1, '" +
                   sha_of(1) +
                   "', 1, 100, 4, 1, 1, 'teeworlds', 4, 'ok', 0, 0, 10, 10, 0, 0, 1, 1, '', 0, "
                   "0, 0, 0, 0, 0, 0, 0, 0, 0, 0);"
                   "INSERT INTO thumbnails (map_id, width, height, png) "
                   "SELECT map_id, 1, 1, x'89504e47' FROM maps");
    }
    {
      OpenOptions through = previous;
      through.migrations.push_back(*migration);
      auto db = open_index(path, through);
      CHECK(db.schema_version() == migration->version);
      CHECK(query_rows(db.handle(), "SELECT width, height, hex(png), layers_key FROM thumbnails") ==
            std::vector<std::string>{"1|1|89504E47|NULL"});
      CHECK(query_int(db.handle(),
                      "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND "
                      "tbl_name = 'thumbnails' AND sql LIKE '%layers_key%'") == 1);
    }
    auto db = open_index(path);  // through every later migration
    CHECK(db.schema_version() == latest_schema_version());
    CHECK(query_rows(db.handle(), "SELECT width, height, hex(png), layers_key FROM thumbnails") ==
          std::vector<std::string>{"1|1|89504E47|NULL"});

    // Thumbnails are stored (thumbnail_images, since 010) with the key.
    Sha256 key{};
    key.fill(0xab);
    StatementCache statements(db.handle());
    CHECK_FALSE(find_thumbnail(statements, key));  // a row without a key is no match
    exec_sql(db.handle(),
             "UPDATE thumbnail_images SET layers_key = x'" + std::string(64, 'a') + "'");
    CHECK_FALSE(find_thumbnail(statements, key));
    exec_sql(db.handle(),
             "UPDATE thumbnail_images SET layers_key = x'" + std::string(64, 'b') + "'");
    CHECK_FALSE(find_thumbnail(statements, key));  // 0xbb.. is not 0xab..
    std::string hex;
    for (int i = 0; i < 32; ++i) hex += "ab";
    exec_sql(db.handle(), "UPDATE thumbnail_images SET layers_key = x'" + hex + "'");
    const auto png = find_thumbnail(statements, key);
    REQUIRE(png);
    CHECK(*png == std::vector<std::uint8_t>{0x89, 0x50, 0x4e, 0x47});
    std::string upper;
    for (int i = 0; i < 32; ++i) upper += "AB";
    CHECK(query_rows(db.handle(), "SELECT hex(layers_key) FROM thumbnails") ==
          std::vector<std::string>{upper});
  }
}
