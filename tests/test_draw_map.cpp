// draw_map (src/extract) and read_named_entry (src/read): what
// `mapindex render` and the site use to read a map named by the user and draw
// it. The command's messages and exit statuses are tested end to end in
// test_render.cpp.
#include <doctest/doctest.h>

#include "extract/draw_map.h"
#include "read/named_entry.h"
#include "tests/support/archive_builder.h"
#include "tests/support/map_builder.h"

namespace mapindex {
namespace {

using testing::ArchiveFormat;
using testing::TempDir;

// A game layer of w x h with a solid floor (tile 1) on its last row.
std::vector<std::uint8_t> floor_map(std::int32_t w, std::int32_t h) {
  testing::MapBuilder b;
  b.add_game_group();
  b.add_tile_layer(testing::TileGrid(LayerKind::game, w, h).fill(0, h - 1, w, 1, 1));
  return b.build();
}

TEST_SUITE("render") {
  TEST_CASE("render: draw_map draws a map at one pixel per tile, and refuses what is no map") {
    const auto file = floor_map(13, 7);
    const auto drawn = draw_map(Bytes(file.data(), file.size()), false);
    REQUIRE_MESSAGE(drawn.ok(), (drawn.ok() ? "" : drawn.error().to_string()));
    CHECK(drawn->tiles_per_pixel == 1);
    CHECK(drawn->image.width == 13);
    CHECK(drawn->image.height == 7);
    CHECK(drawn->image.at(0, 6) == render::TileClass::solid);
    CHECK(drawn->image.at(12, 6) == render::TileClass::solid);
    CHECK(drawn->image.at(5, 3) == render::TileClass::air);

    const std::vector<std::uint8_t> text{'h', 'e', 'l', 'l', 'o'};
    const auto refused = draw_map(Bytes(text.data(), text.size()), false);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == Code::render_nothing);
    CHECK(refused.error().message.find("not a map") != std::string::npos);

    testing::MapBuilder no_game;
    no_game.add_game_group();
    const auto empty = no_game.build();
    const auto nothing = draw_map(Bytes(empty.data(), empty.size()), true);
    REQUIRE_FALSE(nothing.ok());
    CHECK(nothing.error().code == Code::render_nothing);
    CHECK(nothing.error().message.find("it has no game layer") != std::string::npos);
  }

}  // TEST_SUITE

TEST_SUITE("read") {
  TEST_CASE("read: read_named_entry reads a file or an archive's entry and names what is missing") {
    TempDir tmp;
    const auto a = floor_map(9, 5), b = floor_map(11, 6);
    testing::write_file(tmp / "a.map", Bytes(a.data(), a.size()));
    const auto inner =
        testing::build_archive(ArchiveFormat::zip, {{.path = "maps/b.map", .bytes = b}});
    testing::write_archive(tmp / "outer.tar", ArchiveFormat::tar,
                           {{.path = "a.map", .bytes = a}, {.path = "inner.zip", .bytes = inner}});
    const auto read = [](const std::string& name) { return read::read_named_entry(name, 1 << 20); };

    const auto file = read(tmp.file("a.map"));
    REQUIRE(file.ok());
    CHECK(*file == a);
    const auto entry = read(tmp.file("outer.tar") + "::a.map");
    REQUIRE(entry.ok());
    CHECK(*entry == a);
    const auto nested = read(tmp.file("outer.tar") + "::inner.zip/maps/b.map");
    REQUIRE_MESSAGE(nested.ok(), (nested.ok() ? "" : nested.error().message));
    CHECK(*nested == b);

    // Each refusal names the input and says what to give instead.
    const auto message = [&](const std::string& name) {
      const auto r = read(name);
      REQUIRE_FALSE(r.ok());
      CHECK(r.error().code == Code::render_input);
      return r.error().message;
    };
    CHECK(message(tmp.file("missing.map")) == tmp.file("missing.map") + ": no such file");
    CHECK(message(tmp.file("outer.tar")).find("is an archive: name the map in it as") !=
          std::string::npos);
    CHECK(message(tmp.path().string()) == tmp.path().string() + " is a folder, not a map file");
    CHECK(message(tmp.file("outer.tar") + "::c.map") ==
          tmp.file("outer.tar") + " has no entry 'c.map'");
    CHECK(message(tmp.file("a.map") + "::x.map") ==
          tmp.file("a.map") + " is not an archive, so it has no entry 'x.map'");
    const auto small = read::read_named_entry(tmp.file("a.map"), 16);
    REQUIRE_FALSE(small.ok());
    CHECK(small.error().message.find("bytes, over --max-map-size") != std::string::npos);
  }

}  // TEST_SUITE

}  // namespace
}  // namespace mapindex
