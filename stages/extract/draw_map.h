// A whole map drawn at one pixel per tile (`mapindex render`, the site's
// minimaps): a Teeworlds/DDNet map through the measuring pass, whose tile
// layers feed the canvas, or a SpriteTile level. Unlike the index's
// thumbnails, the picture is as large as the map allows.
#pragma once

#include <cstdint>

#include "stages/common/bytes.h"
#include "stages/common/result.h"
#include "stages/render/canvas.h"

namespace mapindex {

struct DrawnMap {
  render::ClassImage image;
  // Tiles per pixel side: 1, or more when the map is over render::kMaxPixels
  // at one pixel per tile and was drawn downscaled (the caller says so).
  std::int32_t tiles_per_pixel = 1;
};

// `all_layers`: the design tile layers too, in grey under the physics.
// Errors: Code::render_nothing (not a map, no game layer, its tiles
// unreadable: the message says which), a SpriteTile level's own decode
// error, or the canvas's size error.
Result<DrawnMap> draw_map(Bytes file, bool all_layers);

}  // namespace mapindex
