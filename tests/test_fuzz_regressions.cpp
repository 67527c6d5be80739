// Regression tests for what the libFuzzer targets in fuzz/ found (see
// docs/design.md, "Safety"). Each input is built with the fixture writers
// in the form the fuzzer reduced it to, and each test fails without its fix.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "decode/datafile/datafile.h"
#include "decode/datafile/uuid.h"
#include "extract/teeworlds_measure.h"
#include "tests/support/codes.h"
#include "tests/support/datafile_writer.h"
#include "tests/support/map_builder.h"
#include "tests/support/slow_inputs.h"

using namespace mapindex;
using namespace mapindex::datafile;
using mapindex::testing::DatafileWriter;
using mapindex::testing::MapBuilder;

namespace {

std::vector<std::int32_t> uuid_ints(const Uuid& uuid) {
  std::vector<std::int32_t> ints;
  for (std::size_t k = 0; k < 4; ++k)
    ints.push_back(static_cast<std::int32_t>(load_be_u32(uuid.bytes.data() + 4 * k)));
  return ints;
}

}  // namespace

TEST_SUITE_BEGIN("fuzz regression");

// fuzz_datafile: a UUID index item whose id (the type it names) is 0, a plain
// type. uuid_of(0) returned its UUID while type_id_of(that UUID) ignored it
// (ids below 0x8000 are never UUID types), so the two disagreed.
TEST_CASE("fuzz regression: a UUID index item naming a plain type id is ignored both ways") {
  const Uuid automapper = uuid_from_name(kAutomapperConfigName);
  DatafileWriter w;
  w.add_item(0, 0, {1});
  w.add_item(kUuidIndexType, 0, uuid_ints(automapper));  // names type 0: not a UUID type
  const auto file = w.finish();
  auto df = Datafile::open(file);
  REQUIRE_MESSAGE(df, (df ? "" : df.error().to_string()));
  REQUIRE(df->find_item(kUuidIndexType, 0));
  CHECK_FALSE(df->type_id_of(automapper));
  CHECK_FALSE(df->uuid_of(0));
  CHECK(df->items_of_uuid(automapper).num == 0);
}

// fuzz_teeworlds: an embedded image of 1885300067x1953067887 pixels. The
// image.data_size check computed width * height * 4 in int64, which
// overflows (UBSan: signed integer overflow) for sizes above about 2^31 x 2^30;
// the bytes needed are now computed unsigned and still reported.
TEST_CASE("fuzz regression: huge embedded image sizes do not overflow the image.data_size check") {
  MapBuilder b;
  b.add_embedded_image("huge", 2000000000, 2000000000, true, 1, std::vector<std::uint8_t>(100, 1));
  b.add_game_group();
  b.add_tile_layer(mapindex::testing::TileGrid(mapindex::LayerKind::game, 8, 8));
  const auto file = b.build();
  const MapStats stats = measure_teeworlds(Bytes(file));
  const Problem* found = nullptr;
  for (const auto& p : stats.problems)
    if (p.code == Code::image_data_size) found = &p;
  REQUIRE(found);
  CHECK(found->location == Location::image(0));
  // 2e9 * 2e9 * 4 = 1.6e19 bytes, above INT64_MAX (9.2e18).
  CHECK(found->message.find("= 16000000000000000000 needed") != std::string::npos);
}

// Crafted after fuzzing (the fuzzers' inputs are too small to show it): many
// tile or quads layers pointing at one data item that declares 256 MiB made
// measuring inflate it once per layer: 100 layers in a 270 KB file took 14 s
// (tiles) and 39 s (quads), linear in the number of layers. Datafile::data now
// inflates, in total, at most twice what inflating every data item once gives,
// plus 16 MiB ("D.budget").
TEST_CASE("fuzz regression: a data item is not inflated again and again (D.budget)") {
  DatafileWriter w;
  w.add_item(0, 0, {1});
  w.add_data(std::vector<std::uint8_t>(1 << 20, 0));  // the only data item: 1 MiB
  const auto file = w.finish();
  auto df = Datafile::open(file);
  REQUIRE_MESSAGE(df, (df ? "" : df.error().to_string()));
  // Budget: 2 * 1 MiB + 16 MiB = 18 MiB, i.e. 18 reads of the 1 MiB item.
  REQUIRE(2 * (1u << 20) + kInflateBudgetSlack == 18u << 20);
  std::vector<std::uint8_t> scratch;
  for (int i = 0; i < 18; ++i) {
    auto d = df->data(0, scratch);
    REQUIRE_MESSAGE(d, "read " << i << ": " << (d ? "" : d.error().to_string()));
    CHECK(d->size() == 1u << 20);
  }
  auto over = df->data(0, scratch);
  REQUIRE_FALSE(over);
  CHECK(over.error().code == Code::D_budget);
  CHECK(over.error().message.find("data item 0") != std::string::npos);
}

TEST_CASE(
    "fuzz regression: charge() counts a data item against the inflate budget as data() does") {
  DatafileWriter w;
  w.add_item(0, 0, {1});
  w.add_data(std::vector<std::uint8_t>(1 << 20, 0));  // 1 MiB: a budget of 18 reads
  const auto file = w.finish();
  auto df = Datafile::open(file);
  REQUIRE(df);
  std::vector<std::uint8_t> scratch;
  for (int i = 0; i < 9; ++i) {
    auto charged = df->charge(0);
    REQUIRE(charged);
    CHECK(*charged == 1u << 20);
    REQUIRE(df->data(0, scratch));
  }
  auto out_of_range = df->charge(1);
  REQUIRE_FALSE(out_of_range);
  CHECK(out_of_range.error().code == Code::D1);
  // 18 counted: the next charge and the next data() are refused alike.
  auto over = df->charge(0);
  REQUIRE_FALSE(over);
  CHECK(over.error().code == Code::D_budget);
  auto read = df->data(0, scratch);
  REQUIRE_FALSE(read);
  CHECK(read.error().code == Code::D_budget);
  CHECK(read.error().message == over.error().message);
  // The stored bytes are the compressed stream, not what it inflates to.
  auto stored = df->stored_data(0);
  REQUIRE(stored);
  CHECK(stored->size() == df->data_stored_size(0));
  CHECK(stored->size() < 1u << 20);
}

TEST_CASE("fuzz regression: layers sharing one big data item stop at the inflate budget") {
  MapBuilder b;
  // 2048 x 1024 tiles of 4 bytes: 8 MiB of air, a few KB compressed.
  const std::int32_t big = b.add_raw_data(std::vector<std::uint8_t>(8u << 20, 0));
  b.add_game_group();
  b.add_tile_layer(mapindex::testing::TileGrid(mapindex::LayerKind::game, 8, 8));
  const int sharing = 10;
  for (int i = 0; i < sharing; ++i) {
    mapindex::testing::TileLayerSpec s;
    s.stored_width = 2048;
    s.stored_height = 1024;
    s.data_index_override = big;
    b.add_tile_layer(mapindex::testing::TileGrid(mapindex::LayerKind::tiles, 1, 1), s);
  }
  const auto file = b.build();
  const MapStats stats = measure_teeworlds(Bytes(file));
  // Every data item once is 8 MiB plus a few hundred bytes (the game layer's
  // 256, the builder's own 4-byte data of each sharing layer): the budget,
  // 2 * that + 16 MiB, holds the game layer and exactly 4 reads of the shared
  // item; the other 6 layers are refused.
  int refused = 0;
  for (const auto& p : stats.problems)
    if (p.code == Code::M14 && p.message.find("D.budget") != std::string::npos) ++refused;
  CHECK(refused == sharing - 4);
  CHECK(stats.status == MapStatus::rejected);  // M11 (shared data) as before
}

// Crafted after fuzzing: every group's range spanning every layer. M3 was
// reported per (layer, extra group) pair and the ranges were walked per
// group: 8000 such groups (a 1.5 MB map) made 64 million problems in 210 s.
// Now each layer in several groups is reported once, naming its first two
// groups, and the ranges are walked in linear time.
TEST_CASE("fuzz regression: groups that all span all layers give one M3 per layer") {
  const int n = 300;
  MapBuilder b;
  for (int i = 0; i < n; ++i) {
    mapindex::testing::GroupSpec g;
    g.stored_start = 0;
    g.stored_num = n;
    b.add_group(g);
    if (i == 0)
      b.add_tile_layer(mapindex::testing::TileGrid(mapindex::LayerKind::game, 8, 8));
    else
      b.add_tile_layer(mapindex::testing::TileGrid(mapindex::LayerKind::tiles, 1, 1));
  }
  const auto file = b.build();
  const MapStats stats = measure_teeworlds(Bytes(file));
  std::vector<int> m3_at(n, 0);
  for (const auto& p : stats.problems) {
    if (p.code != Code::M3) continue;
    REQUIRE(p.location.place == mapindex::Place::layer);
    const int layer = static_cast<int>(p.location.index);
    REQUIRE(layer >= 0);
    REQUIRE(layer < n);
    ++m3_at[static_cast<std::size_t>(layer)];
    // Group 0 claims every layer; group 1 is the first to overlap.
    CHECK(p.message == "layer " + std::to_string(layer) + " belongs to group 0 and group 1");
  }
  for (int l = 0; l < n; ++l) CHECK_MESSAGE(m3_at[static_cast<std::size_t>(l)] == 1, "layer " << l);
  // Every layer is in group 0; the game layer is found there.
  REQUIRE(stats.layers.size() == static_cast<std::size_t>(n));
  for (const auto& layer : stats.layers) CHECK(layer.group_index == 0);
  CHECK(stats.game_width == 8);
}

// Crafted after fuzzing: every envelope's point range spanning every point.
// Each envelope walked its range, so the time was envelopes x points: 4000
// envelopes over 20000 points (a 736 KB map) took 0.5 s, a 64 MB map could
// take an hour. Now each envelope costs O(1) (prefix counts per curve type,
// next point whose time goes back); results are the same.
TEST_CASE("fuzz regression: overlapping envelope point ranges are measured in linear time") {
  const int envelopes = 20000, points = 200000;
  const auto file = mapindex::testing::overlapping_envelopes_map(envelopes, points, 70000);
  // 4 * 10^9 point visits before the fix, 220000 steps now: its time is
  // benchmarks/bounds.cpp's.
  const MapStats stats = measure_teeworlds(Bytes(file));
  REQUIRE(stats.envelopes.size() == static_cast<std::size_t>(envelopes));
  // The expected curve counts, counted here from how the points were made.
  std::array<std::int64_t, kNumCurveTypes> all{}, tail{};
  for (int i = 0; i < points; ++i) {
    const std::size_t c = i % 3 == 0 ? 0 : (i % 3 == 1 ? 1 : 6);  // curve 9 is unknown
    all[c]++;
    if (i >= 70000) tail[c]++;
  }
  CHECK(stats.envelopes[0].curves == all);
  CHECK(stats.envelopes[2].curves == all);
  CHECK(stats.envelopes[1].curves == tail);
  int time_order = 0;
  for (const auto& p : stats.problems) {
    if (p.code != Code::envelope_time_order) continue;
    ++time_order;
    REQUIRE(p.location.place == mapindex::Place::envelope);
    const int env = static_cast<int>(p.location.index);
    // Even envelopes (from point 0) see the step back at their point 70000;
    // odd ones start there, and their first point has nothing before it.
    CHECK(env % 2 == 0);
    CHECK(p.message == "point 70000 has time 5, before the previous point's 69999");
  }
  CHECK(time_order == envelopes / 2);
}

// Crafted after fuzzing: many UUID item types and many (duplicate) UUID index
// items. The UUID types present were resolved with Datafile::uuid_of per
// type, each a walk over the index items: 6000 types and 60000 index items
// (a 2 MB map) took 1.9 s, 20000 and 200000 14.7 s: types x index items.
// Now one pass over the index items.
TEST_CASE("fuzz regression: UUID types are resolved in one pass over the index items") {
  const int types = 16000, duplicates = 200000;
  const auto [file, uuids] = mapindex::testing::many_uuid_types_file(types, duplicates);
  // About 12 s optimized before the fix: its time is benchmarks/bounds.cpp's.
  const MapStats stats = measure_teeworlds(Bytes(file));
  REQUIRE(stats.uuid_types.size() == static_cast<std::size_t>(types));
  Uuid first;
  for (std::size_t k = 0; k < 16; ++k)
    first.bytes[k] = k % 4 == 3 ? static_cast<std::uint8_t>(k / 4 + 1) : 0;
  CHECK(stats.uuid_types[0] == first.to_string());
  for (int i = 1; i < types; ++i)
    CHECK(stats.uuid_types[static_cast<std::size_t>(i)] ==
          uuids[static_cast<std::size_t>(i)].to_string());
}

TEST_SUITE_END();
