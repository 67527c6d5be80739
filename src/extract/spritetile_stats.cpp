#include "extract/spritetile_stats.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <utility>

namespace mapindex {

namespace {

namespace st = spritetile;

void warn(MapStats& stats, std::size_t layer, Code code, std::string message) {
  stats.problems.push_back(Problem{code, std::move(message), Location::layer(layer)});
}

std::string float_text(float f) {
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "+inf" : "-inf";
  char text[32];
  std::snprintf(text, sizeof text, "%g", static_cast<double>(f));
  return text;
}

// Per-cell totals of one layer.
struct CellTotals {
  std::int64_t non_empty = 0, colliders = 0, flip_x = 0, flip_y = 0, flip_both = 0, rotated = 0;
  std::int64_t over_rotated = 0, unused_bits = 0, odd_empty = 0;
  int max_rotation = 0;
  std::int32_t order_min = 0, order_max = 0;
  std::int32_t tile_min = st::kTileSlots, tile_max = -1;
};

// The hot loop: one pass over the 7-byte little-endian cell records, no
// allocation. `tile_counts` has kTileSlots zeroed counters (a layer has fewer
// than 2^32 cells: liblzf's output size is an unsigned int); `triggers_seen`
// 256 flags.
CellTotals count_cells(Bytes cells, std::uint32_t* tile_counts, std::uint8_t* triggers_seen) {
  CellTotals t;
  std::int64_t colliders = 0, flip_x = 0, flip_y = 0, flip_both = 0, rotated = 0;
  std::int64_t over_rotated = 0, unused_bits = 0, odd_empty = 0, non_empty = 0;
  int max_rotation = 0;
  std::int32_t order_min = INT32_MAX, order_max = INT32_MIN;
  std::int32_t tile_min = st::kTileSlots, tile_max = -1;

  const std::uint8_t* p = cells.data();
  const std::uint8_t* const end = p + cells.size() / st::kCellSize * st::kCellSize;
  for (; p != end; p += st::kCellSize) {
    const auto tile = static_cast<std::int16_t>(load_le_u16(p));
    const std::uint16_t misc = load_le_u16(p + 2);
    triggers_seen[p[6]] = 1;

    colliders += misc >> 15;
    flip_x += (misc >> 12) & 1;
    flip_y += (misc >> 11) & 1;
    flip_both += (misc & 0x1800) == 0x1800;
    const int rotation = misc & st::misc_bits::rotation;
    rotated += rotation != 0;
    over_rotated += rotation > st::misc_bits::max_rotation;
    max_rotation = std::max(max_rotation, rotation);
    unused_bits += (misc & st::misc_bits::unused) != 0;

    if (tile >= 0) {
      ++tile_counts[tile];
      ++non_empty;
      tile_min = std::min<std::int32_t>(tile_min, tile);
      tile_max = std::max<std::int32_t>(tile_max, tile);
      const auto order = static_cast<std::int16_t>(load_le_u16(p + 4));
      order_min = std::min<std::int32_t>(order_min, order);
      order_max = std::max<std::int32_t>(order_max, order);
    } else {
      odd_empty += tile != -1;
    }
  }

  t.non_empty = non_empty;
  t.colliders = colliders;
  t.flip_x = flip_x;
  t.flip_y = flip_y;
  t.flip_both = flip_both;
  t.rotated = rotated;
  t.over_rotated = over_rotated;
  t.unused_bits = unused_bits;
  t.odd_empty = odd_empty;
  t.max_rotation = max_rotation;
  if (non_empty > 0) {
    t.order_min = order_min;
    t.order_max = order_max;
  }
  t.tile_min = tile_min;
  t.tile_max = tile_max;
  return t;
}

void check_layer_header(MapStats& stats, std::size_t index, const st::Layer& layer) {
  if (layer.layer_lock < 0 || layer.layer_lock > 3) {
    warn(stats, index, Code::st_layer_lock,
         "LayerLock is " + std::to_string(layer.layer_lock) +
             ", expected 0 (none), 1 (X), 2 (Y) or 3 (X and Y)");
  }
  const std::pair<const char*, float> floats[] = {
      {"tile size X", layer.tile_size_x}, {"tile size Y", layer.tile_size_y}, {"Z", layer.z}};
  for (const auto& [name, value] : floats) {
    if (!std::isfinite(value)) {
      warn(stats, index, Code::st_layer_float,
           std::string(name) + " is " + float_text(value) + ", expected a finite number");
    }
  }
  for (const auto& [name, value] : {floats[0], floats[1]}) {
    if (std::isfinite(value) && !(value > 0)) {
      warn(stats, index, Code::st_layer_tile_size,
           std::string(name) + " is " + float_text(value) + ", expected a positive size");
    }
  }
}

void check_cells(MapStats& stats, std::size_t index, const CellTotals& t) {
  if (t.over_rotated > 0) {
    warn(stats, index, Code::st_cell_rotation,
         std::to_string(t.over_rotated) + " cells have a rotation above 1799 (359.8 degrees), " +
             "largest " + std::to_string(t.max_rotation) + "; expected 0..1799");
  }
  if (t.unused_bits > 0) {
    warn(stats, index, Code::st_cell_unused_bits,
         std::to_string(t.unused_bits) +
             " cells have the unused misc bits 0x6000 set; expected them clear");
  }
  if (t.odd_empty > 0) {
    warn(stats, index, Code::st_cell_empty_value,
         std::to_string(t.odd_empty) +
             " empty cells store a negative tile other than -1 (read as no tile)");
  }
}

}  // namespace

MapStats spritetile_stats(const st::Level& level) {
  MapStats stats;
  stats.format = MapFormat::spritetile;
  stats.format_version = level.version;
  stats.tiles_per_set = level.tiles_per_set();
  stats.problems = level.warnings;
  stats.layers.reserve(level.layers.size());

  auto tile_counts = std::make_unique<std::uint32_t[]>(st::kTileSlots);  // zeroed
  for (std::size_t i = 0; i < level.layers.size(); ++i) {
    const st::Layer& layer = level.layers[i];
    check_layer_header(stats, i, layer);

    std::array<std::uint8_t, 256> triggers_seen{};
    const CellTotals t =
        count_cells(level.cells(i).bytes(), tile_counts.get(), triggers_seen.data());
    check_cells(stats, i, t);

    LayerStats& out = stats.layers.emplace_back();
    out.layer_index = static_cast<std::int32_t>(i);
    out.kind = LayerKind::spritetile;
    out.width = layer.width;
    out.height = layer.height;
    out.non_empty = t.non_empty;
    out.flip_x = t.flip_x;
    out.flip_y = t.flip_y;
    out.rotate = t.rotated;
    for (std::int32_t tile = t.tile_min; tile <= t.tile_max; ++tile) {
      if (tile_counts[tile] == 0) continue;
      out.tile_counts.push_back(TileCount{tile, tile_counts[tile]});
      tile_counts[tile] = 0;  // ready for the next layer
    }

    SpriteTileLayerInfo& info = out.spritetile.emplace();
    info.tile_size_x = layer.tile_size_x;
    info.tile_size_y = layer.tile_size_y;
    info.z = layer.z;
    info.scroll_x = layer.scroll_x;
    info.scroll_y = layer.scroll_y;
    info.preview_size = layer.preview_size;
    info.layer_lock = layer.layer_lock;
    info.add_border = layer.add_border;
    info.cells = layer.num_cells();
    info.colliders = t.colliders;
    info.flip_both = t.flip_both;
    info.order_min = t.order_min;
    info.order_max = t.order_max;
    for (int trigger = 1; trigger < 256; ++trigger)
      if (triggers_seen[trigger]) info.triggers.push_back(trigger);
  }
  finalize_status(stats);
  return stats;
}

SpriteTileMeasurement measure_spritetile(Bytes file, const st::DecodeOptions& options,
                                         const std::function<void(const st::Level&)>& on_level) {
  SpriteTileMeasurement m;
  if (!st::looks_like_spritetile(file)) {
    m.not_level_reason =
        file.empty() ? "empty file"
                     : "not a SpriteTile file: does not decompress (LZF) to \"SpriteTileLevel\"";
    return m;
  }
  auto level = st::decode_level(file, options);
  if (!level) {
    const Error& e = level.error();
    if (e.code == Code::st_not_level) {
      m.not_level_reason = e.message;
      return m;
    }
    m.is_level = true;
    m.stats.format = MapFormat::spritetile;
    m.stats.problems.push_back(Problem{e.code, e.message, e.location});
    finalize_status(m.stats);
    return m;
  }
  m.is_level = true;
  if (on_level) on_level(*level);
  m.stats = spritetile_stats(*level);
  return m;
}

}  // namespace mapindex
