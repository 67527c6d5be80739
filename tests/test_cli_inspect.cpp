// `mapindex inspect --json`: one JSON document, an array with one object per
// file, valid UTF-8, holding what the index would store. Checked by parsing the
// output with python3's json module against maps built here.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "tests/support/archive_builder.h"
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

}  // namespace

TEST_SUITE("inspect") {
  TEST_CASE("inspect: --json prints one valid UTF-8 JSON array with what the index would store") {
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

  TEST_CASE("inspect: --json reports an unreadable input inside the one document and exits 1") {
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

  TEST_CASE("inspect: an entry named as its archive is named by both, a single file by its path") {
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
  TEST_CASE("inspect: info findings are shown last and leave a map ok") {
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
    CHECK(contains(r.out, "\n  info image.unused (image 0): "));
    CHECK(contains(r.out, "\n  info envelope.unused (envelope 0): "));

    r = run_process(mapindex_binary(), {"inspect", warned.string()});
    INFO(r.out);
    CHECK(contains(r.out, "  status warnings\n"));
    const auto warning_at = r.out.find("\n  warning envelope.missing (layer 1): ");
    const auto header_at = r.out.find("\n  info findings (2, harmless in the game):\n");
    REQUIRE(warning_at != std::string::npos);
    REQUIRE(header_at != std::string::npos);
    CHECK(warning_at < header_at);
    CHECK(header_at < r.out.find("\n  info image.unused "));
    CHECK(header_at < r.out.find("\n  info envelope.unused "));
  }

}  // TEST_SUITE
