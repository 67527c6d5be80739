// End-to-end: `mapindex audit` (and `mapindex index --audit`) through the real
// binary. An archive is indexed, changed (a map added, one removed, one
// modified, one renamed, one broken, one with a new warning) and indexed
// again; the audit's text, JSON and markdown and its exit status for each
// --fail-on are checked after each run.
#include <doctest/doctest.h>

#include <sstream>

#include "tests/support/archive_builder.h"
#include "tests/support/map_builder.h"
#include "tests/support/process.h"
#include "tests/test_audit_helpers.h"

namespace fs = std::filesystem;
using namespace mapindex::testing;
using mapindex::audit::testing::Json;
using mapindex::audit::testing::parse_json;
using mapindex::teeworlds::LayerType;

namespace {

using Strings = std::vector<std::string>;

// A small valid map; `seed` makes its content distinct. With `race`, START
// and FINISH tiles (33, 34) and, with `checkpoints`, a time checkpoint (35).
std::vector<std::uint8_t> e2e_map(int seed, bool race = false, bool checkpoints = false) {
  MapBuilder b;
  b.info({.author = "audit e2e " + std::to_string(seed)});
  b.add_game_group();
  const int w = 24 + seed % 9, h = 12;
  TileGrid game(LayerType::game, w, h);
  game.fill(0, h - 2, w, 2, 1).set(2, h - 3, 192);
  if (race) game.set(4, h - 3, 33).set(w - 3, h - 3, 34);
  if (checkpoints) game.set(8, h - 3, 35);
  b.add_tile_layer(game, {.name = "Game"});
  return b.build();
}

// A valid map with an embedded image no layer uses (warning image.unused).
std::vector<std::uint8_t> map_with_unused_image(int seed) {
  MapBuilder b;
  b.info({.author = "audit e2e " + std::to_string(seed)});
  b.add_embedded_image("leftover", 16, 16);
  b.add_game_group();
  TileGrid game(LayerType::game, 30, 10);
  game.fill(0, 8, 30, 2, 1).set(2, 7, 192);
  b.add_tile_layer(game, {.name = "Game"});
  return b.build();
}

ProcessResult run_cli(const Strings& args) { return run_process(mapindex_binary(), args); }

ProcessResult index_archive(const fs::path& db, const fs::path& archive, Strings extra = {}) {
  Strings args = {"index", "--db", db.string(), "--progress", "none", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(archive.string());
  return run_cli(args);
}

ProcessResult audit(const fs::path& db, Strings extra = {}) {
  Strings args = {"audit", "--db", db.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_cli(args);
}

bool has_line(const std::string& text, const std::string& line) {
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (l == line) return true;
  return false;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

Strings paths(const Json& list) {
  Strings out;
  for (const auto& e : list.array()) out.push_back(e["path"].str());
  return out;
}

// Exit status of the audit for error, warning, never.
std::vector<int> exit_codes(const fs::path& db) {
  std::vector<int> codes;
  for (const char* fail_on : {"error", "warning", "never"})
    codes.push_back(audit(db, {"--fail-on", fail_on}).exit_code);
  return codes;
}

}  // namespace

TEST_SUITE("audit") {

TEST_CASE("audit e2e: index, change the archive, index again, audit") {
  TempDir dir;
  const fs::path db = dir / "index.sqlite";
  const fs::path archive = dir / "maps.zip";

  const auto keep = e2e_map(1), change_old = e2e_map(2), change_new = e2e_map(3),
             renamed = e2e_map(4), removed = e2e_map(5), breaks = e2e_map(6), added = e2e_map(7),
             race_without_cps = e2e_map(8, true, false), race_with_cps = e2e_map(9, true, true),
             warned = map_with_unused_image(10);
  REQUIRE(breaks.size() > 200);
  const auto broken = truncated_copy(breaks, breaks.size() - 100);

  // Run 1.
  write_archive(archive, ArchiveFormat::zip,
                {{"maps/keep.map", keep},
                 {"maps/change.map", change_old},
                 {"maps/rename-me.map", renamed},
                 {"maps/remove-me.map", removed},
                 {"maps/break-me.map", breaks},
                 {"maps/race.map", race_without_cps},
                 {"maps/race-cp.map", race_with_cps},
                 {"README.txt", to_bytes("maps of the audit test\n")}});
  auto run = index_archive(db, archive);
  INFO(run.err);
  REQUIRE(run.exit_code == 0);

  // The first run: no baseline; nothing rejected, but the race map without
  // time checkpoints is a new warning.
  auto text = audit(db);
  CHECK(text.exit_code == 0);
  CHECK(text.err.empty());
  CHECK(has_line(text.out, "no baseline: no earlier complete run read these sources, so everything counts as new"));
  CHECK(has_line(text.out, "result: 0 entries newly broken, 1 entry with new warnings"));
  CHECK(contains(text.out, "new warning race.no_time_checkpoints  maps/race.map: "));
  CHECK_FALSE(contains(text.out, "maps/race-cp.map:"));
  CHECK(exit_codes(db) == std::vector<int>{0, 1, 0});

  // Run 2: modified, renamed, removed, broken, added, a new warning.
  write_archive(archive, ArchiveFormat::zip,
                {{"maps/keep.map", keep},
                 {"maps/change.map", change_new},
                 {"maps/renamed.map", renamed},
                 {"maps/break-me.map", broken},
                 {"maps/added.map", added},
                 {"maps/warn.map", warned},
                 {"maps/race.map", race_without_cps},
                 {"maps/race-cp.map", race_with_cps},
                 {"README.txt", to_bytes("maps of the audit test\n")}});
  // `mapindex index --audit` prints the audit of the run and exits with its status.
  run = index_archive(db, archive, {"--audit", "--fail-on", "error"});
  CHECK(run.exit_code == 1);
  CHECK(contains(run.out, "mapindex audit of run 2 (complete, started "));
  CHECK(contains(run.out, "against run 1 (complete"));

  text = audit(db);
  CHECK(text.exit_code == 1);
  CHECK(has_line(text.out, "result: 1 entry newly broken, 1 entry with new warnings"));
  CHECK(has_line(text.out, "== " + archive.string() + " (archive) against run 1"));
  CHECK(has_line(text.out, "  newly broken (1):"));
  CHECK(contains(text.out, "    ! maps/break-me.map  ok -> rejected  [H5] "));
  CHECK(has_line(text.out, "  new problems (1):"));
  CHECK(contains(text.out, "    ? maps/warn.map  (new) -> warnings  [image.unused] "));
  CHECK(has_line(text.out, "  added (2):"));
  CHECK(contains(text.out, "    + maps/added.map  ok, "));
  CHECK(contains(text.out, "    + maps/warn.map  warnings, "));
  CHECK(has_line(text.out, "  removed (1):"));
  CHECK(contains(text.out, "    - maps/remove-me.map  ok, "));
  CHECK(has_line(text.out, "  changed (2):"));
  CHECK(contains(text.out, "    ~ maps/break-me.map  ok, "));
  CHECK(contains(text.out, "    ~ maps/change.map  ok, "));
  CHECK(has_line(text.out, "  moved (1):"));
  CHECK(contains(text.out, "    > maps/rename-me.map -> maps/renamed.map  ok, "));
  CHECK(has_line(text.out, "  unchanged: 4 entries"));  // keep, race, race-cp, README
  // The race map was already without checkpoints: not new any more.
  CHECK(contains(text.out, "    warning race.no_time_checkpoints  maps/race.map: "));
  CHECK(exit_codes(db) == std::vector<int>{1, 1, 0});

  const auto json = audit(db, {"--format", "json", "--fail-on", "never"});
  CHECK(json.exit_code == 0);
  const Json report = parse_json(json.out);
  CHECK(report["format_version"].integer() == 1);
  CHECK(report["run"]["run_id"].integer() == 2);
  CHECK(report["baselines"][0]["run_id"].integer() == 1);
  CHECK(report["new"]["errors"].integer() == 1);
  CHECK(report["new"]["warnings"].integer() == 1);
  const Json& s = report["sources"][0];
  CHECK(s["path"].str() == archive.string());
  CHECK(s["baseline_run_id"].integer() == 1);
  CHECK(paths(s["added"]) == Strings{"maps/added.map", "maps/warn.map"});
  CHECK(paths(s["removed"]) == Strings{"maps/remove-me.map"});
  REQUIRE(s["changed"].array().size() == 2);
  CHECK(s["changed"][0]["after"]["path"].str() == "maps/break-me.map");
  CHECK(s["changed"][0]["after"]["status"].str() == "rejected");
  CHECK(s["changed"][1]["after"]["path"].str() == "maps/change.map");
  REQUIRE(s["moved"].array().size() == 1);
  CHECK(s["moved"][0]["before"]["path"].str() == "maps/rename-me.map");
  CHECK(s["moved"][0]["after"]["path"].str() == "maps/renamed.map");
  CHECK(paths(s["newly_broken"]) == Strings{"maps/break-me.map"});
  CHECK(s["newly_broken"][0]["codes"][0].str() == "H5");
  CHECK(paths(s["gained_problems"]) == Strings{"maps/warn.map"});
  CHECK(s["fixed"].array().empty());
  CHECK(s["totals"]["now"]["entries"].integer() == 9);
  CHECK(s["totals"]["before"]["entries"].integer() == 8);
  CHECK(s["totals"]["now"]["rejected"].integer() == 1);
  CHECK(s["totals"]["now"]["warnings"].integer() == 1);
  CHECK(s["problem_counts"][0]["code"].str() == "H5");  // new error codes first
  CHECK(s["problem_counts"][0]["new"].boolean());

  const auto md = audit(db, {"--format", "markdown"});
  CHECK(md.exit_code == 1);
  CHECK(has_line(md.out, "## mapindex audit: run 2"));
  CHECK(has_line(md.out, "**1 entry newly broken, 1 entry with new warnings.**"));
  CHECK(has_line(md.out, "**Newly broken (1)**"));
  CHECK(has_line(md.out, "- `maps/rename-me.map` → `maps/renamed.map`"));

  // Run 3: the broken map is repaired; nothing new is wrong.
  write_archive(archive, ArchiveFormat::zip,
                {{"maps/keep.map", keep},
                 {"maps/change.map", change_new},
                 {"maps/renamed.map", renamed},
                 {"maps/break-me.map", breaks},
                 {"maps/added.map", added},
                 {"maps/warn.map", warned},
                 {"maps/race.map", race_without_cps},
                 {"maps/race-cp.map", race_with_cps},
                 {"README.txt", to_bytes("maps of the audit test\n")}});
  run = index_archive(db, archive, {"--audit", "--fail-on", "warning", "--audit-format", "json"});
  CHECK(run.exit_code == 0);
  text = audit(db);
  CHECK(has_line(text.out, "result: nothing newly broken and no new warnings"));
  CHECK(has_line(text.out, "  fixed (1):"));
  CHECK(contains(text.out, "    * maps/break-me.map  rejected -> ok  [H5] "));
  CHECK(exit_codes(db) == std::vector<int>{0, 0, 0});

  // Run 2 against run 3 explicitly (backwards): the break is new again.
  CHECK(audit(db, {"--run", "2", "--against", "3"}).exit_code == 1);
  // Run 3 against run 1: broken in neither; the new warning map is new.
  CHECK(audit(db, {"--run", "3", "--against", "1", "--fail-on", "error"}).exit_code == 0);
  CHECK(audit(db, {"--run", "3", "--against", "1", "--fail-on", "warning"}).exit_code == 1);
}

TEST_CASE("audit e2e: usage errors exit 2, --help lists every option with its default") {
  TempDir dir;
  const fs::path db = dir / "index.sqlite";

  const auto help = run_cli({"audit", "--help"});
  CHECK(help.exit_code == 0);
  for (const char* option : {"--db arg (=mapindex.sqlite)", "--run N", "--against N",
                             "--format arg (=text)", "--fail-on arg (=error)", "--limit N (=50)"})
    CHECK_MESSAGE(contains(help.out, option), option);
  CHECK(contains(help.out, "Exit status: 0"));

  auto r = audit(db);  // no index yet
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "does not exist"));

  const fs::path archive = dir / "one.zip";
  write_archive(archive, ArchiveFormat::zip, {{"a.map", e2e_map(1)}});
  REQUIRE(index_archive(db, archive).exit_code == 0);
  CHECK(audit(db).exit_code == 0);
  r = audit(db, {"--format", "xml"});
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "--format must be text, json or markdown, not 'xml'"));
  r = audit(db, {"--fail-on", "sometimes"});
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "--fail-on must be error, warning or never"));
  r = audit(db, {"--run", "7"});
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "--run 7: the index has no such run (runs go up to 1)"));
  r = audit(db, {"--against", "1"});
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "--against 1 is the run audited"));
  CHECK(audit(db, {"--run", "x"}).exit_code == 2);
  CHECK(audit(db, {"--bogus"}).exit_code == 2);
  CHECK(audit(db, {"extra-argument"}).exit_code == 2);
}

}  // TEST_SUITE
