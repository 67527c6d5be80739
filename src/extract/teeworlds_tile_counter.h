// The hot loop: counting one tile layer's tiles by the layer's own tile key
// into flat arrays of 256 counters (no maps, no allocation). Runs over the
// decompressed data of one layer at a time.
//
// Tile keys: the index byte of Tile structs (tiles, game, front), the type
// byte of Tele (byte 1 of 2), Speedup (byte 2 of 6), Switch (byte 1 of 4) and
// Tune (byte 1 of 2) structs. Key 0 is air.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "common/bytes.h"
#include "common/result.h"
#include "decode/teeworlds/map_items.h"
#include "tiledata/adler32.h"
#include "tiledata/zero_blocks.h"

namespace mapindex::teeworlds {

struct TileCounts {
  std::array<std::int64_t, 256> keys{};     // tiles by key; keys[0] = air
  std::array<std::int64_t, 256> flags{};    // non-air tiles by flags byte (Tile and Switch structs)
  std::array<std::int64_t, 256> numbers{};  // non-air tiles by number byte (tele, switch, tune)
  std::int64_t tiles = 0;                   // tiles counted
  std::int64_t reserved_nonzero = 0;        // Tile structs whose reserved byte (3) is not 0

  std::int64_t air() const { return keys[0]; }
  std::int64_t non_empty() const { return tiles - keys[0]; }
};

// Counts the first `num_tiles` tiles of `kind`'s struct in `data`.
// Precondition: data.size() >= num_tiles * tile_struct_size(kind). With
// `adler` (a scan of `data`), reports to it the runs of air it skips, so that
// the data's checksum is checked without a pass over the air. Air that
// `known` knows is zero (chunks an inflate onto zeros did not write) is
// skipped without being read.
void count_plain_tiles(Bytes data, LayerKind kind, std::size_t num_tiles, TileCounts& out,
                       tiledata::Adler32Scan* adler = nullptr,
                       const tiledata::KnownZeros& known = {});

// Counts skip-compressed Tile data (tilemap version 4) without expanding it.
// Counts at most `num_tiles` tiles; returns an M14 error when the runs do not
// add up to exactly num_tiles or input is left over.
std::optional<Error> count_skip_tiles(Bytes data, std::size_t num_tiles, TileCounts& out);

}  // namespace mapindex::teeworlds
