// Maps built in code (tests/support/map_builder.h): every layer kind, plain
// and skip-compressed tile data, both envelope point forms, statistics and
// DDNet features. Expected values come from the tiles the test placed.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "decode/datafile/datafile.h"
#include "decode/teeworlds/i32_string.h"
#include "decode/teeworlds/teeworlds_map.h"
#include "extract/teeworlds_measure.h"
#include "extract/teeworlds_tile_counter.h"
#include "tests/support/codes.h"
#include "tests/support/map_builder.h"

namespace mapindex::testing {
namespace {

using mapindex::LayerKind;

MapStats measure(const std::vector<std::uint8_t>& file) { return measure_teeworlds(Bytes(file)); }

std::map<std::int32_t, std::int64_t> histogram(const LayerStats& l) {
  std::map<std::int32_t, std::int64_t> h;
  for (const auto& tc : l.tile_counts) h[tc.tile] = tc.count;
  return h;
}

std::map<std::string, std::int64_t> entities(const LayerStats& l) {
  std::map<std::string, std::int64_t> e;
  for (const auto& nc : l.entities) e[nc.name] = nc.count;
  return e;
}

std::string problems_text(const MapStats& s) {
  std::string out;
  for (const auto& p : s.problems)
    out += std::string(to_string(p.severity())) + " " + std::string(to_string(p.code)) + " [" +
           to_string(p.location) + "] " + p.message + "\n";
  return out;
}

bool has_feature(const MapStats& s, const std::string& name) {
  return std::find(s.ddnet_features.begin(), s.ddnet_features.end(), name) !=
         s.ddnet_features.end();
}

}  // namespace

TEST_SUITE("map") {
  TEST_CASE("map: I32String: names round-trip and padding decodes to nothing") {
    std::int32_t ints[3];
    teeworlds::encode_i32_string("Game", ints, 3);
    std::vector<std::uint8_t> bytes(12);
    for (int i = 0; i < 3; ++i)
      store_le_u32(bytes.data() + 4 * i, static_cast<std::uint32_t>(ints[i]));
    CHECK(teeworlds::decode_i32_string(datafile::Int32View(Bytes(bytes))) == "Game");
    // 'G' = 0x47 + 128 = 0xC7: the first int is big-endian "Game" + 128 per byte.
    CHECK(static_cast<std::uint32_t>(ints[0]) == 0xC7E1EDE5u);
    // An empty name: 0x80 padding, last byte 0 (as real maps store it).
    const std::int32_t empty[3] = {static_cast<std::int32_t>(0x80808080u),
                                   static_cast<std::int32_t>(0x80808080u),
                                   static_cast<std::int32_t>(0x80808000u)};
    for (int i = 0; i < 3; ++i)
      store_le_u32(bytes.data() + 4 * i, static_cast<std::uint32_t>(empty[i]));
    CHECK(teeworlds::decode_i32_string(datafile::Int32View(Bytes(bytes))).empty());
    // 11 characters fill 3 ints; a 12th does not fit (the last byte is the NUL).
    teeworlds::encode_i32_string("ABCDEFGHIJKL", ints, 3);
    for (int i = 0; i < 3; ++i)
      store_le_u32(bytes.data() + 4 * i, static_cast<std::uint32_t>(ints[i]));
    CHECK(teeworlds::decode_i32_string(datafile::Int32View(Bytes(bytes))) == "ABCDEFGHIJK");
  }

  // DDNet spawns entities from the switch layer's type byte as from game and
  // front: spawns, team spawns and flag stands included.
  TEST_CASE("map: entities on a switch layer are counted, spawns and flag stands included") {
    MapBuilder b;
    b.add_game_group();
    TileGrid game(LayerKind::game, 12, 8);
    game.fill(0, 7, 12, 1, 1);
    game.set(1, 1, 192);  // 1 SPAWN on game
    TileGrid sw(LayerKind::switch_layer, 12, 8);
    sw.set_switch(1, 2, 192, 0).set_switch(2, 2, 192, 0).set_switch(3, 2, 192, 5);  // 3 SPAWN
    sw.set_switch(4, 2, 193, 0).set_switch(5, 2, 194, 0);                           // team spawns
    sw.set_switch(6, 2, 195, 0).set_switch(7, 2, 196, 0).set_switch(8, 2, 196, 0);  // flag stands
    sw.set_switch(9, 2, 240, 2);                                                    // DOOR
    b.add_tile_layer(game);
    b.add_tile_layer(sw);
    const MapStats s = measure(b.build());
    INFO(problems_text(s));
    CHECK(s.problems.empty());
    REQUIRE(s.layers.size() == 2);
    CHECK(entities(s.layers[0]) == std::map<std::string, std::int64_t>{{"SPAWN", 1}});
    REQUIRE(s.layers[1].kind == LayerKind::switch_layer);
    CHECK(entities(s.layers[1]) == std::map<std::string, std::int64_t>{{"DOOR", 1},
                                                                       {"FLAGSTAND_BLUE", 2},
                                                                       {"FLAGSTAND_RED", 1},
                                                                       {"SPAWN", 3},
                                                                       {"SPAWN_BLUE", 1},
                                                                       {"SPAWN_RED", 1}});
  }

  TEST_CASE("map: every physics layer kind is counted by its own tile key") {
    MapBuilder b;
    b.add_game_group();
    TileGrid game(LayerKind::game, 20, 10);
    game.fill(0, 9, 20, 1, 1);           // 20 SOLID
    game.fill(0, 0, 3, 1, 9, 1);         // 3 FREEZE, flip X
    game.set(5, 5, 192).set(6, 5, 192);  // 2 SPAWN
    game.set(7, 5, 199, 8);              // WEAPON_SHOTGUN, rotated
    game.set(8, 5, 40, 2);               // a time checkpoint, flip Y
    TileGrid front(LayerKind::front, 20, 10);
    front.fill(0, 1, 4, 1, 6).set(10, 3, 233);  // 4 THROUGH, DRAGGER_WEAK
    TileGrid tele(LayerKind::tele, 20, 10);
    tele.set_tele(1, 1, 26, 5).set_tele(2, 2, 27, 5).set_tele(3, 3, 29, 7);
    TileGrid speedup(LayerKind::speedup, 20, 10);
    speedup.set_speedup(1, 1, 29, 50, 0, 180)
        .set_speedup(2, 1, 29, 50, 0, -90)
        .set_speedup(3, 1, 28, 10, 5, 0);
    TileGrid sw(LayerKind::switch_layer, 20, 10);
    sw.set_switch(1, 1, 24, 3).set_switch(2, 1, 240, 3, 1).set_switch(3, 1, 22, 9, 0, 4);
    TileGrid tune(LayerKind::tune, 20, 10);
    tune.set_tune(1, 1, 68, 2).set_tune(1, 2, 68, 2).set_tune(1, 3, 68, 4);
    TileGrid deco(LayerKind::tiles, 20, 10);
    deco.fill(0, 0, 20, 10, 17, 1).fill(0, 0, 5, 2, 0);  // 190 tiles of index 17 flipped X
    b.add_tile_layer(game);
    b.add_tile_layer(front);
    b.add_tile_layer(tele);
    b.add_tile_layer(speedup);
    b.add_tile_layer(sw);
    b.add_tile_layer(tune);
    TileLayerSpec deco_spec;
    deco_spec.image = b.add_external_image("grass_main");
    deco_spec.name = "Deco";
    b.add_tile_layer(deco, deco_spec);
    const MapStats s = measure(b.build());
    INFO(problems_text(s));
    CHECK(s.status == MapStatus::ok);
    REQUIRE(s.layers.size() == 7);
    CHECK(s.game_width == 20);
    CHECK(s.game_height == 10);

    const LayerStats& g = s.layers[0];
    CHECK(g.kind == LayerKind::game);
    CHECK(histogram(g) ==
          std::map<std::int32_t, std::int64_t>{{1, 20}, {9, 3}, {40, 1}, {192, 2}, {199, 1}});
    CHECK(g.non_empty == 27);
    CHECK(entities(g) == std::map<std::string, std::int64_t>{{"SPAWN", 2}, {"WEAPON_SHOTGUN", 1}});
    CHECK(g.flip_x == 3);
    CHECK(g.flip_y == 1);
    CHECK(g.rotate == 1);

    CHECK(s.layers[1].kind == LayerKind::front);
    CHECK(histogram(s.layers[1]) == std::map<std::int32_t, std::int64_t>{{6, 4}, {233, 1}});
    CHECK(entities(s.layers[1]) == std::map<std::string, std::int64_t>{{"DRAGGER_WEAK", 1}});

    CHECK(s.layers[2].kind == LayerKind::tele);
    CHECK(histogram(s.layers[2]) ==
          std::map<std::int32_t, std::int64_t>{{26, 1}, {27, 1}, {29, 1}});
    CHECK(s.layers[2].numbers == std::vector<std::int32_t>{5, 7});

    CHECK(s.layers[3].kind == LayerKind::speedup);
    CHECK(histogram(s.layers[3]) == std::map<std::int32_t, std::int64_t>{{28, 1}, {29, 2}});

    CHECK(s.layers[4].kind == LayerKind::switch_layer);
    CHECK(histogram(s.layers[4]) ==
          std::map<std::int32_t, std::int64_t>{{22, 1}, {24, 1}, {240, 1}});
    CHECK(entities(s.layers[4]) == std::map<std::string, std::int64_t>{{"DOOR", 1}});
    CHECK(s.layers[4].numbers == std::vector<std::int32_t>{3, 9});
    CHECK(s.layers[4].flip_x == 1);

    CHECK(s.layers[5].kind == LayerKind::tune);
    CHECK(histogram(s.layers[5]) == std::map<std::int32_t, std::int64_t>{{68, 3}});
    CHECK(s.layers[5].numbers == std::vector<std::int32_t>{2, 4});

    const LayerStats& d = s.layers[6];
    CHECK(d.kind == LayerKind::tiles);
    CHECK(d.name == "Deco");
    CHECK(d.image == 0);
    CHECK(histogram(d) == std::map<std::int32_t, std::int64_t>{{17, 190}});
    CHECK(d.flip_x == 190);
    CHECK(d.entities.empty());
    REQUIRE(s.images.size() == 1);
    CHECK(s.images[0].external);
    CHECK(s.images[0].standard_name);
    REQUIRE(s.images[0].used_by.size() == 1);
    CHECK(s.images[0].used_by[0].layer_index == 6);

    // Features per layer: speedup 29 is BOOST, tele 29 TELECHECK; a checkpoint
    // other than 35 counts; the switch layer's 22 is SWITCH_TIMED.
    CHECK(has_feature(s, "BOOST"));
    CHECK(has_feature(s, "TELECHECK"));
    CHECK(has_feature(s, "TELEIN"));
    CHECK(has_feature(s, "CHECKPOINT_FIRST"));
    CHECK(has_feature(s, "SWITCH_TIMED"));
    CHECK(has_feature(s, "SWITCH"));
    CHECK(has_feature(s, "DOOR"));
    CHECK(has_feature(s, "TUNE"));
    CHECK(has_feature(s, "THROUGH"));
    CHECK(has_feature(s, "DRAGGER"));
    CHECK(has_feature(s, "WEAPON_SHOTGUN"));
    CHECK_FALSE(has_feature(s, "DEATH"));
    CHECK_FALSE(has_feature(s, "SOLO_START"));  // no 21 anywhere, though 22 is on the switch layer
  }

  TEST_CASE("map: features: a lone speedup 29 is BOOST and never TELECHECK") {
    MapBuilder b;
    b.add_game_group();
    b.add_tile_layer(TileGrid(LayerKind::game, 4, 4));
    TileGrid speedup(LayerKind::speedup, 4, 4);
    speedup.set_speedup(1, 1, 29, 10, 0, 0);
    b.add_tile_layer(speedup);
    const MapStats s = measure(b.build());
    CHECK(s.ddnet_features == std::vector<std::string>{"BOOST"});
  }

  TEST_CASE("map: skip-compressed version-4 layers count like their plain twins") {
    TileGrid game(LayerKind::game, 300, 40);
    game.fill(0, 39, 300, 1, 1).fill(0, 0, 1, 40, 1).fill(100, 10, 280 - 100, 3, 9, 8);
    game.set(5, 5, 192).set(6, 5, 2).fill(0, 20, 300, 1, 3);  // runs longer than 256
    TileGrid deco(LayerKind::tiles, 300, 40);
    deco.fill(0, 0, 300, 40, 5).fill(10, 10, 20, 20, 6, 2);
    CHECK(game.skip_compressed().size() < game.bytes().size() / 20);

    auto build = [&](int version) {
      MapBuilder b;
      b.add_game_group();
      TileLayerSpec spec;
      spec.version = version;
      b.add_tile_layer(game, spec);
      b.add_tile_layer(deco, spec);
      return measure(b.build());
    };
    const MapStats plain = build(3), skip = build(4);
    INFO(problems_text(skip));
    CHECK(skip.status == MapStatus::ok);
    CHECK(plain.status == MapStatus::ok);
    REQUIRE(skip.layers.size() == 2);
    CHECK(skip.layers[0].skip_compressed);
    CHECK_FALSE(plain.layers[0].skip_compressed);
    for (std::size_t l = 0; l < 2; ++l) {
      CHECK(histogram(skip.layers[l]) == histogram(plain.layers[l]));
      CHECK(skip.layers[l].flip_x == plain.layers[l].flip_x);
      CHECK(skip.layers[l].flip_y == plain.layers[l].flip_y);
      CHECK(skip.layers[l].rotate == plain.layers[l].rotate);
    }
    CHECK(histogram(skip.layers[0]) ==
          std::map<std::int32_t, std::int64_t>{
              {1, 300 + 38}, {2, 1}, {3, 300}, {9, 3 * 180}, {192, 1}});
    CHECK(skip.layers[1].non_empty == 300 * 40);
    CHECK(skip.layers[1].flip_y == 400);
  }

  TEST_CASE("map: expand_skip_tiles: exact expansion, and both ways to get it wrong") {
    const std::vector<std::uint8_t> runs = {7, 1, 2, 0, 0, 0, 0, 0};  // 3 x (7, flip) then air
    auto r = expand_skip_tiles(Bytes(runs), 4);
    REQUIRE(r.ok());
    CHECK(*r == std::vector<std::uint8_t>{7, 1, 0, 0, 7, 1, 0, 0, 7, 1, 0, 0, 0, 0, 0, 0});
    auto too_many = expand_skip_tiles(Bytes(runs), 3);
    REQUIRE_FALSE(too_many.ok());
    CHECK(too_many.error().code == Code::M14);
    auto too_few = expand_skip_tiles(Bytes(runs), 5);
    REQUIRE_FALSE(too_few.ok());
    CHECK(too_few.error().code == Code::M14);
  }

  TEST_CASE("map: skip runs: counting them and expanding them agree, errors included") {
    // count_skip_tiles (the hot loop) and expand_skip_tiles share one run walk:
    // the counts of the expanded tiles must equal the counts of the runs, and
    // both must fail the same way on runs past the end, too few runs and bytes
    // left over.
    std::uint32_t x = 12345;
    const auto next = [&] {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      return x;
    };
    int errors = 0;
    for (int round = 0; round < 300; ++round) {
      CAPTURE(round);
      std::vector<std::uint8_t> runs;
      const std::size_t num_runs = 1 + next() % 12;
      std::size_t tiles = 0;
      for (std::size_t r = 0; r < num_runs; ++r) {
        const auto key = static_cast<std::uint8_t>(next() % 3 == 0 ? 0 : next() % 256);
        const auto skip = static_cast<std::uint8_t>(next() % 4 == 0 ? next() % 256 : next() % 5);
        runs.insert(runs.end(), {key, static_cast<std::uint8_t>(next() % 16), skip,
                                 static_cast<std::uint8_t>(next() % 8 == 0)});
        tiles += skip + 1u;
      }
      if (round % 7 == 3) runs.push_back(9);  // a partial run left over
      // Exactly the tiles, or a few more or fewer than the runs hold.
      const std::size_t num_tiles =
          round % 3 == 0 ? tiles
                         : (round % 3 == 1 ? tiles + 1 + next() % 4
                                           : tiles - 1 - next() % (tiles > 1 ? tiles - 1 : 1));
      CAPTURE(num_tiles);
      teeworlds::TileCounts counted;
      const auto count_error = teeworlds::count_skip_tiles(Bytes(runs), num_tiles, counted);
      const auto expanded = expand_skip_tiles(Bytes(runs), num_tiles);
      REQUIRE(expanded.ok() == !count_error.has_value());
      if (!expanded.ok()) {
        ++errors;
        CHECK(expanded.error().code == Code::M14);
        CHECK(expanded.error().message == count_error->message);
        continue;
      }
      REQUIRE(expanded->size() == 4 * num_tiles);
      teeworlds::TileCounts plain;
      teeworlds::count_plain_tiles(Bytes(*expanded), LayerKind::game, num_tiles, plain);
      CHECK(counted.keys == plain.keys);
      CHECK(counted.flags == plain.flags);
      CHECK(counted.tiles == plain.tiles);
      CHECK(counted.reserved_nonzero == plain.reserved_nonzero);
    }
    CHECK(errors > 50);
    CHECK(errors < 250);
  }

  TEST_CASE(
      "map: envelopes: 6-int points with DDNet's bezier item, 22-int points, curve histogram, users") {
    for (const bool twenty_two : {false, true}) {
      CAPTURE(twenty_two);
      MapBuilder b;
      EnvelopeSpec color;
      color.channels = teeworlds::kEnvColor;
      color.name = "glow";
      color.synchronized = true;
      color.version = twenty_two ? 3 : 2;
      EnvPointSpec bez{100, 5, {1, 2, 3, 4}, {}};
      bez.bezier[0] = 11;   // in_dx[0]
      bez.bezier[12] = -7;  // out_dy[0]
      color.points = {{0, 0, {}, {}}, {10, 1, {}, {}}, bez, {200, 9, {}, {}}, {300, 4, {}, {}}};
      EnvelopeSpec position;
      position.channels = teeworlds::kEnvPosition;
      position.points = {{0, 2, {}, {}}, {50, 3, {}, {}}};
      EnvelopeSpec sound;
      sound.channels = teeworlds::kEnvSound;
      sound.points = {{0, 1, {1024, 0, 0, 0}, {}}};
      const auto ec = b.add_envelope(color), ep = b.add_envelope(position),
                 es = b.add_envelope(sound);
      b.add_game_group();
      b.add_tile_layer(TileGrid(LayerKind::game, 4, 4));
      TileLayerSpec deco;
      deco.color_envelope = ec;
      deco.image = b.add_external_image("grass_main");
      b.add_tile_layer(TileGrid(LayerKind::tiles, 4, 4).set(1, 1, 1), deco);
      QuadsLayerSpec quads;
      quads.quads = {QuadSpec{0, 0, 64, 64, {255, 255, 255, 255}, ep, 0, ec, 0},
                     QuadSpec{64, 0, 64, 64, {255, 255, 255, 255}, ep, 10, -1, 0}};
      b.add_quads_layer(quads);
      SoundsLayerSpec sounds;
      sounds.sound = b.add_sound("wind");
      sounds.sources = {SoundSourceSpec{}, SoundSourceSpec{}};
      sounds.sources[0].sound_envelope = es;
      sounds.sources[1].position_envelope = ep;
      b.add_sounds_layer(sounds);

      const auto file = b.build();
      const MapStats s = measure(file);
      INFO(problems_text(s));
      CHECK(s.status == MapStatus::ok);
      REQUIRE(s.envelopes.size() == 3);
      CHECK(s.num_envelope_points == 8);
      const EnvelopeStats& c = s.envelopes[0];
      CHECK(c.kind == EnvelopeKind::color);
      CHECK(c.name == "glow");
      CHECK(c.synchronized);
      CHECK(c.num_points == 5);
      CHECK(c.curves == std::array<std::int64_t, kNumCurveTypes>{1, 1, 0, 0, 1, 1, 1});
      CHECK(s.envelopes[1].kind == EnvelopeKind::position);
      CHECK(s.envelopes[1].start_point == 5);
      CHECK(s.envelopes[1].curves == std::array<std::int64_t, kNumCurveTypes>{0, 0, 1, 1, 0, 0, 0});
      CHECK(s.envelopes[2].kind == EnvelopeKind::sound);

      auto uses = [](const EnvelopeStats& e) {
        std::map<std::pair<std::int32_t, std::string>, std::int64_t> u;
        for (const auto& x : e.used_by)
          u[{x.layer_index, std::string(to_string(x.role))}] = x.count;
        return u;
      };
      using Uses = std::map<std::pair<std::int32_t, std::string>, std::int64_t>;
      CHECK(uses(c) == Uses{{{1, "layer_color"}, 1}, {{2, "quad_color"}, 1}});
      CHECK(uses(s.envelopes[1]) == Uses{{{2, "quad_position"}, 2}, {{3, "source_position"}, 1}});
      CHECK(uses(s.envelopes[2]) == Uses{{{3, "source_sound"}, 1}});

      // The decoder hands out the bezier tangents from either form.
      auto df = datafile::Datafile::open(Bytes(file));
      REQUIRE(df.ok());
      const auto map = teeworlds::decode_map(*df);
      CHECK(map.points.point_ints() == (twenty_two ? 22u : 6u));
      CHECK(map.has_bezier_item == !twenty_two);
      REQUIRE(map.points.size() == 8);
      const auto p = map.points.point(2);
      CHECK(p.curve == 5);
      CHECK(p.time == 100);
      CHECK(p.values == std::array<std::int32_t, 4>{1, 2, 3, 4});
      CHECK(p.has_bezier);
      CHECK(p.in_dx[0] == 11);
      CHECK(p.out_dy[0] == -7);
    }
  }

  TEST_CASE("map: quads, sounds layers (new and deprecated), sounds and images") {
    MapBuilder b;
    InfoSpec info;
    info.author = "nameless tee";
    info.version = "2";
    info.credits = "everyone";
    info.license = "CC-BY-SA";
    info.settings = {"sv_hit 0", "tune_zone 1 gravity 0.2"};
    b.info(info);
    const auto ext = b.add_external_image("jungle_main", 1024, 1024);
    const auto rgba = b.add_embedded_image("mine", 64, 32);
    const auto rgb7 = b.add_embedded_image("seven", 32, 32, false, 2);
    const auto snd = b.add_sound("boom", std::vector<std::uint8_t>(1000, 7));
    b.add_game_group();
    b.add_tile_layer(TileGrid(LayerKind::game, 8, 8));
    TileLayerSpec deco;
    deco.image = ext;
    b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8).set(0, 0, 3), deco);
    QuadsLayerSpec q;
    q.image = rgba;
    q.quads.resize(3);
    q.name = "Quads";
    b.add_quads_layer(q);
    QuadsLayerSpec q2;
    q2.image = rgb7;
    q2.quads.resize(1);
    b.add_quads_layer(q2);
    SoundsLayerSpec s1;
    s1.sound = snd;
    s1.sources.resize(2);
    b.add_sounds_layer(s1);
    SoundsLayerSpec s2;
    s2.sound = snd;
    s2.deprecated = true;
    s2.sources.resize(3);
    b.add_sounds_layer(s2);
    const MapStats s = measure(b.build());
    INFO(problems_text(s));
    REQUIRE(s.layers.size() == 6);
    CHECK(s.author == "nameless tee");
    CHECK(s.map_version == "2");
    CHECK(s.credits == "everyone");
    CHECK(s.license == "CC-BY-SA");
    CHECK(s.settings == std::vector<std::string>{"sv_hit 0", "tune_zone 1 gravity 0.2"});
    CHECK(s.layers[2].kind == LayerKind::quads);
    CHECK(s.layers[2].num_quads == 3);
    CHECK(s.layers[2].name == "Quads");
    CHECK(s.layers[4].kind == LayerKind::sounds);
    CHECK(s.layers[4].num_sources == 2);
    CHECK(s.layers[5].kind == LayerKind::sounds_deprecated);
    CHECK(s.layers[5].num_sources == 3);
    REQUIRE(s.images.size() == 3);
    CHECK(s.images[1].data_size == 64 * 32 * 4);
    CHECK(s.images[1].data_stored_size > 0);
    CHECK(s.images[1].data_stored_size < s.images[1].data_size);  // zeros compress
    CHECK(s.images[1].used_by.size() == 1);
    CHECK(s.images[1].used_by[0].quads == 3);
    CHECK_FALSE(s.images[2].rgba);
    CHECK(s.images[2].version == 2);
    CHECK(s.images[2].data_size == 32 * 32 * 3);
    CHECK(s.images[0].data_size == -1);
    REQUIRE(s.sounds.size() == 1);
    CHECK(s.sounds[0].name == "boom");
    CHECK(s.sounds[0].data_size == 1000);
    REQUIRE(s.sounds[0].used_by.size() == 2);
    CHECK(s.sounds[0].used_by[0].sources == 2);
    CHECK(s.sounds[0].used_by[1].sources == 3);
    // The only problem: DDNet does not load RGB images.
    REQUIRE(s.problems.size() == 1);
    CHECK(s.problems[0].code == Code::image_rgb);
    CHECK(s.problems[0].location == Location::image(2));
  }

  TEST_CASE("map: legacy DDRace version-2 layout: extra indices right after data, as a prefix") {
    MapBuilder b;
    b.add_game_group();
    TileLayerSpec legacy;
    legacy.legacy_v2_layout = true;
    legacy.num_ddnet_slots = 4;  // tele, speedup, front, switch; no tune
    b.add_tile_layer(TileGrid(LayerKind::game, 6, 6).set(1, 1, 1), legacy);
    b.add_tile_layer(TileGrid(LayerKind::tele, 6, 6).set_tele(2, 2, 26, 3), legacy);
    b.add_tile_layer(TileGrid(LayerKind::switch_layer, 6, 6).set_switch(2, 2, 25, 4), legacy);
    const MapStats s = measure(b.build());
    INFO(problems_text(s));
    CHECK(s.status == MapStatus::ok);
    REQUIRE(s.layers.size() == 3);
    CHECK(s.layers[0].version == 2);
    CHECK(histogram(s.layers[1]) == std::map<std::int32_t, std::int64_t>{{26, 1}});
    CHECK(histogram(s.layers[2]) == std::map<std::int32_t, std::int64_t>{{25, 1}});
  }

  TEST_CASE("map: version 3 and ATAD datafiles decode the same map") {
    RealisticMapOptions o;
    o.width = 60;
    o.height = 40;
    WriterOptions v3;
    v3.version = 3;
    WriterOptions atad;
    atad.reversed_magic = true;
    const MapStats a = measure(make_realistic_ddnet_map(o)),
                   b3 = measure(make_realistic_ddnet_map(o, v3)),
                   c = measure(make_realistic_ddnet_map(o, atad));
    CHECK(b3.format_version == 3);
    CHECK(c.reversed_magic);
    REQUIRE(a.layers.size() == b3.layers.size());
    REQUIRE(a.layers.size() == c.layers.size());
    for (std::size_t l = 0; l < a.layers.size(); ++l) {
      CHECK(histogram(a.layers[l]) == histogram(b3.layers[l]));
      CHECK(histogram(a.layers[l]) == histogram(c.layers[l]));
    }
  }

  TEST_CASE("map: the realistic DDNet map is clean and has every physics kind") {
    for (const bool skip : {false, true}) {
      RealisticMapOptions o;
      o.skip_compressed = skip;
      const MapStats s = measure(make_realistic_ddnet_map(o));
      INFO(problems_text(s));
      CHECK(s.status == MapStatus::ok);
      CHECK(s.game_width == 300);
      CHECK(s.game_height == 150);
      std::map<LayerKind, int> kinds;
      for (const auto& l : s.layers) kinds[l.kind]++;
      for (LayerKind k : {LayerKind::tiles, LayerKind::game, LayerKind::front, LayerKind::tele,
                          LayerKind::speedup, LayerKind::switch_layer, LayerKind::tune,
                          LayerKind::quads, LayerKind::sounds})
        CHECK(kinds[k] >= 1);
      CHECK(s.num_automappers == 1);
      for (const char* f : {"DEATH", "THROUGH", "WALLJUMP", "TELEIN", "TELECHECK", "BOOST",
                            "SWITCH", "DOOR", "TUNE", "DRAGGER", "CHECKPOINT_FIRST",
                            "WEAPON_SHOTGUN", "WEAPON_GRENADE", "POWERUP_NINJA", "THROUGH_ALL"})
        CHECK_MESSAGE(has_feature(s, f), f);
    }
  }

}  // TEST_SUITE

}  // namespace mapindex::testing
