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
using mapindex::LayerKind;
using mapindex::audit::testing::Json;
using mapindex::audit::testing::parse_json;
constexpr std::size_t kShortBound = 2000;  // docs/audit.md: the short report fits a chat message

namespace {

using Strings = std::vector<std::string>;

// A small valid map; `seed` makes its content distinct. With `race`, START
// and FINISH tiles (33, 34) and, with `checkpoints`, a time checkpoint (35).
std::vector<std::uint8_t> e2e_map(int seed, bool race = false, bool checkpoints = false) {
  MapBuilder b;
  b.info({.author = "audit e2e " + std::to_string(seed)});
  b.add_game_group();
  const int w = 24 + seed % 9, h = 12;
  TileGrid game(LayerKind::game, w, h);
  game.fill(0, h - 2, w, 2, 1).set(2, h - 3, 192);
  if (race) game.set(4, h - 3, 33).set(w - 3, h - 3, 34);
  if (checkpoints) game.set(8, h - 3, 35);
  b.add_tile_layer(game, {.name = "Game"});
  return b.build();
}

// A valid map with a real warning (a tiles layer whose color envelope does
// not exist: envelope.missing) and an embedded image no layer uses (info
// image.unused: it cannot break the map).
std::vector<std::uint8_t> map_with_warning(int seed) {
  MapBuilder b;
  b.info({.author = "audit e2e " + std::to_string(seed)});
  b.add_embedded_image("leftover", 16, 16);
  b.add_game_group();
  TileGrid game(LayerKind::game, 30, 10);
  game.fill(0, 8, 30, 2, 1).set(2, 7, 192);
  b.add_tile_layer(game, {.name = "Game"});
  TileLayerSpec decoration;
  decoration.color_envelope = 5;
  b.add_tile_layer(TileGrid(LayerKind::tiles, 30, 10), decoration);
  return b.build();
}

// A valid map whose only finding is an envelope nothing uses (info
// envelope.unused): the map is ok.
std::vector<std::uint8_t> map_with_unused_envelope(int seed) {
  MapBuilder b;
  b.info({.author = "audit e2e " + std::to_string(seed)});
  EnvelopeSpec unused;
  unused.points = {{0, 1, {}, {}}};
  b.add_envelope(unused);
  b.add_game_group();
  TileGrid game(LayerKind::game, 30, 10);
  game.fill(0, 8, 30, 2, 1).set(2, 7, 192);
  b.add_tile_layer(game, {.name = "Game"});
  return b.build();
}

// A code or rule with its title, as every audit format prints it (from the
// code table, src/common/problem_codes.h).
std::string titled(const std::string& code) { return mapindex::titled_code(code); }

// A valid map by `author` with a w x h game layer; with `warn`, a tiles
// layer whose color envelope does not exist (warning envelope.missing).
std::vector<std::uint8_t> authored_map(const std::string& author, int w, int h, bool warn) {
  MapBuilder b;
  b.info({.author = author});
  b.add_game_group();
  TileGrid game(LayerKind::game, w, h);
  game.fill(0, h - 2, w, 2, 1).set(2, h - 3, 192);
  b.add_tile_layer(game, {.name = "Game"});
  if (warn) {
    TileLayerSpec decoration;
    decoration.color_envelope = 5;
    b.add_tile_layer(TileGrid(LayerKind::tiles, w, h), decoration);
  }
  return b.build();
}

ProcessResult audit(const fs::path& db, Strings extra = {}) {
  Strings args = {"audit", "--db", db.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_mapindex(args);
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

// The offset of the local file header of `name` in a zip built by
// build_archive: the 30-byte header "PK\3\4" ... precedes the name.
std::size_t zip_local_header(const std::vector<std::uint8_t>& zip, const std::string& name) {
  const std::string bytes(zip.begin(), zip.end());
  const auto at = bytes.find(name);
  REQUIRE(at != std::string::npos);
  REQUIRE(at >= 30);
  REQUIRE(bytes.compare(at - 30, 4, std::string("PK\x03\x04", 4)) == 0);
  return at - 30;
}

std::size_t count_lines_starting(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::size_t n = 0;
  for (std::string l; std::getline(in, l);)
    if (l.rfind(prefix, 0) == 0) ++n;
  return n;
}

}  // namespace

TEST_SUITE("audit") {
  TEST_CASE("audit e2e: index, change the archive, index again, audit") {
    TempDir dir;
    const fs::path db = dir / "index.sqlite";
    const fs::path archive = dir / "maps.zip";

    // change_new: the same size as change_old (seed 11 % 9 == 2), another
    // author: a new version of the map, not another map (not replaced).
    const auto keep = e2e_map(1), change_old = e2e_map(2), change_new = e2e_map(11),
               renamed = e2e_map(4), removed = e2e_map(5), breaks = e2e_map(6), added = e2e_map(7),
               race_without_cps = e2e_map(8, true, false), race_with_cps = e2e_map(9, true, true),
               warned = map_with_warning(10);
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

    // The first run: no baseline; nothing rejected; the race map without
    // time checkpoints is new info (DDNet does not require them): it fails
    // no --fail-on.
    auto text = audit(db);
    CHECK(text.exit_code == 0);
    CHECK(text.err.empty());
    CHECK(has_line(
        text.out,
        "no baseline: no earlier complete run read these sources, so everything counts as new"));
    CHECK(has_line(text.out,
                   "result: nothing newly broken and no new warnings; 1 entry with new info "
                   "(never fails)"));
    CHECK(
        has_line(text.out, "    " + titled("race.no_time_checkpoints") + ": info, 1 entry, 1 new"));
    CHECK(contains(text.out, "\n      new maps/race.map: "));
    CHECK_FALSE(contains(text.out, "maps/race-cp.map:"));
    CHECK(exit_codes(db) == std::vector<int>{0, 0, 0});

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
    CHECK(has_line(text.out,
                   "result: 1 entry newly broken, 1 entry with new warnings; 1 entry with new "
                   "info (never fails)"));
    CHECK(has_line(text.out, "== " + archive.string() + " (archive) against run 1"));
    CHECK(has_line(text.out, "  newly broken (1):"));
    CHECK(contains(text.out, "    ! maps/break-me.map  ok -> rejected  [" + titled("H5") + "] "));
    CHECK(has_line(text.out, "  new problems (1):"));
    CHECK(contains(
        text.out, "    ? maps/warn.map  (new) -> warnings  [" + titled("envelope.missing") + "] "));
    // The unused image is info: listed last, apart from the warnings.
    CHECK(has_line(text.out, "  new info (never fails the audit) (1):"));
    CHECK(has_line(text.out, "    i maps/warn.map  [" + titled("image.unused") + "]"));
    CHECK(text.out.find("  new info (never fails the audit)") >
          text.out.find("  release checks ("));
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
    CHECK(has_line(text.out, "    " + titled("race.no_time_checkpoints") + ": info, 1 entry"));
    CHECK(contains(text.out, "\n          maps/race.map: "));
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
    CHECK(s["gained_problems"][0]["codes"].array().size() == 1);
    CHECK(s["gained_problems"][0]["codes"][0].str() == "envelope.missing");
    CHECK(paths(s["gained_info"]) == Strings{"maps/warn.map"});
    CHECK(s["gained_info"][0]["codes"][0].str() == "image.unused");
    CHECK(report["new"]["infos"].integer() == 1);
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
    CHECK(has_line(md.out,
                   "**1 entry newly broken, 1 entry with new warnings; 1 entry with new info "
                   "(never fails).**"));
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
    CHECK(contains(text.out, "    * maps/break-me.map  rejected -> ok  [" + titled("H5") + "] "));
    CHECK(exit_codes(db) == std::vector<int>{0, 0, 0});

    // Run 2 against run 3 explicitly (backwards): the break is new again.
    CHECK(audit(db, {"--run", "2", "--against", "3"}).exit_code == 1);
    // Run 3 against run 1: broken in neither; the new warning map is new.
    CHECK(audit(db, {"--run", "3", "--against", "1", "--fail-on", "error"}).exit_code == 0);
    CHECK(audit(db, {"--run", "3", "--against", "1", "--fail-on", "warning"}).exit_code == 1);
  }

  TEST_CASE("audit e2e: another map under the same name is replaced in every format, not fixed") {
    TempDir dir;
    const fs::path db = dir / "index.sqlite", archive = dir / "maps.zip";
    // Night 1: both maps have a warning, 30 x 10.
    write_archive(archive, ArchiveFormat::zip,
                  {{"maps/swap.map", authored_map("alice", 30, 10, true)},
                   {"maps/grow.map", authored_map("bob", 30, 10, true)}});
    REQUIRE(index_archive(db, archive).exit_code == 0);
    // Night 2: swap.map holds another mapper's map of another size; grow.map
    // is bob's map again, resized, its warning gone: fixed.
    write_archive(archive, ArchiveFormat::zip,
                  {{"maps/swap.map", authored_map("carol", 40, 14, false)},
                   {"maps/grow.map", authored_map("bob", 40, 14, false)}});
    REQUIRE(index_archive(db, archive).exit_code == 0);

    const auto json = audit(db, {"--format", "json"});
    REQUIRE_MESSAGE(json.exit_code == 0, json.err);
    const Json report = parse_json(json.out);
    const Json& s = report["sources"][0];
    REQUIRE(s["replaced"].array().size() == 1);
    const Json& r = s["replaced"][0];
    CHECK(r.keys() == Strings{"after", "before", "path"});
    CHECK(r["path"].str() == "maps/swap.map");
    CHECK(r["before"]["status"].str() == "warnings");
    CHECK(r["after"]["status"].str() == "ok");
    CHECK(r["before"]["game_width"].integer() == 30);
    CHECK(r["before"]["game_height"].integer() == 10);
    CHECK(r["after"]["game_width"].integer() == 40);
    CHECK(r["after"]["game_height"].integer() == 14);
    CHECK(r["after"]["path"].str() == "maps/swap.map");
    CHECK(paths(s["fixed"]) == Strings{"maps/grow.map"});
    CHECK(s["changed"].array().size() == 2);

    const auto text = audit(db);
    INFO(text.out);
    CHECK(has_line(text.out, "  replaced by another map (not a new version: never fixed) (1):"));
    CHECK(contains(text.out, "    x maps/swap.map  warnings, "));
    CHECK(contains(text.out, ", game 30x10 -> ok, "));
    CHECK(contains(text.out, ", game 40x14\n"));
    CHECK(has_line(text.out, "  changed (1):"));
    CHECK(contains(text.out, "    ~ maps/grow.map  warnings, "));
    CHECK(has_line(text.out, "  fixed (1):"));
    CHECK_FALSE(contains(text.out, "* maps/swap.map"));

    const auto md = audit(db, {"--format", "markdown"});
    CHECK(has_line(md.out, "**Replaced by another map (not a new version: never fixed) (1)**"));
    CHECK(contains(md.out, "- `maps/swap.map` (warnings, "));
    CHECK(contains(md.out, ", game 30x10 → ok, "));
    CHECK(has_line(md.out, "**Fixed (1)**"));

    const auto html = audit(db, {"--format", "html"});
    const auto at = html.out.find("<section class=\"replaced\">");
    REQUIRE(at != std::string::npos);
    const auto section = html.out.substr(at, html.out.find("</section>", at) - at);
    CHECK(contains(section, "<code>maps/swap.map</code>"));
    CHECK(contains(section, "game 30x10 → game 40x14"));
    CHECK_FALSE(contains(section, "maps/grow.map"));
  }

  TEST_CASE("audit e2e: usage errors exit 2, --help lists every option with its default") {
    TempDir dir;
    const fs::path db = dir / "index.sqlite";

    const auto help = run_mapindex({"audit", "--help"});
    CHECK(help.exit_code == 0);
    for (const char* option :
         {"--db arg (=mapindex.sqlite)", "--run N", "--against N", "--format arg (=text)",
          "--fail-on arg (=error)", "--limit N (=50)", "--only-new", "--accept",
          "--acknowledge arg", "--note arg", "-o [ --out ] arg"})
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
    CHECK(contains(r.err, "--format must be text, json, markdown or html, not 'xml'"));
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

  TEST_CASE("audit e2e: good night, cut-short night, good night: nothing cries wolf") {
    TempDir dir;
    const fs::path db = dir / "index.sqlite";
    const fs::path archive = dir / "maps.zip";

    // 6 good maps first, then what was always broken (2 rejected) or warned
    // (2 with a warning): the cut falls inside good-5's data, so the
    // cut-short night reads good-0..good-4 and none of the old problems.
    std::vector<ArchiveMember> members;
    for (int i = 0; i < 6; ++i)
      members.push_back({"maps/good-" + std::to_string(i) + ".map", e2e_map(20 + i)});
    for (int i = 0; i < 2; ++i) {
      const auto whole = e2e_map(30 + i);
      members.push_back({"maps/rejected-" + std::to_string(i) + ".map",
                         truncated_copy(whole, whole.size() - 100)});
    }
    for (int i = 0; i < 2; ++i)
      members.push_back({"maps/warned-" + std::to_string(i) + ".map", map_with_warning(40 + i)});
    const ArchiveSettings stored{"zip:compression=store", ""};
    const auto full = build_archive(ArchiveFormat::zip, members, stored);
    const auto cut_at =
        zip_local_header(full, "maps/good-5.map") + 30 + 15 + 40;  // in good-5's data
    REQUIRE(cut_at < zip_local_header(full, "maps/rejected-0.map"));
    const std::size_t not_read = members.size() - 5;  // good-5 and everything after it

    // Night 1: everything is new; the rejected maps fail it.
    write_file(archive, full);
    REQUIRE(index_archive(db, archive).exit_code == 1);  // rejected maps
    auto r = audit(db);
    CHECK(r.exit_code == 1);
    CHECK(has_line(r.out,
                   "result: 2 entries newly broken, 2 entries with new warnings; 2 entries with "
                   "new info (never fails)"));

    // Night 2: the upload was cut short.
    write_file(archive, truncated_copy(full, cut_at));
    index_archive(db, archive);
    r = audit(db);
    INFO(r.out);
    CHECK(r.exit_code == 1);  // the archive was not read to its end: say so once
    CHECK(has_line(
        r.out,
        "result: nothing newly broken and no new warnings; 1 source was not read to the end"));
    CHECK(contains(r.out,
                   "  the archive was cut short: " + std::to_string(not_read) +
                       " entries of run 1 not read, 5 entries read (the last: maps/good-4.map) ("));
    CHECK(has_line(r.out, "  not read (the reading was cut short; not counted as removed) (" +
                              std::to_string(not_read) + "):"));
    CHECK_FALSE(contains(r.out, "removed ("));
    CHECK_FALSE(contains(r.out, "newly broken ("));
    CHECK(audit(db, {"--fail-on", "never"}).exit_code == 0);
    auto json = audit(db, {"--format", "json", "--fail-on", "never"});
    Json report = parse_json(json.out);
    const Json& cut = report["sources"][0];
    CHECK(cut["reading"].str() == "partial");
    CHECK(cut["last_entry_read"].str() == "maps/good-4.map");
    CHECK(cut["not_read"].array().size() == not_read);
    CHECK(cut["removed"].array().empty());
    CHECK(cut["newly_broken"].array().empty());
    REQUIRE(cut["reading_errors"].array().size() == 1);
    CHECK(cut["reading_errors"][0]["code"].str().rfind("read.", 0) == 0);
    CHECK(report["new"]["unread_sources"].integer() == 1);
    CHECK(report["new"]["errors"].integer() == 0);

    // Night 3: the full archive is back. Its baseline is night 1, not the
    // cut-short night 2: nothing is newly broken, nothing has new warnings.
    write_file(archive, full);
    index_archive(db, archive);
    r = audit(db);
    INFO(r.out);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "\nagainst run 1 (complete, started "));
    CHECK(has_line(r.out, "result: nothing newly broken and no new warnings"));
    CHECK(has_line(r.out, "  unchanged: " + std::to_string(members.size()) + " entries"));
    CHECK(audit(db, {"--fail-on", "warning"}).exit_code == 0);
    // Compared with night 2 on purpose, the entries come back as added.
    r = audit(db, {"--against", "2", "--fail-on", "never"});
    // (good-5 was its reading error; a later run replaced its stored problem)
    CHECK(has_line(r.out, "  added (" + std::to_string(not_read - 1) + "):"));
  }

  TEST_CASE("audit e2e: an archive that cannot be read at all, and a source not read in this run") {
    TempDir dir;
    const fs::path db = dir / "index.sqlite";
    const fs::path a = dir / "a.zip", b = dir / "b.zip";
    const auto zip =
        build_archive(ArchiveFormat::zip, {{"one.map", e2e_map(1)}, {"two.map", e2e_map(2)}});
    write_file(a, zip);
    write_file(b, build_archive(ArchiveFormat::zip, {{"three.map", e2e_map(3)}}));
    REQUIRE(index_archive(db, a).exit_code == 0);
    // a.zip cut inside its first local header: nothing in it can be read.
    write_file(a, truncated_copy(zip, 20));
    index_archive(db, a);
    auto r = audit(db);
    INFO(r.out);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.out, "  the archive could not be read: 2 entries of run 1 not read ("));
    CHECK_FALSE(contains(r.out, "\n  entries "));  // no totals table of zeros
    CHECK_FALSE(contains(r.out, "added ("));
    CHECK_FALSE(contains(r.out, "removed ("));

    // The next night lists only b.zip: a.zip is not compared, and said so.
    REQUIRE(index_archive(db, b).exit_code == 0);
    r = audit(db);
    INFO(r.out);
    CHECK(has_line(r.out, "source " + a.string() +
                              " (archive) was not read in this run (run 2 read it): not compared"));
    const Json report = parse_json(audit(db, {"--format", "json"}).out);
    REQUIRE(report["sources_not_read"].array().size() == 1);
    CHECK(report["sources_not_read"][0]["path"].str() == a.string());
  }

  TEST_CASE("audit e2e: --accept a first night, --acknowledge a known-broken map") {
    TempDir dir;
    const fs::path db = dir / "index.sqlite";
    const fs::path archive = dir / "maps.zip";
    const auto good = e2e_map(1), old_whole = e2e_map(2), x_whole = e2e_map(3),
               x2_whole = e2e_map(4);
    const auto old_broken = truncated_copy(old_whole, old_whole.size() - 100);
    const auto x_broken = truncated_copy(x_whole, x_whole.size() - 100);
    const auto x2_broken = truncated_copy(x2_whole, x2_whole.size() - 90);

    // Night 1: an old broken map: the first night fails ...
    write_archive(archive, ArchiveFormat::zip, {{"good.map", good}, {"old.map", old_broken}});
    index_archive(db, archive);
    CHECK(audit(db).exit_code == 1);
    // ... until it is accepted.
    auto r = run_mapindex({"audit", "--db", db.string(), "--accept", "--note", "first night"});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "run 1 accepted"));
    r = audit(db);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "accepted: run 1 was accepted as it is ("));
    CHECK(contains(r.out, ", first night): its findings do not fail the audit"));
    CHECK(parse_json(audit(db, {"--format", "json"}).out)["accepted"]["note"].str() ==
          "first night");

    // Night 2: x.map arrives broken.
    write_archive(archive, ArchiveFormat::zip,
                  {{"good.map", good}, {"old.map", old_broken}, {"maps/x.map", x_broken}});
    index_archive(db, archive);
    CHECK(audit(db).exit_code == 1);
    // Acknowledged by name: the audit passes and lists it as acknowledged.
    r = run_mapindex(
        {"audit", "--db", db.string(), "--acknowledge", "x", "--note", "author knows"});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "acknowledged maps/x.map (sha256 "));
    r = audit(db);
    INFO(r.out);
    CHECK(r.exit_code == 0);
    CHECK(has_line(r.out, "result: nothing newly broken and no new warnings"));
    CHECK(has_line(r.out, "  acknowledged (do not fail the audit) (1):"));
    CHECK(contains(r.out, "    = maps/x.map  [H5"));
    CHECK_FALSE(contains(r.out, "  newly broken ("));
    const Json j = parse_json(audit(db, {"--format", "json"}).out);
    CHECK(j["new"]["errors"].integer() == 0);
    CHECK(j["sources"][0]["newly_broken"][0]["acknowledged"].boolean());

    // Night 3: another broken upload under the same name is new content: not acknowledged.
    write_archive(archive, ArchiveFormat::zip,
                  {{"good.map", good}, {"old.map", old_broken}, {"maps/x.map", x2_broken}});
    index_archive(db, archive);
    r = audit(db, {"--against", "1"});
    INFO(r.out);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.out, "    ! maps/x.map  (new) -> rejected  [" + titled("H5") + "]"));

    // Usage errors.
    CHECK(run_mapindex({"audit", "--db", db.string(), "--acknowledge", "nope"}).exit_code == 2);
    CHECK(run_mapindex({"audit", "--db", db.string(), "--acknowledge", std::string(64, 'a')})
              .exit_code == 2);
    CHECK(run_mapindex({"audit", "--db", db.string(), "--accept", "--run", "9"}).exit_code == 2);
    CHECK(
        run_mapindex({"audit", "--db", db.string(), "--accept", "--acknowledge", "x"}).exit_code ==
        2);
    CHECK(run_mapindex({"audit", "--db", db.string(), "--note", "why"}).exit_code == 2);
  }

  TEST_CASE(
      "audit e2e: --only-new fits a chat message and names every new item, the default report leads with it") {
    TempDir dir;
    const fs::path db = dir / "index.sqlite";
    const fs::path archive = dir / "maps.zip";
    // Many old findings: 30 rejected and 30 warned maps with long paths.
    std::vector<ArchiveMember> members;
    const std::string folder = "maps/a-long-folder-name-for-the-community-archive/";
    for (int i = 0; i < 30; ++i) {
      const auto whole = e2e_map(100 + i);
      members.push_back({folder + "old-rejected-" + std::to_string(i) + ".map",
                         truncated_copy(whole, whole.size() - 100)});
      members.push_back(
          {folder + "old-warned-" + std::to_string(i) + ".map", map_with_warning(200 + i)});
    }
    write_archive(archive, ArchiveFormat::zip, members);
    index_archive(db, archive);
    // Night 2: 2 newly broken, 3 with new warnings, 1 removed.
    members.pop_back();
    const std::vector<std::string> broken = {"maps/new-broken-a.map", "maps/new-broken-b.map"};
    const std::vector<std::string> warned = {"maps/new-warned-a.map", "maps/new-warned-b.map",
                                             "maps/new-warned-c.map"};
    for (std::size_t i = 0; i < broken.size(); ++i) {
      const auto whole = e2e_map(300 + static_cast<int>(i));
      members.push_back({broken[i], truncated_copy(whole, whole.size() - 100)});
    }
    for (std::size_t i = 0; i < warned.size(); ++i)
      members.push_back({warned[i], map_with_warning(400 + static_cast<int>(i))});
    write_archive(archive, ArchiveFormat::zip, members);
    index_archive(db, archive);

    const auto full = audit(db);
    INFO(full.out);
    CHECK(full.exit_code == 1);
    CHECK(has_line(full.out,
                   "result: 2 entries newly broken, 3 entries with new warnings; 3 entries with "
                   "new info (never fails)"));
    CHECK(has_line(full.out, "  new warnings (3):"));
    for (const auto& w : warned)
      CHECK(contains(full.out, "    ? " + w + "  [" + titled("envelope.missing") + "]"));
    // What changed comes before the totals and the old findings.
    const auto changes_at = full.out.find("  newly broken (2):");
    REQUIRE(changes_at != std::string::npos);
    CHECK(changes_at < full.out.find("\n  entries "));  // the totals table
    CHECK(full.out.find("  new warnings (3):") < full.out.find("  release checks ("));
    CHECK(full.out.size() > kShortBound);

    const auto short_report = audit(db, {"--only-new"});
    INFO(short_report.out);
    CHECK(short_report.exit_code == 1);
    CHECK(short_report.out.size() <= kShortBound);
    CHECK(has_line(short_report.out,
                   "result: 2 entries newly broken, 3 entries with new warnings; 3 entries with "
                   "new info (never fails)"));
    for (const auto& b : broken)
      CHECK(
          contains(short_report.out, "    ! " + b + "  (new) -> rejected  [" + titled("H5") + "]"));
    for (const auto& w : warned)
      CHECK(contains(short_report.out, "    ? " + w + "  [" + titled("envelope.missing") + "]"));
    CHECK(contains(short_report.out, "  removed (1):"));
    // No old finding is repeated.
    CHECK_FALSE(contains(short_report.out, "old-rejected-"));
    CHECK(count_lines_starting(short_report.out, "    ") <= 15);
    const auto md = audit(db, {"--only-new", "--format", "markdown"});
    CHECK(md.out.size() <= kShortBound + 8);
    CHECK(md.out.rfind("```\n", 0) == 0);
  }

  TEST_CASE("audit e2e: index --audit --audit-format json prints nothing but the JSON on stdout") {
    TempDir dir;
    const fs::path db = dir / "index.sqlite";
    const fs::path archive = dir / "maps.zip";
    write_archive(archive, ArchiveFormat::zip, {{"a.map", e2e_map(1)}});
    const auto r = run_mapindex({"index", "--db", db.string(), "--progress", "none", "--audit",
                                 "--audit-format", "json", archive.string()});
    INFO(r.out);
    CHECK(r.exit_code == 0);
    const Json report = parse_json(r.out);  // throws on anything but one JSON value
    CHECK(report["run"]["run_id"].integer() == 1);
    // Without --audit-format json, the summary is still printed.
    const auto text = run_mapindex(
        {"index", "--db", db.string(), "--progress", "none", "--audit", archive.string()});
    CHECK(contains(text.out, "mapindex: finished run 2"));
  }

  // Info findings (docs/guide.md, "Problem severities"): a map whose only finding is
  // an unused envelope is ok, is listed and counted as new info, last, and
  // passes --fail-on warning; an unused image beside a real warning fails it.
  TEST_CASE("audit e2e: a map with only an unused envelope is ok and passes --fail-on warning") {
    TempDir dir;
    const fs::path db = dir / "index.sqlite";
    const fs::path archive = dir / "maps.zip";
    const auto keep = e2e_map(1);
    write_archive(archive, ArchiveFormat::zip, {{"maps/keep.map", keep}});
    REQUIRE(index_archive(db, archive).exit_code == 0);

    write_archive(archive, ArchiveFormat::zip,
                  {{"maps/keep.map", keep}, {"maps/envelope.map", map_with_unused_envelope(3)}});
    auto run = index_archive(db, archive);
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    // Stored as info, and the map is ok.
    auto q = run_mapindex({"query", "--db", db.string(), "--tsv",
                           "SELECT m.status, m.teeworlds_status, m.warnings, m.infos, p.severity, "
                           "p.code FROM maps m JOIN problems p ON p.map_id = m.map_id"});
    REQUIRE(q.exit_code == 0);
    CHECK(has_line(q.out, "ok\tok\t0\t1\tinfo\tenvelope.unused"));

    CHECK(exit_codes(db) == std::vector<int>{0, 0, 0});
    auto text = audit(db, {"--fail-on", "warning"});
    CHECK(text.exit_code == 0);
    CHECK(has_line(text.out,
                   "result: nothing newly broken and no new warnings; 1 entry with new info "
                   "(never fails)"));
    CHECK(contains(text.out, "    + maps/envelope.map  ok, "));
    CHECK_FALSE(contains(text.out, "  new problems ("));
    CHECK(has_line(text.out, "  new info (never fails the audit) (1):"));
    CHECK(has_line(text.out, "    i maps/envelope.map  [" + titled("envelope.unused") + "]"));
    // The problem code table lists the info code, titled, as info.
    CHECK(contains(text.out, "    " + titled("envelope.unused") + "  info         1      0  new"));
    const auto json = audit(db, {"--format", "json"});
    const Json report = parse_json(json.out);
    CHECK(report["new"]["warnings"].integer() == 0);
    CHECK(report["new"]["infos"].integer() == 1);
    CHECK(paths(report["sources"][0]["gained_info"]) == Strings{"maps/envelope.map"});
    CHECK(report["sources"][0]["gained_problems"].array().empty());
    CHECK(paths(report["sources"][0]["new_infos"]) == Strings{"maps/envelope.map"});

    // Run 3: an unused image beside a real warning fails --fail-on warning.
    write_archive(archive, ArchiveFormat::zip,
                  {{"maps/keep.map", keep},
                   {"maps/envelope.map", map_with_unused_envelope(3)},
                   {"maps/warn.map", map_with_warning(4)}});
    REQUIRE(index_archive(db, archive).exit_code == 0);
    CHECK(exit_codes(db) == std::vector<int>{0, 1, 0});
    text = audit(db, {"--fail-on", "warning"});
    CHECK(has_line(text.out,
                   "result: 0 entries newly broken, 1 entry with new warnings; 1 entry with new "
                   "info (never fails)"));
    CHECK(has_line(text.out, "    ? maps/warn.map  [" + titled("envelope.missing") + "]"));
    CHECK(has_line(text.out, "    i maps/warn.map  [" + titled("image.unused") + "]"));
    // Info codes come after every other code in the problem code table.
    CHECK(text.out.find("    image.unused ") > text.out.find("    envelope.missing "));
  }

}  // TEST_SUITE
