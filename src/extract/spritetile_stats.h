// Statistics of SpriteTile levels: a decoded level -> MapStats (format
// spritetile, one LayerStats of kind spritetile per layer), and the
// classification of any `.bytes` file as a level or not.
//
// Per layer: width, height, non_empty (cells with a tile), flip_x / flip_y /
// rotate (cells with the bit or a non-zero rotation), tile_counts keyed by the
// combined tile number (set * tiles_per_set + index, non-empty cells only) and
// the spritetile info (tile sizes, scroll, preview size, Z, LayerLock,
// addBorder, cells, colliders, flip_both, order min/max over non-empty cells
// (0/0 without any), non-zero triggers in use). Collider, flip, rotation and
// trigger counts cover every cell as stored, empty or not: SpriteTile keeps
// these bits on empty cells too.
//
// Problems (warnings, location "layer N"): st.layer.tag (from the decoder),
// st.layer.lock (LayerLock outside 0..3), st.layer.float (non-finite tile
// size or Z), st.layer.tile_size (tile size not positive), st.cell.rotation
// (rotation above 1799 = 359.8 degrees), st.cell.unused_bits (misc bits 13-14
// set), st.cell.empty_value (negative tile other than -1).
#pragma once

#include <functional>
#include <string>

#include "common/bytes.h"
#include "decode/spritetile/level.h"
#include "extract/map_stats.h"

namespace mapindex {

// Measures a decoded level. Status is finalized.
MapStats spritetile_stats(const spritetile::Level& level);

struct SpriteTileMeasurement {
  // False for files that are not SpriteTile levels: groups files and any
  // other content (other `.bytes` assets); the pipeline counts those as
  // non-map entries, not as corrupt maps.
  bool is_level = false;
  std::string not_level_reason;  // set when !is_level
  // When is_level: the statistics, or, for a level that fails to decode, a
  // MapStats with format spritetile, status rejected and one error problem
  // carrying the decoder's code (location "layer N" when a layer is at fault).
  MapStats stats;
};

// Classifies by content (never by name) and measures.
// `on_level` (when set) sees the decoded level before it is measured.
SpriteTileMeasurement measure_spritetile(
    Bytes file, const spritetile::DecodeOptions& options = {},
    const std::function<void(const spritetile::Level&)>& on_level = {});

}  // namespace mapindex
