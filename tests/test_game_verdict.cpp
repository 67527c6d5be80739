// The Teeworlds verdict (--game teeworlds): whether Teeworlds 0.6 and 0.7
// load a map, from the rules in docs/formats/map-loaders.md. Each fixture has
// one known fault, so the expected verdict follows from that document's row
// for its rule, not from the program.
#include <doctest/doctest.h>

#include "extract/game_verdict.h"
#include "extract/teeworlds_measure.h"
#include "tests/support/archive_builder.h"
#include "tests/support/map_builder.h"
#include "tests/support/process.h"
#include "tests/support/sqlite_probe.h"

namespace mapindex::testing {
namespace {

namespace fs = std::filesystem;

TileGrid game_grid() {
  TileGrid game(LayerKind::game, 20, 12);
  game.fill(0, 10, 20, 2, 1).set(3, 9, 192);
  return game;
}

// A clean map, changed by `fault` before it is built.
template <class Fault>
std::vector<std::uint8_t> map_with(Fault fault) {
  MapBuilder b;
  b.add_game_group();
  fault(b);
  return b.build();
}

std::vector<std::uint8_t> clean_map() {
  return map_with([](MapBuilder& b) { b.add_tile_layer(game_grid(), {.name = "Game"}); });
}

// M6: a tele layer without its DDNet data index. DDNet refuses it; 0.6 and
// 0.7 never read DDNet's extra indices.
std::vector<std::uint8_t> tele_without_ddnet_index() {
  return map_with([](MapBuilder& b) {
    b.add_tile_layer(game_grid(), {.name = "Game"});
    TileGrid tele(LayerKind::tele, 20, 12);
    b.add_tile_layer(tele, {.name = "Tele", .num_ddnet_slots = 0});
  });
}

// M10: no game layer: 0.6 and 0.7 dereference the missing layer.
std::vector<std::uint8_t> no_game_layer() {
  return map_with([](MapBuilder& b) {
    TileGrid tiles(LayerKind::tiles, 20, 12);
    b.add_tile_layer(tiles, {.name = "Deco"});
  });
}

// M1: no Version item: 0.6 does not look, 0.7 refuses.
std::vector<std::uint8_t> no_version_item() {
  MapBuilder b;
  b.add_game_group();
  b.add_tile_layer(game_grid(), {.name = "Game"});
  b.omit_version_item();
  return b.build();
}

// A skip-compressed (version 4) game layer: DDNet and 0.7 read it, 0.6 reads
// it as plain tiles and runs past its end.
std::vector<std::uint8_t> skip_compressed_game_layer() {
  return map_with(
      [](MapBuilder& b) { b.add_tile_layer(game_grid(), {.name = "Game", .version = 4}); });
}

// M14 at a switch layer: its DDNet data is short. 0.6/0.7 ignore that data.
std::vector<std::uint8_t> short_switch_data() {
  return map_with([](MapBuilder& b) {
    b.add_tile_layer(game_grid(), {.name = "Game"});
    TileGrid sw(LayerKind::switch_layer, 20, 12);
    std::vector<std::uint8_t> half(sw.bytes().begin(), sw.bytes().begin() + sw.bytes().size() / 2);
    b.add_tile_layer(sw, {.name = "Switch", .data_override = half});
  });
}

// M14 at the game layer: short tile data, read past its end by 0.6 and 0.7.
std::vector<std::uint8_t> short_game_data() {
  return map_with([](MapBuilder& b) {
    const TileGrid game = game_grid();
    std::vector<std::uint8_t> half(game.bytes().begin(),
                                   game.bytes().begin() + game.bytes().size() / 2);
    b.add_tile_layer(game, {.name = "Game", .data_override = half});
  });
}

bool has_error(const MapStats& s, std::string_view code) {
  for (const auto& p : s.problems)
    if (p.severity() == Severity::error && to_string(p.code) == code) return true;
  return false;
}

struct Expected {
  const char* name;
  std::vector<std::uint8_t> (*make)();
  const char* code;  // the one DDNet error the fixture has ("" none)
  bool loads_06, loads_07;
};

const Expected kCases[] = {
    {"clean", clean_map, "", true, true},
    {"M6 tele layer without DDNet index", tele_without_ddnet_index, "M6", true, true},
    {"M10 no game layer", no_game_layer, "M10", false, false},
    {"M1 no version item", no_version_item, "M1", true, false},
    {"skip-compressed game layer", skip_compressed_game_layer, "", false, true},
    {"M14 at a switch layer", short_switch_data, "M14", true, true},
    {"M14 at the game layer", short_game_data, "M14", false, false},
};

}  // namespace

TEST_SUITE("map") {
  TEST_CASE("map game verdict: whether Teeworlds 0.6 and 0.7 load a map, per rule") {
    for (const auto& c : kCases) {
      CAPTURE(c.name);
      const MapStats s = measure_teeworlds(Bytes(c.make()));
      if (*c.code) CHECK(has_error(s, c.code));
      CHECK(has_errors(s.problems) == (*c.code != '\0'));
      REQUIRE(s.teeworlds.has_value());
      CHECK(s.teeworlds->loads_06 == c.loads_06);
      CHECK(s.teeworlds->loads_07 == c.loads_07);
      // --game teeworlds: rejected only when no Teeworlds loads it; DDNet's own
      // verdict is unchanged.
      const MapStatus tw = status_for(s, Game::teeworlds);
      CHECK(status_for(s, Game::ddnet) == s.status);
      if (!c.loads_06 && !c.loads_07)
        CHECK(tw == MapStatus::rejected);
      else
        CHECK(tw == (s.status == MapStatus::ok ? MapStatus::ok : MapStatus::warnings));
    }
  }

  TEST_CASE("map game verdict: --game names") {
    CHECK(parse_game("teeworlds") == Game::teeworlds);
    CHECK(parse_game("ddnet") == Game::ddnet);
    CHECK_FALSE(parse_game("tw").has_value());
    CHECK(to_string(Game::teeworlds) == "teeworlds");
  }

}  // TEST_SUITE

TEST_SUITE("pipeline") {
  TEST_CASE(
      "pipeline e2e: --game teeworlds: index, inspect and audit speak of Teeworlds' verdict") {
    TempDir tmp;
    const fs::path maps = tmp / "maps";
    fs::create_directories(maps);
    write_file(maps / "legacy.map", tele_without_ddnet_index());  // DDNet refuses, Teeworlds loads
    write_file(maps / "clean.map", clean_map());
    const fs::path ddnet_db = tmp / "ddnet.sqlite", tw_db = tmp / "tw.sqlite";

    const auto ddnet =
        run_process(mapindex_binary(), {"index", "--db", ddnet_db.string(), maps.string()});
    CHECK_MESSAGE(ddnet.exit_code == 1, ddnet.err);  // a rejected map
    const auto tw = run_process(
        mapindex_binary(), {"index", "--game", "teeworlds", "--db", tw_db.string(), maps.string()});
    CHECK_MESSAGE(tw.exit_code == 0, tw.err);
    CHECK(tw.out.find("neither Teeworlds 0.6 nor 0.7") != std::string::npos);

    // Both verdicts are stored whatever --game was.
    for (const auto& db : {ddnet_db, tw_db}) {
      CHECK(sql_rows(db,
                     "SELECT status, teeworlds_status, loads_teeworlds_06, loads_teeworlds_07 "
                     "FROM maps ORDER BY status") ==
            std::vector<Row>{{"ok", "ok", "1", "1"}, {"rejected", "warnings", "1", "1"}});
    }

    const auto inspect_dd =
        run_process(mapindex_binary(), {"inspect", (maps / "legacy.map").string()});
    CHECK(inspect_dd.exit_code == 1);
    const auto inspect_tw = run_process(
        mapindex_binary(), {"inspect", "--game", "teeworlds", (maps / "legacy.map").string()});
    CHECK(inspect_tw.exit_code == 0);
    CHECK(inspect_tw.out.find("loads in Teeworlds 0.6: yes, 0.7: yes") != std::string::npos);

    // A second night adds a map no Teeworlds loads: newly broken for both games;
    // the legacy map is broken only for DDNet.
    write_file(maps / "nogame.map", no_game_layer());
    for (const auto& [db, game] : {std::pair{ddnet_db, "ddnet"}, std::pair{tw_db, "teeworlds"}}) {
      CAPTURE(game);
      const auto r =
          run_process(mapindex_binary(), {"index", "--game", game, "--db", db.string(), "--quiet",
                                          maps.string(), "--audit", "--audit-format", "json"});
      CHECK(r.exit_code == 1);
      CHECK(r.out.find("nogame.map") != std::string::npos);
    }
    const auto first_dd =
        run_process(mapindex_binary(), {"audit", "--db", ddnet_db.string(), "--run", "1"});
    CHECK(first_dd.exit_code == 1);  // the legacy map: DDNet would refuse it
    const auto first_tw = run_process(
        mapindex_binary(), {"audit", "--game", "teeworlds", "--db", tw_db.string(), "--run", "1"});
    CHECK_MESSAGE(first_tw.exit_code == 0, first_tw.out);

    const auto bad =
        run_process(mapindex_binary(), {"audit", "--game", "quake", "--db", tw_db.string()});
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("--game must be ddnet or teeworlds, not 'quake'") != std::string::npos);
  }

}  // TEST_SUITE

}  // namespace mapindex::testing
