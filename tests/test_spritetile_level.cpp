// SpriteTile level decoding (src/decode/spritetile/level.h) on levels
// built in code by tests/support/spritetile_writer.h.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "decode/spritetile/level.h"
#include "tests/support/codes.h"
#include "tests/support/spritetile_writer.h"

using namespace mapindex;
using namespace mapindex::spritetile;
using mapindex::testing::lzf_compress_bytes;
using mapindex::testing::lzf_literal_stream;
using mapindex::testing::SpriteTileWriter;
using mapindex::testing::StCell;
using mapindex::testing::StLayer;

namespace {

using ByteVec = std::vector<std::uint8_t>;

std::string code_of(const Result<Level>& r) {
  return r.ok() ? "ok" : std::string(to_string(r.error().code));
}

Result<Level> decode(const SpriteTileWriter& w) { return decode_level(w.compressed()); }

// A 3x2 layer with cells chosen to exercise every field.
StLayer small_layer() {
  StLayer l;
  l.tile_size_x = 1.28f;
  l.tile_size_y = 2.5f;
  l.scroll_x = -7;
  l.scroll_y = 308;
  l.preview_size = 13;
  l.z = -1.5f;
  l.layer_lock = 2;
  l.add_border = 3;
  l.width = 3;
  l.height = 2;
  l.cells = {
      StCell{2062, 0, 0, 0},                   // TileInfo(2, 14) with 1024 per set
      StCell{-1, 0x8000, 0, 9},                // empty, collider, trigger 9
      StCell{0, 37090, -32768, 255},           // the misc value 37090
      StCell{32767, 0x0800 | 1799, 32767, 1},  // flip Y, rotation 359.8
      StCell{-2, 0x1000, 5, 0},                // another "no tile" value
      StCell{5, 0x7fff, -1, 0},                // every bit but the collider
  };
  return l;
}

std::vector<StLayer> varied_layers() {
  std::vector<StLayer> layers;
  layers.push_back(small_layer());
  StLayer wide;
  wide.width = 1000;
  wide.height = 1;
  for (int i = 0; i < 1000; ++i)
    wide.cells.push_back(StCell{static_cast<std::int16_t>(i % 3 == 0 ? -1 : i),
                                static_cast<std::uint16_t>(i * 37),
                                static_cast<std::int16_t>(i - 500), static_cast<std::uint8_t>(i)});
  layers.push_back(wide);
  StLayer tall;
  tall.width = 1;
  tall.height = 777;
  tall.z = 20;
  tall.layer_lock = 3;
  layers.push_back(tall);  // all empty
  StLayer odd;
  odd.width = 37;
  odd.height = 53;
  for (int i = 0; i < 37 * 53; ++i)
    odd.cells.push_back(StCell{static_cast<std::int16_t>(i), 0, 0, 0});
  layers.push_back(odd);
  return layers;
}

void check_small_layer(const Level& level, std::size_t index) {
  const Layer& l = level.layers.at(index);
  CHECK(l.tile_size_x == 1.28f);
  CHECK(l.tile_size_y == 2.5f);
  CHECK(l.scroll_x == -7);
  CHECK(l.scroll_y == 308);
  CHECK(l.preview_size == 13);
  CHECK(l.z == -1.5f);
  CHECK(l.layer_lock == 2);
  CHECK(l.add_border == 3);
  CHECK(l.width == 3);
  CHECK(l.height == 2);
  CHECK(l.num_cells() == 6);
  const CellView cells = level.cells(index);
  REQUIRE(cells.size() == 6);
  CHECK(cells[0] == Cell{2062, 0, 0, 0});
  CHECK(cells[1] == Cell{-1, 0x8000, 0, 9});
  CHECK(cells[2] == Cell{0, 37090, -32768, 255});
  CHECK(cells[3] == Cell{32767, 0x0800 | 1799, 32767, 1});
  CHECK(cells[4] == Cell{-2, 0x1000, 5, 0});
  CHECK(cells[5] == Cell{5, 0x7fff, -1, 0});
}

// Everything but big_endian and the buffer bytes outside the cells.
void check_same_level(const Level& a, const Level& b) {
  CHECK(a.version == b.version);
  CHECK(a.tags == b.tags);
  CHECK(a.numsets == b.numsets);
  CHECK(a.warnings == b.warnings);
  REQUIRE(a.layers.size() == b.layers.size());
  for (std::size_t i = 0; i < a.layers.size(); ++i) {
    CAPTURE(i);
    CHECK(a.layers[i] == b.layers[i]);
    const CellView ca = a.cells(i), cb = b.cells(i);
    REQUIRE(ca.size() == cb.size());
    CHECK(std::equal(ca.bytes().begin(), ca.bytes().end(), cb.bytes().begin()));
  }
}

}  // namespace

TEST_SUITE("spritetile") {
  TEST_CASE("spritetile level: the minimal layout, one tag at offset 35, both byte orders") {
    for (bool big_endian : {false, true}) {
      CAPTURE(big_endian);
      SpriteTileWriter w(big_endian);
      w.layers({small_layer()});
      auto level = decode(w);
      REQUIRE_MESSAGE(level.ok(), (level.ok() ? "" : level.error().to_string()));
      CHECK(level->big_endian == big_endian);
      CHECK(level->version == 2);
      REQUIRE(level->tags.size() == 1);
      CHECK(level->tags[0] == Tag{"lvlayrs", 35});  // 24-byte header + one 11-byte tag
      CHECK_FALSE(level->numsets.has_value());
      CHECK(level->num_sets() == 32);
      CHECK(level->tiles_per_set() == 1024);
      CHECK(level->warnings.empty());
      REQUIRE(level->layers.size() == 1);
      CHECK(level->layers[0].tag == "lyrdata");
      CHECK(level->layers[0].cells_offset == 35 + 4 + 47);
      check_small_layer(*level, 0);
    }
  }

  TEST_CASE("spritetile level: the misc value 37090 = rotation 45.2, flip X, collider") {
    const Cell c{0, 37090, 0, 0};
    CHECK(c.rotation_raw() == 226);
    CHECK(c.rotation_degrees() == doctest::Approx(45.2));
    CHECK(c.flip_x());
    CHECK_FALSE(c.flip_y());
    CHECK(c.collider());
    CHECK_FALSE(c.empty());
    CHECK(Cell{-1, 0, 0, 0}.empty());
    CHECK(Cell{-32768, 0, 0, 0}.empty());
  }

  TEST_CASE(
      "spritetile level: a big-endian file decodes to exactly what its little-endian twin does") {
    auto build = [](bool big_endian) {
      SpriteTileWriter w(big_endian, 3);
      w.editor_tags().layers(varied_layers()).numsets(8).raw_tag("zzzzzzz", {1, 2, 3});
      return w;
    };
    const ByteVec le_raw = build(false).raw(), be_raw = build(true).raw();
    REQUIRE(le_raw.size() == be_raw.size());
    CHECK(le_raw != be_raw);
    CHECK(le_raw[15] == 1);
    CHECK(be_raw[15] == 0);

    auto le = decode(build(false));
    auto be = decode(build(true));
    REQUIRE_MESSAGE(le.ok(), (le.ok() ? "" : le.error().to_string()));
    REQUIRE_MESSAGE(be.ok(), (be.ok() ? "" : be.error().to_string()));
    CHECK_FALSE(le->big_endian);
    CHECK(be->big_endian);
    check_same_level(*le, *be);
    CHECK(le->version == 3);
    CHECK(le->numsets == 8);
    CHECK(le->tiles_per_set() == 4096);
    REQUIRE(le->layers.size() == 4);
    check_small_layer(*be, 0);
    CHECK(be->layers[1].width == 1000);
    CHECK(be->cells(1)[4] == Cell{4, 4 * 37, -496, 4});
    CHECK(be->cells(2).size() == 777);
    CHECK(be->cells(2)[776] == Cell{});
    CHECK(be->cells(3)[37 * 53 - 1].tile == 37 * 53 - 1);
  }

  TEST_CASE("spritetile level: tags are found by name in any order, payloads in any order") {
    SUBCASE("lvlayrs then numsets: level data at 46 (spec section 2)") {
      SpriteTileWriter w;
      w.layers({small_layer()}).numsets(16);
      auto level = decode(w);
      REQUIRE(level.ok());
      CHECK(level->tags[0] == Tag{"lvlayrs", 46});
      CHECK(level->numsets == 16);
      CHECK(level->tiles_per_set() == 2048);
      check_small_layer(*level, 0);
    }
    SUBCASE("numsets data first: level data at 50 (spec section 2)") {
      SpriteTileWriter w;
      w.layers({small_layer()}).numsets(4).payload_order({1, 0});
      auto level = decode(w);
      REQUIRE(level.ok());
      CHECK(level->tags[0] == Tag{"lvlayrs", 50});
      CHECK(level->tags[1] == Tag{"numsets", 46});
      CHECK(level->tiles_per_set() == 8192);
      check_small_layer(*level, 0);
    }
    SUBCASE("numsets first in the table, editor tags around, lvlayrs last") {
      SpriteTileWriter w(true);
      w.numsets(2).editor_tags().layers({small_layer()});
      w.payload_order({w.num_tags() - 1, 3, 0});
      auto level = decode(w);
      REQUIRE_MESSAGE(level.ok(), (level.ok() ? "" : level.error().to_string()));
      CHECK(level->tags.size() == 10);
      CHECK(level->tags.back().name == "lvlayrs");
      CHECK(level->tiles_per_set() == 16384);
      check_small_layer(*level, 0);
    }
    SUBCASE("the editor's layout: prvsize, tintclr, lvlayrs, ..., numsets, srtlyrs") {
      SpriteTileWriter w;
      w.raw_tag("prvsize", w.encode_i32(64))
          .raw_tag("tintclr", {1, 2, 3, 4})
          .layers({small_layer()});
      w.raw_tag("divposn", w.encode_i32(1))
          .raw_tag("stlsize", {1})
          .numsets(32)
          .raw_tag("srtlyrs", {});
      auto level = decode(w);
      REQUIRE(level.ok());
      CHECK(level->tags[2] == Tag{"lvlayrs", 24 + 7 * 11 + 8});
      CHECK(level->numsets == 32);
      check_small_layer(*level, 0);
    }
    SUBCASE("unknown tags with offsets outside the file are ignored") {
      SpriteTileWriter w;
      w.raw_tag("bkmarks", {}).layers({small_layer()}).raw_tag("\xff\x00junk!", {});
      w.tag_offset(0, -5).tag_offset(2, 0x7fffffff);
      auto level = decode(w);
      REQUIRE(level.ok());
      check_small_layer(*level, 0);
    }
    SUBCASE("bytes no tag points at are ignored") {
      SpriteTileWriter w;
      w.layers({small_layer()}).trailer(ByteVec(100, 0xAB));
      auto level = decode(w);
      REQUIRE(level.ok());
      check_small_layer(*level, 0);
    }
  }

  TEST_CASE("spritetile level: numsets must be 2, 4, 8, 16 or 32") {
    const std::pair<std::int32_t, std::int32_t> valid[] = {
        {2, 16384}, {4, 8192}, {8, 4096}, {16, 2048}, {32, 1024}};
    for (auto [numsets, per_set] : valid) {
      CAPTURE(numsets);
      SpriteTileWriter w;
      w.layers({small_layer()}).numsets(numsets);
      auto level = decode(w);
      REQUIRE(level.ok());
      CHECK(level->tiles_per_set() == per_set);
    }
    for (std::int32_t numsets : {0, 1, 3, 31, 64, -32, 0x7fffffff}) {
      CAPTURE(numsets);
      SpriteTileWriter w;
      w.layers({small_layer()}).numsets(numsets);
      CHECK(code_of(decode(w)) == "st.numsets");
    }
  }

  TEST_CASE("spritetile level: versions 2 and 3 only") {
    for (std::int32_t version : {2, 3}) {
      SpriteTileWriter w(false, version);
      w.layers({small_layer()});
      CHECK(code_of(decode(w)) == "ok");
    }
    for (std::int32_t version : {4, 1, 0, -1, 0x01000000}) {
      CAPTURE(version);
      SpriteTileWriter w(true, version);
      w.layers({small_layer()});
      auto r = decode(w);
      CHECK(code_of(r) == "st.version");
      if (version == 4) CHECK(r.error().message.find("level version 4") != std::string::npos);
    }
    // Little-endian version 3 read as big-endian is 0x03000000: rejected.
    SpriteTileWriter w(false, 3);
    w.layers({small_layer()}).endian_byte(0);
    CHECK(code_of(decode(w)) == "st.version");
  }

  TEST_CASE("spritetile level: broken headers and tag tables") {
    SUBCASE("bad magic") {
      SpriteTileWriter w;
      w.layers({small_layer()}).magic("SpriteTileLevek");
      CHECK(code_of(decode(w)) == "st.magic");
    }
    SUBCASE("not a SpriteTile file at all, but valid LZF") {
      const std::string text = "hello, this is some other Unity asset";
      CHECK(code_of(decode_level(lzf_compress_bytes(ByteVec(text.begin(), text.end())))) ==
            "st.magic");
    }
    SUBCASE("header cut short") {
      const std::string text = "SpriteTileLevel\x01\x02";
      CHECK(code_of(decode_level(lzf_literal_stream(ByteVec(text.begin(), text.end())))) ==
            "st.header.truncated");
    }
    SUBCASE("endianness byte 2") {
      SpriteTileWriter w;
      w.layers({small_layer()}).endian_byte(2);
      CHECK(code_of(decode(w)) == "st.endian");
    }
    SUBCASE("tag count 0, negative, or past the end") {
      for (std::int32_t count : {0, -1, 2, 1000000, INT32_MIN}) {
        CAPTURE(count);
        SpriteTileWriter w;
        w.layers({}).tag_count(count);  // 4 payload bytes: no room for a second tag
        CHECK(code_of(decode(w)) == "st.tags.count");
      }
    }
    SUBCASE("lvlayrs offset outside the file") {
      SpriteTileWriter probe;
      probe.layers({small_layer()});
      const auto size = static_cast<std::int32_t>(probe.raw().size());
      for (std::int32_t offset : {-1, INT32_MIN, size, size - 3, INT32_MAX}) {
        CAPTURE(offset);
        SpriteTileWriter w;
        w.layers({small_layer()}).tag_offset(0, offset);
        CHECK(code_of(decode(w)) == "st.tag.offset");
      }
    }
    SUBCASE("numsets offset outside the file") {
      SpriteTileWriter probe;
      probe.layers({small_layer()}).numsets(8);
      const auto size = static_cast<std::int32_t>(probe.raw().size());
      for (std::int32_t offset : {-4, size - 2, size}) {
        CAPTURE(offset);
        SpriteTileWriter w;
        w.layers({small_layer()}).numsets(8).tag_offset(1, offset);
        CHECK(code_of(decode(w)) == "st.tag.offset");
      }
    }
    SUBCASE("duplicate lvlayrs") {
      SpriteTileWriter w;
      w.layers({small_layer()}).editor_tags().layers({});
      CHECK(code_of(decode(w)) == "st.lvlayrs.duplicate");
    }
    SUBCASE("duplicate numsets, even with equal values") {
      SpriteTileWriter w;
      w.numsets(32).layers({small_layer()}).numsets(32);
      CHECK(code_of(decode(w)) == "st.numsets.duplicate");
    }
    SUBCASE("no lvlayrs") {
      SpriteTileWriter w;
      w.editor_tags().numsets(32);
      CHECK(code_of(decode(w)) == "st.lvlayrs.missing");
    }
    SUBCASE("a groups file is not a level") {
      SpriteTileWriter w;
      w.groups_tags();
      auto r = decode(w);
      CHECK(code_of(r) == "st.not_level");
      CHECK(r.error().message.find("grpsets") != std::string::npos);
    }
  }

  TEST_CASE("spritetile level: layers of all sizes") {
    SUBCASE("zero layers") {
      for (bool big_endian : {false, true}) {
        SpriteTileWriter w(big_endian);
        w.layers({});
        auto level = decode(w);
        REQUIRE(level.ok());
        CHECK(level->layers.empty());
      }
    }
    SUBCASE("1x1 to 300x200, many layers") {
      std::vector<StLayer> layers;
      const std::pair<int, int> sizes[] = {{1, 1},   {1, 2},   {2, 1},    {7, 13},
                                           {256, 1}, {1, 256}, {300, 200}};
      for (auto [width, height] : sizes) {
        StLayer l;
        l.width = width;
        l.height = height;
        l.cells.resize(static_cast<std::size_t>(width * height));
        l.cells.back() = StCell{static_cast<std::int16_t>(width), 1, 2, 3};
        layers.push_back(l);
      }
      auto level = decode(SpriteTileWriter().layers(layers));
      REQUIRE(level.ok());
      REQUIRE(level->layers.size() == std::size(sizes));
      for (std::size_t i = 0; i < std::size(sizes); ++i) {
        CAPTURE(i);
        CHECK(level->layers[i].width == sizes[i].first);
        CHECK(level->layers[i].height == sizes[i].second);
        const CellView cells = level->cells(i);
        REQUIRE(cells.size() == static_cast<std::size_t>(sizes[i].first * sizes[i].second));
        CHECK(cells[cells.size() - 1] == Cell{static_cast<std::int16_t>(sizes[i].first), 1, 2, 3});
        CHECK(cells[0] == (cells.size() == 1 ? cells[cells.size() - 1] : Cell{}));
      }
    }
    SUBCASE("sizes that wrap in 32 bits") {
      // 65536 * 65536 = 2^32 (0 when wrapped); 2^31-1 squared * 7 overflows
      // even 64 bits; 0x24924925 * 7 = 2^32 + 3.
      const std::pair<std::int32_t, std::int32_t> sizes[] = {
          {65536, 65536}, {INT32_MAX, INT32_MAX}, {0x24924925, 1}, {1, 0x24924925}, {613566757, 7}};
      for (auto [width, height] : sizes) {
        CAPTURE(width);
        CAPTURE(height);
        StLayer l;
        l.width = width;
        l.height = height;
        l.pad_cells = false;
        l.cells.resize(3);
        auto r = decode(SpriteTileWriter().layers({l}));
        CHECK(code_of(r) == "st.layer.size");
        CHECK(r.error().message.rfind("layer 0: ", 0) == 0);
      }
    }
    SUBCASE("width or height below 1") {
      for (auto [width, height] :
           {std::pair{0, 5}, std::pair{5, 0}, std::pair{-1, -1}, std::pair{INT32_MIN, 1}}) {
        StLayer l;
        l.width = width;
        l.height = height;
        l.pad_cells = false;
        l.cells.resize(5);
        CHECK(code_of(decode(SpriteTileWriter().layers({small_layer(), l}))) == "st.layer.size");
      }
    }
    SUBCASE("one cell short") {
      StLayer l = small_layer();
      l.pad_cells = false;
      l.cells.pop_back();
      auto r = decode(SpriteTileWriter().layers({small_layer(), l}));
      CHECK(code_of(r) == "st.layer.size");
      CHECK(r.error().message.rfind("layer 1: ", 0) == 0);
    }
    SUBCASE("layer count negative or more than the bytes hold") {
      for (std::int32_t count : {-1, INT32_MIN, 2, 1000000}) {
        CAPTURE(count);
        SpriteTileWriter w;
        ByteVec payload = w.encode_layers({small_layer()});
        const ByteVec c = w.encode_i32(count);
        std::copy(c.begin(), c.end(), payload.begin());
        w.raw_tag("lvlayrs", payload);
        CHECK(code_of(decode(w)) == "st.layers.count");
      }
    }
    SUBCASE("a layer header cut short") {
      // Two 89-byte layers but a count of 3: 3 * 54 bytes fit the count check,
      // the third header does not fit.
      for (std::size_t trailer : {0u, 20u, 46u}) {
        CAPTURE(trailer);
        SpriteTileWriter w;
        ByteVec payload = w.encode_layers({small_layer(), small_layer()});
        const ByteVec c = w.encode_i32(3);
        std::copy(c.begin(), c.end(), payload.begin());
        w.raw_tag("lvlayrs", payload).trailer(ByteVec(trailer, 0));
        auto r = decode(w);
        CHECK(code_of(r) == "st.layer.truncated");
        CHECK(r.error().message.rfind("layer 2: ", 0) == 0);
      }
    }
    SUBCASE("a layer tag other than lyrdata is a warning") {
      StLayer l = small_layer();
      l.tag = "lyrdatX";
      auto level = decode(SpriteTileWriter().layers({small_layer(), l}));
      REQUIRE(level.ok());
      REQUIRE(level->warnings.size() == 1);
      CHECK(level->warnings[0].code == Code::st_layer_tag);
      CHECK(level->warnings[0].location == Location::layer(1));
      CHECK(level->warnings[0].severity() == Severity::warning);
      CHECK(level->layers[1].tag == "lyrdatX");
      check_small_layer(*level, 1);
    }
  }

  TEST_CASE("spritetile level: LZF failures surface with their codes") {
    SpriteTileWriter w;
    w.editor_tags().layers(varied_layers());
    const ByteVec compressed = w.compressed();
    CHECK(code_of(decode_level({})) == "st.lzf.empty");
    CHECK(code_of(decode_level(Bytes(compressed.data(), compressed.size() - 1))) ==
          "st.lzf.truncated");
    // Uncompressed level bytes: 'S' (0x53) reads as a back reference.
    CHECK(code_of(decode_level(w.raw())) == "st.lzf.backref");
    DecodeOptions small;
    small.max_decompressed_size = w.raw().size() - 1;
    CHECK(code_of(decode_level(compressed, small)) == "st.lzf.cap");
    small.max_decompressed_size = w.raw().size();
    CHECK(code_of(decode_level(compressed, small)) == "ok");
  }

  TEST_CASE("spritetile level: looks_like_spritetile decides by content") {
    SpriteTileWriter level;
    level.layers({small_layer()});
    CHECK(looks_like_spritetile(level.compressed()));
    CHECK(looks_like_spritetile(lzf_literal_stream(level.raw())));
    CHECK(looks_like_spritetile(SpriteTileWriter().groups_tags().compressed()));
    CHECK_FALSE(looks_like_spritetile(level.raw()));
    CHECK_FALSE(looks_like_spritetile({}));
    const std::string other[] = {"DATA\x04\x00\x00\x00", "SpriteTileLeve", "spritetilelevel\x01"};
    for (const std::string& s : other) {
      CAPTURE(s);
      const ByteVec bytes(s.begin(), s.end());
      CHECK_FALSE(looks_like_spritetile(bytes));
      CHECK_FALSE(looks_like_spritetile(lzf_compress_bytes(bytes)));
    }
    // Only the first tokens matter: a truncated tail still looks like one.
    const ByteVec compressed = level.compressed();
    CHECK(looks_like_spritetile(Bytes(compressed.data(), 20)));
  }

  TEST_CASE("spritetile level: mutated files never crash or read out of bounds") {
    SpriteTileWriter w(true);
    w.editor_tags().layers(varied_layers()).numsets(16);
    const ByteVec raw = w.raw();
    const ByteVec compressed = w.compressed();
    std::uint32_t state = 99;
    auto next = [&state] {
      state = state * 1664525u + 1013904223u;
      return state >> 8;
    };
    int decoded = 0;
    for (int round = 0; round < 400; ++round) {
      const bool mutate_raw = round % 2 == 0;
      ByteVec bytes = mutate_raw ? raw : compressed;
      // Mostly the header, tag table and layer headers, where sizes live.
      for (int k = 0; k < 1 + round % 4; ++k) {
        const std::size_t limit =
            round % 3 == 0 ? bytes.size() : std::min<std::size_t>(bytes.size(), 300);
        bytes[next() % limit] = static_cast<std::uint8_t>(next());
      }
      auto level = decode_level(mutate_raw ? lzf_compress_bytes(bytes) : bytes);
      if (!level.ok()) continue;
      ++decoded;
      for (std::size_t i = 0; i < level->layers.size(); ++i) {
        const Layer& l = level->layers[i];
        REQUIRE(l.cells_offset + static_cast<std::uint64_t>(l.num_cells()) * 7 <= level->data.size);
        const CellView cells = level->cells(i);
        if (cells.size() > 0) (void)cells[cells.size() - 1];
      }
    }
    CHECK(decoded > 0);  // some mutations only touch cells or ignored tags
  }

}  // TEST_SUITE
