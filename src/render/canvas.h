// Drawing tile layers into an image of tile classes (tile_class.h): one pixel
// per tile, or, downscaled, one pixel per `factor` x `factor` tiles holding
// the most important class among them. Pixels are TileClass values; png.h
// turns them into a palette PNG.
//
//   auto canvas = Canvas::create(map_width, map_height, {.max_side = 256});
//   canvas->draw(layer_view);           // each layer, in map order
//   canvas->draw_level(level);          // or a whole SpriteTile level
//   auto png = encode_png(canvas->image());
//
// Limits are checked before allocating: a canvas is at most kMaxPixels
// pixels; a map larger than that is refused (or, with max_side, downscaled).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "decode/kinds.h"
#include "decode/spritetile/level.h"
#include "render/tile_class.h"
#include "tiledata/checked_tiles.h"
#include "tiledata/zero_blocks.h"

namespace mapindex::render {

// The largest image drawn: 2^26 pixels (64 MiB of classes; e.g. 8192x8192).
inline constexpr std::uint64_t kMaxPixels = 1ull << 26;

// The longest side of a thumbnail.
inline constexpr std::int32_t kThumbnailSide = 256;

// One tilemap layer's tiles as the measure stage has inflated them.
struct TileLayerView {
  LayerKind kind = LayerKind::tiles;
  std::int32_t layer_index = 0;
  std::int32_t width = 0, height = 0;
  // The layer's tile data, inflated and checked (maybe short: fewer tiles),
  // with the bytes known to be zero without reading them.
  tiledata::CheckedTiles tiles;
  bool skip_compressed = false;  // tilemap version 4 runs (tiles and game layers)
  // A physics layer the game uses (the last of its kind); design tile layers
  // are always in use.
  bool in_use = true;
  std::int32_t design_number = 0;  // design tile layers: 0, 1, 2, ... in map order
  // The map's size: its game layer's (0 when it has none). A canvas for the
  // map is this size; layers of another size are clipped to it.
  std::int32_t map_width = 0, map_height = 0;
};

struct ClassImage {
  std::int32_t width = 0, height = 0;
  std::vector<std::uint8_t> pixels;  // TileClass values, row-major, top row first

  TileClass at(std::int32_t x, std::int32_t y) const {
    return static_cast<TileClass>(pixels[static_cast<std::size_t>(y) * width + x]);
  }
};

struct CanvasOptions {
  bool design_layers = false;  // draw design tile layers (under the physics)
  // 0: one pixel per tile, refused over kMaxPixels. Otherwise the image's
  // longest side is at most max_side: `factor` tiles per pixel side, the
  // smallest that fits.
  std::int32_t max_side = 0;
};

class Canvas {
 public:
  // A canvas for a map of width x height tiles (the game layer's size, or
  // the SpriteTile level's largest layer). Error "render.size" when either is
  // not positive or the image would be over kMaxPixels.
  static Result<Canvas> create(std::int64_t width, std::int64_t height,
                               const CanvasOptions& options = {});

  // Draws one layer: physics layers in use, and design tile layers when
  // options.design_layers; anything else is ignored. Tiles outside the
  // canvas are clipped; bad skip runs draw what they cover.
  void draw(const TileLayerView& layer);
  // Draws every layer of a SpriteTile level (bottom row last: cells are
  // stored from the lower-left corner): colliders solid, other tiles by set.
  void draw_level(const spritetile::Level& level);

  std::int32_t factor() const { return factor_; }
  // Layers drawn so far.
  int layers_drawn() const { return layers_drawn_; }
  const ClassImage& image() const { return image_; }
  ClassImage take_image() { return std::move(image_); }

 private:
  Canvas() = default;
  void put(std::int64_t x, std::int64_t y, TileClass c);
  void draw_keys(const TileLayerView& layer, const std::array<TileClass, 256>& table,
                 std::size_t struct_size, std::size_t key_at);
  void draw_skip_runs(const TileLayerView& layer, const std::array<TileClass, 256>& table);
  // Plain tile data of `kSize`-byte structs, their key at `key_at`.
  template <std::size_t kSize>
  void draw_rows(const TileLayerView& layer, const std::array<TileClass, 256>& table,
                 std::size_t key_at);
  template <std::size_t kSize>
  class RowPainter;
  // The pixel column of tile column x (x / factor_): from a table for the
  // first kColumnTable columns (a division for each run of tiles took a
  // fifth of the drawing).
  static constexpr std::int64_t kColumnTable = 1 << 16;
  std::int64_t pixel_column(std::int64_t x) const {
    return x < static_cast<std::int64_t>(pixel_columns_.size())
               ? pixel_columns_[static_cast<std::size_t>(x)]
               : x / factor_;
  }

  std::int64_t map_width_ = 0, map_height_ = 0;
  std::int32_t factor_ = 1;
  std::vector<std::int32_t> pixel_columns_;
  CanvasOptions options_;
  ClassImage image_;
  int layers_drawn_ = 0;
};

// The size of the canvas of a level: its largest width and height.
void level_size(const spritetile::Level& level, std::int64_t& width, std::int64_t& height);

// Draws a whole level at most kThumbnailSide pixels on its longest side.
Result<ClassImage> level_image(const spritetile::Level& level, std::int32_t max_side);

}  // namespace mapindex::render
