// A whole map drawn at one pixel per tile (`mapindex render`) or into a
// bounded minimap (the site): a Teeworlds/DDNet map through the measuring
// pass, whose tile layers feed one canvas per picture wanted, or a SpriteTile
// level. Unlike the index's thumbnails, the picture is as large as asked.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "render/canvas.h"

namespace mapindex {

struct DrawnMap {
  render::ClassImage image;
  // Tiles per pixel side: 1, or more when the picture was drawn downscaled
  // (over render::kMaxPixels at one per tile, or over the view's max_side).
  std::int32_t tiles_per_pixel = 1;
};

// One picture of a map: its canvas options, and those to fall back to when
// the map is too large for them (the canvas cannot be made).
struct MapView {
  render::CanvasOptions options;
  std::optional<render::CanvasOptions> fallback;
};

// Every view of the map in one measuring pass, in the order given. A
// SpriteTile level has one picture: every view gets the first view's.
// Errors: Code::render_nothing (not a map, no game layer, its tiles
// unreadable: the message says which), a SpriteTile level's own decode
// error, or the canvas's size error.
Result<std::vector<DrawnMap>> draw_map_views(Bytes file, std::span<const MapView> views);

// `mapindex render`: one pixel per tile, downscaled only over
// render::kMaxPixels; `all_layers`: the design tile layers too, in grey
// under the physics.
Result<DrawnMap> draw_map(Bytes file, bool all_layers);

}  // namespace mapindex
