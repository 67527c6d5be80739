// mapindex-fuzz-seeds OUT_DIR: writes the seed corpora of the fuzz targets
// into OUT_DIR/{datafile,deflate,teeworlds,measure,spritetile,archive,tile_scan}/,
// made entirely by the project's own fixture writers (tests/support). Small inputs on purpose:
// libFuzzer mutates small inputs much faster, and every seed stays under the
// target's -max_len in scripts/fuzz.sh.
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "decode/datafile/uuid.h"
#include "tests/support/archive_builder.h"
#include "tests/support/datafile_writer.h"
#include "tests/support/deflate_writer.h"
#include "tests/support/map_builder.h"
#include "tests/support/spritetile_writer.h"

namespace fs = std::filesystem;
using namespace mapindex::testing;
using mapindex::LayerKind;
using Blob = std::vector<std::uint8_t>;

namespace {

// Every kind of layer, envelope form, image, sound and automapper item.
Blob kitchen_sink_map(EnvPointForm form, const WriterOptions& writer) {
  MapBuilder b;
  b.info({.author = "fuzz",
          .version = "1",
          .credits = "seed",
          .license = "CC0",
          .settings = {"sv_gametype race", "tune gravity 0.5"},
          .raw_settings = std::nullopt});
  b.envelope_point_form(form);
  const auto external = b.add_external_image("grass_main", 1024, 1024);
  const auto embedded = b.add_embedded_image("tiny", 4, 4, true, 2);
  EnvelopeSpec pos{.channels = mapindex::teeworlds::kEnvPosition, .name = "move"};
  pos.points = {{.time = 0, .curve = 5, .values = {0, 0, 0, 0}, .bezier = {1, 2, 3, 4}},
                {.time = 1000, .curve = 1, .values = {1024, 512, 0, 0}, .bezier = {}}};
  const auto pos_env = b.add_envelope(pos);
  EnvelopeSpec color{
      .channels = mapindex::teeworlds::kEnvColor, .name = "fade", .synchronized = true};
  color.points = {{.time = 0, .curve = 0, .values = {1024, 1024, 1024, 1024}, .bezier = {}},
                  {.time = 500, .curve = 9, .values = {0, 0, 0, 512}, .bezier = {}}};
  const auto color_env = b.add_envelope(color);
  EnvelopeSpec sound_env{.channels = mapindex::teeworlds::kEnvSound, .name = "vol"};
  sound_env.points = {{.time = 0, .curve = 2, .values = {1024, 0, 0, 0}, .bezier = {}}};
  const auto vol_env = b.add_envelope(sound_env);
  const auto sound = b.add_sound("wind", {'O', 'g', 'g', 'S', 0, 2});

  b.add_group({.name = "Background",
               .parallax_x = 30,
               .parallax_y = 40,
               .clipping = true,
               .clip_x = 0,
               .clip_y = 0,
               .clip_w = 800,
               .clip_h = 600,
               .parallax_zoom = 50});
  QuadsLayerSpec quads{.name = "Sky", .image = external};
  quads.quads = {{.x = -100,
                  .y = -100,
                  .w = 200,
                  .h = 100,
                  .position_envelope = pos_env,
                  .color_envelope = color_env}};
  b.add_quads_layer(quads);
  SoundsLayerSpec sounds{.name = "Ambience", .sound = sound};
  sounds.sources = {{.x = 10, .y = 20, .sound_envelope = vol_env}};
  b.add_sounds_layer(sounds);
  SoundsLayerSpec old_sounds{.name = "Old", .sound = sound, .deprecated = true};
  old_sounds.sources = {{.x = 1, .y = 2, .shape_kind = 0, .shape_width = 30, .shape_height = 40}};
  b.add_sounds_layer(old_sounds);

  b.add_game_group();
  const int w = 24, h = 16;
  TileGrid game(LayerKind::game, w, h);
  game.fill(0, h - 2, w, 2, 1)
      .fill(0, 0, 1, h, 1)
      .set(2, h - 3, 192)
      .set(4, h - 3, 33)
      .set(20, h - 3, 34)
      .set(8, 5, 9)
      .set(9, 5, 2)
      .set(10, 5, 5, 8);
  b.add_tile_layer(game, {.name = "Game"});
  TileGrid front(LayerKind::front, w, h);
  front.set(3, 3, 64).set(4, 3, 95);
  b.add_tile_layer(front, {.name = "Front"});
  TileGrid tele(LayerKind::tele, w, h);
  tele.set_tele(5, 5, 26, 1).set_tele(6, 6, 27, 1);
  b.add_tile_layer(tele, {.name = "Tele"});
  TileGrid speedup(LayerKind::speedup, w, h);
  speedup.set_speedup(7, 7, 28, 10, 0, 90);
  b.add_tile_layer(speedup, {.name = "Speedup"});
  TileGrid sw(LayerKind::switch_layer, w, h);
  sw.set_switch(8, 8, 22, 1, 0, 3).set_switch(9, 8, 24, 1);
  b.add_tile_layer(sw, {.name = "Switch"});
  TileGrid tune(LayerKind::tune, w, h);
  tune.set_tune(10, 10, 68, 1);
  b.add_tile_layer(tune, {.name = "Tune"});
  TileGrid deco(LayerKind::tiles, w, h);
  deco.fill(0, h - 2, w, 2, 1, 8).set(1, 1, 17, 3);
  const auto deco_layer =
      b.add_tile_layer(deco, {.name = "Deco", .color_envelope = color_env, .image = embedded});
  b.add_automapper(1, deco_layer, 0, 7, 1);
  TileGrid skip(LayerKind::tiles, w, h);
  skip.fill(0, 0, w, 3, 2);
  b.add_tile_layer(skip, {.name = "Skip", .version = 4, .image = external});
  return b.build(writer);
}

Blob small_dm_map(const WriterOptions& writer) {
  MapBuilder b;
  b.add_game_group();
  TileGrid game(LayerKind::game, 8, 6);
  game.fill(0, 5, 8, 1, 1).set(1, 4, 192);
  b.add_tile_layer(game, {.name = "Game"});
  return b.build(writer);
}

// A bare container: items of a few types, a UUID type, strings and raw data.
Blob bare_container(const WriterOptions& writer) {
  DatafileWriter w;
  w.add_item(0, 0, {1});
  w.add_item(1, 0, {1, 2, 3, 4});
  w.add_item(1, 1, {5, 6});
  const auto t = w.uuid_type(mapindex::datafile::uuid_from_name(mapindex::datafile::kTestItemName));
  w.add_item(t, 0, {7, 8, 9});
  w.add_string("hello");
  w.add_data(Blob{1, 2, 3, 4, 5, 6, 7, 8});
  w.add_data(Blob(300, 0));
  return w.finish(writer);
}

std::vector<StCell> cells(int width, int height, int seed) {
  std::vector<StCell> out;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      StCell c;
      if ((x + y + seed) % 3 != 0) {
        c.tile = static_cast<std::int16_t>((x * 7 + y + seed) % 2048);
        c.misc = static_cast<std::uint16_t>(((x + y) % 2 ? 0x8000 : 0x1800) | ((x * 45) % 1800));
        c.order = static_cast<std::int16_t>(y - 2);
        c.trigger = static_cast<std::uint8_t>(x == 1 ? 3 : 0);
      }
      out.push_back(c);
    }
  return out;
}

std::vector<SpriteTileWriter> spritetile_levels() {
  std::vector<SpriteTileWriter> out;
  for (bool big : {false, true}) {
    for (std::int32_t version : {2, 3}) {
      StLayer a{.width = 6, .height = 4};
      a.cells = cells(6, 4, version);
      StLayer b{.tile_size_x = 0.5f,
                .tile_size_y = 2,
                .scroll_x = 1,
                .z = -3,
                .layer_lock = 3,
                .add_border = 1,
                .width = 3,
                .height = 2};
      b.cells = cells(3, 2, 1);
      SpriteTileWriter w(big, version);
      w.layers({a, b}).numsets(big ? 8 : 32).editor_tags();
      out.push_back(w);
    }
  }
  SpriteTileWriter odd(false, 2);  // payloads out of table order, a raw tag and a trailer
  StLayer l{.tag = "lyrdatX", .width = 2, .height = 2};
  l.cells = cells(2, 2, 5);
  odd.raw_tag("unknown", {1, 2, 3}).layers({l}).payload_order({1, 0}).trailer({9, 9});
  out.push_back(odd);
  SpriteTileWriter groups(false, 2);
  groups.groups_tags();
  out.push_back(groups);
  return out;
}

void write(const fs::path& dir, const std::string& name, const Blob& bytes) {
  fs::create_directories(dir);
  write_file(dir / name, bytes);
}

// A deflate target input: the declared size (3 bytes, little-endian), then
// the raw stream.
Blob deflate_input(std::size_t size, const Blob& stream) {
  Blob b = {static_cast<std::uint8_t>(size), static_cast<std::uint8_t>(size >> 8),
            static_cast<std::uint8_t>(size >> 16)};
  b.insert(b.end(), stream.begin(), stream.end());
  return b;
}

// Raw deflate streams as zlib writes them (tile data: runs of air between
// tiles; text; bytes that do not compress) at several levels and strategies,
// and streams of tiny blocks, each declared at its size.
void write_deflate_seeds(const fs::path& dir) {
  Blob tiles(4 * 3000, 0);
  for (std::size_t i = 0; i < 3000; i += 1 + (i * 7) % 97)
    tiles[4 * i] = static_cast<std::uint8_t>(1 + i % 200);
  const Blob text = to_bytes("sv_gametype race\ntune gravity 0.5\nsv_gametype race\n");
  const Blob noise = noise_bytes(2000, 7);
  const std::vector<std::pair<std::string, Blob>> payloads = {
      {"tiles", tiles}, {"text", text}, {"noise", noise}, {"air", Blob(70000, 0)}};
  for (const auto& [name, data] : payloads)
    for (const auto& [tag, level, strategy] :
         {std::tuple{"l1", 1, Z_DEFAULT_STRATEGY}, std::tuple{"l6", 6, Z_DEFAULT_STRATEGY},
          std::tuple{"l9", 9, Z_DEFAULT_STRATEGY}, std::tuple{"fixed", 9, Z_FIXED},
          std::tuple{"rle", 9, Z_RLE}, std::tuple{"huff", 9, Z_HUFFMAN_ONLY}})
      write(dir, name + "_" + tag,
            deflate_input(data.size(), zlib_deflate_raw(data, level, strategy)));
  for (const TinyBlocks kind : kAllTinyBlocks)
    write(dir, "tiny_" + std::to_string(static_cast<int>(kind)),
          deflate_input(tiny_blocks_size(kind, 20), tiny_blocks(kind, 20)));
}

// Tile scan inputs (fuzz_tile_scan.cpp): for each layer kind, a header and
// ops building air of several lengths, walls of one struct, mixed tiles.
void write_tile_scan_seeds(const fs::path& dir) {
  for (std::uint8_t kind = 0; kind < 7; ++kind)
    for (const std::uint8_t flags : {std::uint8_t{0}, std::uint8_t{2}, std::uint8_t{7}}) {
      Blob b = {kind, 99, 0, 0, 200, 64, flags, 0x55, 0, 0, 0, 0, 0, 0, 0x80};
      const Blob ops = {0x07, 0x45, 0x8f, 1,  0,    0,    0,  0,  0,    0xc3, 1,    2,  3,
                        4,    5,    6,    7,  8,    9,    10, 11, 12,   13,   14,   15, 16,
                        17,   18,   19,   20, 21,   22,   23, 24, 0x3f, 0x50, 0xbf, 9,  9,
                        9,    9,    9,    9,  0x01, 0xc0, 0,  0,  0,    0,    0,    7};
      b.insert(b.end(), ops.begin(), ops.end());
      write(dir, "layer_" + std::to_string(kind) + "_" + std::to_string(flags), b);
    }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: mapindex-fuzz-seeds OUT_DIR\n");
    return 2;
  }
  try {
    const fs::path out = argv[1];
    std::vector<std::pair<std::string, Blob>> maps;
    const std::vector<std::pair<std::string, WriterOptions>> writers = {
        {"v4", {}},
        {"v3", {.version = 3}},
        {"atad", {.reversed_magic = true}},
        {"crude", {.crude_header = true}},
    };
    for (const auto& [tag, writer] : writers) {
      maps.emplace_back("sink_" + tag + ".map", kitchen_sink_map(EnvPointForm::automatic, writer));
      maps.emplace_back("dm_" + tag + ".map", small_dm_map(writer));
      maps.emplace_back("bare_" + tag + ".map", bare_container(writer));
    }
    maps.emplace_back("sink_22ints.map", kitchen_sink_map(EnvPointForm::twenty_two_ints, {}));
    maps.emplace_back(
        "race.map",
        make_realistic_ddnet_map({.width = 60, .height = 40, .seed = 1, .decoration_layers = 1}));
    maps.emplace_back("race7.map", make_realistic_ddnet_map({.width = 50,
                                                             .height = 30,
                                                             .seed = 2,
                                                             .decoration_layers = 1,
                                                             .skip_compressed = true,
                                                             .with_sounds = false}));
    maps.emplace_back(
        "race_v3.map",
        make_realistic_ddnet_map({.width = 40, .height = 30, .seed = 3, .decoration_layers = 0},
                                 {.version = 3}));
    for (const auto& [name, bytes] : maps) {
      write(out / "datafile", name, bytes);
      write(out / "teeworlds", name, bytes);
      write(out / "measure", name, bytes);
    }
    write_deflate_seeds(out / "deflate");
    write_tile_scan_seeds(out / "tile_scan");

    // SpriteTile: byte 0 even = the file as stored (LZF), odd = decompressed.
    const auto levels = spritetile_levels();
    Blob first_level;
    for (std::size_t i = 0; i < levels.size(); ++i) {
      Blob stored{0};
      const Blob compressed = levels[i].compressed();
      stored.insert(stored.end(), compressed.begin(), compressed.end());
      if (i == 0) first_level = compressed;
      write(out / "spritetile", "level" + std::to_string(i) + ".lzf", stored);
      Blob raw{1};
      const Blob plain = levels[i].raw();
      raw.insert(raw.end(), plain.begin(), plain.end());
      write(out / "spritetile", "level" + std::to_string(i) + ".raw", raw);
    }
    Blob literal{0};
    const Blob lit = lzf_literal_stream(levels[0].raw());
    literal.insert(literal.end(), lit.begin(), lit.end());
    write(out / "spritetile", "literal.lzf", literal);

    // Archives: every format the builder writes, with a map, a level, a
    // folder, a link and a nested archive.
    const Blob dm = small_dm_map({});
    const std::vector<ArchiveMember> inner = {{.path = "inner/a.map", .bytes = dm}};
    const std::vector<ArchiveMember> members = {
        {.path = "maps/", .type = MemberType::directory},
        {.path = "maps/dm.map", .bytes = dm},
        {.path = "maps/level.bytes", .bytes = first_level},
        {.path = "maps/link.map", .type = MemberType::symlink, .link_target = "dm.map"},
        {.path = "readme.txt", .bytes = to_bytes("not a map\n")},
        {.path = "packs/inner.zip", .bytes = build_archive(ArchiveFormat::zip, inner)},
    };
    for (auto format :
         {ArchiveFormat::zip, ArchiveFormat::tar, ArchiveFormat::tar_gz, ArchiveFormat::tar_xz,
          ArchiveFormat::tar_zst, ArchiveFormat::tar_bz2, ArchiveFormat::seven_zip}) {
      write(out / "archive", "seed" + std::string(extension(format)),
            build_archive(format, members));
    }
    write(out / "archive", "stored.zip",
          build_archive(ArchiveFormat::zip, members, {.options = "zip:compression=store"}));
    const std::vector<ArchiveMember> deep = {
        {.path = "mid.tar",
         .bytes = build_archive(
             ArchiveFormat::tar,
             {{.path = "in.7z", .bytes = build_archive(ArchiveFormat::seven_zip, inner)}})}};
    write(out / "archive", "nested.zip", build_archive(ArchiveFormat::zip, deep));
    write(out / "archive", "plain.map", dm);
    write(out / "archive", "gzip.map.gz", gzip_bytes(dm));
    std::printf("mapindex-fuzz-seeds: wrote the seed corpora into %s\n", argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mapindex-fuzz-seeds: %s\n", e.what());
    return 1;
  }
  return 0;
}
