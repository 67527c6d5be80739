// End to end through the real binary: what a user meets first. The index
// summary names the rejected entries with their codes' titles and suggests a
// query that lists this run's entries with problems (on a re-run too);
// errors of an input as a whole are one line each on standard error, and so
// is a run that found no map; three nights of an archive leave current_maps
// and ddnet_mapinfo with exactly the archive of the last night.
#include <doctest/doctest.h>

#include <regex>
#include <sstream>

#include "common/problem_codes.h"
#include "tests/support/archive_builder.h"
#include "tests/support/map_builder.h"
#include "tests/support/process.h"
#include "tests/support/sqlite_probe.h"
#include "tests/test_audit_helpers.h"

namespace fs = std::filesystem;
using namespace mapindex;
using namespace mapindex::testing;

namespace {

using Strings = std::vector<std::string>;

// A small valid map of game width `width`; `seed` makes its content distinct.
std::vector<std::uint8_t> small_map(int seed, int width = 24) {
  MapBuilder b;
  b.info({.author = "summary test " + std::to_string(seed)});
  b.add_game_group();
  TileGrid game(LayerKind::game, width, 12);
  game.fill(0, 10, width, 2, 1).set(2, 9, 192);
  b.add_tile_layer(game, {.name = "Game"});
  return b.build();
}

// The same, cut short: the header promises more bytes than the file has (H5).
std::vector<std::uint8_t> cut_map(int seed) {
  const auto whole = small_map(seed);
  REQUIRE(whole.size() > 200);
  return truncated_copy(whole, whole.size() - 100);
}

std::string h5_titled() { return titled_code("H5"); }

// `mapindex index --db DB --progress none INPUTS...` with its summary.
ProcessResult index_with_summary(const fs::path& db, const Strings& inputs) {
  Strings args = {"index", "--db", db.string(), "--progress", "none"};
  args.insert(args.end(), inputs.begin(), inputs.end());
  return run_mapindex(args);
}

// The follow-up query the summary suggests, as a shell would pass it on:
// `  entries:  mapindex query --db DB "SQL"`.
Strings suggested_query(const std::string& summary) {
  static const std::regex line(R"re(\n  entries:  mapindex query --db (\S+) "([^"$`\\!]*)"\n)re");
  std::smatch m;
  if (!std::regex_search(summary, m, line)) return {};
  return {"query", "--db", m[1].str(), "--csv", m[2].str()};
}

std::string sql(const fs::path& db, const std::string& query) { return sql_value(db, query); }

}  // namespace

TEST_SUITE("index summary") {
  TEST_CASE(
      "index summary e2e: the rejected entries by name, and a query that lists them on a re-run too") {
    TempDir dir;
    const fs::path maps = dir / "maps";
    fs::create_directories(maps);
    // 12 maps cut short (sorted names: cut-01 .. cut-12), one ok.
    for (int i = 1; i <= 12; ++i)
      write_file(maps / ("cut-" + std::string(i < 10 ? "0" : "") + std::to_string(i) + ".map"),
                 cut_map(i));
    write_file(maps / "fine.map", small_map(100));
    const fs::path db = dir / "index.sqlite";

    for (int run = 1; run <= 2; ++run) {
      CAPTURE(run);
      const auto r = index_with_summary(db, {maps.string()});
      INFO(r.out);
      INFO(r.err);
      CHECK(r.exit_code == 1);  // rejected maps
      // The first ten by path, each with its code and title, then how many more.
      for (int i = 1; i <= 12; ++i) {
        const std::string path =
            (maps / ("cut-" + std::string(i < 10 ? "0" : "") + std::to_string(i) + ".map"))
                .string();
        CHECK(count_lines_containing(r.out, path) == (i <= 10 ? 1 : 0));
      }
      CHECK(count_lines_containing(r.out, h5_titled()) == 10);
      CHECK(contains(r.out, "\n      and 2 more\n"));
      CHECK_FALSE(contains(r.out, "fine.map"));
      // The suggested query lists exactly this run's rejected entries.
      const auto query = suggested_query(r.out);
      REQUIRE(query.size() == 5);
      CHECK(contains(query[4], "run_id = " + std::to_string(run)));
      const auto q = run_mapindex(query);
      INFO(q.err);
      REQUIRE(q.exit_code == 0);
      const auto rows = lines_of(q.out);
      REQUIRE(rows.size() == 13);  // the CSV header and 12 entries
      for (std::size_t i = 1; i < rows.size(); ++i) {
        CHECK(contains(rows[i], ",cut-"));
        CHECK(contains(rows[i], ",rejected,H5,"));
        CHECK(contains(rows[i], "header describes a file of "));
      }
      CHECK(contains(r.out, "\n  a code:   mapindex explain CODE\n"));
    }
  }

  TEST_CASE("index summary e2e: errors of an input as a whole are one line each on stderr") {
    TempDir dir;
    const fs::path db = dir / "index.sqlite";
    const fs::path empty_dir = dir / "empty_dir";
    fs::create_directories(empty_dir);
    const fs::path empty_file = dir / "empty.zip";
    write_file(empty_file, {});
    // A tar cut inside its second member: the first is indexed, the reading is cut short.
    const auto tar = build_archive(ArchiveFormat::tar,
                                   {{"one.map", small_map(1)}, {"two.map", small_map(2, 200)}});
    const auto second = std::string(tar.begin(), tar.end()).find("two.map");
    REQUIRE(second != std::string::npos);  // the name opens the member's 512-byte header
    const fs::path cut_tar = dir / "cut.tar";
    write_file(cut_tar, truncated_copy(tar, second + 512 + 16));

    const auto r =
        index_with_summary(db, {empty_dir.string(), empty_file.string(), cut_tar.string()});
    INFO(r.out);
    INFO(r.err);
    CHECK(r.exit_code == 1);
    const auto line = [&](const fs::path& input, Code code) {
      return input.string() + ": " + std::string(info(code).title) + " (" +
             std::string(to_string(code)) + "): ";
    };
    CHECK(count_lines_containing(r.err, line(empty_dir, Code::read_empty)) == 1);
    CHECK(count_lines_containing(r.err, line(empty_file, Code::read_empty)) == 1);
    CHECK(count_lines_containing(r.err, "cut.tar") == 1);
    CHECK(count_lines_containing(
              r.err, std::string(info(Code::read_truncated).title) + " (read.truncated): ") == 1);
    CHECK_FALSE(contains(r.err, "found no map"));  // one.map was found
    // Each line starts with the command's name.
    for (const auto& l : lines_of(r.err)) CHECK(l.rfind("mapindex index: ", 0) == 0);
  }

  TEST_CASE("index summary e2e: a run that finds no map says so on standard error") {
    TempDir dir;
    const fs::path docs = dir / "docs";
    fs::create_directories(docs);
    write_file(docs / "README.txt", to_bytes("no maps here\n"));
    const auto r = index_with_summary(dir / "index.sqlite", {docs.string()});
    INFO(r.out);
    CHECK(r.exit_code == 0);  // nothing wrong was read
    CHECK(lines_of(r.err) == Strings{"mapindex index: found no map in " + docs.string() +
                                     " (1 entry read: 1 not maps, 0 unreadable, 0 oversize)"});
    // --quiet drops the summary, not this.
    const auto quiet =
        run_mapindex({"index", "--db", (dir / "q.sqlite").string(), "-q", docs.string()});
    CHECK(quiet.out.empty());
    CHECK(contains(quiet.err, "found no map in"));
  }
}

TEST_SUITE("current state") {
  TEST_CASE("current state e2e: ddnet_mapinfo's flags are the mapinfo names of a map's tiles") {
    // A map with tiles whose DDNet name differs from ddnet.org's column:
    // JETPACK_ENABLE (106), WEAPON_LASER (202), UNLIMITED_JUMPS_ENABLE (105).
    TempDir dir;
    MapBuilder b;
    b.add_game_group();
    TileGrid game(LayerKind::game, 30, 12);
    game.fill(0, 10, 30, 2, 1)
        .set(2, 9, 192)
        .set(4, 9, 106)
        .set(6, 9, 202)
        .set(8, 9, 105)
        .set(10, 9, 9);
    b.add_tile_layer(game, {.name = "Game"});
    TileGrid tele(LayerKind::tele, 30, 12);
    tele.set_tele(12, 9, 26, 1).set_tele(14, 9, 27, 1);
    b.add_tile_layer(tele, {.name = "Tele"});
    fs::create_directories(dir / "maps");
    write_file(dir / "maps" / "flags.map", b.build());
    const fs::path db = dir / "index.sqlite";
    REQUIRE(index_archive(db, dir / "maps").exit_code == 0);
    const std::string from_tiles = sql(
        db,
        "SELECT group_concat(mapinfo_name, ',') FROM (SELECT DISTINCT mapinfo_name FROM map_tiles "
        "WHERE mapinfo_name IS NOT NULL ORDER BY mapinfo_name)");
    CHECK(from_tiles == "JETPACK_START,SUPER_START,TELEIN,WEAPON_RIFLE");
    CHECK(sql(db,
              "SELECT JETPACK_START || WEAPON_RIFLE || SUPER_START || TELEIN || DEATH "
              "FROM ddnet_mapinfo") == "11110");
  }

  // Three nights of one archive folder. Night 2 deletes a map, replaces one
  // with other content under the same name and adds one cut short; night 3
  // adds one more. After each night current_maps holds exactly that night's
  // map entries and ddnet_mapinfo one row each; ddnet_mapinfo_history keeps
  // what was. (Each night's checks are one block: add the audit's to them.)
  TEST_CASE(
      "current state e2e: after three nights current_maps and ddnet_mapinfo are the last night") {
    TempDir dir;
    const fs::path maps = dir / "maps";
    const fs::path db = dir / "nightly.sqlite";
    fs::create_directories(maps);
    const auto current_entries = [&] {
      const std::string rows =
          sql(db,
              "SELECT group_concat(entry_path, ',') FROM (SELECT entry_path FROM current_maps "
              "ORDER BY entry_path)");
      return rows;
    };
    const auto mapinfo_rows = [&](const std::string& name) {
      return sql(db, "SELECT count(*) FROM ddnet_mapinfo WHERE Map = '" + name + "'");
    };

    // Night 1.
    write_file(maps / "keep.map", small_map(1, 20));
    write_file(maps / "forest.map", small_map(2, 22));
    write_file(maps / "dm6.map", small_map(3, 30));
    auto night = index_with_summary(db, {maps.string()});
    INFO(night.err);
    REQUIRE(night.exit_code == 0);
    CHECK(current_entries() == "dm6.map,forest.map,keep.map");
    CHECK(sql(db, "SELECT Width FROM ddnet_mapinfo WHERE Map = 'dm6'") == "30");

    // Night 2: forest deleted, dm6 replaced (other content, width 90), a cut-short map added.
    fs::remove(maps / "forest.map");
    write_file(maps / "dm6.map", small_map(4, 90));
    write_file(maps / "gores.map", cut_map(5));
    night = index_with_summary(db, {maps.string()});
    INFO(night.out);
    CHECK(night.exit_code == 1);  // gores.map is rejected
    CHECK(current_entries() == "dm6.map,gores.map,keep.map");
    CHECK(mapinfo_rows("forest") == "0");
    CHECK(mapinfo_rows("dm6") == "1");
    CHECK(sql(db, "SELECT Width FROM ddnet_mapinfo WHERE Map = 'dm6'") == "90");
    CHECK(sql(db, "SELECT count(*) FROM ddnet_mapinfo") == "3");
    CHECK(sql(db, "SELECT count(*) FROM ddnet_mapinfo_history WHERE Map IN ('dm6', 'forest')") ==
          "3");
    // The audit of night 2 lists dm6 (another author's map, width 30 -> 90)
    // under the source's `replaced`, and nothing under `fixed`.
    const auto audit = run_mapindex({"audit", "--db", db.string(), "--format", "json"});
    INFO(audit.err);
    const auto report = mapindex::audit::testing::parse_json(audit.out);
    const auto& source = report["sources"][0];
    REQUIRE(source["replaced"].array().size() == 1);
    CHECK(source["replaced"][0]["path"].str() == "dm6.map");
    CHECK(source["replaced"][0]["before"]["game_width"].integer() == 30);
    CHECK(source["replaced"][0]["after"]["game_width"].integer() == 90);
    CHECK(source["fixed"].array().empty());
    // The summary names the cut-short map with its code and title.
    CHECK(count_lines_containing(night.out, (maps / "gores.map").string() + "  " + h5_titled()) ==
          1);

    // Night 3: one map added, nothing else changes.
    write_file(maps / "new.map", small_map(6, 26));
    night = index_with_summary(db, {maps.string()});
    CHECK(night.exit_code == 1);  // gores.map is still rejected
    CHECK(current_entries() == "dm6.map,gores.map,keep.map,new.map");
    CHECK(sql(db, "SELECT count(*) FROM ddnet_mapinfo") == "4");
    CHECK(mapinfo_rows("forest") == "0");
    CHECK(count_lines_containing(night.out, (maps / "gores.map").string() + "  " + h5_titled()) ==
          1);
  }
}
