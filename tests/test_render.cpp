// Pictures: the tile classes and palette, the canvas (scale, size cap,
// downscale), PNGs read back with libpng, `mapindex render` on maps, levels
// and archive entries, and the thumbnails the index stores.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "decode/teeworlds/tiles.h"
#include "extract/measure.h"
#include "read/digest.h"
#include "render/canvas.h"
#include "render/png.h"
#include "render/tile_class.h"
#include "tests/support/archive_builder.h"
#include "tests/support/corpus.h"
#include "tests/support/map_builder.h"
#include "tests/support/png_probe.h"
#include "tests/support/process.h"
#include "tests/support/spritetile_writer.h"
#include "tests/support/sqlite_probe.h"
#include "tiledata/zero_blocks.h"
#include "tiledata/zeroed_buffer.h"

namespace fs = std::filesystem;
using namespace mapindex::testing;
using mapindex::Bytes;
using mapindex::LayerKind;
using mapindex::render::palette;
using mapindex::render::Rgb;
using mapindex::render::TileClass;

namespace {

// A PNG decoded to RGB (tests/support/png_probe.h); the test fails when
// libpng cannot read it.
using Decoded = mapindex::testing::DecodedPng;
Decoded decode_or_fail(const std::vector<std::uint8_t>& png) {
  auto d = mapindex::testing::decode_png(png);
  REQUIRE(d.has_value());
  return *d;
}

Rgb colour(TileClass c) { return palette()[static_cast<std::size_t>(c)].rgb; }

std::string text(const Rgb& c) {
  return std::to_string(c.r) + "," + std::to_string(c.g) + "," + std::to_string(c.b);
}

// The class at each place of the test map below, and the map.
struct Placed {
  int x, y;
  TileClass expected;
};

constexpr int kW = 12, kH = 7;

std::vector<std::uint8_t> known_tiles_map(std::vector<Placed>* placed = nullptr) {
  using namespace mapindex::teeworlds;
  using namespace mapindex::teeworlds::game_tile;
  MapBuilder b;
  b.add_game_group();
  TileGrid deco(LayerKind::tiles, kW, kH);
  deco.set(0, 5, 1).set(1, 1, 1);  // (1, 1) is under a solid game tile
  b.add_tile_layer(deco, {.name = "Deco"});
  TileGrid game(LayerKind::game, kW, kH);
  game.set(1, 1, kSolid)
      .set(2, 1, kDeath)
      .set(3, 1, kFreeze)
      .set(4, 1, kDfreeze)
      .set(5, 1, kStart)
      .set(6, 1, kFinish)
      .set(7, 1, kCp)
      .set(8, 1, kSpawn)
      .set(1, 2, kNohook)
      .set(2, 2, kWeaponShotgun)
      .set(3, 2, kThrough)
      .set(9, 1, kTimeCheckpointFirst)
      .set(4, 2, kSolid);  // the front layer puts freeze over it
  b.add_tile_layer(game, {.name = "Game"});
  TileGrid front(LayerKind::front, kW, kH);
  front.set(4, 2, kFreeze);
  b.add_tile_layer(front, {.name = "Front"});
  TileGrid tele(LayerKind::tele, kW, kH);
  tele.set_tele(5, 2, tele_tile::kIn, 1);
  b.add_tile_layer(tele, {.name = "Tele"});
  TileGrid speedup(LayerKind::speedup, kW, kH);
  speedup.set_speedup(6, 2, speedup_tile::kBoost, 10, 0, 90);
  b.add_tile_layer(speedup, {.name = "Speedup"});
  TileGrid sw(LayerKind::switch_layer, kW, kH);
  sw.set_switch(7, 2, switch_tile::kOpen, 1);
  b.add_tile_layer(sw, {.name = "Switch"});
  if (placed)
    *placed = {{1, 1, TileClass::solid},      {2, 1, TileClass::death},
               {3, 1, TileClass::freeze},     {4, 1, TileClass::deep_freeze},
               {5, 1, TileClass::start},      {6, 1, TileClass::finish},
               {7, 1, TileClass::checkpoint}, {8, 1, TileClass::spawn},
               {9, 1, TileClass::checkpoint}, {1, 2, TileClass::unhookable},
               {2, 2, TileClass::entity},     {3, 2, TileClass::other},
               {4, 2, TileClass::freeze},     {5, 2, TileClass::teleporter},
               {6, 2, TileClass::speedup},    {7, 2, TileClass::switch_tile},
               {0, 0, TileClass::air},        {11, 6, TileClass::air}};
  return b.build();
}

std::vector<std::uint8_t> file_bytes(const fs::path& p) { return read_file(p); }

ProcessResult render(const std::vector<std::string>& args) {
  std::vector<std::string> all{"render"};
  all.insert(all.end(), args.begin(), args.end());
  return run_process(mapindex_binary(), all);
}

std::vector<std::uint8_t> blob(const fs::path& db, const std::string& sql) {
  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) == SQLITE_OK);
  std::vector<std::uint8_t> out;
  if (sqlite3_step(st) == SQLITE_ROW) {
    const auto* p = static_cast<const std::uint8_t*>(sqlite3_column_blob(st, 0));
    out.assign(p, p + sqlite3_column_bytes(st, 0));
  }
  sqlite3_finalize(st);
  sqlite3_close(h);
  return out;
}

// The random numbers of the drawing tests: a linear congruential generator.
struct Lcg {
  std::uint32_t seed;
  std::uint32_t operator()() {
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
  }
};

// A physics kind's struct: its size and where its key byte is (docs/formats).
struct KindLayout {
  LayerKind kind;
  std::size_t size, key_at;
};

// One layer drawn alone on a canvas of its own size, at most `side` pixels
// on its longest side (0: a pixel per tile).
struct Drawn {
  std::vector<std::uint8_t> pixels;
  std::int32_t width = 0, factor = 1;
};
Drawn draw_layer(LayerKind kind, std::int32_t w, std::int32_t h, Bytes data, std::int32_t side,
                 const mapindex::tiledata::KnownZeros& known = {}) {
  mapindex::render::CanvasOptions options;
  options.max_side = side;
  auto canvas = mapindex::render::Canvas::create(w, h, options);
  REQUIRE(canvas);
  // Generated bytes: nothing to compare them with (as a version 3 map's).
  const auto tiles = mapindex::tiledata::check(mapindex::tiledata::UncheckedTiles(data, known, {}));
  REQUIRE(tiles);
  const mapindex::render::TileLayerView view{
      .kind = kind, .width = w, .height = h, .tiles = *tiles, .map_width = w, .map_height = h};
  canvas->draw(view);
  Drawn d;
  d.width = canvas->image().width;
  d.factor = canvas->factor();
  d.pixels = canvas->take_image().pixels;
  return d;
}

// What drawing `data` must give, found tile by tile: each pixel holds the
// highest class (the palette's order) of the tiles it covers.
std::vector<std::uint8_t> drawn_tile_by_tile(const KindLayout& k, std::int32_t w, std::int32_t h,
                                             const std::vector<std::uint8_t>& data,
                                             const Drawn& drawn) {
  std::vector<std::uint8_t> want(drawn.pixels.size(), 0);
  const std::int32_t f = drawn.factor;
  for (std::int32_t y = 0; y < h; ++y)
    for (std::int32_t x = 0; x < w; ++x) {
      const std::uint8_t key = data[(static_cast<std::size_t>(y) * w + x) * k.size + k.key_at];
      if (key == 0 || !mapindex::render::is_drawn_physics(k.kind)) continue;
      auto& p = want[static_cast<std::size_t>(y / f) * drawn.width + x / f];
      p = std::max(p, static_cast<std::uint8_t>(mapindex::render::class_of(k.kind, key)));
    }
  return want;
}

}  // namespace

TEST_SUITE("render") {
  TEST_CASE(
      "render tile classes: every named game/front tile of schema/tile_names.csv gets its class") {
    // The class each name must have, by docs/guide.md's palette table.
    const auto expected_for = [](const std::string& name, const std::string& category) {
      if (name == "SOLID") return TileClass::solid;
      if (name == "NOHOOK") return TileClass::unhookable;
      if (name == "DEATH") return TileClass::death;
      if (name == "FREEZE" || name == "LFREEZE") return TileClass::freeze;
      if (name == "DFREEZE") return TileClass::deep_freeze;
      if (name == "START") return TileClass::start;
      if (name == "FINISH") return TileClass::finish;
      if (name.starts_with("TIME_CHECKPOINT") || name == "CP" || name == "CP_F")
        return TileClass::checkpoint;
      if (name.starts_with("SPAWN")) return TileClass::spawn;
      if (category == "entity") return TileClass::entity;
      return TileClass::other;
    };
    std::ifstream csv(std::string(MAPINDEX_SOURCE_DIR) + "/schema/tile_names.csv");
    REQUIRE(csv);
    std::string line;
    std::getline(csv, line);  // header
    int checked = 0;
    while (std::getline(csv, line)) {
      std::stringstream fields(line);
      std::string kind, tile, name, category;
      std::getline(fields, kind, ',');
      std::getline(fields, tile, ',');
      std::getline(fields, name, ',');
      std::getline(fields, category, ',');
      const auto key = static_cast<std::uint8_t>(std::stoi(tile));
      INFO(line);
      if (kind == "game" || kind == "front") {
        const LayerKind k = kind == "game" ? LayerKind::game : LayerKind::front;
        CHECK(mapindex::render::class_of(k, key) == expected_for(name, category));
        ++checked;
      } else if (kind == "tele") {
        CHECK(mapindex::render::class_of(LayerKind::tele, key) == TileClass::teleporter);
      } else if (kind == "speedup") {
        CHECK(mapindex::render::class_of(LayerKind::speedup, key) == TileClass::speedup);
      } else if (kind == "switch") {
        CHECK(mapindex::render::class_of(LayerKind::switch_layer, key) == TileClass::switch_tile);
      }
    }
    CHECK(checked > 200);
    for (const LayerKind k : {LayerKind::game, LayerKind::front, LayerKind::tele,
                              LayerKind::speedup, LayerKind::switch_layer, LayerKind::tiles})
      CHECK(mapindex::render::class_of(k, 0) == TileClass::air);
  }

  TEST_CASE("render tile classes: docs/guide.md's palette table is the palette") {
    const std::string doc = read_text_file(fs::path(MAPINDEX_SOURCE_DIR) / "docs/guide.md");
    for (const auto& e : palette()) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "#%02x%02x%02x", e.rgb.r, e.rgb.g, e.rgb.b);
      const std::string row =
          "| " + std::string(e.name) + " | `" + hex + "` | " + std::string(e.tiles) + " |";
      INFO(row);
      CHECK(doc.find(row) != std::string::npos);
    }
    // Distinct colours, so a pixel's class can be told from its colour.
    for (std::size_t i = 0; i < palette().size(); ++i)
      for (std::size_t j = i + 1; j < palette().size(); ++j)
        CHECK_FALSE(palette()[i].rgb == palette()[j].rgb);
  }

  TEST_CASE("render e2e: known tiles at known places have the palette's colours") {
    TempDir tmp;
    std::vector<Placed> placed;
    write_file(tmp / "known.map", known_tiles_map(&placed));
    const auto r = render({tmp.file("known.map"), "--out", tmp.file("known.png")});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    // One line says what was written, and its size.
    CHECK(r.out == "wrote " + tmp.file("known.png") + " (" + std::to_string(kW) + "x" +
                       std::to_string(kH) + ")\n");
    CHECK(r.err.empty());
    const Decoded png = decode_or_fail(file_bytes(tmp / "known.png"));
    CHECK(png.width == kW);
    CHECK(png.height == kH);
    for (const auto& p : placed) {
      INFO(p.x << "," << p.y << " " << palette()[static_cast<std::size_t>(p.expected)].name);
      CHECK(text(png.at(p.x, p.y)) == text(colour(p.expected)));
    }
    // physics only: the design tile at (0, 5) is not drawn
    CHECK(text(png.at(0, 5)) == text(colour(TileClass::air)));

    SUBCASE("--layers all draws the design layer under the physics") {
      const auto all =
          render({tmp.file("known.map"), "--layers", "all", "--out", tmp.file("all.png")});
      REQUIRE_MESSAGE(all.exit_code == 0, all.err);
      const Decoded a = decode_or_fail(file_bytes(tmp / "all.png"));
      CHECK(text(a.at(0, 5)) == text(colour(TileClass::design_1)));
      CHECK(text(a.at(1, 1)) == text(colour(TileClass::solid)));  // physics over design
      for (const auto& p : placed)
        if (p.expected != TileClass::air) CHECK(text(a.at(p.x, p.y)) == text(png.at(p.x, p.y)));
    }
    SUBCASE("--scale N draws N x N pixels per tile") {
      const auto s =
          render({tmp.file("known.map"), "--scale", "3", "--out", tmp.file("scaled.png")});
      REQUIRE_MESSAGE(s.exit_code == 0, s.err);
      CHECK(s.out == "wrote " + tmp.file("scaled.png") + " (" + std::to_string(3 * kW) + "x" +
                         std::to_string(3 * kH) + ")\n");
      const auto quiet =
          render({tmp.file("known.map"), "-q", "--scale", "3", "--out", tmp.file("quiet.png")});
      REQUIRE_MESSAGE(quiet.exit_code == 0, quiet.err);
      CHECK(quiet.out.empty());
      CHECK(file_bytes(tmp / "quiet.png") == file_bytes(tmp / "scaled.png"));
      const Decoded d = decode_or_fail(file_bytes(tmp / "scaled.png"));
      CHECK(d.width == 3 * kW);
      CHECK(d.height == 3 * kH);
      for (const auto& p : placed)
        for (std::uint32_t dy = 0; dy < 3; ++dy)
          for (std::uint32_t dx = 0; dx < 3; ++dx)
            CHECK(text(d.at(3 * p.x + dx, 3 * p.y + dy)) == text(colour(p.expected)));
    }
    SUBCASE("the default --out is the map's name with .png in the current folder") {
      const auto cwd = fs::current_path();
      fs::current_path(tmp.path());
      const auto d = render({"known.map"});
      fs::current_path(cwd);
      CHECK_MESSAGE(d.exit_code == 0, d.err);
      CHECK(d.out == "wrote known.png (" + std::to_string(kW) + "x" + std::to_string(kH) + ")\n");
      CHECK(fs::exists(tmp / "known.png"));
      CHECK(file_bytes(tmp / "known.png").size() > 8);
    }
  }

  TEST_CASE("render e2e: a skip-compressed (version 4) game layer draws the same") {
    using namespace mapindex::teeworlds::game_tile;
    MapBuilder b;
    b.add_game_group();
    TileGrid game(LayerKind::game, 40, 3);
    game.fill(0, 2, 40, 1, kSolid).set(17, 1, kFreeze).set(39, 0, kSpawn);
    b.add_tile_layer(game, {.name = "Game", .version = 4});
    TempDir tmp;
    write_file(tmp / "v4.map", b.build());
    const auto r = render({tmp.file("v4.map"), "--out", tmp.file("v4.png")});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const Decoded d = decode_or_fail(file_bytes(tmp / "v4.png"));
    CHECK(text(d.at(17, 1)) == text(colour(TileClass::freeze)));
    CHECK(text(d.at(39, 0)) == text(colour(TileClass::spawn)));
    CHECK(text(d.at(0, 2)) == text(colour(TileClass::solid)));
    CHECK(text(d.at(39, 2)) == text(colour(TileClass::solid)));
    CHECK(text(d.at(16, 1)) == text(colour(TileClass::air)));
  }

  TEST_CASE("render e2e: a SpriteTile level draws colliders solid and tiles by set") {
    // 4 x 3 cells from the lower-left corner: (0, row 0) collider, (3, row
    // 2) a tile of set 1 (tiles_per_set 1024 with the default 32 sets).
    StLayer layer;
    layer.width = 4;
    layer.height = 3;
    layer.cells.resize(12);
    layer.cells[0] = StCell{.tile = -1, .misc = 0x8000};
    layer.cells[2 * 4 + 3] = StCell{.tile = 1024 + 5};
    const auto level = SpriteTileWriter().layers({layer}).compressed();
    TempDir tmp;
    write_file(tmp / "level.bytes", level);
    const auto r = render({tmp.file("level.bytes"), "--out", tmp.file("level.png")});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const Decoded d = decode_or_fail(file_bytes(tmp / "level.png"));
    CHECK(d.width == 4);
    CHECK(d.height == 3);
    CHECK(text(d.at(0, 2)) == text(colour(TileClass::solid)));  // row 0 is the bottom
    CHECK(text(d.at(3, 0)) == text(colour(TileClass::set_2)));
    CHECK(text(d.at(1, 1)) == text(colour(TileClass::air)));
  }

  TEST_CASE("render e2e: ARCHIVE::path renders one entry of an archive") {
    TempDir tmp;
    std::vector<Placed> placed;
    const auto known = known_tiles_map(&placed);
    MapBuilder other;
    other.add_game_group();
    other.add_tile_layer(TileGrid(LayerKind::game, 5, 5).fill(0, 0, 5, 5, 1), {.name = "Game"});
    write_archive(tmp / "pack.zip", ArchiveFormat::zip,
                  {{.path = "maps/other.map", .bytes = other.build()},
                   {.path = "maps/known.map", .bytes = known}});
    const auto r = render({tmp.file("pack.zip") + "::maps/known.map", "--out", tmp.file("k.png")});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const Decoded d = decode_or_fail(file_bytes(tmp / "k.png"));
    CHECK(d.width == kW);
    for (const auto& p : placed) CHECK(text(d.at(p.x, p.y)) == text(colour(p.expected)));

    const auto missing =
        render({tmp.file("pack.zip") + "::maps/nope.map", "--out", tmp.file("n.png")});
    CHECK(missing.exit_code == 2);
    CHECK(contains(missing.err, "has no entry 'maps/nope.map'"));
    CHECK(contains(missing.err, "pack.zip"));
    CHECK_FALSE(fs::exists(tmp / "n.png"));

    const auto whole = render({tmp.file("pack.zip")});
    CHECK(whole.exit_code == 2);
    CHECK(contains(whole.err, "is an archive"));
  }

  TEST_CASE("render e2e: errors name the file and the reason") {
    TempDir tmp;
    write_file(tmp / "text.map", to_bytes("hello, not a map"));
    const auto not_map = render({tmp.file("text.map"), "--out", tmp.file("x.png")});
    CHECK(not_map.exit_code == 1);
    CHECK(contains(not_map.err, tmp.file("text.map") + ": not a map"));

    MapBuilder b;
    b.add_game_group();
    b.add_tile_layer(TileGrid(LayerKind::tiles, 4, 4).fill(0, 0, 4, 4, 1), {.name = "Deco"});
    write_file(tmp / "nogame.map", b.build());
    const auto no_game = render({tmp.file("nogame.map"), "--out", tmp.file("x.png")});
    CHECK(no_game.exit_code == 1);
    CHECK(contains(no_game.err, "nogame.map: nothing to draw: it has no game layer"));

    const auto absent = render({tmp.file("absent.map")});
    CHECK(absent.exit_code == 2);
    CHECK(contains(absent.err, "absent.map: no such file"));

    write_file(tmp / "known.map", known_tiles_map());
    const auto bad_layers = render({tmp.file("known.map"), "--layers", "some"});
    CHECK(bad_layers.exit_code == 2);
    CHECK(contains(bad_layers.err, "--layers must be physics or all"));
    CHECK_FALSE(fs::exists(tmp / "x.png"));
  }

  TEST_CASE("render canvas: limits are checked before allocating") {
    using mapindex::render::Canvas;
    const auto huge = Canvas::create(100000, 100000);
    REQUIRE_FALSE(huge);
    CHECK(huge.error().code == mapindex::Code::render_size);
    CHECK(contains(huge.error().message, "100000x100000 tiles"));
    CHECK(contains(huge.error().message, "2^26"));
    // Downscaled to at most 256 pixels a side: one pixel per 391 x 391 tiles.
    const auto thumb = Canvas::create(100000, 100000, {.max_side = 256});
    REQUIRE(thumb);
    CHECK(thumb->factor() == 391);
    CHECK(thumb->image().width == 256);
    CHECK(thumb->image().height == 256);
    CHECK_FALSE(Canvas::create(0, 10));
    CHECK_FALSE(Canvas::create(10, -1));
    // A scale that would take the PNG over the limit.
    auto big = Canvas::create(4097, 4097);
    REQUIRE(big);
    CHECK(mapindex::render::encode_png(big->image(), 1));
    const auto scaled = mapindex::render::encode_png(big->image(), 2);
    REQUIRE_FALSE(scaled);
    CHECK(scaled.error().code == mapindex::Code::render_size);
    CHECK(contains(scaled.error().message, "8194x8194"));
  }

  TEST_CASE("render: PNGs encoded one after another on a thread are those of a fresh thread") {
    // The encoder keeps libpng's and zlib's blocks per thread for the next
    // image: what a block held before must change nothing. Each image is
    // encoded once on a thread of its own (nothing kept yet), then all of
    // them twice over on one thread, in an order that changes sizes
    // between images; the bytes must be the same, and decode to the image.
    using mapindex::render::ClassImage;
    std::vector<ClassImage> images;
    Lcg next{2024};
    // Large, then small (served by larger kept blocks), then large again.
    for (const auto& [w, h] : {std::pair{256, 256},
                               {17, 300},
                               {256, 9},
                               {1, 1},
                               {131, 77},
                               {40, 40},
                               {3, 200},
                               {256, 200}}) {
      ClassImage image{w, h, std::vector<std::uint8_t>(static_cast<std::size_t>(w) * h)};
      for (auto& p : image.pixels)  // runs of a class, as maps have, and noise
        p = static_cast<std::uint8_t>(next() % 8 == 0 ? next() % mapindex::render::kNumTileClasses
                                                      : (&p - image.pixels.data()) / 40 % 5);
      images.push_back(std::move(image));
    }
    std::vector<std::vector<std::uint8_t>> fresh(images.size());
    for (std::size_t i = 0; i < images.size(); ++i)
      std::thread([&, i] {
        auto png = mapindex::render::encode_png(images[i], i % 2 == 0 ? 1 : 3);
        if (png) fresh[i] = std::move(*png);
      }).join();
    std::vector<std::vector<std::uint8_t>> again;
    std::thread([&] {
      for (int round = 0; round < 2; ++round)
        for (std::size_t i = 0; i < images.size(); ++i) {
          auto png = mapindex::render::encode_png(images[i], i % 2 == 0 ? 1 : 3);
          again.push_back(png ? std::move(*png) : std::vector<std::uint8_t>{});
        }
    }).join();
    REQUIRE(again.size() == 2 * images.size());
    for (std::size_t i = 0; i < images.size(); ++i) {
      CAPTURE(i);
      REQUIRE_FALSE(fresh[i].empty());
      CHECK(again[i] == fresh[i]);
      CHECK(again[images.size() + i] == fresh[i]);
      const Decoded d = decode_or_fail(fresh[i]);
      const std::uint32_t scale = i % 2 == 0 ? 1 : 3;
      REQUIRE(d.width == static_cast<std::uint32_t>(images[i].width) * scale);
      REQUIRE(d.height == static_cast<std::uint32_t>(images[i].height) * scale);
      bool same = true;
      for (std::uint32_t y = 0; y < d.height; ++y)
        for (std::uint32_t x = 0; x < d.width; ++x)
          same &=
              text(d.at(x, y)) == text(colour(images[i].at(static_cast<std::int32_t>(x / scale),
                                                           static_cast<std::int32_t>(y / scale))));
      CHECK(same);
    }
  }

  TEST_CASE("render: key 0 is air, the least class, on every kind") {
    // The drawing takes the greater of a pixel's class and each tile's
    // without asking whether the tile is air: that needs key 0's class to
    // be air (TileClass 0, below every other: asserted where it is drawn).
    for (const LayerKind kind :
         {LayerKind::tiles, LayerKind::game, LayerKind::front, LayerKind::tele, LayerKind::speedup,
          LayerKind::switch_layer, LayerKind::tune}) {
      CAPTURE(to_string(kind));
      const auto& table = mapindex::render::class_table(kind);
      CHECK(table[0] == TileClass::air);
    }
  }

  TEST_CASE("render: stretches of air skipped whole draw what a tile-by-tile drawing draws") {
    // Each physics kind with its struct size and key byte (docs/formats), tiles
    // scattered after air of every length, at one pixel per tile and at
    // several tiles per pixel.
    const KindLayout kinds[] = {{LayerKind::game, 4, 0},         {LayerKind::front, 4, 0},
                                {LayerKind::tele, 2, 1},         {LayerKind::speedup, 6, 2},
                                {LayerKind::switch_layer, 4, 1}, {LayerKind::tune, 2, 1}};
    const std::int32_t w = 301, h = 37;
    Lcg next{12345};
    for (const auto& k : kinds) {
      for (const std::int32_t side : {0, 64}) {
        CAPTURE(to_string(k.kind));
        CAPTURE(side);
        std::vector<std::uint8_t> data(static_cast<std::size_t>(w) * h * k.size);
        for (std::size_t t = 0; t < static_cast<std::size_t>(w) * h;) {
          t += next() % 300;  // air
          for (std::size_t run = 1 + next() % 3; run > 0 && t < static_cast<std::size_t>(w) * h;
               --run, ++t)
            data[t * k.size + k.key_at] = static_cast<std::uint8_t>(1 + next() % 255);
        }
        const Drawn drawn = draw_layer(k.kind, w, h, Bytes(data.data(), data.size()), side);
        CHECK(drawn.factor == (side == 0 ? 1 : 5));
        const auto want = drawn_tile_by_tile(k, w, h, data, drawn);
        if (mapindex::render::is_drawn_physics(k.kind))
          CHECK(std::count(want.begin(), want.end(), 0) < static_cast<long>(want.size()));
        CHECK(drawn.pixels == want);
      }
    }
  }

  TEST_CASE("render: runs of one tile drawn a block at a time draw what tiles one by one draw") {
    // Runs of identical 4-byte tiles (key, flags and the other bytes alike)
    // of every length and alignment, beside air and mixed tiles: blocks of
    // eight identical tiles take one class over their pixels.
    const KindLayout kinds[] = {
        {LayerKind::game, 4, 0}, {LayerKind::front, 4, 0}, {LayerKind::switch_layer, 4, 1}};
    const std::int32_t w = 203, h = 41;
    Lcg next{4242};
    for (const auto& k : kinds) {
      for (const std::int32_t side : {0, 64, 20}) {
        CAPTURE(to_string(k.kind));
        CAPTURE(side);
        const std::size_t tiles = static_cast<std::size_t>(w) * h;
        std::vector<std::uint8_t> data(tiles * 4);
        std::size_t uniform_blocks = 0;
        for (std::size_t t = 0; t < tiles;) {
          const std::size_t run = 1 + next() % 40;
          std::uint8_t tile[4] = {
              static_cast<std::uint8_t>(next()), static_cast<std::uint8_t>(next()),
              static_cast<std::uint8_t>(next() % 3), static_cast<std::uint8_t>(next() % 2)};
          if (next() % 4 == 0) tile[k.key_at] = 0;  // air with other bytes set
          if (next() % 5 == 0) std::fill(tile, tile + 4, std::uint8_t{0});
          uniform_blocks += run / 8;
          for (std::size_t i = 0; i < run && t < tiles; ++i, ++t)
            std::copy(tile, tile + 4, data.begin() + static_cast<std::ptrdiff_t>(t * 4));
        }
        REQUIRE(uniform_blocks > 100);
        const Drawn drawn = draw_layer(k.kind, w, h, Bytes(data.data(), data.size()), side);
        const auto want = drawn_tile_by_tile(k, w, h, data, drawn);
        CHECK(std::count(want.begin(), want.end(), 0) < static_cast<long>(want.size()));
        CHECK(drawn.pixels == want);
      }
    }
  }

  TEST_CASE("render: columns past the canvas's table of pixel columns draw as tiles one by one") {
    // The pixel of a tile column comes from a table for the first 65536
    // columns and from a division after them: a layer wider than that, with
    // runs of one tile (blocks of eight drawn whole) between stretches of air,
    // at 7 tiles per pixel, so that a column off by one lands in another pixel.
    const KindLayout k{LayerKind::game, 4, 0};
    const std::int32_t w = 70001, h = 3;
    Lcg next{777};
    const std::size_t tiles = static_cast<std::size_t>(w) * h;
    std::vector<std::uint8_t> data(tiles * 4);
    std::size_t blocks_past_table = 0;
    for (std::size_t t = 0; t < tiles;) {
      t += next() % 60;  // air
      const std::size_t run = 1 + next() % 20;
      const auto key = static_cast<std::uint8_t>(1 + next() % 255);
      for (std::size_t i = 0; i < run && t < tiles; ++i, ++t) {
        data[t * 4] = key;
        const std::size_t x = t % static_cast<std::size_t>(w);  // blocks start at x = 0, 8, ...
        if (x % 8 == 7 && x >= 65536 && i >= 7) ++blocks_past_table;
      }
    }
    const Drawn drawn = draw_layer(k.kind, w, h, Bytes(data.data(), data.size()), 10001);
    REQUIRE(drawn.factor == 7);  // ceil(70001 / 10001)
    REQUIRE(blocks_past_table > 20);
    const auto want = drawn_tile_by_tile(k, w, h, data, drawn);
    const auto past = static_cast<std::ptrdiff_t>(65536 / 7 + 1);
    CHECK(std::count(want.begin() + past, want.begin() + drawn.width, 0) < drawn.width - past);
    CHECK(drawn.pixels == want);
  }

  TEST_CASE("render: chunks the inflater never wrote are not read") {
    // The tiles in a ZeroedBuffer, each chunk holding a tile marked as the
    // inflater marks what it writes; then every chunk left unmarked gets a
    // tile the drawing must not see ("poison", not marked). Drawn with the
    // buffer's KnownZeros, the image is the one of the unpoisoned tiles: the
    // unmarked chunks were skipped, not read (reading a fresh page maps the
    // system's zero page into it, which a later write pays for).
    const KindLayout kinds[] = {{LayerKind::game, 4, 0},
                                {LayerKind::tele, 2, 1},
                                {LayerKind::speedup, 6, 2},
                                {LayerKind::switch_layer, 4, 1}};
    const std::int32_t w = 301, h = 90;  // rows that do not fill chunks evenly
    Lcg next{777};
    for (const auto& k : kinds) {
      for (const std::int32_t side : {0, 64}) {
        CAPTURE(to_string(k.kind));
        CAPTURE(side);
        const std::size_t tiles = static_cast<std::size_t>(w) * h, bytes = tiles * k.size;
        mapindex::tiledata::ZeroedBuffer buffer;
        const auto out = buffer.take(bytes);
        std::vector<std::uint8_t> clean(bytes, 0);  // what the layer holds
        for (std::size_t t = 0; t < tiles;) {
          t += next() % 900;  // long stretches of air: many chunks stay unmarked
          for (std::size_t run = 1 + next() % 4; run > 0 && t < tiles; --run, ++t) {
            const std::size_t at = t * k.size + k.key_at;
            clean[at] = out[at] = static_cast<std::uint8_t>(1 + next() % 255);
            buffer.mark(at);
          }
        }
        std::size_t poisoned = 0;
        constexpr std::size_t kChunk = mapindex::tiledata::ZeroedBuffer::kChunkSize;
        // Walls: a written chunk of one tile before an unwritten one, whose
        // poison is the same tile all through (a run of one tile drawn
        // whole must stop where the written chunks end).
        std::vector<bool> wall(bytes / kChunk + 1, false);
        std::size_t walls = 0;
        if (k.size == 4)
          for (std::size_t chunk = 1; (chunk + 2) * kChunk <= bytes && walls < 12; chunk += 3) {
            if (!buffer.clean(chunk + 1) || buffer.clean(chunk - 1)) continue;
            for (std::size_t at = chunk * kChunk; at < (chunk + 1) * kChunk; at += 4) {
              clean[at] = out[at] = 1;  // a solid game tile
              clean[at + 1] = out[at + 1] = clean[at + 2] = out[at + 2] = clean[at + 3] =
                  out[at + 3] = 0;
            }
            buffer.mark(chunk * kChunk, kChunk);
            wall[chunk] = true;
            ++walls;
          }
        if (k.size == 4) REQUIRE(walls >= 4);
        for (std::size_t chunk = 0; chunk * kChunk < bytes; ++chunk) {
          if (!buffer.clean(chunk)) continue;
          if (chunk > 0 && wall[chunk - 1]) {
            for (std::size_t at = chunk * kChunk; at < std::min(bytes, (chunk + 1) * kChunk);
                 at += 4)
              out[at] = 1;
            ++poisoned;
            continue;
          }
          // The first whole struct that starts in the chunk.
          const std::size_t first = (chunk * kChunk + k.size - 1) / k.size;
          const std::size_t at = first * k.size + k.key_at;
          if (first >= tiles || at >= std::min(bytes, (chunk + 1) * kChunk)) continue;
          out[at] = 1;  // a solid game tile, a teleporter, a speedup, a switch...
          ++poisoned;
        }
        REQUIRE(poisoned > 10);
        const Bytes poisoned_data(out.data(), bytes);
        const auto want = draw_layer(k.kind, w, h, Bytes(clean.data(), clean.size()), side).pixels;
        CHECK(std::count(want.begin(), want.end(), 0) < static_cast<long>(want.size()));
        CHECK(draw_layer(k.kind, w, h, poisoned_data, side, mapindex::tiledata::KnownZeros(buffer))
                  .pixels == want);
        // Without what the buffer knows, the poison is read and drawn: the
        // check above can fail.
        CHECK(draw_layer(k.kind, w, h, poisoned_data, side).pixels != want);
      }
    }
  }

  TEST_CASE("render thumbnail: the downscale keeps a one-tile freeze line and a single spawn") {
    using namespace mapindex::teeworlds::game_tile;
    // 1024 x 512 tiles of solid: 4 x 4 tiles per pixel, a 256 x 128 thumbnail.
    TileGrid game(LayerKind::game, 1024, 512);
    game.fill(0, 0, 1024, 512, kSolid);
    game.fill(517, 0, 1, 512, kFreeze);  // a vertical one-tile freeze line
    game.fill(0, 301, 1024, 1, kDfreeze);
    game.set(1021, 6, kSpawn);
    MapBuilder b;
    b.add_game_group();
    b.add_tile_layer(game, {.name = "Game"});
    const auto map = b.build();
    const auto m = mapindex::measure_content(Bytes(map.data(), map.size()), {},
                                             {.thumbnail = mapindex::ThumbnailMode::encoded});
    REQUIRE(m.kind == mapindex::ContentKind::map);
    REQUIRE_FALSE(m.stats.thumbnail_png.empty());
    CHECK(m.stats.thumbnail_png.size() < 8192);
    const Decoded d = decode_or_fail(m.stats.thumbnail_png);
    CHECK(d.width == 256);
    CHECK(d.height == 128);
    for (std::uint32_t y = 0; y < 128; ++y) {
      INFO("row " << y);
      if (y != 301 / 4) CHECK(text(d.at(517 / 4, y)) == text(colour(TileClass::freeze)));
      if (y != 301 / 4 && y != 6 / 4) {
        CHECK(text(d.at(517 / 4 - 1, y)) == text(colour(TileClass::solid)));
        CHECK(text(d.at(517 / 4 + 1, y)) == text(colour(TileClass::solid)));
      }
    }
    for (std::uint32_t x = 0; x < 256; ++x)
      CHECK(text(d.at(x, 301 / 4)) == text(colour(TileClass::deep_freeze)));
    CHECK(text(d.at(1021 / 4, 6 / 4)) == text(colour(TileClass::spawn)));

    // Off unless asked for.
    const auto plain = mapindex::measure_content(Bytes(map.data(), map.size()));
    CHECK(plain.stats.thumbnail_png.empty());
  }

  TEST_CASE(
      "render e2e: index: one thumbnail per map content, the view, --from-index, --no-thumbnails") {
    TempDir tmp;
    fs::create_directories(tmp / "in");
    const auto known = known_tiles_map();
    write_file(tmp / "in/a.map", known);
    write_file(tmp / "in/copy of a.map", known);  // the same content
    MapBuilder other;
    other.add_game_group();
    other.add_tile_layer(TileGrid(LayerKind::game, 30, 20).fill(0, 0, 30, 1, 1), {.name = "Game"});
    write_file(tmp / "in/b.map", other.build());
    StLayer layer;
    layer.width = 3;
    layer.height = 2;
    layer.cells.resize(6);
    layer.cells[1] = StCell{.tile = -1, .misc = 0x8000};
    write_file(tmp / "in/level.bytes", SpriteTileWriter().layers({layer}).compressed());
    write_file(tmp / "in/readme.txt", to_bytes("not a map"));
    MapBuilder nogame;
    nogame.add_game_group();
    nogame.add_tile_layer(TileGrid(LayerKind::tiles, 4, 4).fill(0, 0, 4, 4, 1), {.name = "D"});
    write_file(tmp / "in/nogame.map", nogame.build());

    const fs::path db = tmp / "i.sqlite";
    const auto r =
        run_process(mapindex_binary(), {"index", "--db", db.string(), "-q", (tmp / "in").string()});
    REQUIRE_MESSAGE(r.exit_code <= 1, r.err);
    // a, b and the level: one row each; the map without a game layer none.
    CHECK(sql_int(db, "SELECT count(*) FROM thumbnails") == 3);
    CHECK(sql_int(db, "SELECT count(*) FROM map_thumbnails") == 3);
    const std::string sha_a = mapindex::read::digest(known).sha256_hex();
    CHECK(sql_int(db, "SELECT count(*) FROM map_thumbnails WHERE sha256 = '" + sha_a + "'") == 1);
    CHECK(sql_int(db, "SELECT count(*) FROM map_thumbnails WHERE name = 'b'") == 1);
    CHECK(sql_int(db,
                  "SELECT count(*) FROM map_thumbnails m JOIN maps USING (map_id) "
                  "WHERE maps.format = 'spritetile'") == 1);
    CHECK(sql_rows(db, "SELECT * FROM map_thumbnails LIMIT 1").front().size() == 4);

    // The stored thumbnail of a is its picture (12 x 7 tiles: one pixel each).
    const auto stored = blob(db, "SELECT png FROM map_thumbnails WHERE sha256 = '" + sha_a + "'");
    std::vector<Placed> placed;
    known_tiles_map(&placed);
    const Decoded d = decode_or_fail(stored);
    CHECK(d.width == kW);
    for (const auto& p : placed) CHECK(text(d.at(p.x, p.y)) == text(colour(p.expected)));
    CHECK(sql_int(db, "SELECT width FROM thumbnails JOIN maps USING (map_id) WHERE sha256 = '" +
                          sha_a + "'") == kW);

    // --from-index by SHA-256 and by name writes the stored bytes.
    const auto by_sha =
        render({"--from-index", sha_a, "--db", db.string(), "--out", tmp.file("by_sha.png")});
    REQUIRE_MESSAGE(by_sha.exit_code == 0, by_sha.err);
    CHECK(file_bytes(tmp / "by_sha.png") == stored);
    CHECK(by_sha.out == "wrote " + tmp.file("by_sha.png") + " (" + std::to_string(d.width) + "x" +
                            std::to_string(d.height) + ")\n");
    const auto by_name =
        render({"--from-index", "b", "--db", db.string(), "--out", tmp.file("b.png")});
    REQUIRE_MESSAGE(by_name.exit_code == 0, by_name.err);
    CHECK(file_bytes(tmp / "b.png") == blob(db, "SELECT png FROM map_thumbnails WHERE name = 'b'"));
    const auto none =
        render({"--from-index", "nogame", "--db", db.string(), "--out", tmp.file("x.png")});
    CHECK(none.exit_code == 1);
    CHECK(none.err == "mapindex render: " + db.string() +
                          ": no thumbnail for 'nogame': the map is in the index without one "
                          "(indexed with --no-thumbnails, or it has nothing to draw)\n");
    const auto no_db = render({"--from-index", "b", "--db", tmp.file("absent.sqlite")});
    CHECK(no_db.exit_code == 2);

    // --no-thumbnails: none stored.
    const fs::path db2 = tmp / "plain.sqlite";
    const auto r2 = run_process(mapindex_binary(), {"index", "--db", db2.string(), "-q",
                                                    "--no-thumbnails", (tmp / "in").string()});
    REQUIRE_MESSAGE(r2.exit_code <= 1, r2.err);
    CHECK(sql_int(db2, "SELECT count(*) FROM maps") == 4);
    CHECK(sql_int(db2, "SELECT count(*) FROM thumbnails") == 0);
    // A later --reindex run adds the thumbnails the maps lack.
    const auto r3 = run_process(mapindex_binary(), {"index", "--db", db2.string(), "-q",
                                                    "--reindex", (tmp / "in").string()});
    REQUIRE_MESSAGE(r3.exit_code <= 1, r3.err);
    CHECK(sql_int(db2, "SELECT count(*) FROM thumbnails") == 3);
    CHECK(blob(db2, "SELECT png FROM map_thumbnails WHERE sha256 = '" + sha_a + "'") == stored);
  }

  TEST_CASE("render e2e: --from-index with no such name suggests the closest stored names") {
    TempDir tmp;
    fs::create_directories(tmp / "in");
    // Distinct contents (game layers of different widths) under these names.
    const std::vector<std::string> names = {"2089195bfab1_BlmapChill", "BlmapChill2", "ChillBlock5",
                                            "Gores", "BlmapV3RoyalX"};
    std::vector<std::vector<std::uint8_t>> built;
    for (std::size_t i = 0; i < names.size(); ++i) {
      MapBuilder b;
      b.add_game_group();
      const int width = 10 + static_cast<int>(i);
      b.add_tile_layer(TileGrid(LayerKind::game, width, 5).fill(0, 4, width, 1, 1),
                       {.name = "Game"});
      built.push_back(b.build());
      write_file(tmp / "in" / (names[i] + ".map"), built.back());
    }
    const fs::path db = tmp / "i.sqlite";
    const auto r =
        run_process(mapindex_binary(), {"index", "--db", db.string(), "-q", (tmp / "in").string()});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    REQUIRE(sql_int(db, "SELECT count(*) FROM map_thumbnails") == 5);
    const auto no_match = [&](const std::string& key) {
      const auto p = render({"--from-index", key, "--db", db.string(), "--out", tmp.file("x.png")});
      CHECK(p.exit_code == 1);
      CHECK(p.out.empty());
      CHECK_FALSE(fs::exists(tmp / "x.png"));
      return p.err;
    };
    const std::string prefix = "mapindex render: " + db.string() + ": no thumbnail for '";
    // Names holding it (fewest extra characters first), case aside.
    CHECK(no_match("BlmapChill") ==
          prefix +
              "BlmapChill': no map of that SHA-256 or name; did you mean 'BlmapChill2', "
              "'2089195bfab1_BlmapChill'?\n");
    CHECK(no_match("chillblock") ==
          prefix + "chillblock': no map of that SHA-256 or name; did you mean 'ChillBlock5'?\n");
    // Then names holding it but for a few edits (a quarter of its length).
    CHECK(no_match("Gors") ==
          prefix + "Gors': no map of that SHA-256 or name; did you mean 'Gores'?\n");
    CHECK(no_match("BlmapChlil") ==
          prefix +
              "BlmapChlil': no map of that SHA-256 or name; did you mean 'BlmapChill2', "
              "'2089195bfab1_BlmapChill'?\n");
    CHECK(no_match("ChillBlock5.map") ==
          prefix +
              "ChillBlock5.map': no map of that SHA-256 or name; did you mean "
              "'ChillBlock5'?\n");
    // The start of a SHA-256: the whole one.
    const std::string sha = mapindex::read::digest(built[3]).sha256_hex();  // "Gores"
    CHECK(no_match(sha.substr(0, 8)) == prefix + sha.substr(0, 8) +
                                            "': no map of that SHA-256 or name; did you mean '" +
                                            sha + "'?\n");
    // Nothing near: no suggestion.
    CHECK(no_match("Tutorial") == prefix + "Tutorial': no map of that SHA-256 or name\n");
  }

  TEST_CASE(
      "render e2e: readme: the minimap in the README is what render draws of the demo archive") {
    TempDir tmp;
    const auto demo = run_process(make_demo_binary(), {tmp.file("maps.zip")});
    REQUIRE_MESSAGE(demo.exit_code == 0, demo.err);
    const auto r = render({tmp.file("maps.zip") + "::maps/ddnet/Demo Race.map", "--scale", "2",
                           "--out", tmp.file("demo-race.png")});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const auto committed =
        file_bytes(fs::path(MAPINDEX_SOURCE_DIR) / "docs/pictures/demo-race.png");
    CHECK(file_bytes(tmp / "demo-race.png") == committed);
    const std::string doc = read_text_file(fs::path(MAPINDEX_SOURCE_DIR) / "README.md");
    CHECK(contains(doc, "(docs/pictures/demo-race.png)"));
  }

  TEST_CASE("render corpus: every map with a game layer and every level gets a thumbnail") {
    const auto maps = corpus_files("maps", ".map");
    const auto levels = corpus_files("spritetile", ".bytes");
    if (maps.empty()) {
      report_corpus_missing("maps", "thumbnails of the corpus");
      return;
    }
    TempDir tmp;
    const fs::path db = tmp / "corpus.sqlite";
    std::vector<std::string> args{"index", "--db", db.string(), "-q"};
    for (const auto& sub : {"maps", "spritetile"})
      if (const auto dir = corpus_dir(sub)) args.push_back(dir->string());
    const auto r = run_process(mapindex_binary(), args);
    REQUIRE_MESSAGE(r.exit_code <= 1, r.err);
    const auto without =
        sql_rows(db,
                 "SELECT sha256 FROM maps WHERE (game_width > 0 OR format = 'spritetile') "
                 "AND map_id NOT IN (SELECT map_id FROM thumbnails)");
    CHECK(without.empty());
    for (const auto& row : without) MESSAGE("no thumbnail: " << row.front());
    CHECK(sql_int(db, "SELECT count(*) FROM thumbnails") > 200);
    CHECK(sql_int(db, "SELECT max(max(width, height)) FROM thumbnails") <= 256);
    MESSAGE("thumbnails: " << sql_value(db, "SELECT count(*) FROM thumbnails") << ", average "
                           << sql_value(db, "SELECT avg(length(png)) FROM thumbnails")
                           << " bytes, largest "
                           << sql_value(db, "SELECT max(length(png)) FROM thumbnails"));
    (void)levels;
  }
}
