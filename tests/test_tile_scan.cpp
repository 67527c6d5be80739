// The tile scan (tiledata/tile_scan.h) against a naive walk written here:
// whatever it reports must cover each tile of a range once, in order, and say
// of it what the bytes say (air: all zero; a repeated run: copies of its
// first struct). Data with air runs ending at and around every block edge,
// runs of one struct of every length 1..20 at every offset mod 8, tails, and
// chunks the inflater never wrote, for every struct size in use (2, 4, 6).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "tiledata/tile_scan.h"
#include "tiledata/zero_blocks.h"
#include "tiledata/zeroed_buffer.h"

namespace mapindex::tiledata {
namespace {

enum class Report { air, repeated, block, single };

struct Call {
  Report report;
  std::size_t first, tiles;  // tile index from the data's start
};

// Records the calls as tile indices.
template <std::size_t kSize>
struct Recorder {
  const std::uint8_t* data;
  std::vector<Call> calls;
  std::size_t index(const std::uint8_t* p) const {
    if ((p - data) % kSize != 0) FAIL("a report between structs at byte " << (p - data));
    return static_cast<std::size_t>(p - data) / kSize;
  }
  void air(const std::uint8_t* p, std::size_t n) { calls.push_back({Report::air, index(p), n}); }
  void repeated(const std::uint8_t* p, std::size_t n) {
    calls.push_back({Report::repeated, index(p), n});
  }
  void block(const std::uint8_t* p) {
    calls.push_back({Report::block, index(p), TileScan<kSize>::kBlockTiles});
  }
  void single(const std::uint8_t* p) { calls.push_back({Report::single, index(p), 1}); }
};

// Tile data of `tiles` structs: air of lengths around multiples of 8 and
// 16 tiles, runs of one struct of every length 1..20 starting at every
// offset mod 8, structs with air's key but other bytes set, random tiles.
std::vector<std::uint8_t> make_tiles(std::size_t size, std::size_t tiles, std::mt19937& rng) {
  std::vector<std::uint8_t> data(tiles * size, 0);
  std::size_t t = 0, combination = 0;
  auto put = [&](std::size_t at, const std::uint8_t* s) {
    std::memcpy(data.data() + at * size, s, size);
  };
  while (t < tiles) {
    switch (rng() % 4) {
      case 0: {  // air: around 0, 8, 16, ... 64 and long stretches
        const std::size_t edge = 8 * (rng() % 9) + (rng() % 3) - 1;
        t += rng() % 8 == 0 ? 100 + rng() % 3000 : edge;
        break;
      }
      case 1: {  // a run of one struct: each length 1..20 from each offset mod 8 in turn
        const std::size_t offset = combination % 8, length = combination / 8 % 20 + 1;
        ++combination;
        std::uint8_t s[6] = {};
        for (std::size_t i = 0; i < size; ++i) s[i] = static_cast<std::uint8_t>(rng() % 3);
        s[rng() % size] = static_cast<std::uint8_t>(1 + rng() % 255);
        t += (offset + 8 - t % 8) % 8;  // air up to the offset
        for (std::size_t i = 0; i < length && t < tiles; ++i, ++t) put(t, s);
        break;
      }
      case 2: {  // mixed tiles, some with only bytes other than the key set
        for (std::size_t i = rng() % 40; i > 0 && t < tiles; --i, ++t) {
          if (rng() % 3 == 0) continue;
          std::uint8_t s[6] = {};
          s[rng() % size] = static_cast<std::uint8_t>(rng());
          put(t, s);
        }
        break;
      }
      default: {  // a long run of one struct (walls)
        std::uint8_t s[6] = {1, 0, 0, 0, 0, 0};
        for (std::size_t i = 8 * (rng() % 12) + rng() % 3; i > 0 && t < tiles; --i, ++t) put(t, s);
      }
    }
  }
  return data;
}

// Scans `ranges` (first tile, count; increasing, maybe with gaps) of `data`
// and checks the reports against the bytes `truth` (what `data` holds where
// `known` says nothing, zeros in chunks it knows are zero).
template <std::size_t kSize>
void check_scan(const std::uint8_t* data, std::size_t tiles, const std::uint8_t* truth,
                const KnownZeros& known,
                const std::vector<std::pair<std::size_t, std::size_t>>& ranges) {
  using Scan = TileScan<kSize>;
  TileScan<kSize> scan(Bytes(data, tiles * kSize), known);
  for (const auto& [first, count] : ranges) {
    Recorder<kSize> rec{data, {}};
    scan.scan(data + first * kSize, count, rec);
    std::size_t next = first;
    for (const Call& c : rec.calls) {
      CAPTURE(static_cast<int>(c.report));
      CAPTURE(c.first);
      REQUIRE(c.first == next);  // in order, each tile once
      REQUIRE(c.tiles >= 1);
      const std::uint8_t* s = truth + c.first * kSize;
      switch (c.report) {
        case Report::air:
          CHECK(std::all_of(s, s + c.tiles * kSize, [](std::uint8_t b) { return b == 0; }));
          break;
        case Report::repeated:
          CHECK(Scan::kFindsRepeats);
          CHECK(c.tiles % Scan::kBlockTiles == 0);
          CHECK_FALSE(std::all_of(s, s + kSize, [](std::uint8_t b) { return b == 0; }));
          for (std::size_t i = 1; i < c.tiles; ++i)
            CHECK(std::memcmp(s, s + i * kSize, kSize) == 0);
          break;
        case Report::block:
          CHECK_FALSE(std::all_of(s, s + Scan::kBlockBytes, [](std::uint8_t b) { return b == 0; }));
          break;
        case Report::single: break;
      }
      next += c.tiles;
    }
    CHECK(next == first + count);
  }
}

// The whole data as one range, and as rows of a narrower canvas.
std::vector<std::vector<std::pair<std::size_t, std::size_t>>> ways_to_scan(std::size_t tiles,
                                                                           std::mt19937& rng) {
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> ways{{{0, tiles}}};
  const std::size_t width = 1 + rng() % 700, cols = 1 + rng() % width;
  std::vector<std::pair<std::size_t, std::size_t>> rows;
  for (std::size_t row = 0; row < tiles; row += width)
    rows.emplace_back(row, std::min(cols, tiles - row));
  ways.push_back(rows);
  return ways;
}

template <std::size_t kSize>
void check_size(std::uint32_t seed) {
  constexpr std::size_t kChunk = ZeroedBuffer::kChunkSize;
  std::mt19937 rng(seed);
  ZeroedBuffer buffer;
  for (int round = 0; round < 40; ++round) {
    CAPTURE(round);
    const std::size_t tiles = rng() % 8 == 0 ? rng() % 40 : 1 + rng() % 20000;
    const auto want = make_tiles(kSize, tiles, rng);
    // Without a buffer: nothing is known.
    for (const auto& ranges : ways_to_scan(tiles, rng))
      check_scan<kSize>(want.data(), tiles, want.data(), KnownZeros{}, ranges);
    // In a buffer whose chunks with bytes are marked, and some chunks of
    // zeros too; the chunks left unmarked then get bytes that are not zero
    // ("poison"), which the scan must not see: they are known to be zero.
    if (tiles == 0) continue;
    const auto out = buffer.take(want.size());
    std::copy(want.begin(), want.end(), out.begin());
    for (std::size_t chunk = 0; chunk * kChunk < want.size(); ++chunk) {
      const auto from = want.begin() + static_cast<std::ptrdiff_t>(chunk * kChunk);
      const auto to =
          want.begin() + static_cast<std::ptrdiff_t>(std::min(want.size(), (chunk + 1) * kChunk));
      if (rng() % 4 == 0 || std::any_of(from, to, [](std::uint8_t b) { return b != 0; }))
        buffer.mark(chunk * kChunk, kChunk);
    }
    std::size_t poisoned = 0;
    for (std::size_t chunk = 0; chunk * kChunk < want.size(); ++chunk)
      if (buffer.clean(chunk)) {
        out[std::min(want.size() - 1, chunk * kChunk + rng() % kChunk)] = 0xee;
        ++poisoned;
      }
    if (tiles > 5000) CHECK(poisoned > 0);
    const KnownZeros known(buffer);
    for (const auto& ranges : ways_to_scan(tiles, rng))
      check_scan<kSize>(out.data(), tiles, want.data(), known, ranges);
  }
}

}  // namespace

TEST_SUITE_BEGIN("tiledata");

TEST_CASE("tiledata tile scan: reports match a naive walk, for every struct size") {
  check_size<2>(2);
  check_size<4>(4);
  check_size<6>(6);
}

TEST_CASE("tiledata tile scan: blocks are 32 bytes or a whole number of them") {
  CHECK(TileScan<2>::kBlockTiles == 16);
  CHECK(TileScan<4>::kBlockTiles == 8);
  CHECK(TileScan<6>::kBlockTiles == 16);  // 96 bytes: three blocks of 32
  CHECK(TileScan<2>::kFindsRepeats);
  CHECK(TileScan<4>::kFindsRepeats);
  CHECK_FALSE(TileScan<6>::kFindsRepeats);
}

template <std::size_t kSize>
void check_long_runs() {
  // A stretch of air and a wall of one struct, each a whole number of
  // blocks, then a tail shorter than a block: one call each, then singles.
  using Scan = TileScan<kSize>;
  const std::size_t air = 50 * Scan::kBlockTiles, wall = 30 * Scan::kBlockTiles, tail = 3;
  std::vector<std::uint8_t> data((air + wall + tail) * kSize, 0);
  for (std::size_t t = air; t < air + wall + tail; ++t) data[t * kSize] = 7;
  Recorder<kSize> rec{data.data(), {}};
  Scan scan(Bytes(data), KnownZeros{});
  scan.scan(data.data(), air + wall + tail, rec);
  REQUIRE(rec.calls.size() >= 2);
  CHECK(rec.calls[0].report == Report::air);
  CHECK(rec.calls[0].tiles == air);
  if constexpr (Scan::kFindsRepeats) {
    REQUIRE(rec.calls.size() == 2 + tail);
    CHECK(rec.calls[1].report == Report::repeated);
    CHECK(rec.calls[1].tiles == wall);
  } else {
    REQUIRE(rec.calls.size() == 1 + wall / Scan::kBlockTiles + tail);
    CHECK(rec.calls[1].report == Report::block);
  }
  CHECK(rec.calls.back().report == Report::single);
}

TEST_CASE("tiledata tile scan: long air and walls are one call each") {
  check_long_runs<2>();
  check_long_runs<4>();
  check_long_runs<6>();
}

TEST_SUITE_END();

}  // namespace mapindex::tiledata
