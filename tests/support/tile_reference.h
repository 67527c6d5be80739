// The tile counter's reference: each kind's tile struct byte by byte
// (docs/formats/map-items.md) and a naive count of one tile at a time, which
// the unit tests and the tile-scan fuzz target compare the counter with.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "decode/kinds.h"
#include "extract/teeworlds_tile_counter.h"

namespace mapindex::testing {

struct TileLayout {
  LayerKind kind;
  std::size_t size;
  std::size_t key;                             // the tile key byte
  int number = -1, flags = -1, reserved = -1;  // -1: the struct has none
};

inline constexpr std::array<TileLayout, 7> kTileLayouts = {{
    {LayerKind::tiles, 4, 0, -1, 1, 3},
    {LayerKind::game, 4, 0, -1, 1, 3},
    {LayerKind::front, 4, 0, -1, 1, 3},
    {LayerKind::tele, 2, 1, 0, -1, -1},
    {LayerKind::speedup, 6, 2, -1, -1, -1},
    {LayerKind::switch_layer, 4, 1, 0, 2, -1},
    {LayerKind::tune, 2, 1, 0, -1, -1},
}};

// The counts of the first `n` tiles at `data`, one tile at a time.
inline teeworlds::TileCounts naive_tile_counts(const TileLayout& l, const std::uint8_t* data,
                                               std::size_t n) {
  teeworlds::TileCounts c;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t* t = data + i * l.size;
    const std::uint8_t key = t[l.key];
    c.keys[key]++;
    if (key != 0 && l.flags >= 0) c.flags[t[l.flags]]++;
    if (key != 0 && l.number >= 0) c.numbers[t[l.number]]++;
    if (l.reserved >= 0 && t[l.reserved] != 0) c.reserved_nonzero++;
  }
  c.tiles = static_cast<std::int64_t>(n);
  return c;
}

}  // namespace mapindex::testing
