// The archive as it is now (schema/010_current_state.sql): run_entries,
// current_maps and the current ddnet_mapinfo (with ddnet_mapinfo_history for
// what was), the problem_codes table written from the program's code table,
// and view columns that do not collide (map_tiles.tile_name, one tile
// vocabulary through tile_names.mapinfo_name). Written through the writer,
// as `mapindex index` writes them; expected rows are what the test wrote.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "common/problem_codes.h"
#include "extract/teeworlds_features.h"
#include "index/index_db.h"
#include "tests/support/codes.h"
#include "tests/test_index_helpers.h"

using namespace mapindex;
using namespace mapindex::index;
using namespace mapindex::sqlite;
using namespace mapindex::index::testing;

namespace {

using Rows = std::vector<std::string>;

// An unreadable entry (the archive was cut short inside it).
EntryRecord cut_entry(std::int64_t source, std::string path) {
  EntryRecord e;
  e.source_id = source;
  e.entry_path = std::move(path);
  e.kind = EntryKind::unreadable;
  e.problems = {{Code::read_truncated, "the archive ends early", Location::file()}};
  return e;
}

// Three runs over the folder "/srv/maps" and one over "/srv/other":
//   run 1 (complete): a (content 1), b (2), c (3), readme.txt; /srv/other: o (6)
//   run 2 (complete): a (1), c (4: other content, game width 103), d (5: rejected)
//                     b deleted
//   run 3 (interrupted): a only
// So the archive now is run 2's a, c, d, and run 1's o.
struct ThreeRuns {
  TempDir dir;
  std::string path = dir.file("three.sqlite");
  std::int64_t run1 = 0, run2 = 0, run3 = 0;

  explicit ThreeRuns(OpenOptions options = {}) {
    auto db = open_index(path, std::move(options));
    run1 = db.begin_run("night 1", "0.0-test");
    auto maps = db.source_id(run1, "/srv/maps", SourceKind::folder);
    const auto other = db.source_id(run1, "/srv/other", SourceKind::folder);
    const auto a = race_map(0), b = race_map(1), c_old = race_map(2), c_new = race_map(3),
               o = race_map(6), d = broken_map();
    db.write_entry(run1, map_entry(maps, "a.map", 1), &a);
    db.write_entry(run1, map_entry(maps, "b.map", 2), &b);
    db.write_entry(run1, map_entry(maps, "c.map", 3), &c_old);
    EntryRecord readme;
    readme.source_id = maps;
    readme.entry_path = "readme.txt";
    readme.kind = EntryKind::other;
    readme.size = 10;
    readme.sha256 = digest_of(99);
    readme.crc32 = 1;
    db.write_entry(run1, readme, nullptr);
    db.write_entry(run1, map_entry(other, "o.map", 6), &o);
    db.finish_run(run1, RunStatus::complete, {});

    run2 = db.begin_run("night 2", "0.0-test");
    maps = db.source_id(run2, "/srv/maps", SourceKind::folder);
    db.write_entry(run2, map_entry(maps, "a.map", 1), nullptr);  // known: not measured again
    db.write_entry(run2, map_entry(maps, "c.map", 4), &c_new);
    db.write_entry(run2, map_entry(maps, "d.map", 5), &d);
    db.write_entry(run2, cut_entry(maps, "e.map"), nullptr);
    db.finish_run(run2, RunStatus::complete, {});

    run3 = db.begin_run("night 3", "0.0-test");
    maps = db.source_id(run3, "/srv/maps", SourceKind::folder);
    db.write_entry(run3, map_entry(maps, "a.map", 1), nullptr);
    db.finish_run(run3, RunStatus::interrupted, {});
  }
};

}  // namespace

TEST_SUITE("current state") {
  TEST_CASE("current state: current_maps holds the entries each source's latest complete run saw") {
    ThreeRuns f;
    auto db = open_index(f.path);
    const auto h = db.handle();
    CHECK(query_rows(h,
                     "SELECT source, entry_path, name, status, game_width, map_id IS NOT NULL, "
                     "run_id FROM current_maps ORDER BY source, entry_path") ==
          Rows{"/srv/maps|a.map|a|ok|100|1|" + std::to_string(f.run2),
               "/srv/maps|c.map|c|ok|103|1|" + std::to_string(f.run2),
               "/srv/maps|d.map|d|rejected|0|1|" + std::to_string(f.run2),
               "/srv/other|o.map|o|ok|106|1|" + std::to_string(f.run1)});
    // The content's statistics and codes (errors first, then warnings; no info).
    CHECK(query_text(h,
                     "SELECT sha256, layers, images, envelopes, sounds, errors, warnings, infos, "
                     "codes IS NULL FROM current_maps WHERE name = 'a'") ==
          sha_of(1) + "|6|2|1|1|0|0|1|1");
    CHECK(query_text(h, "SELECT codes FROM current_maps WHERE name = 'd'") == "M10,H5");

    // ddnet_mapinfo is the archive now: the deleted map is not there, the
    // replaced one once, with its new width; its history keeps every content.
    CHECK(query_int(h, "SELECT count(*) FROM ddnet_mapinfo") == 4);
    CHECK(query_int(h, "SELECT count(*) FROM ddnet_mapinfo WHERE Map = 'b'") == 0);
    CHECK(query_rows(h, "SELECT Width, entry_path, source FROM ddnet_mapinfo WHERE Map = 'c'") ==
          Rows{"103|c.map|/srv/maps"});
    CHECK(query_int(h, "SELECT count(*) FROM ddnet_mapinfo_history") == 6);
    CHECK(query_int(h, "SELECT count(*) FROM ddnet_mapinfo_history WHERE Map = 'b'") == 1);
    // race_map's features, as written (DEATH, TELE_GUN, TELEIN).
    CHECK(query_text(h,
                     "SELECT DEATH, TELE_GUN, TELEIN, JETPACK_START FROM ddnet_mapinfo "
                     "WHERE Map = 'a'") == "1|1|1|0");
  }

  TEST_CASE("current state: a source's latest complete reading wins over a partial one") {
    ThreeRuns f;
    auto db = open_index(f.path);
    // Run 4 is complete but read /srv/maps only in part (cut short after a).
    const auto run4 = db.begin_run("night 4", "0.0-test");
    const auto maps = db.source_id(run4, "/srv/maps", SourceKind::folder);
    db.write_entry(run4, map_entry(maps, "a.map", 1), nullptr);
    db.set_source_reading(run4, maps, SourceReading::partial, "a.map");
    db.finish_run(run4, RunStatus::complete, {});
    const std::string current =
        "SELECT group_concat(entry_path, ',') FROM (SELECT entry_path FROM current_maps "
        "WHERE source = '/srv/maps' ORDER BY entry_path)";
    CHECK(query_text(db.handle(), current) == "a.map,c.map,d.map");

    // A source that no run read completely shows its latest complete run's reading.
    const auto run5 = db.begin_run("night 5", "0.0-test");
    const auto fresh = db.source_id(run5, "/srv/cut.tar", SourceKind::archive);
    const auto stats = race_map(7);
    db.write_entry(run5, map_entry(fresh, "x.map", 7), &stats);
    db.set_source_reading(run5, fresh, SourceReading::partial, "x.map");
    db.finish_run(run5, RunStatus::complete, {});
    CHECK(query_rows(db.handle(),
                     "SELECT entry_path, run_id FROM current_maps WHERE source = '/srv/cut.tar'") ==
          Rows{"x.map|" + std::to_string(run5)});
  }

  TEST_CASE("current state: run_entries lists what each run saw, on re-runs too") {
    ThreeRuns f;
    auto db = open_index(f.path);
    const auto h = db.handle();
    const std::string of_run2 =
        "SELECT entry_path, kind, status, coalesce(codes, '-'), coalesce(first_problem, '-') "
        "FROM run_entries WHERE run_id = " +
        std::to_string(f.run2) + " ORDER BY entry_path";
    CHECK(query_rows(h, of_run2) ==
          Rows{"a.map|map|ok|-|-", "c.map|map|ok|-|-",
               "d.map|map|rejected|M10,H5|no game layer, expected at least one",
               "e.map|unreadable|unreadable|read.truncated|the archive ends early"});
    CHECK(query_rows(h, "SELECT entry_path, status FROM run_entries WHERE run_id = " +
                            std::to_string(f.run1) + " ORDER BY source, entry_path") ==
          Rows{"a.map|ok", "b.map|ok", "c.map|ok", "readme.txt|other", "o.map|ok"});
    // A run that measured nothing (every map known) lists its rejected entry
    // too: the rows follow the sightings, not the run that measured the map.
    const auto run4 = db.begin_run("re-run", "0.0-test");
    const auto maps = db.source_id(run4, "/srv/maps", SourceKind::folder);
    for (const auto& [path, content] : {std::pair{"a.map", 1}, {"c.map", 4}, {"d.map", 5}})
      db.write_entry(run4, map_entry(maps, path, content), nullptr);
    db.finish_run(run4, RunStatus::complete, {});
    CHECK(query_rows(h, "SELECT entry_path, codes FROM run_entries WHERE run_id = " +
                            std::to_string(run4) + " AND status IN ('rejected', 'warnings')") ==
          Rows{"d.map|M10,H5"});
    CHECK(query_int(h, "SELECT count(*) FROM problems WHERE run_id = " + std::to_string(run4)) ==
          0);  // what the summary's old hint asked for
  }

  TEST_CASE("current state: problem_codes is the program's table, repaired on the next open") {
    TempDir dir;
    const auto path = dir.file("codes.sqlite");
    {
      auto db = open_index(path);
      const auto h = db.handle();
      CHECK(query_int(h, "SELECT count(*) FROM problem_codes") ==
            static_cast<std::int64_t>(code_table().size()));
      for (const auto& c : code_table()) {
        INFO(c.string);
        CHECK(query_rows(h,
                         "SELECT title, scope, release_check, meaning, coalesce(ddnet, '-'), "
                         "coalesce(teeworlds_06, '-'), coalesce(teeworlds_07, '-'), hint FROM "
                         "problem_codes WHERE code = '" +
                             std::string(c.string) + "' AND severity = '" +
                             std::string(to_string(c.severity)) + "'") ==
              Rows{std::string(c.title) + "|" + std::string(to_string(c.group)) + "|" +
                   (is_release_check(c.code) ? "1" : "0") + "|" + std::string(c.meaning) + "|" +
                   (c.ddnet == GameLoad::none ? "-" : std::string(to_string(c.ddnet))) + "|" +
                   (c.ddnet == GameLoad::none ? "-" : std::string(to_string(c.teeworlds06))) + "|" +
                   (c.ddnet == GameLoad::none ? "-" : std::string(to_string(c.teeworlds07))) + "|" +
                   std::string(c.hint)});
      }
      CHECK(query_text(h, "SELECT title FROM problem_codes WHERE code = 'H5'") ==
            info(Code::H5).title);
      CHECK(query_rows(h, "SELECT severity FROM problem_codes WHERE code = 'V6' ORDER BY 1") ==
            Rows{"error", "warning"});
      // Stale rows, as an older mapindex would have left them.
      exec_sql(h,
               "UPDATE problem_codes SET title = 'old title' WHERE code = 'H5';"
               "DELETE FROM problem_codes WHERE code = 'M14';"
               "INSERT INTO problem_codes VALUES ('gone.code', 'info', 't', 'check', 0, 'm', "
               "NULL, NULL, NULL, 'h')");
    }
    auto db = open_index(path);
    CHECK(query_text(db.handle(), "SELECT title FROM problem_codes WHERE code = 'H5'") ==
          info(Code::H5).title);
    CHECK(query_int(db.handle(), "SELECT count(*) FROM problem_codes WHERE code = 'M14'") == 1);
    CHECK(query_int(db.handle(), "SELECT count(*) FROM problem_codes WHERE code = 'gone.code'") ==
          0);
  }

  TEST_CASE("current state: every stored problem has a titled row in problem_codes") {
    ThreeRuns f;
    auto db = open_index(f.path);
    const auto h = db.handle();
    REQUIRE(query_int(h, "SELECT count(DISTINCT code) FROM problems") >= 4);
    CHECK(query_int(h,
                    "SELECT count(*) FROM problems p LEFT JOIN problem_codes c "
                    "USING (code, severity) WHERE c.title IS NULL OR c.title = ''") == 0);
    CHECK(query_rows(h,
                     "SELECT code, title FROM problem_list WHERE code IN ('H5', 'read.truncated') "
                     "ORDER BY code") ==
          Rows{"H5|" + std::string(info(Code::H5).title),
               "read.truncated|" + std::string(info(Code::read_truncated).title)});
  }

  TEST_CASE("current state: map_tiles joins without aliases, tile_names has mapinfo names") {
    OneMapIndex f;
    auto db = open_index(f.path);
    const auto h = db.handle();
    // The join the docs show, as a user first writes it.
    CHECK(query_rows(h,
                     "SELECT name, tile_name, count FROM map_tiles JOIN map_names USING (map_id) "
                     "WHERE layer_kind = 'game' AND tile_name = 'FREEZE'") == Rows{"a|FREEZE|600"});
    CHECK(query_rows(h,
                     "SELECT name, tile_name, count FROM map_tiles JOIN current_maps "
                     "USING (map_id) WHERE layer_kind = 'tele' ORDER BY tile") ==
          Rows{"a|TELEIN|2", "a|TELEOUT|2"});
    // Where DDNet's mapinfo names a tile's feature otherwise (DDNet's
    // src/game/mapitems.h against ddnet.org's mapinfo columns).
    const auto mapinfo = [&](const std::string& kind, int tile) {
      return query_text(
          h, "SELECT coalesce(mapinfo_name, '-') FROM tile_names WHERE layer_kind = '" + kind +
                 "' AND tile = " + std::to_string(tile));
    };
    CHECK(query_text(h, "SELECT name FROM tile_names WHERE layer_kind = 'game' AND tile = 106") ==
          "JETPACK_ENABLE");
    CHECK(mapinfo("game", 106) == "JETPACK_START");
    CHECK(mapinfo("front", 106) == "JETPACK_START");
    CHECK(mapinfo("game", 202) == "WEAPON_RIFLE");  // WEAPON_LASER
    CHECK(mapinfo("game", 105) == "SUPER_START");   // UNLIMITED_JUMPS_ENABLE
    CHECK(mapinfo("tele", 26) == "TELEIN");
    CHECK(mapinfo("game", 9) == "-");  // FREEZE sets no flag
    CHECK(mapinfo("game", 2) == "DEATH");
    // Every flag of ddnet_mapinfo is set by some tile, and only flags are named.
    std::set<std::string> flags;
    for (const auto& c : column_names(h, "ddnet_mapinfo"))
      if (c != "Map" && c != "Width" && c != "Height" && c != "map_id" && c != "sha256" &&
          c != "status" && c != "source" && c != "entry_path")
        flags.insert(c);
    CHECK(flags.size() == teeworlds::kDdnetFeatureNames.size());
    const auto named = query_rows(
        h, "SELECT DISTINCT mapinfo_name FROM tile_names WHERE mapinfo_name IS NOT NULL");
    CHECK(std::set<std::string>(named.begin(), named.end()) == flags);
    // map_tiles names the flag beside the tile.
    CHECK(query_rows(h,
                     "SELECT tile_name, mapinfo_name FROM map_tiles WHERE layer_kind = 'tele' "
                     "AND tile = 26") == Rows{"TELEIN|TELEIN"});
  }

  // Schema 9 -> 10 (schema/010_current_state.sql) on an index the writer of
  // schema 9 filled: rows kept, the new views and table answer.
  TEST_CASE("current state: an index of schema version 9 migrates to the current views") {
    const Migration& migration = migration_named("_current_state.sql");
    OpenOptions before;
    before.migrations = migrations_before(migration);
    REQUIRE(before.migrations.back().version == 9);
    // ThreeRuns' rows in an index of schema 9 (this build's writer writes
    // the current schema only).
    ThreeRuns current;
    struct {
      std::string path;
    } f{current.dir.file("nine.sqlite")};
    copy_into_older_index(f.path, before, current.path);
    std::vector<std::string> rows_before;
    const auto dump = [](sqlite3* h) {
      std::vector<std::string> rows;
      for (const auto& table : table_names(h))
        if (table != "problem_codes" && table != "tile_names")
          for (auto& r : table_rows(h, table)) rows.push_back(table + ": " + r);
      return rows;
    };
    {
      auto db = open_index(f.path, before);
      REQUIRE(db.schema_version() == 9);
      const auto views =
          query_rows(db.handle(), "SELECT name FROM sqlite_schema WHERE type = 'view'");
      CHECK(std::find(views.begin(), views.end(), "current_maps") == views.end());
      // Before: ddnet_mapinfo counted history (the deleted b, both c's).
      CHECK(query_int(db.handle(), "SELECT count(*) FROM ddnet_mapinfo") == 6);
      CHECK(query_text(db.handle(), "SELECT name FROM map_tiles LIMIT 1") != "<no row>");
      rows_before = dump(db.handle());
    }
    OpenOptions through = before;
    through.migrations.push_back(migration);
    auto db = open_index(f.path, through);
    const auto h = db.handle();
    CHECK(db.schema_version() == migration.version);
    CHECK(dump(h) == rows_before);
    CHECK(query_int(h, "SELECT count(*) FROM ddnet_mapinfo") == 4);
    CHECK(query_int(h, "SELECT count(*) FROM ddnet_mapinfo WHERE Map = 'b'") == 0);
    CHECK(query_int(h, "SELECT count(*) FROM ddnet_mapinfo_history") == 6);
    CHECK(query_rows(h,
                     "SELECT entry_path FROM current_maps WHERE source = '/srv/maps' "
                     "ORDER BY entry_path") == Rows{"a.map", "c.map", "d.map"});
    CHECK(query_int(h, "SELECT count(*) FROM problem_codes") ==
          static_cast<std::int64_t>(code_table().size()));
    CHECK(query_text(h,
                     "SELECT mapinfo_name FROM tile_names WHERE layer_kind = 'game' AND "
                     "tile = 106") == "JETPACK_START");
    CHECK(query_rows(h,
                     "SELECT name, tile_name, count FROM map_tiles JOIN map_names "
                     "USING (map_id) WHERE name = 'a' AND layer_kind = 'game' AND tile = 9") ==
          Rows{"a|FREEZE|600"});
    CHECK(query_text(h, "SELECT count(*) FROM pragma_foreign_key_check") == "0");
  }
}
