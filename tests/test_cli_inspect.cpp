// `mapindex inspect --json`: one JSON document, an array with one object per
// file, valid UTF-8, holding what the index would store. Checked by parsing the
// output with python3's json module against maps built here.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "common/problem_codes.h"
#include "decode/datafile/datafile.h"
#include "tests/support/archive_builder.h"
#include "tests/support/datafile_writer.h"
#include "tests/support/map_builder.h"
#include "tests/support/process.h"

namespace fs = std::filesystem;
using namespace mapindex::testing;
using mapindex::LayerKind;

namespace {

bool have_python() { return run_process("/bin/sh", {"-c", "command -v python3"}).exit_code == 0; }

// Runs python3 `script` with `json_file` on standard input; the script reads
// it as strict UTF-8 JSON (raising on anything else) into `d`.
ProcessResult python_on(const fs::path& json_file, const std::string& script) {
  return run_process("/bin/sh",
                     {"-c", "exec python3 -c \"$0\"",
                      "import json,sys\n"
                      "d = json.loads(sys.stdin.buffer.read().decode('utf-8'))\n" +
                          script},
                     json_file);
}

// A small map with a few items and data items (an image, an envelope, a
// game layer), built as `options` say.
std::vector<std::uint8_t> small_map(const WriterOptions& options) {
  MapBuilder b;
  b.info({.author = "ann"});
  b.add_embedded_image("grass", 8, 8);
  b.add_game_group();
  TileGrid game(LayerKind::game, 30, 20);
  game.fill(0, 18, 30, 2, 1);
  b.add_tile_layer(game, {.name = "Game"});
  return b.build(options);
}

}  // namespace

TEST_SUITE("inspect") {
  TEST_CASE(
      "inspect e2e: a map cut short shows its header's values as read and how much is there") {
    TempDir tmp;
    for (const int version : {3, 4})
      for (const bool reversed : {false, true}) {
        const auto full = small_map({.version = version, .reversed_magic = reversed});
        const FileLayout layout = file_layout(full);  // what the header says
        REQUIRE(layout.num_items > 3);
        REQUIRE(layout.num_data > 1);
        const std::vector<std::uint8_t> cut(full.begin(),
                                            full.begin() + static_cast<long>(full.size() * 2 / 3));
        const fs::path file = tmp / "cut.map";
        write_file(file, cut);
        const std::string magic = reversed ? "ATAD" : "DATA";
        INFO("version " << version << " " << magic);

        auto r = run_process(mapindex_binary(), {"inspect", file.string()});
        CHECK(r.exit_code == 1);
        INFO(r.out);
        CHECK(has_line(
            r.out, "  format teeworlds version " + std::to_string(version) + "  status rejected"));
        CHECK(has_line(r.out, "  container: " + magic + ", " + std::to_string(layout.num_items) +
                                  " items, " + std::to_string(layout.num_data) +
                                  " data items (as the header says; it does not open)"));
        CHECK(has_line(r.out, "  cut short: " + std::to_string(cut.size()) + " of " +
                                  std::to_string(full.size()) + " bytes"));
        CHECK(contains(r.out, "\n  error " + mapindex::titled_code("H5") + ": "));
        CHECK_FALSE(contains(r.out, "info: author"));  // nothing past the header was read

        r = run_process(mapindex_binary(), {"inspect", "--json", file.string()});
        CHECK(r.exit_code == 1);
        std::ofstream(tmp / "out.json", std::ios::binary) << r.out;
        if (!have_python()) continue;
        const auto p = python_on(tmp / "out.json",
                                 "m = d[0]; c = m['container']\n"
                                 "print(m['format_version'], c['magic'], c['opened'], c['items'],\n"
                                 "      c['data_items'], c['cut_short']['size'],\n"
                                 "      c['cut_short']['described_size'])\n");
        REQUIRE_MESSAGE(p.exit_code == 0, p.err);
        CHECK(p.out == std::to_string(version) + " " + magic + " False " +
                           std::to_string(layout.num_items) + " " +
                           std::to_string(layout.num_data) + " " + std::to_string(cut.size()) +
                           " " + std::to_string(full.size()) + "\n");
      }
  }

  TEST_CASE("inspect e2e: cut short only when the file is shorter than its header says") {
    TempDir tmp;
    const auto full = small_map({});
    const FileLayout layout = file_layout(full);
    // The header describes exactly the file it heads, in both versions.
    CHECK(mapindex::datafile::read_header_fields(full)->described_size() ==
          static_cast<std::int64_t>(full.size()));
    const auto v3 = small_map({.version = 3});
    CHECK(mapindex::datafile::read_header_fields(v3)->described_size() ==
          static_cast<std::int64_t>(v3.size()));

    // Longer than described (H5, nothing missing): the header's values, no
    // "cut short".
    auto longer = full;
    longer.resize(full.size() + 100);
    write_file(tmp / "longer.map", longer);
    auto r = run_process(mapindex_binary(), {"inspect", (tmp / "longer.map").string()});
    CHECK(r.exit_code == 1);
    CHECK(has_line(r.out, "  format teeworlds version 4  status rejected"));
    CHECK(contains(r.out, "  container: DATA, " + std::to_string(layout.num_items) + " items"));
    CHECK_FALSE(contains(r.out, "\n  cut short: "));  // (H5's title says "cut short or too long")

    // A broken size field (H6): the same.
    auto bad_size = full;
    patch_i32(bad_size, header_offset::size, 12345);
    write_file(tmp / "h6.map", bad_size);
    r = run_process(mapindex_binary(), {"inspect", (tmp / "h6.map").string()});
    CHECK(contains(r.out, "\n  error " + mapindex::titled_code("H6") + ": "));
    CHECK(contains(r.out, "  container: DATA, " + std::to_string(layout.num_items) + " items"));
    CHECK_FALSE(contains(r.out, "\n  cut short: "));

    // Shorter than the header itself (H1): no version, no container line.
    write_file(tmp / "tiny.map", std::vector<std::uint8_t>(full.begin(), full.begin() + 30));
    r = run_process(mapindex_binary(), {"inspect", (tmp / "tiny.map").string()});
    CHECK(r.exit_code == 1);
    CHECK(has_line(r.out, "  format teeworlds  status rejected"));
    CHECK_FALSE(contains(r.out, "container"));
    CHECK(contains(r.out, "\n  error " + mapindex::titled_code("H1") + ": "));

    // A map that opens: the container as measured, opened, not cut short.
    write_file(tmp / "whole.map", full);
    r = run_process(mapindex_binary(), {"inspect", "--json", (tmp / "whole.map").string()});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(contains(r.out, "\"opened\": true"));
    CHECK(contains(r.out, "\"cut_short\": null"));
  }

  TEST_CASE(
      "inspect e2e: --json prints one valid UTF-8 JSON array with what the index would store") {
    TempDir tmp;
    // A map whose contents are known: 16x10 game layer, rows 8 and 9 solid
    // (tile 1, 32 tiles), a spawn (192) and a shotgun (199); a tile layer named
    // with a byte that is not UTF-8; one external image; one envelope.
    MapBuilder b;
    b.info({.author = "ann", .version = "1.2"});
    mapindex::testing::EnvelopeSpec pulse;
    pulse.name = "pulse";
    pulse.points = {{0, 1, {}, {}}, {100, 1, {}, {}}, {200, 0, {}, {}}};
    b.add_envelope(pulse);
    const auto image = b.add_external_image("grass_main", 1024, 512);
    b.add_game_group();
    TileGrid game(LayerKind::game, 16, 10);
    game.fill(0, 8, 16, 2, 1).set(2, 7, 192).set(4, 7, 199);
    b.add_tile_layer(game, {.name = "Game"});
    TileGrid deco(LayerKind::tiles, 4, 3);
    deco.set(1, 1, 5).set(2, 1, 5).set(3, 2, 7);
    b.add_tile_layer(deco, {.name = std::string("D\xff") + "co", .image = image});
    const auto map_bytes = b.build();
    write_file(tmp / "known.map", map_bytes);
    write_file(tmp / "notes.txt", to_bytes("not a map"));

    const auto r = run_process(
        mapindex_binary(),
        {"inspect", "--json", (tmp / "known.map").string(), (tmp / "notes.txt").string()});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    REQUIRE(!r.out.empty());
    CHECK(r.out.front() == '[');
    std::ofstream(tmp / "out.json", std::ios::binary) << r.out;
    if (!have_python()) {
      MESSAGE("python3 is not installed: the JSON is not parsed");
      return;
    }
    // Print the values the test checks, one per line, as JSON (ASCII only).
    const auto p = python_on(
        tmp / "out.json",
        "m, t = d\n"
        "game = [l for l in m['layers'] if l['kind'] == 'game'][0]\n"
        "deco = [l for l in m['layers'] if l['kind'] == 'tiles'][0]\n"
        "for v in [len(d), m['kind'], m['size'], m['info']['author'], m['info']['version'],\n"
        "          m['game_width'], m['game_height'], game['non_empty'],\n"
        "          [[c['tile'], c['count']] for c in game['tile_counts']],\n"
        "          deco['name'], deco['image'], [[c['tile'], c['count']] for c in deco['tile_counts']],\n"
        "          [[i['name'], i['width'], i['height'], i['external']] for i in m['images']],\n"
        "          [[e['name'], e['points']] for e in m['envelopes']], m['sounds'],\n"
        "          t['kind'], t['size'], len(m['sha256'])]:\n"
        "    print(json.dumps(v))\n");
    REQUIRE_MESSAGE(p.exit_code == 0, p.err);
    std::ostringstream expected;
    expected << "2\n\"map\"\n"
             << map_bytes.size() << "\n\"ann\"\n\"1.2\"\n16\n10\n34\n"
             << "[[1, 32], [192, 1], [199, 1]]\n"
             << "\"D\\ufffdco\"\n"
             << image << "\n[[5, 2], [7, 1]]\n"
             << "[[\"grass_main\", 1024, 512, true]]\n"
             << "[[\"pulse\", 3]]\n[]\n"
             << "\"not_a_map\"\n9\n64\n";
    CHECK(p.out == expected.str());
  }

  TEST_CASE(
      "inspect e2e: the audit's per-map release checks, in text and JSON, as the audit says") {
    TempDir tmp;
    // race.map: START (33) and FINISH (34), no time checkpoint (35..59), and
    // an embedded image with a standard name (grass_main) that a layer uses.
    // race-cp.map: the same with a time checkpoint and no image.
    const auto race_map = [](bool checkpoint) {
      MapBuilder b;
      b.info({.author = "inspect"});
      std::int32_t image = -1;
      if (!checkpoint) image = b.add_embedded_image("grass_main", 16, 16);
      b.add_game_group();
      TileGrid game(LayerKind::game, 20, 10);
      game.fill(0, 8, 20, 2, 1).set(1, 7, 192).set(3, 7, 33).set(17, 7, 34);
      if (checkpoint) game.set(9, 7, 35);
      b.add_tile_layer(game, {.name = "Game"});
      if (image >= 0) {
        TileGrid deco(LayerKind::tiles, 20, 10);
        deco.set(1, 1, 5);
        b.add_tile_layer(deco, {.name = "Deco", .image = image});
      }
      return b.build();
    };
    fs::create_directories(tmp / "maps");
    const fs::path race = tmp / "maps" / "race.map", race_cp = tmp / "maps" / "race-cp.map";
    write_file(race, race_map(false));
    write_file(race_cp, race_map(true));
    const std::string no_cp = mapindex::titled_code("race.no_time_checkpoints");
    REQUIRE(no_cp.size() > std::string("race.no_time_checkpoints ").size());

    // Text: after the problems, each check with its severity and title.
    const auto text = run_mapindex({"inspect", race.string(), race_cp.string()});
    INFO(text.out);
    CHECK(text.exit_code == 0);
    CHECK(contains(text.out, "\n  info " + no_cp +
                                 ": race map (START and FINISH tiles) without time checkpoints"));
    CHECK(contains(text.out, "\n  info " + mapindex::titled_code("image.embedded_standard") +
                                 ": image 0 'grass_main' is embedded"));
    CHECK(contains(text.out, "\n  release checks of `mapindex audit` (0: none; "));

    const auto json = run_mapindex({"inspect", "--json", race.string(), race_cp.string()});
    REQUIRE_MESSAGE(json.exit_code == 0, json.err);
    std::ofstream(tmp / "inspect.json", std::ios::binary) << json.out;
    // The audit of an index of the same two maps.
    const fs::path db = tmp / "index.sqlite";
    REQUIRE(run_mapindex({"index", "--db", db.string(), (tmp / "maps").string()}).exit_code == 0);
    const auto audit =
        run_mapindex({"audit", "--db", db.string(), "--format", "json", "--fail-on", "never"});
    REQUIRE_MESSAGE(audit.exit_code == 0, audit.err);
    std::ofstream(tmp / "audit.json", std::ios::binary) << audit.out;
    if (!have_python()) {
      MESSAGE("python3 is not installed: the JSON is not parsed");
      return;
    }
    const auto p =
        python_on(tmp / "inspect.json",
                  "for m in d:\n"
                  "    print(m['input'], json.dumps([[c['rule'], "
                  "c['severity'], c['title'], c['subject']] for c in m['release_checks']]))\n");
    REQUIRE_MESSAGE(p.exit_code == 0, p.err);
    const auto title = [](const char* code) {
      return "\"" + std::string(mapindex::code_title(code)) + "\"";
    };
    CHECK(p.out == race.string() + " [[\"image.embedded_standard\", \"info\", " +
                       title("image.embedded_standard") +
                       ", \"grass_main\"], [\"race.no_time_checkpoints\", \"info\", " +
                       title("race.no_time_checkpoints") + ", \"\"]]\n" + race_cp.string() +
                       " []\n");
    // The audit finds the same: rule, severity, subject and message.
    const auto same = python_on(
        tmp / "inspect.json",
        "a = json.load(open('" + (tmp / "audit.json").string() +
            "'))\n"
            "ins = sorted((c['rule'], c['severity'], c['subject'], c['message']) for c in d[0]['release_checks'])\n"
            "aud = sorted((f['rule'], f['severity'], f['subject'], f['message']) for f in "
            "a['sources'][0]['findings'] if f['path'] == 'race.map')\n"
            "print(len(ins), ins == aud)\n");
    CHECK(same.out == "2 True\n");
  }

  TEST_CASE("inspect e2e: --json reports an unreadable input inside the one document and exits 1") {
    TempDir tmp;
    write_file(tmp / "bad.map", to_bytes("DATA\x04"));  // a datafile header cut short
    const auto r =
        run_process(mapindex_binary(), {"inspect", "--json", (tmp / "bad.map").string()});
    CHECK(r.exit_code == 1);
    CHECK(r.out.front() == '[');
    CHECK(r.out.back() == '\n');
    CHECK(r.out.find("\"status\": \"rejected\"") != std::string::npos);
    if (!have_python()) return;
    std::ofstream(tmp / "out.json", std::ios::binary) << r.out;
    const auto p =
        python_on(tmp / "out.json",
                  "print(len(d), d[0]['kind'], d[0]['status'], len(d[0]['problems']) > 0)\n");
    REQUIRE_MESSAGE(p.exit_code == 0, p.err);
    CHECK(p.out == "1 map rejected True\n");
  }

  TEST_CASE(
      "inspect e2e: an entry named as its archive is named by both, a single file by its path") {
    TempDir tmp;
    // The archive's one entry has the archive's own file name: it is still an
    // entry of the archive, not the archive read as one file.
    write_archive(tmp / "pack.zip", ArchiveFormat::zip,
                  {{.path = "pack.zip", .bytes = to_bytes("not a map")}});
    write_file(tmp / "notes.txt", to_bytes("not a map"));
    const auto r = run_process(
        mapindex_binary(), {"inspect", (tmp / "pack.zip").string(), (tmp / "notes.txt").string()});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.out.find((tmp / "pack.zip").string() + ": pack.zip\n") != std::string::npos);
    CHECK(r.out.find((tmp / "notes.txt").string() + "\n") != std::string::npos);
    CHECK(r.out.find("notes.txt: ") == std::string::npos);
  }

  // Info findings (docs/guide.md, "Problem severities") are shown, after the errors
  // and warnings, with their number; a map whose only finding is info is ok.
  TEST_CASE("inspect e2e: info findings are shown last and leave a map ok") {
    TempDir dir;
    const auto build = [](bool with_warning) {
      MapBuilder b;
      b.add_embedded_image("leftover", 16, 16);  // image.unused (info)
      EnvelopeSpec unused;
      unused.points = {{0, 1, {}, {}}};
      b.add_envelope(unused);  // envelope.unused (info)
      b.add_game_group();
      TileGrid game(LayerKind::game, 20, 10);
      game.fill(0, 8, 20, 2, 1);
      b.add_tile_layer(game, {.name = "Game"});
      if (with_warning) {
        TileLayerSpec decoration;
        decoration.color_envelope = 5;  // envelope.missing (warning)
        b.add_tile_layer(TileGrid(LayerKind::tiles, 20, 10), decoration);
      }
      return b.build();
    };
    const fs::path info_only = dir / "info.map", warned = dir / "warned.map";
    write_file(info_only, build(false));
    write_file(warned, build(true));

    auto r = run_process(mapindex_binary(), {"inspect", info_only.string()});
    INFO(r.out);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "  status ok\n"));
    CHECK(contains(r.out, "\n  info findings (2, harmless in the game):\n"));
    // Each code with its title (src/common/problem_codes.h).
    CHECK(contains(r.out, "\n  info " + mapindex::titled_code("image.unused") + " (image 0): "));
    CHECK(contains(r.out,
                   "\n  info " + mapindex::titled_code("envelope.unused") + " (envelope 0): "));

    r = run_process(mapindex_binary(), {"inspect", warned.string()});
    INFO(r.out);
    CHECK(contains(r.out, "  status warnings\n"));
    const auto warning_at =
        r.out.find("\n  warning " + mapindex::titled_code("envelope.missing") + " (layer 1): ");
    const auto header_at = r.out.find("\n  info findings (2, harmless in the game):\n");
    REQUIRE(warning_at != std::string::npos);
    REQUIRE(header_at != std::string::npos);
    CHECK(warning_at < header_at);
    CHECK(header_at < r.out.find("\n  info image.unused "));
    CHECK(header_at < r.out.find("\n  info envelope.unused "));
  }

  TEST_CASE("inspect e2e: each problem's code has its title beside it, in text and JSON") {
    TempDir tmp;
    MapBuilder b;
    b.add_game_group();
    TileGrid game(LayerKind::game, 24, 12);
    game.fill(0, 10, 24, 2, 1);
    b.add_tile_layer(game, {.name = "Game"});
    const auto whole = b.build();
    REQUIRE(whole.size() > 200);
    // Cut short: the header promises more bytes than the file has (H5).
    const fs::path cut = tmp / "cut.map";
    write_file(cut, truncated_copy(whole, whole.size() - 100));
    const std::string titled = mapindex::titled_code("H5");
    REQUIRE(titled == "H5 " + std::string(mapindex::info(mapindex::Code::H5).title));

    const auto text = run_mapindex({"inspect", cut.string()});
    INFO(text.out);
    CHECK(text.exit_code == 1);
    CHECK(contains(text.out, "\n  error " + titled + ": header describes a file of "));

    const fs::path json = tmp / "cut.json";
    const auto r = run_mapindex({"inspect", "--json", cut.string()});
    REQUIRE(r.exit_code == 1);
    std::ofstream(json) << r.out;
    if (!have_python()) return;
    const auto checked = python_on(json,
                                   "p = d[0]['problems'][0]\n"
                                   "print(p['code'] + '|' + p['title'])\n");
    CHECK(checked.out == "H5|" + std::string(mapindex::info(mapindex::Code::H5).title) + "\n");
  }
}  // TEST_SUITE
