// The tile counter's fast paths (air skipped a run of 32-byte blocks at a
// time, with AVX2 where the CPU has it; eight equal tiles counted at once)
// against a plain tile-by-tile count written here from the struct layouts of
// docs/formats (Tile: index, flags, skip, reserved; Tele and Tune: number,
// type; Speedup: force, max speed, type, padding, angle (2 bytes); Switch:
// number, type, flags, delay), on layers of every kind and of sizes around
// every block boundary, air-heavy, solid and random.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "extract/teeworlds_tile_counter.h"
#include "tests/support/tile_reference.h"
#include "tests/support/zlib_reference.h"
#include "tiledata/adler32.h"
#include "tiledata/zero_blocks.h"

namespace mapindex::teeworlds {
namespace {

using Layout = testing::TileLayout;
constexpr const auto& kLayouts = testing::kTileLayouts;

TileCounts reference(const std::vector<std::uint8_t>& data, const Layout& l, std::size_t n) {
  return testing::naive_tile_counts(l, data.data(), n);
}

// A layer of n tiles: stretches of air, of one repeated tile and of random
// tiles, their lengths drawn up to `max_run` tiles.
std::vector<std::uint8_t> make_layer(std::mt19937& rng, const Layout& l, std::size_t n,
                                     std::size_t max_run) {
  std::vector<std::uint8_t> data(n * l.size);
  std::size_t i = 0;
  while (i < n) {
    const auto what = rng() % 3;
    const std::size_t run = 1 + rng() % max_run;
    std::vector<std::uint8_t> same(l.size);
    for (auto& b : same) b = static_cast<std::uint8_t>(rng() % 4 == 0 ? 0 : rng());
    for (std::size_t k = 0; k < run && i < n; ++k, ++i) {
      std::uint8_t* t = data.data() + i * l.size;
      for (std::size_t b = 0; b < l.size; ++b)
        t[b] = what == 0   ? 0
               : what == 1 ? same[b]
                           : static_cast<std::uint8_t>(rng() % 3 == 0 ? 0 : rng());
    }
  }
  return data;
}

void check_same(const TileCounts& got, const TileCounts& want) {
  CHECK(got.tiles == want.tiles);
  CHECK(got.reserved_nonzero == want.reserved_nonzero);
  CHECK(got.keys == want.keys);
  CHECK(got.flags == want.flags);
  CHECK(got.numbers == want.numbers);
}

TEST_SUITE_BEGIN("tile counter");

TEST_CASE("tile counter: every kind, every size around a block, against a tile-by-tile count") {
  std::mt19937 rng(20261123);
  for (const auto& l : kLayouts) {
    for (std::size_t n = 0; n <= 200; ++n) {
      for (const std::size_t max_run : {std::size_t{3}, std::size_t{40}, std::size_t{500}}) {
        CAPTURE(to_string(l.kind));
        CAPTURE(n);
        CAPTURE(max_run);
        const auto data = make_layer(rng, l, n, max_run);
        TileCounts got;
        count_plain_tiles(Bytes(data), l.kind, n, got);
        check_same(got, reference(data, l, n));
        // Reporting the air it skips to a checksum scan (with bytes after
        // the tiles, as a data item may hold): same counts, zlib's checksum.
        auto padded = data;
        padded.insert(padded.end(), rng() % 6, static_cast<std::uint8_t>(rng()));
        TileCounts scanned;
        tiledata::Adler32Scan scan{Bytes(padded)};
        count_plain_tiles(Bytes(padded), l.kind, n, scanned, &scan);
        check_same(scanned, reference(data, l, n));
        CHECK(scan.finish() == testing::zlib_adler32(Bytes(padded)));
      }
    }
  }
}

TEST_CASE("tile counter: large layers, mostly air, with the last tile set") {
  std::mt19937 rng(7);
  for (const auto& l : kLayouts) {
    CAPTURE(to_string(l.kind));
    const std::size_t n = 300 * 257;
    auto data = make_layer(rng, l, n, 5000);
    // The very last tile set, after stretches of air of up to 5000 tiles.
    data[(n - 1) * l.size + l.key] = 9;
    TileCounts got;
    tiledata::Adler32Scan scan{Bytes(data)};
    count_plain_tiles(Bytes(data), l.kind, n, got, &scan);
    check_same(got, reference(data, l, n));
    CHECK(scan.finish() == testing::zlib_adler32(Bytes(data)));
    // All air.
    std::vector<std::uint8_t> air(n * l.size);
    TileCounts none;
    count_plain_tiles(Bytes(air), l.kind, n, none);
    CHECK(none.keys[0] == static_cast<std::int64_t>(n));
    CHECK(none.non_empty() == 0);
  }
}

TEST_CASE("tile counter: the air scan finds the first non-zero byte of every position") {
  std::vector<std::uint8_t> blocks(32 * 70);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{4},
                        std::size_t{5}, std::size_t{69}, std::size_t{70}}) {
    CHECK(tiledata::zero_blocks(blocks.data(), n) == n);
    CHECK(tiledata::zero_blocks_portable(blocks.data(), n) == n);
  }
  for (std::size_t byte = 0; byte < blocks.size(); ++byte) {
    CAPTURE(byte);
    blocks[byte] = 0x80;
    CHECK(tiledata::zero_blocks(blocks.data(), 70) == byte / 32);
    CHECK(tiledata::zero_blocks_portable(blocks.data(), 70) == byte / 32);
    // A limit before the set byte is respected.
    CHECK(tiledata::zero_blocks(blocks.data(), byte / 32) == byte / 32);
    blocks[byte] = 0;
  }
}

TEST_SUITE_END();

}  // namespace
}  // namespace mapindex::teeworlds
