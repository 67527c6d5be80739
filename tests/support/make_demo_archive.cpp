// mapindex-make-demo [--next-night] OUT.zip: writes the demo archive of the
// README's first command, made entirely by the project's own writers: DDNet
// race maps with every physics layer, vanilla 0.6 and 0.7 maps, SpriteTile
// levels (both byte orders) and a groups file, a nested tar.gz with a renamed
// duplicate, a non-map entry, and broken maps the index must report without
// stopping. --next-night writes the same archive as it is the next night, for
// the audit's examples (scripts/readme_images.sh): "Demo Race" edited (wider,
// a longer finish run), "Demo Long Race" cut short by an upload, "Demo_Race"
// added, README.txt removed, race7 renamed.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "tests/support/archive_builder.h"
#include "tests/support/map_builder.h"
#include "tests/support/spritetile_writer.h"

namespace {

using namespace mapindex::testing;
using mapindex::LayerKind;

std::vector<std::uint8_t> vanilla_dm_map(bool skip_compressed) {
  MapBuilder b;
  b.info({.author = "mapindex demo",
          .version = "1.0",
          .credits = "made in code",
          .license = "CC0",
          .settings = {},
          .raw_settings = std::nullopt});
  const auto grass = b.add_external_image("grass_main");
  const auto clouds = b.add_external_image("bg_cloud1");
  EnvelopeSpec sway;
  sway.channels = mapindex::teeworlds::kEnvPosition;
  sway.name = "sway";
  sway.points = {{.time = 0, .curve = 4, .values = {0, 0, 0, 0}, .bezier = {}},
                 {.time = 2000, .curve = 4, .values = {1024, 0, 0, 0}, .bezier = {}}};
  const auto sway_env = b.add_envelope(sway);
  b.add_group({.name = "Background", .parallax_x = 30, .parallax_y = 30});
  QuadsLayerSpec sky;
  sky.name = "Sky";
  sky.image = clouds;
  sky.quads = {{.x = -800, .y = -600, .w = 1600, .h = 1200},
               {.x = 0, .y = -200, .w = 400, .h = 200, .position_envelope = sway_env}};
  b.add_quads_layer(sky);
  b.add_game_group();
  const int w = 60, h = 40;
  TileGrid game(LayerKind::game, w, h);
  game.fill(0, h - 4, w, 4, 1).fill(0, 0, 2, h, 1).fill(w - 2, 0, 2, h, 1).fill(20, 25, 8, 1, 3);
  game.set(5, h - 5, 192).set(50, h - 5, 192).set(30, 24, 199).set(25, h - 5, 200).set(10, 20, 197);
  game.fill(35, h - 5, 3, 1, 2);
  TileGrid deco(LayerKind::tiles, w, h);
  deco.fill(0, h - 4, w, 1, 16)
      .fill(0, h - 3, w, 3, 1, 0)
      .set(3, h - 4, 17, 1)
      .set(7, h - 4, 17, 8);
  TileLayerSpec game_spec{.name = "Game", .version = skip_compressed ? 4 : 3};
  b.add_tile_layer(game, game_spec);
  TileLayerSpec deco_spec{.name = "Grass", .version = skip_compressed ? 4 : 3, .image = grass};
  b.add_tile_layer(deco, deco_spec);
  return b.build();
}

std::vector<std::uint8_t> broken_no_game_layer() {
  MapBuilder b;
  b.add_group({.name = "Decoration"});
  TileGrid deco(LayerKind::tiles, 20, 20);
  deco.fill(0, 15, 20, 5, 1);
  b.add_tile_layer(deco, {.name = "Tiles"});
  return b.build();
}

std::vector<std::uint8_t> embedded_standard_image_map() {
  MapBuilder b;
  b.info({.author = "mapindex demo",
          .version = {},
          .credits = {},
          .license = {},
          .settings = {"sv_gametype race"},
          .raw_settings = std::nullopt});
  const auto img = b.add_embedded_image("grass_main", 64, 64);
  b.add_embedded_image("never_used", 32, 32);
  b.add_game_group();
  TileGrid game(LayerKind::game, 30, 20);
  game.fill(0, 16, 30, 4, 1).set(2, 15, 192).set(4, 15, 33).set(26, 15, 34);
  b.add_tile_layer(game, {.name = "Game"});
  TileGrid deco(LayerKind::tiles, 30, 20);
  deco.fill(0, 16, 30, 4, 1);
  b.add_tile_layer(deco, {.name = "Ground", .image = img});
  return b.build();
}

std::vector<std::uint8_t> spritetile_level(bool big_endian, int seed) {
  StLayer ground;
  ground.width = 40;
  ground.height = 12;
  ground.tile_size_x = ground.tile_size_y = 1.0f;
  for (int y = 0; y < ground.height; ++y)
    for (int x = 0; x < ground.width; ++x) {
      StCell c;
      if (y < 3 || (y == 3 && (x + seed) % 7 == 0)) {
        c.tile = static_cast<std::int16_t>(1024 + (x + y + seed) % 12);
        c.misc = y < 3 ? 0x8000 : static_cast<std::uint16_t>(0x1000 | 450);
        c.order = static_cast<std::int16_t>(y);
      }
      if (x == 38 && y == 4) c.trigger = 3;
      ground.cells.push_back(c);
    }
  StLayer background = ground;
  background.z = 5.0f;
  background.layer_lock = 3;
  for (auto& c : background.cells) c.trigger = 0;
  SpriteTileWriter w(big_endian);
  w.layers({ground, background}).numsets(16).editor_tags();
  return w.compressed();
}

std::vector<std::uint8_t> spritetile_groups_file() {
  SpriteTileWriter w(false);
  w.groups_tags();
  return w.compressed();
}

}  // namespace

int main(int argc, char** argv) {
  const bool next_night = argc == 3 && std::string(argv[1]) == "--next-night";
  if (argc != 2 && !next_night) {
    std::fprintf(stderr, "usage: mapindex-make-demo [--next-night] OUT.zip\n");
    return 2;
  }
  const char* out = argv[argc - 1];
  try {
    const auto race1 = make_realistic_ddnet_map({.width = 300, .height = 150, .seed = 1});
    const auto race2 =
        make_realistic_ddnet_map({.width = 500, .height = 200, .seed = 2, .decoration_layers = 6});
    const auto race7 = make_realistic_ddnet_map(
        {.width = 200, .height = 100, .seed = 3, .skip_compressed = true, .with_sounds = false});
    auto truncated = race1;
    truncated.resize(truncated.size() / 2);

    const std::vector<ArchiveMember> nested = {
        {.path = "extra/Mirrored Race.map", .bytes = race1},  // same content, another name
        {.path = "extra/dm_small.map", .bytes = vanilla_dm_map(false)},
    };
    const std::vector<ArchiveMember> members = {
        {.path = "README.txt",
         .bytes = to_bytes("mapindex demo archive: made by mapindex-make-demo\n")},
        {.path = "maps/ddnet/Demo Race.map", .bytes = race1},
        {.path = "maps/ddnet/Demo Long Race.map", .bytes = race2},
        {.path = "maps/ddnet/Embedded Grass.map", .bytes = embedded_standard_image_map()},
        {.path = "maps/vanilla/dm_demo.map", .bytes = vanilla_dm_map(false)},
        {.path = "maps/vanilla7/dm_demo.map", .bytes = vanilla_dm_map(true)},
        {.path = "maps/vanilla7/race7.map", .bytes = race7},
        {.path = "maps/broken/No Game Layer.map", .bytes = broken_no_game_layer()},
        {.path = "maps/broken/Half Download.map", .bytes = truncated},
        {.path = "levels/Level1.bytes", .bytes = spritetile_level(false, 1)},
        {.path = "levels/Level1_big_endian.bytes", .bytes = spritetile_level(true, 1)},
        {.path = "levels/Level2.bytes", .bytes = spritetile_level(false, 2)},
        {.path = "levels/TilesGroups.bytes", .bytes = spritetile_groups_file()},
        {.path = "packs/extra.tar.gz", .bytes = build_archive(ArchiveFormat::tar_gz, nested)},
    };
    std::vector<ArchiveMember> written = members;
    if (next_night) {
      // The same maps the next night: one edited, one cut short, one added
      // under a similar name, one renamed, the README gone.
      written.clear();
      for (auto m : members) {
        if (m.path == "README.txt") continue;
        if (m.path == "maps/ddnet/Demo Race.map")
          m.bytes = make_realistic_ddnet_map({.width = 360, .height = 150, .seed = 1});
        if (m.path == "maps/ddnet/Demo Long Race.map") m.bytes.resize(m.bytes.size() * 3 / 4);
        if (m.path == "maps/vanilla7/race7.map") m.path = "maps/vanilla7/race7 (fixed).map";
        written.push_back(std::move(m));
      }
      written.push_back(
          {.path = "maps/ddnet/Demo_Race.map",
           .bytes = make_realistic_ddnet_map({.width = 220, .height = 90, .seed = 5})});
    }
    write_archive(out, ArchiveFormat::zip, written);
    std::printf("mapindex-make-demo: wrote %s (%zu entries)\n", out, written.size());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mapindex-make-demo: %s\n", e.what());
    return 1;
  }
  return 0;
}
