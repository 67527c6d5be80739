// The index's views, on hand-built statistics: file_overview, ddnet_mapinfo,
// unused_images, maps_with_errors, map_names, problem_list, map_tiles,
// file_history.
#include <sqlite3.h>

#include <doctest/doctest.h>

#include "index/index_db.h"
#include "tests/test_index_helpers.h"

using namespace mapindex;
using namespace mapindex::index;
using namespace mapindex::sqlite;
using namespace mapindex::index::testing;

namespace {

// Run 1 reads an archive with a race map, a broken map, a SpriteTile level,
// a text file, an unreadable and an oversize entry; run 2 reads it again
// without the text file.
struct ViewFixture {
  TempDir dir;
  IndexDb db = open_index(dir.file("views.sqlite"));
  std::int64_t run1 = 0, run2 = 0;

  ViewFixture() {
    const auto race = race_map();
    const auto broken = broken_map();
    const auto level = spritetile_level();
    for (int pass = 0; pass < 2; ++pass) {
      const auto run = db.begin_run("test", "0.0-test");
      const auto zip = db.source_id(run, "/srv/maps.zip", index::SourceKind::archive);
      db.write_entry(run, map_entry(zip, "race/Sunny Race.map", 1, 4096), &race);
      db.write_entry(run, map_entry(zip, "broken/Broken.map", 2, 100), &broken);
      db.write_entry(run, map_entry(zip, "levels/Level1.bytes", 3, 700), &level);
      if (pass == 0) {
        EntryRecord text;
        text.source_id = zip;
        text.entry_path = "README.txt";
        text.size = 20;
        text.sha256 = digest_of(50);
        db.write_entry(run, text, nullptr);
      }
      EntryRecord lost;
      lost.source_id = zip;
      lost.entry_path = "lost/Lost.map";
      lost.kind = EntryKind::unreadable;
      lost.size = 300;
      lost.problems = {
          {Code::read_truncated, "the archive ends inside this entry", Location::file()}};
      db.write_entry(run, lost, nullptr);
      EntryRecord huge;
      huge.source_id = zip;
      huge.entry_path = "huge/Huge.map";
      huge.kind = EntryKind::oversize;
      huge.size = 80ull << 20;
      db.write_entry(run, huge, nullptr);
      db.finish_run(run, index::RunStatus::complete, {});
      (pass == 0 ? run1 : run2) = run;
    }
  }
  sqlite3* h() const { return db.handle(); }
};

}  // namespace

TEST_SUITE("index") {
  TEST_CASE("index: file_overview: one row per entry with status, sizes and counts") {
    ViewFixture f;
    CHECK(
        query_rows(
            f.h(),
            "SELECT name || '|' || kind || '|' || status || '|' || size || '|' || "
            "ifnull(game_width, '-') || 'x' || ifnull(game_height, '-') || '|' || "
            "ifnull(layers, '-') || '|' || ifnull(images, '-') || '|' || ifnull(errors, '-') || '|' || "
            "entry_problems || '|' || in_latest_run || '|' || source "
            "FROM file_overview ORDER BY entry_path") ==
        std::vector<std::string>{
            "README|other|other|20|-x-|-|-|-|0|0|/srv/maps.zip",
            "Broken|map|rejected|100|0x0|0|0|2|0|1|/srv/maps.zip",
            "Huge|oversize|oversize|83886080|-x-|-|-|-|0|1|/srv/maps.zip",
            "Level1|map|ok|700|0x0|1|0|0|0|1|/srv/maps.zip",
            "Lost|unreadable|unreadable|300|-x-|-|-|-|1|1|/srv/maps.zip",
            "Sunny Race|map|ok|4096|100x50|6|2|0|0|1|/srv/maps.zip",  // its only finding is info
        });
    CHECK(
        query_text(
            f.h(),
            "SELECT format || ',' || format_version || ',' || envelopes || ',' || sounds || ',' || "
            "quads || ',' || warnings || ',' || infos || ',' || author FROM file_overview "
            "WHERE name = 'Sunny Race'") == "teeworlds,4,1,1,3,0,1,Author 0");
  }

  TEST_CASE("index: ddnet_mapinfo: ddnet.org's mapinfo columns, one row per Teeworlds map") {
    ViewFixture f;
    // ddnet.org's record_mapinfo: Map, Width, Height, then the 40 flags in this order.
    const std::vector<std::string> ddnet_columns = {
        "Map",           "Width",        "Height",           "DEATH",          "THROUGH",
        "JUMP",          "DFREEZE",      "EHOOK_START",      "HIT_END",        "SOLO_START",
        "TELE_GUN",      "TELE_GRENADE", "TELE_LASER",       "NPC_START",      "SUPER_START",
        "JETPACK_START", "WALLJUMP",     "NPH_START",        "WEAPON_SHOTGUN", "WEAPON_GRENADE",
        "POWERUP_NINJA", "WEAPON_RIFLE", "LASER_STOP",       "CRAZY_SHOTGUN",  "DRAGGER",
        "DOOR",          "SWITCH_TIMED", "SWITCH",           "STOP",           "THROUGH_ALL",
        "TUNE",          "OLDLASER",     "TELEINEVIL",       "TELEIN",         "TELECHECK",
        "TELEINWEAPON",  "TELEINHOOK",   "CHECKPOINT_FIRST", "BONUS",          "BOOST",
        "PLASMAF",       "PLASMAE",      "PLASMAU"};
    auto columns = column_names(f.h(), "ddnet_mapinfo");
    REQUIRE(columns.size() == ddnet_columns.size() + 5);
    CHECK(std::vector<std::string>(columns.begin(), columns.begin() + 43) == ddnet_columns);
    CHECK(std::vector<std::string>(columns.begin() + 43, columns.end()) ==
          std::vector<std::string>{"map_id", "sha256", "status", "source", "entry_path"});
    // The history (every content ever indexed) has the columns up to status.
    auto history = column_names(f.h(), "ddnet_mapinfo_history");
    REQUIRE(history.size() == ddnet_columns.size() + 3);
    CHECK(std::vector<std::string>(history.begin(), history.begin() + 43) == ddnet_columns);

    // The race map has DEATH, TELE_GUN and TELEIN; the broken map none; the level is not listed.
    CHECK(
        query_rows(
            f.h(),
            "SELECT Map || ',' || Width || ',' || Height || ',' || status FROM ddnet_mapinfo ORDER BY Map") ==
        std::vector<std::string>{"Broken,0,0,rejected", "Sunny Race,100,50,ok"});
    std::string sum_all;
    for (std::size_t i = 3; i < ddnet_columns.size(); ++i)
      sum_all += (sum_all.empty() ? "" : " + ") + ddnet_columns[i];
    CHECK(query_int(f.h(), "SELECT " + sum_all + " FROM ddnet_mapinfo WHERE Map = 'Sunny Race'") ==
          3);
    CHECK(query_int(f.h(), "SELECT " + sum_all + " FROM ddnet_mapinfo WHERE Map = 'Broken'") == 0);
    CHECK(
        query_text(
            f.h(),
            "SELECT DEATH || TELE_GUN || TELEIN || TELECHECK || BOOST FROM ddnet_mapinfo WHERE Map = 'Sunny Race'") ==
        "11100");
    CHECK(query_rows(f.h(), "SELECT Map FROM ddnet_mapinfo WHERE TELE_GUN = 1") ==
          std::vector<std::string>{"Sunny Race"});
  }

  TEST_CASE("index: unused_images: images no layer uses") {
    ViewFixture f;
    CHECK(
        query_rows(
            f.h(),
            "SELECT map_name || ',' || image_index || ',' || image_name || ',' || external || ',' || "
            "width || 'x' || height || ',' || data_stored_size FROM unused_images") ==
        std::vector<std::string>{"Sunny Race,1,leftover,0,64x32,900"});
  }

  TEST_CASE("index: maps_with_errors: maps DDNet refuses, with their error codes") {
    ViewFixture f;
    const auto rows = query_rows(
        f.h(),
        "SELECT map_name, status, errors, warnings, error_codes, first_error, files FROM maps_with_errors");
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].rfind("Broken|rejected|2|0|", 0) == 0);  // envelope.unused is info
    // Codes of the errors only (not the info), each once.
    const auto codes = query_text(f.h(), "SELECT error_codes FROM maps_with_errors");
    CHECK((codes == "M10,H5" || codes == "H5,M10"));
    CHECK(query_text(f.h(), "SELECT first_error || '|' || files FROM maps_with_errors") ==
          "no game layer, expected at least one|1");
  }

  TEST_CASE("index: map_names, problem_list and map_tiles") {
    ViewFixture f;
    CHECK(query_rows(f.h(), "SELECT name || ',' || files FROM map_names ORDER BY name") ==
          std::vector<std::string>{"Broken,1", "Level1,1", "Sunny Race,1"});

    CHECK(
        query_rows(
            f.h(),
            "SELECT name || ',' || severity || ',' || code || ',' || ifnull(source, '-') || ',' || "
            "ifnull(entry_path, '-') FROM problem_list ORDER BY code") ==
        std::vector<std::string>{"Broken,error,H5,-,-", "Broken,error,M10,-,-",
                                 "Broken,info,envelope.unused,-,-",
                                 "Sunny Race,info,image.unused,-,-",
                                 "Lost,error,read.truncated,/srv/maps.zip,lost/Lost.map"});

    // Tiles per layer kind with names; the visual layer's tile 9 is not counted as FREEZE.
    // (The join needs no aliases: map_tiles names the tile tile_name.)
    CHECK(query_rows(f.h(),
                     "SELECT layer_kind || ',' || tile || ',' || ifnull(tile_name, '-') || ',' || "
                     "count FROM map_tiles JOIN map_names USING (map_id) WHERE name = 'Sunny Race' "
                     "ORDER BY layer_kind, tile") ==
          std::vector<std::string>{"front,9,FREEZE,5", "game,1,SOLID,500", "game,2,DEATH,20",
                                   "game,9,FREEZE,600", "game,192,SPAWN,1",
                                   "game,199,WEAPON_SHOTGUN,2", "tele,26,TELEIN,2",
                                   "tele,27,TELEOUT,2"});
    // A typical question: the tele gun and more than 500 freeze tiles.
    CHECK(query_rows(
              f.h(),
              "SELECT m.Map FROM ddnet_mapinfo m JOIN tile_counts t USING (map_id) "
              "WHERE m.TELE_GUN = 1 AND t.layer_kind = 'game' AND t.tile = 9 AND t.count > 500") ==
          std::vector<std::string>{"Sunny Race"});
    // SpriteTile layer info and trigger numbers.
    CHECK(
        query_text(
            f.h(),
            "SELECT st_tile_size_x || ',' || st_tile_size_y || ',' || st_colliders || ',' || "
            "st_order_max || ',' || ifnull(group_index, 'NULL') FROM layers WHERE kind = 'spritetile'") ==
        "1.0,0.5,12,3,NULL");
    CHECK(query_rows(f.h(),
                     "SELECT number FROM layer_numbers n JOIN layers l USING (map_id, layer_index) "
                     "WHERE l.kind = 'spritetile' ORDER BY number") ==
          std::vector<std::string>{"4", "9"});
  }

  TEST_CASE("index: file_history and in_latest_run show entries gone from a source") {
    ViewFixture f;
    CHECK(
        query_rows(
            f.h(),
            "SELECT run_id || ',' || count(*) FROM file_history GROUP BY run_id ORDER BY run_id") ==
        std::vector<std::string>{std::to_string(f.run1) + ",6", std::to_string(f.run2) + ",5"});
    // Removed between the runs: in run 1's sightings, not in run 2's.
    CHECK(query_rows(f.h(), "SELECT a.entry_path FROM file_history a WHERE a.run_id = " +
                                std::to_string(f.run1) +
                                " AND NOT EXISTS (SELECT 1 FROM file_history b WHERE b.run_id = " +
                                std::to_string(f.run2) + " AND b.file_id = a.file_id)") ==
          std::vector<std::string>{"README.txt"});
    CHECK(query_rows(f.h(), "SELECT entry_path FROM file_overview WHERE in_latest_run = 0") ==
          std::vector<std::string>{"README.txt"});
  }

  TEST_CASE("index: typical queries use indexes") {
    ViewFixture f;
    auto plan = [&](const std::string& sql) {
      std::string all;
      for (const auto& row : query_rows(f.h(), "EXPLAIN QUERY PLAN " + sql)) all += row + "\n";
      return all;
    };
    CHECK(
        plan(
            "SELECT map_id FROM tile_counts WHERE layer_kind = 'game' AND tile = 9 AND count > 500")
            .find("INDEX tile_counts_by_tile (layer_kind=? AND tile=? AND count>?)") !=
        std::string::npos);
    // A map's tile counts, by the map: every step a lookup, whatever the
    // index holds (a view SQLite cannot flatten into the join, e.g. a UNION
    // ALL, would be built whole for every such query).
    const auto joined = plan(
        "SELECT t.layer_index, t.tile, t.count FROM maps m JOIN tile_counts t USING (map_id) "
        "WHERE m.sha256 = 'x'");
    CHECK_MESSAGE(joined.find("SCAN") == std::string::npos, joined);
    CHECK_MESSAGE(joined.find("MATERIALIZE") == std::string::npos, joined);
    CHECK_MESSAGE(joined.find("CO-ROUTINE") == std::string::npos, joined);
    const auto summed = plan("SELECT * FROM map_tiles WHERE map_id = 1");
    CHECK_MESSAGE(summed.find("SEARCH l USING PRIMARY KEY (map_id=?)") != std::string::npos,
                  summed);
    CHECK(plan("SELECT map_id FROM files WHERE sha256 = 'x'").find("files_by_sha256") !=
          std::string::npos);
    CHECK(plan("SELECT * FROM problems WHERE code = 'M10'").find("problems_by_code") !=
          std::string::npos);
    // Through the views over what maps share (schema 010): from the shared
    // row by its index, then to the maps that have it by theirs.
    const auto by_feature = plan("SELECT * FROM ddnet_features WHERE feature = 'TELE_GUN'");
    CHECK_MESSAGE(by_feature.find("feature_set_members_by_feature") != std::string::npos,
                  by_feature);
    CHECK_MESSAGE(by_feature.find("map_parts_by_feature_set") != std::string::npos, by_feature);
    const auto by_kind = plan("SELECT map_id, layer_index FROM layers WHERE kind = 'tele'");
    CHECK_MESSAGE(by_kind.find("layer_defs_by_kind") != std::string::npos, by_kind);
    CHECK_MESSAGE(by_kind.find("map_layers_by_def") != std::string::npos, by_kind);
    const auto by_name = plan("SELECT map_id FROM images WHERE name = 'grass_main'");
    CHECK_MESSAGE(by_name.find("body_images_by_name") != std::string::npos, by_name);
    CHECK_MESSAGE(by_name.find("map_parts_by_body") != std::string::npos, by_name);
    const auto of_map = plan("SELECT * FROM layers WHERE map_id = 1");
    CHECK_MESSAGE(of_map.find("SCAN") == std::string::npos, of_map);
    CHECK(plan("SELECT * FROM problems WHERE map_id = 1").find("problems_of_map") !=
          std::string::npos);
    // ddnet_mapinfo's 41 feature columns: the map's parts looked up once per
    // row (schema 12), each column one lookup in its feature set, not a join
    // of map_parts per column.
    for (const std::string view : {"ddnet_mapinfo", "ddnet_mapinfo_history"}) {
      const std::string mapinfo = plan("SELECT * FROM " + view);
      const std::string lookup = "SEARCH p USING INTEGER PRIMARY KEY (rowid=?)";
      std::size_t part_lookups = 0;
      for (auto at = mapinfo.find(lookup); at != std::string::npos;
           at = mapinfo.find(lookup, at + 1))
        ++part_lookups;
      CHECK_MESSAGE(part_lookups <= 1, view << "\n" << mapinfo);
      const std::string feature = "SEARCH f USING PRIMARY KEY (feature_set_id=? AND feature=?)";
      CHECK_MESSAGE(mapinfo.find(feature) != std::string::npos, view << "\n" << mapinfo);
    }
  }

}  // TEST_SUITE
