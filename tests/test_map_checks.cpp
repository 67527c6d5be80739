// Every map-level rule (M1..M15) and every further check: one fixture that
// triggers it (built from a clean map with one thing broken) and the clean map
// that triggers nothing.
#include <doctest/doctest.h>

#include <functional>

#include "decode/datafile/datafile.h"
#include "decode/teeworlds/teeworlds_map.h"
#include "extract/teeworlds_measure.h"
#include "tests/map_check_cases.h"
#include "tests/support/codes.h"
#include "tests/support/map_builder.h"

namespace mapindex::testing {
namespace {

using mapindex::LayerKind;

struct Clean {
  std::int32_t image = -1, envelope = -1;
};

// Two groups: a decoration group with a tiles layer (layer 0, standard
// external image, color envelope) and the game group with an 8x8 game layer
// (layer 1). Layers added afterwards go into the game group.
MapBuilder clean_map(Clean* ids = nullptr) {
  MapBuilder b;
  InfoSpec info;
  info.author = "author";
  info.settings = {"sv_hit 1"};
  b.info(info);
  const auto image = b.add_external_image("grass_main");
  EnvelopeSpec env;
  env.channels = teeworlds::kEnvColor;
  env.points = {{0, 1, {1024, 1024, 1024, 1024}, {}}, {500, 1, {0, 0, 0, 1024}, {}}};
  const auto envelope = b.add_envelope(env);
  GroupSpec bg;
  bg.name = "Background";
  bg.parallax_x = 50;
  b.add_group(bg);
  TileLayerSpec deco;
  deco.image = image;
  deco.color_envelope = envelope;
  b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8).fill(0, 7, 8, 1, 1), deco);
  b.add_game_group();
  b.add_tile_layer(TileGrid(LayerKind::game, 8, 8).fill(0, 7, 8, 1, 1).set(1, 6, 192));
  if (ids) *ids = Clean{image, envelope};
  return b;
}

MapStats measure(const std::vector<std::uint8_t>& file) { return measure_teeworlds(Bytes(file)); }

std::string problems_text(const MapStats& s) {
  std::string out;
  for (const auto& p : s.problems)
    out += std::string(to_string(p.severity())) + " " + std::string(to_string(p.code)) + " [" +
           to_string(p.location) + "] " + p.message + "\n";
  return out;
}

bool has_problem(const MapStats& s, const std::string& code, Severity severity,
                 const std::string& location) {
  for (const auto& p : s.problems)
    if (to_string(p.code) == code && p.severity() == severity &&
        to_string(p.location) == location && !p.message.empty())
      return true;
  return false;
}

using Case = MapCheckCase;

std::vector<std::uint8_t> with(const std::function<void(MapBuilder&, const Clean&)>& change) {
  Clean ids;
  MapBuilder b = clean_map(&ids);
  change(b, ids);
  return b.build();
}

// Makes the v4 size table claim 4 more bytes for the game layer's data, so
// inflating it fails (D4).
std::vector<std::uint8_t> break_game_data(std::vector<std::uint8_t> file) {
  auto df = datafile::Datafile::open(Bytes(file));
  REQUIRE(df.ok());
  const auto map = teeworlds::decode_map(*df);
  const auto index = map.layers[static_cast<std::size_t>(map.game_layer())].tilemap->tile_data();
  const auto size = df->data_size(static_cast<std::size_t>(index));
  const FileLayout layout = file_layout(file);
  patch_i32(file, layout.data_sizes + 4 * static_cast<std::size_t>(index),
            static_cast<std::int32_t>(size + 4));
  return file;
}

const Severity E = Severity::error, W = Severity::warning, I = Severity::info;

}  // namespace

std::vector<Case> map_check_cases() {
  using B = MapBuilder;
  using C = const Clean&;
  std::vector<Case> c;
  c.push_back({"no version item", "M1", E, "",
               [] { return with([](B& b, C) { b.omit_version_item(); }); }});
  c.push_back({"version 2", "M1", E, "", [] { return with([](B& b, C) { b.version_value(2); }); }});
  c.push_back({"group beyond the layers", "M2", E, "group 2", [] {
                 return with([](B& b, C) {
                   GroupSpec g;
                   g.stored_num = 10;
                   b.add_group(g);
                 });
               }});
  c.push_back({"short group item", "M2", E, "group 2", [] {
                 return with([](B& b, C) {
                   b.add_raw_item(teeworlds::kGroupType, 2, {3, 0, 0, 100, 100});
                 });
               }});
  c.push_back({"overlapping groups", "M3", E, "layer 1", [] {
                 return with([](B& b, C) {
                   GroupSpec g;
                   g.stored_start = 0;
                   g.stored_num = 2;
                   b.add_group(g);
                 });
               }});
  c.push_back({"short layer item", "M4", E, "layer 2", [] {
                 return with([](B& b, C) { b.add_raw_item(teeworlds::kLayerType, 2, {0, 2}); });
               }});
  c.push_back({"tilemap version 5", "M5", E, "layer 2", [] {
                 return with([](B& b, C) {
                   TileLayerSpec s;
                   s.version = 5;
                   b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8), s);
                 });
               }});
  c.push_back({"two physics flags", "M5", E, "layer 2", [] {
                 return with([](B& b, C) {
                   TileLayerSpec s;
                   s.stored_flags = 3;
                   b.add_tile_layer(TileGrid(LayerKind::tele, 8, 8), s);
                 });
               }});
  c.push_back({"tilemap item of 56 bytes", "M5", E, "layer 2", [] {
                 return with([](B& b, C) {
                   TileLayerSpec s;
                   s.item_ints = 14;
                   b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8), s);
                 });
               }});
  c.push_back({"v3 tilemap without its name", "M6", E, "layer 2", [] {
                 return with([](B& b, C) {
                   TileLayerSpec s;
                   s.item_ints = 16;
                   b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8), s);
                 });
               }});
  c.push_back({"tele layer without its data index", "M6", E, "layer 2", [] {
                 return with([](B& b, C) {
                   TileLayerSpec s;
                   s.num_ddnet_slots = 0;
                   b.add_tile_layer(TileGrid(LayerKind::tele, 8, 8), s);
                 });
               }});
  c.push_back({"tilemap 1 tile wide", "M7", E, "layer 2", [] {
                 return with([](B& b, C) { b.add_tile_layer(TileGrid(LayerKind::tiles, 1, 8)); });
               }});
  c.push_back({"tilemap size overflows", "M7", E, "layer 2", [] {
                 return with([](B& b, C) {
                   TileLayerSpec s;
                   s.stored_width = 100000;
                   s.stored_height = 100000;
                   b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8), s);
                 });
               }});
  c.push_back({"color component 300", "M8", E, "layer 2", [] {
                 return with([](B& b, C) {
                   TileLayerSpec s;
                   s.color = {300, 0, 0, 255};
                   b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8), s);
                 });
               }});
  c.push_back({"no game layer", "M10", E, "", [] {
                 MapBuilder b;
                 b.add_group();
                 b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8));
                 return b.build();
               }});
  c.push_back({"data index out of range", "M11", E, "layer 2", [] {
                 return with([](B& b, C) {
                   TileLayerSpec s;
                   s.data_index_override = 999;
                   b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8), s);
                 });
               }});
  c.push_back({"two layers share their data", "M11", E, "layer 3", [] {
                 return with([](B& b, C) {
                   const auto d = b.add_raw_data(std::vector<std::uint8_t>(8 * 8 * 4, 0));
                   TileLayerSpec s;
                   s.data_index_override = d;
                   b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8), s);
                   b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8), s);
                 });
               }});
  c.push_back({"front layer smaller than the game layer", "M13", E, "layer 2", [] {
                 return with([](B& b, C) { b.add_tile_layer(TileGrid(LayerKind::front, 4, 4)); });
               }});
  c.push_back({"plain tile data too short", "M14", E, "layer 2", [] {
                 return with([](B& b, C) {
                   TileLayerSpec s;
                   s.data_override = std::vector<std::uint8_t>(40, 0);
                   b.add_tile_layer(TileGrid(LayerKind::front, 8, 8), s);
                 });
               }});
  c.push_back({"skip runs short of width*height", "M14", E, "layer 2", [] {
                 return with([](B& b, C) {
                   TileLayerSpec s;
                   s.version = 4;
                   s.data_override = std::vector<std::uint8_t>{1, 0, 3, 0};
                   b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8), s);
                 });
               }});
  c.push_back({"skip data left over", "M14", E, "layer 2", [] {
                 return with([](B& b, C) {
                   TileLayerSpec s;
                   s.version = 4;
                   s.data_override = std::vector<std::uint8_t>{1, 0, 63, 0, 2, 0, 0, 0};
                   b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8), s);
                 });
               }});
  c.push_back({"reserved byte set", "M14", E, "layer 2", [] {
                 return with([](B& b, C) {
                   b.add_tile_layer(
                       TileGrid(LayerKind::tiles, 8, 8).set(1, 1, 4).set_byte(1, 1, 3, 1));
                 });
               }});
  c.push_back({"game layer data does not inflate", "M15", E, "layer 1",
               [] { return break_game_data(clean_map().build()); }});
  // Further checks.
  c.push_back({"color envelope missing", "envelope.missing", W, "layer 2", [] {
                 return with([](B& b, C) {
                   TileLayerSpec s;
                   s.color_envelope = 5;
                   b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8), s);
                 });
               }});
  c.push_back({"position envelope as a color envelope", "envelope.kind", W, "layer 2", [] {
                 return with([](B& b, C) {
                   EnvelopeSpec e;
                   e.channels = teeworlds::kEnvPosition;
                   e.points = {{0, 1, {}, {}}};
                   TileLayerSpec s;
                   s.color_envelope = b.add_envelope(e);
                   b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8), s);
                 });
               }});
  c.push_back({"envelope points out of range", "envelope.points_range", W, "envelope 0", [] {
                 MapBuilder b = clean_map();
                 return b.build();
               }});
  c.back().make = [] {
    // Rebuild the clean map with the envelope claiming 50 points.
    MapBuilder b;
    EnvelopeSpec e;
    e.points = {{0, 1, {}, {}}};
    e.stored_num = 50;
    const auto env = b.add_envelope(e);
    b.add_game_group();
    b.add_tile_layer(TileGrid(LayerKind::game, 8, 8));
    TileLayerSpec s;
    s.color_envelope = env;
    b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8), s);
    return b.build();
  };
  c.push_back({"envelope times go back", "envelope.time_order", W, "envelope 1", [] {
                 return with([](B& b, C) {
                   EnvelopeSpec e;
                   e.points = {{100, 1, {}, {}}, {50, 1, {}, {}}};
                   TileLayerSpec s;
                   s.color_envelope = b.add_envelope(e);
                   b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8), s);
                 });
               }});
  c.push_back({"envelope with 2 channels", "envelope.channels", W, "envelope 1", [] {
                 return with([](B& b, C) {
                   EnvelopeSpec e;
                   e.channels = 2;
                   b.add_envelope(e);
                 });
               }});
  c.push_back({"unused envelope", "envelope.unused", I, "envelope 1", [] {
                 return with([](B& b, C) {
                   EnvelopeSpec e;
                   e.points = {{0, 1, {}, {}}};
                   b.add_envelope(e);
                 });
               }});
  c.push_back({"envelope points item of 7 ints", "envpoints.size", W, "envelope points", [] {
                 MapBuilder b;
                 b.add_game_group();
                 b.add_tile_layer(TileGrid(LayerKind::game, 8, 8));
                 b.add_raw_item(teeworlds::kEnvPointsType, 0, {0, 1, 0, 0, 0, 0, 9});
                 return b.build();
               }});
  c.push_back({"bezier item with another point count", "envpoints.bezier_count", W,
               "envelope points", [] { return with([](B& b, C) { b.bezier_item_points(7); }); }});
  c.push_back({"num_quads differs from the data", "quads.data_size", W, "layer 2", [] {
                 return with([](B& b, C) {
                   QuadsLayerSpec q;
                   q.quads.resize(2);
                   q.stored_num_quads = 5;
                   b.add_quads_layer(q);
                 });
               }});
  c.push_back({"num_sources differs from the data", "sounds.data_size", W, "layer 2", [] {
                 return with([](B& b, C) {
                   SoundsLayerSpec s;
                   s.sound = b.add_sound("x");
                   s.sources.resize(1);
                   s.stored_num_sources = 3;
                   b.add_sounds_layer(s);
                 });
               }});
  c.push_back({"image index out of range", "image.missing", W, "layer 2", [] {
                 return with([](B& b, C) {
                   TileLayerSpec s;
                   s.image = 9;
                   b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8), s);
                 });
               }});
  c.push_back({"tile image not a multiple of 16", "image.tile_size", W, "image 1", [] {
                 return with([](B& b, C) {
                   TileLayerSpec s;
                   s.image = b.add_embedded_image("odd", 100, 100);
                   b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8), s);
                 });
               }});
  c.push_back({"embedded image data too small", "image.data_size", W, "image 1", [] {
                 return with([](B& b, C) {
                   QuadsLayerSpec q;
                   q.quads.resize(1);
                   q.image = b.add_embedded_image("small", 64, 64, true, 1,
                                                  std::vector<std::uint8_t>(100, 1));
                   b.add_quads_layer(q);
                 });
               }});
  c.push_back({"RGB image", "image.rgb", W, "image 1", [] {
                 return with([](B& b, C) {
                   QuadsLayerSpec q;
                   q.quads.resize(1);
                   q.image = b.add_embedded_image("rgb", 64, 64, false, 2);
                   b.add_quads_layer(q);
                 });
               }});
  c.push_back(
      {"external image outside the standard list", "image.external_nonstandard", W, "image 1", [] {
         return with([](B& b, C) {
           QuadsLayerSpec q;
           q.quads.resize(1);
           q.image = b.add_external_image("my_tiles");
           b.add_quads_layer(q);
         });
       }});
  c.push_back({"65 images", "images.too_many", W, "", [] {
                 return with([](B& b, C) {
                   for (int i = 0; i < 64; ++i) b.add_external_image("grass_doodads");
                 });
               }});
  c.push_back({"unused image", "image.unused", I, "image 1",
               [] { return with([](B& b, C) { b.add_external_image("winter_main"); }); }});
  c.push_back({"embedded image without data", "image.no_data", W, "image 1", [] {
                 return with([](B& b, C) {
                   const auto name = b.add_raw_data({'x', 0});
                   b.add_raw_item(teeworlds::kImageType, 1, {1, 64, 64, 0, name, -1});
                 });
               }});
  c.push_back({"image name index out of range", "image.name", W, "image 1", [] {
                 return with([](B& b, C) {
                   b.add_raw_item(teeworlds::kImageType, 1, {1, 64, 64, 1, 999, -1});
                 });
               }});
  c.push_back({"sound index out of range", "sound.missing", W, "layer 2", [] {
                 return with([](B& b, C) {
                   SoundsLayerSpec s;
                   s.sound = 4;
                   s.sources.resize(1);
                   b.add_sounds_layer(s);
                 });
               }});
  c.push_back({"unused sound", "sound.unused", I, "sound 0",
               [] { return with([](B& b, C) { b.add_sound("lonely"); }); }});
  c.push_back({"external sound", "sound.external", W, "sound 0", [] {
                 return with([](B& b, C) {
                   const auto name = b.add_raw_data({'s', 0});
                   b.add_sound_raw(teeworlds::SoundItem{1, true, name, -1, 0});
                 });
               }});
  c.push_back({"sound without data", "sound.no_data", W, "sound 0", [] {
                 return with([](B& b, C) {
                   const auto name = b.add_raw_data({'s', 0});
                   b.add_sound_raw(teeworlds::SoundItem{1, false, name, 999, 0});
                 });
               }});
  c.push_back({"65 sounds", "sounds.too_many", W, "", [] {
                 return with([](B& b, C) {
                   for (int i = 0; i < 65; ++i) b.add_sound("s" + std::to_string(i));
                 });
               }});
  c.push_back({"two game layers", "layer.duplicate_physics", W, "layer 1", [] {
                 return with([](B& b, C) { b.add_tile_layer(TileGrid(LayerKind::game, 8, 8)); });
               }});
  c.push_back({"front layer of another size", "layer.size_mismatch", W, "layer 2", [] {
                 return with([](B& b, C) { b.add_tile_layer(TileGrid(LayerKind::front, 16, 4)); });
               }});
  c.push_back({"layer outside every group", "layer.ungrouped", W, "layer 2", [] {
                 return with([](B& b, C) {
                   b.add_raw_item(teeworlds::kLayerType, 2, {0, 3, 0, 2, 0, -1, -1});
                 });
               }});
  c.push_back(
      {"front layer outside the game group", "layer.physics_outside_game_group", W, "layer 2", [] {
         return with([](B& b, C) {
           b.add_group();
           b.add_tile_layer(TileGrid(LayerKind::front, 8, 8));
         });
       }});
  c.push_back({"unknown layer type", "layer.type", W, "layer 2", [] {
                 return with([](B& b, C) {
                   GroupSpec g;
                   g.stored_start = 2;
                   g.stored_num = 1;
                   b.add_group(g);
                   b.add_raw_item(teeworlds::kLayerType, 2, {0, 7, 0});
                 });
               }});
  c.push_back({"game group with parallax 50", "group.game_not_standard", W, "group 0", [] {
                 MapBuilder b;
                 GroupSpec g;
                 g.parallax_x = 50;
                 b.add_group(g);
                 b.add_tile_layer(TileGrid(LayerKind::game, 8, 8));
                 return b.build();
               }});
  c.push_back({"automapper of a missing group", "automapper.target", I, "automapper 0",
               [] { return with([](B& b, C) { b.add_automapper(7, 0); }); }});
  c.push_back({"automapper of a missing layer", "automapper.target", I, "automapper 0",
               [] { return with([](B& b, C) { b.add_automapper(0, 3); }); }});
  c.push_back({"tele type 1", "tile.invalid", W, "layer 2", [] {
                 return with([](B& b, C) {
                   b.add_tile_layer(TileGrid(LayerKind::tele, 8, 8).set_tele(1, 1, 1, 1));
                 });
               }});
  c.push_back({"game tile 8", "tile.invalid", W, "layer 0", [] {
                 MapBuilder b;
                 b.add_game_group();
                 b.add_tile_layer(TileGrid(LayerKind::game, 8, 8).set(2, 2, 8));
                 return b.build();
               }});
  c.push_back({"author of 40 bytes", "info.too_long", W, "info", [] {
                 MapBuilder b = clean_map();
                 InfoSpec i;
                 i.author = std::string(40, 'a');
                 b.info(i);
                 return b.build();
               }});
  c.push_back({"settings without the last NUL", "info.settings", W, "info", [] {
                 MapBuilder b = clean_map();
                 InfoSpec i;
                 i.raw_settings = std::vector<std::uint8_t>{'s', 'v', 0, 'x'};
                 b.info(i);
                 return b.build();
               }});
  c.push_back({"settings line not UTF-8", "text.not_utf8", W, "info", [] {
                 MapBuilder b = clean_map();
                 InfoSpec i;
                 i.raw_settings = std::vector<std::uint8_t>{'s', 0xFF, 0};
                 b.info(i);
                 return b.build();
               }});
  c.push_back({"author not UTF-8", "text.not_utf8", W, "info", [] {
                 MapBuilder b = clean_map();
                 InfoSpec i;
                 i.author = std::string("\xC3\x28");
                 b.info(i);
                 return b.build();
               }});
  return c;
}

TEST_SUITE("map") {
  TEST_CASE("map: the clean fixture map has no problem at all") {
    const MapStats s = measure(clean_map().build());
    INFO(problems_text(s));
    CHECK(s.problems.empty());
    CHECK(s.status == MapStatus::ok);
    REQUIRE(s.layers.size() == 2);
    CHECK(s.layers[1].non_empty == 9);
  }

  TEST_CASE("map: each check has a fixture that triggers it") {
    for (const Case& c : map_check_cases()) {
      const std::string name = c.name;
      CAPTURE(name);
      const MapStats s = measure(c.make());
      INFO(problems_text(s));
      CHECK_MESSAGE(has_problem(s, c.code, c.severity, c.location),
                    c.name << ": expected " << to_string(c.severity) << " " << c.code << " at '"
                           << c.location << "'");
      // Info findings cannot break the map: a map whose only finding is one is ok.
      CHECK(s.status == (c.severity == Severity::error     ? MapStatus::rejected
                         : c.severity == Severity::warning ? MapStatus::warnings
                                                           : MapStatus::ok));
    }
  }

  TEST_CASE(
      "map: decoding goes on after errors: a broken decoration layer leaves the game layer counted") {
    Clean ids;
    MapBuilder b = clean_map(&ids);
    TileLayerSpec broken;
    broken.data_override = std::vector<std::uint8_t>(12, 0);
    b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8), broken);
    TileLayerSpec colors;
    colors.color = {-1, 0, 0, 0};
    b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8).set(0, 0, 5), colors);
    const MapStats s = measure(b.build());
    INFO(problems_text(s));
    CHECK(s.status == MapStatus::rejected);
    CHECK(has_problem(s, "M14", Severity::error, "layer 2"));
    CHECK(has_problem(s, "M8", Severity::error, "layer 3"));
    REQUIRE(s.layers.size() == 4);
    CHECK(s.layers[1].non_empty == 9);
    CHECK(s.layers[3].non_empty == 1);  // M8 does not stop counting
    CHECK(s.game_width == 8);
  }

  TEST_CASE("map: a container that does not open is rejected with its rule") {
    auto file = clean_map().build();
    CHECK(looks_like_datafile(Bytes(file)));
    file.resize(file.size() - 10);
    const MapStats s = measure(file);
    CHECK(s.status == MapStatus::rejected);
    REQUIRE(s.problems.size() == 1);
    CHECK(to_string(s.problems[0].code).front() == 'H');
    CHECK(s.layers.empty());
    const std::vector<std::uint8_t> junk = {'P', 'K', 3, 4, 0, 0};
    CHECK_FALSE(looks_like_datafile(Bytes(junk)));
    const MapStats j = measure(junk);
    CHECK(j.status == MapStatus::rejected);
  }

  TEST_CASE("map: hostile sizes: huge declared layers and counts allocate nothing unbounded") {
    Clean ids;
    MapBuilder b = clean_map(&ids);
    TileLayerSpec huge;
    huge.stored_width = 20000;
    huge.stored_height = 20000;  // 1.6 GB of tiles declared, 256 bytes stored
    b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8), huge);
    QuadsLayerSpec q;
    q.stored_num_quads = 0x7FFFFFFF;
    q.quads.resize(1);
    b.add_quads_layer(q);
    const MapStats s = measure(b.build());
    INFO(problems_text(s));
    CHECK(has_problem(s, "M14", Severity::error, "layer 2"));
    CHECK(has_problem(s, "quads.data_size", Severity::warning, "layer 3"));
    CHECK(s.layers[3].non_empty == 1);
  }

}  // TEST_SUITE

}  // namespace mapindex::testing
