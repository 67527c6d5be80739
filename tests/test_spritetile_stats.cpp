// SpriteTile statistics and classification (src/extract/spritetile_stats.h)
// on levels built in code. Expected values are counted by hand from the cells.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "extract/spritetile_stats.h"
#include "tests/support/codes.h"
#include "tests/support/spritetile_writer.h"

using namespace mapindex;
using mapindex::testing::lzf_compress_bytes;
using mapindex::testing::SpriteTileWriter;
using mapindex::testing::StCell;
using mapindex::testing::StLayer;

namespace {

using ByteVec = std::vector<std::uint8_t>;

// Six cells with every kind of bit (see the expectations below).
StLayer mixed_layer() {
  StLayer l;
  l.tile_size_x = 1.28f;
  l.tile_size_y = 1.28f;
  l.scroll_x = 91;
  l.preview_size = 35;
  l.z = 9.9f;
  l.layer_lock = 2;
  l.add_border = 3;
  l.width = 3;
  l.height = 2;
  l.cells = {
      StCell{2062, 0, 0, 0},                   // plain tile
      StCell{-1, 0x8000, 0, 9},                // empty, collider, trigger 9
      StCell{0, 37090, -32768, 255},           // collider, flip X, rotation 226
      StCell{32767, 0x0800 | 1799, 32767, 1},  // flip Y, rotation 1799
      StCell{-2, 0x1000, 5, 0},                // odd empty value, flip X
      StCell{5, 0x7fff, -1, 0},                // flip X+Y, rotation 2047, unused bits
  };
  return l;
}

// 4x4: tile 7 where i % 3 == 0 (i = 0, 3, 6, 9, 12, 15), else tile 1030.
StLayer counted_layer() {
  StLayer l;
  l.width = 4;
  l.height = 4;
  for (int i = 0; i < 16; ++i)
    l.cells.push_back(StCell{static_cast<std::int16_t>(i % 3 == 0 ? 7 : 1030), 0, 3, 0});
  return l;
}

std::vector<std::string> codes_at(const MapStats& stats, const std::string& location) {
  std::vector<std::string> codes;
  for (const Problem& p : stats.problems)
    if (to_string(p.location) == location) codes.push_back(std::string(to_string(p.code)));
  return codes;
}

void check_same_stats(const MapStats& a, const MapStats& b) {
  CHECK(a.format == b.format);
  CHECK(a.format_version == b.format_version);
  CHECK(a.status == b.status);
  CHECK(a.tiles_per_set == b.tiles_per_set);
  CHECK(a.problems == b.problems);
  REQUIRE(a.layers.size() == b.layers.size());
  for (std::size_t i = 0; i < a.layers.size(); ++i) {
    CAPTURE(i);
    const LayerStats &x = a.layers[i], &y = b.layers[i];
    CHECK(x.layer_index == y.layer_index);
    CHECK(x.kind == y.kind);
    CHECK(x.width == y.width);
    CHECK(x.height == y.height);
    CHECK(x.non_empty == y.non_empty);
    CHECK(x.flip_x == y.flip_x);
    CHECK(x.flip_y == y.flip_y);
    CHECK(x.rotate == y.rotate);
    CHECK(x.tile_counts == y.tile_counts);
    REQUIRE(x.spritetile.has_value());
    REQUIRE(y.spritetile.has_value());
    const SpriteTileLayerInfo &p = *x.spritetile, &q = *y.spritetile;
    CHECK(p.tile_size_x == q.tile_size_x);
    CHECK(p.tile_size_y == q.tile_size_y);
    CHECK(p.z == q.z);
    CHECK(p.scroll_x == q.scroll_x);
    CHECK(p.scroll_y == q.scroll_y);
    CHECK(p.preview_size == q.preview_size);
    CHECK(p.layer_lock == q.layer_lock);
    CHECK(p.add_border == q.add_border);
    CHECK(p.cells == q.cells);
    CHECK(p.colliders == q.colliders);
    CHECK(p.flip_both == q.flip_both);
    CHECK(p.order_min == q.order_min);
    CHECK(p.order_max == q.order_max);
    CHECK(p.triggers == q.triggers);
  }
}

}  // namespace

TEST_SUITE("spritetile") {
  TEST_CASE("spritetile stats: per-layer counts, counted by hand") {
    SpriteTileWriter w;
    w.editor_tags().layers({mixed_layer(), counted_layer()}).numsets(32);
    const auto m = measure_spritetile(w.compressed());
    REQUIRE(m.is_level);
    const MapStats& s = m.stats;
    CHECK(s.format == MapFormat::spritetile);
    CHECK(s.format_version == 2);
    CHECK(s.tiles_per_set == 1024);
    REQUIRE(s.layers.size() == 2);

    const LayerStats& a = s.layers[0];
    CHECK(a.layer_index == 0);
    CHECK(a.kind == LayerKind::spritetile);
    CHECK(a.width == 3);
    CHECK(a.height == 2);
    CHECK(a.non_empty == 4);  // cells 0, 2, 3, 5
    CHECK(a.flip_x == 3);     // cells 2, 4, 5
    CHECK(a.flip_y == 2);     // cells 3, 5
    CHECK(a.rotate == 3);     // cells 2, 3, 5
    CHECK(a.tile_counts == std::vector<TileCount>{{0, 1}, {5, 1}, {2062, 1}, {32767, 1}});
    REQUIRE(a.spritetile.has_value());
    const SpriteTileLayerInfo& ai = *a.spritetile;
    CHECK(ai.tile_size_x == 1.28f);
    CHECK(ai.tile_size_y == 1.28f);
    CHECK(ai.z == 9.9f);
    CHECK(ai.scroll_x == 91);
    CHECK(ai.scroll_y == 0);
    CHECK(ai.preview_size == 35);
    CHECK(ai.layer_lock == 2);
    CHECK(ai.add_border == 3);
    CHECK(ai.cells == 6);
    CHECK(ai.colliders == 2);  // cells 1 (empty) and 2
    CHECK(ai.flip_both == 1);  // cell 5
    CHECK(ai.order_min == -32768);
    CHECK(ai.order_max == 32767);
    CHECK(ai.triggers == std::vector<std::int32_t>{1, 9, 255});

    const LayerStats& b = s.layers[1];
    CHECK(b.non_empty == 16);
    CHECK(b.tile_counts == std::vector<TileCount>{{7, 6}, {1030, 10}});
    CHECK(b.flip_x == 0);
    CHECK(b.rotate == 0);
    CHECK(b.spritetile->colliders == 0);
    CHECK(b.spritetile->order_min == 3);
    CHECK(b.spritetile->order_max == 3);
    CHECK(b.spritetile->triggers.empty());

    // Rotation 2047, unused bits and the -2 cell are reported on layer 0 only.
    CHECK(codes_at(s, "layer 0") == std::vector<std::string>{"st.cell.rotation",
                                                             "st.cell.unused_bits",
                                                             "st.cell.empty_value"});
    CHECK(codes_at(s, "layer 1").empty());
    CHECK(s.problems.size() == 3);
    for (const Problem& p : s.problems) CHECK(p.severity() == Severity::warning);
    CHECK(s.status == MapStatus::warnings);
    CHECK(s.problems[0].message.find("largest 2047") != std::string::npos);
  }

  TEST_CASE("spritetile stats: a clean level is ok, an empty layer has no tiles and order 0..0") {
    StLayer empty;
    empty.width = 20;
    empty.height = 10;
    for (bool big_endian : {false, true}) {
      SpriteTileWriter w(big_endian, 3);
      w.layers({counted_layer(), empty}).numsets(8);
      const auto m = measure_spritetile(w.compressed());
      REQUIRE(m.is_level);
      CHECK(m.stats.status == MapStatus::ok);
      CHECK(m.stats.problems.empty());
      CHECK(m.stats.format_version == 3);
      CHECK(m.stats.tiles_per_set == 4096);
      REQUIRE(m.stats.layers.size() == 2);
      const LayerStats& e = m.stats.layers[1];
      CHECK(e.non_empty == 0);
      CHECK(e.tile_counts.empty());
      CHECK(e.spritetile->cells == 200);
      CHECK(e.spritetile->order_min == 0);
      CHECK(e.spritetile->order_max == 0);
    }
    const auto none = measure_spritetile(SpriteTileWriter().layers({}).compressed());
    REQUIRE(none.is_level);
    CHECK(none.stats.layers.empty());
    CHECK(none.stats.status == MapStatus::ok);
  }

  TEST_CASE("spritetile stats: tile counts do not leak between layers") {
    // The same tiles in two layers: each layer counts only its own.
    SpriteTileWriter w;
    w.layers({counted_layer(), counted_layer(), mixed_layer()});
    const auto m = measure_spritetile(w.compressed());
    REQUIRE(m.is_level);
    CHECK(m.stats.layers[0].tile_counts == m.stats.layers[1].tile_counts);
    CHECK(m.stats.layers[1].tile_counts == std::vector<TileCount>{{7, 6}, {1030, 10}});
    CHECK(m.stats.layers[2].tile_counts.size() == 4);
  }

  TEST_CASE("spritetile stats: big-endian and little-endian twins measure the same") {
    auto build = [](bool big_endian) {
      SpriteTileWriter w(big_endian);
      StLayer weird = counted_layer();
      weird.layer_lock = 9;
      w.numsets(16).editor_tags().layers({mixed_layer(), counted_layer(), weird});
      return w.compressed();
    };
    const auto le = measure_spritetile(build(false));
    const auto be = measure_spritetile(build(true));
    REQUIRE(le.is_level);
    REQUIRE(be.is_level);
    CHECK(le.stats.tiles_per_set == 2048);
    check_same_stats(le.stats, be.stats);
  }

  TEST_CASE("spritetile stats: out-of-spec layer values are warnings at their layer") {
    StLayer lock4 = counted_layer();
    lock4.layer_lock = 4;
    StLayer lock_neg = counted_layer();
    lock_neg.layer_lock = -1;
    StLayer floats = counted_layer();
    floats.tile_size_x = std::numeric_limits<float>::infinity();
    floats.tile_size_y = 0;
    floats.z = std::numeric_limits<float>::quiet_NaN();
    const auto m = measure_spritetile(
        SpriteTileWriter().layers({counted_layer(), lock4, lock_neg, floats}).compressed());
    REQUIRE(m.is_level);
    CHECK(codes_at(m.stats, "layer 0").empty());
    CHECK(codes_at(m.stats, "layer 1") == std::vector<std::string>{"st.layer.lock"});
    CHECK(codes_at(m.stats, "layer 2") == std::vector<std::string>{"st.layer.lock"});
    CHECK(codes_at(m.stats, "layer 3") ==
          std::vector<std::string>{"st.layer.float", "st.layer.float", "st.layer.tile_size"});
    CHECK(m.stats.status == MapStatus::warnings);
    CHECK(m.stats.layers[1].spritetile->layer_lock == 4);  // stored as it is
    CHECK(std::isnan(m.stats.layers[3].spritetile->z));
  }

  TEST_CASE("spritetile measure: not a level vs a corrupt level") {
    SUBCASE("groups file") {
      const auto m = measure_spritetile(SpriteTileWriter().groups_tags().compressed());
      CHECK_FALSE(m.is_level);
      CHECK(m.not_level_reason.find("groups") != std::string::npos);
    }
    SUBCASE("other content") {
      const std::string texts[] = {"", "DATA\x04", "\x89PNG\r\n", "plain text asset"};
      for (const std::string& t : texts) {
        CAPTURE(t);
        const ByteVec bytes(t.begin(), t.end());
        CHECK_FALSE(measure_spritetile(bytes).is_level);
        CHECK_FALSE(measure_spritetile(lzf_compress_bytes(bytes)).is_level);
        CHECK_FALSE(measure_spritetile(bytes).not_level_reason.empty());
      }
    }
    SUBCASE("a truncated level is a rejected level") {
      SpriteTileWriter w;
      w.editor_tags().layers({mixed_layer(), counted_layer()});
      const ByteVec c = w.compressed();
      const auto m = measure_spritetile(Bytes(c.data(), c.size() - 2));
      REQUIRE(m.is_level);
      CHECK(m.stats.format == MapFormat::spritetile);
      CHECK(m.stats.status == MapStatus::rejected);
      REQUIRE(m.stats.problems.size() == 1);
      CHECK(m.stats.problems[0].code == Code::st_lzf_truncated);
      CHECK(m.stats.problems[0].severity() == Severity::error);
    }
    SUBCASE("a layer error carries its location") {
      StLayer bad = counted_layer();
      bad.width = 65536;
      bad.height = 65536;
      bad.pad_cells = false;
      const auto m =
          measure_spritetile(SpriteTileWriter().layers({counted_layer(), bad}).compressed());
      REQUIRE(m.is_level);
      CHECK(m.stats.status == MapStatus::rejected);
      REQUIRE(m.stats.problems.size() == 1);
      CHECK(m.stats.problems[0].code == Code::st_layer_size);
      CHECK(m.stats.problems[0].location == Location::layer(1));
    }
    SUBCASE("version 4 is a rejected level") {
      const auto m =
          measure_spritetile(SpriteTileWriter(false, 4).layers({counted_layer()}).compressed());
      REQUIRE(m.is_level);
      CHECK(m.stats.problems.at(0).code == Code::st_version);
      CHECK(m.stats.problems.at(0).location == Location::file());
    }
  }

}  // TEST_SUITE
