#include "render/canvas.h"

#include <algorithm>
#include <string>

#include "common/bytes.h"
#include "decode/teeworlds/map_items.h"
#include "decode/teeworlds/skip_runs.h"
#include "decode/teeworlds/tiles.h"
#include "tiledata/tile_scan.h"

namespace mapindex::render {
namespace {

std::uint8_t max_class(std::uint8_t a, TileClass b) {
  return std::max(a, static_cast<std::uint8_t>(b));
}

// Where the key of each kind's struct is (tiles.h).
std::size_t key_offset(LayerKind kind) {
  using namespace teeworlds;
  switch (kind) {
    case LayerKind::tele: return tele_struct::kType;
    case LayerKind::speedup: return speedup_struct::kType;
    case LayerKind::switch_layer: return switch_struct::kType;
    case LayerKind::tune: return tune_struct::kType;
    default: return tile_struct::kIndex;
  }
}

const std::array<TileClass, 256>& design_table(std::int32_t number) {
  static const auto tables = [] {
    std::array<std::array<TileClass, 256>, kNumDesignShades> t;
    for (std::size_t i = 0; i < kNumDesignShades; ++i) {
      t[i].fill(static_cast<TileClass>(static_cast<std::size_t>(TileClass::design_1) + i));
      t[i][teeworlds::kAir] = TileClass::air;
    }
    return t;
  }();
  return tables[static_cast<std::size_t>(number) % kNumDesignShades];
}

}  // namespace

Result<Canvas> Canvas::create(std::int64_t width, std::int64_t height,
                              const CanvasOptions& options) {
  if (width <= 0 || height <= 0)
    return Error{Code::render_size, "a map of " + std::to_string(width) + "x" +
                                        std::to_string(height) + " tiles has nothing to draw"};
  std::int64_t factor = 1;
  if (options.max_side > 0) {
    const std::int64_t longest = std::max(width, height);
    factor = (longest + options.max_side - 1) / options.max_side;
  }
  const std::int64_t w = (width + factor - 1) / factor, h = (height + factor - 1) / factor;
  // Both sides are below 2^31, so the product fits.
  if (static_cast<std::uint64_t>(w) * static_cast<std::uint64_t>(h) > kMaxPixels)
    return Error{Code::render_size, "a map of " + std::to_string(width) + "x" +
                                        std::to_string(height) + " tiles makes an image of " +
                                        std::to_string(w * h) + " pixels, over the limit of " +
                                        std::to_string(kMaxPixels) + " (2^26)"};
  Canvas c;
  c.map_width_ = width;
  c.map_height_ = height;
  c.factor_ = static_cast<std::int32_t>(factor);
  c.pixel_columns_.resize(static_cast<std::size_t>(std::min(width, kColumnTable)));
  for (std::size_t x = 0; x < c.pixel_columns_.size(); ++x)
    c.pixel_columns_[x] = static_cast<std::int32_t>(static_cast<std::int64_t>(x) / factor);
  c.options_ = options;
  c.image_.width = static_cast<std::int32_t>(w);
  c.image_.height = static_cast<std::int32_t>(h);
  c.image_.pixels.assign(static_cast<std::size_t>(w * h), 0);
  return c;
}

void Canvas::put(std::int64_t x, std::int64_t y, TileClass c) {
  if (x < 0 || y < 0 || x >= map_width_ || y >= map_height_) return;
  auto& p = image_.pixels[static_cast<std::size_t>(y / factor_ * image_.width + x / factor_)];
  p = max_class(p, c);
}

void Canvas::draw(const TileLayerView& layer) {
  if (!layer.in_use || layer.width <= 0 || layer.height <= 0) return;
  const std::array<TileClass, 256>* table = nullptr;
  if (is_drawn_physics(layer.kind))
    table = &class_table(layer.kind);
  else if (layer.kind == LayerKind::tiles && options_.design_layers)
    table = &design_table(layer.design_number);
  if (!table) return;
  ++layers_drawn_;
  draw_keys(layer, *table, teeworlds::tile_struct_size(layer.kind), key_offset(layer.kind));
}

void Canvas::draw_skip_runs(const TileLayerView& layer, const std::array<TileClass, 256>& table) {
  const std::int64_t lw = layer.width;
  const std::size_t num_tiles = static_cast<std::size_t>(lw * layer.height);
  std::size_t at = 0;
  (void)teeworlds::for_each_skip_run(
      layer.tiles.bytes(), num_tiles, [&](const std::uint8_t* run, std::size_t repeat) {
        const TileClass c = table[run[teeworlds::tile_struct::kIndex]];
        if (c != TileClass::air)
          for (std::size_t i = at; i < at + repeat; ++i)
            put(static_cast<std::int64_t>(i) % lw, static_cast<std::int64_t>(i) / lw, c);
        at += repeat;
      });
}

void Canvas::draw_keys(const TileLayerView& layer, const std::array<TileClass, 256>& table,
                       std::size_t struct_size, std::size_t key_at) {
  if (layer.skip_compressed) return draw_skip_runs(layer, table);
  switch (struct_size) {
    case 2: return draw_rows<2>(layer, table, key_at);
    case 6: return draw_rows<6>(layer, table, key_at);
    default: return draw_rows<4>(layer, table, key_at);
  }
}

// One row of a layer's tiles as a tiledata::TileScan reports them, drawn
// into the row of pixels `out`. Air draws nothing (class 0 is under every
// other); a run of one struct is one class over the pixels it covers; other
// tiles are drawn one by one, with a division only where a tile leaves its
// pixel's columns, or from the column table without a branch per tile when it
// covers every column drawn (`columns`).
template <std::size_t kSize>
class Canvas::RowPainter {
 public:
  using Scan = tiledata::TileScan<kSize>;
  RowPainter(const Canvas& canvas, const std::array<TileClass, 256>& table, std::size_t key_at,
             const std::int32_t* columns, std::uint8_t* out)
      : canvas_(canvas),
        table_(table),
        key_at_(key_at),
        columns_(columns),
        out_(out),
        px_end_(canvas.factor_) {}

  void air(const std::uint8_t*, std::size_t tiles) { x_ += static_cast<std::int64_t>(tiles); }
  void single(const std::uint8_t* tile) { draw_one(tile); }
  void block(const std::uint8_t* first) {
    if (columns_) {
      for (std::size_t i = 0; i < Scan::kBlockTiles; ++i) {
        std::uint8_t& p = out_[columns_[x_ + static_cast<std::int64_t>(i)]];
        p = max_class(p, table_[first[i * kSize + key_at_]]);
      }
      x_ += static_cast<std::int64_t>(Scan::kBlockTiles);
    } else {
      for (std::size_t i = 0; i < Scan::kBlockTiles; ++i) draw_one(first + i * kSize);
    }
  }
  void repeated(const std::uint8_t* first, std::size_t tiles) {
    const auto n = static_cast<std::int64_t>(tiles);
    if (const TileClass k = table_[first[key_at_]]; k != TileClass::air) {
      const std::int64_t from = columns_ ? columns_[x_] : canvas_.pixel_column(x_);
      const std::int64_t to = columns_ ? columns_[x_ + n - 1] : canvas_.pixel_column(x_ + n - 1);
      for (std::int64_t p = from; p <= to; ++p) out_[p] = max_class(out_[p], k);
    }
    x_ += n;
  }

 private:
  void draw_one(const std::uint8_t* tile) {
    const std::int64_t x = x_++;
    const std::uint8_t key = tile[key_at_];
    if (!key) return;
    if (x >= px_end_) {
      px_ = canvas_.pixel_column(x);
      px_end_ = (px_ + 1) * canvas_.factor_;
    }
    out_[px_] = max_class(out_[px_], table_[key]);
  }

  const Canvas& canvas_;
  const std::array<TileClass, 256>& table_;
  const std::size_t key_at_;
  const std::int32_t* const columns_;
  std::uint8_t* const out_;
  std::int64_t x_ = 0;                // the tile column drawn next
  std::int64_t px_ = 0, px_end_ = 0;  // the pixel of a column, and its first column past
};

template <std::size_t kSize>
void Canvas::draw_rows(const TileLayerView& layer, const std::array<TileClass, 256>& table,
                       std::size_t key_at) {
  // Most physics tiles are air (front, tele, speedup and switch layers almost
  // entirely): the scan skips it a stretch at a time, and the chunks the
  // inflater never wrote unread (tiledata/tile_scan.h).
  static_assert(static_cast<int>(TileClass::air) == 0);
  const std::int64_t lw = layer.width;
  const std::size_t num_tiles = static_cast<std::size_t>(lw * layer.height);
  const std::size_t n = std::min(num_tiles, layer.tiles.bytes().size() / kSize);
  const std::int64_t rows = std::min<std::int64_t>(layer.height, map_height_);
  const std::int64_t cols = std::min<std::int64_t>(lw, map_width_);
  const std::int32_t* const columns =
      cols <= static_cast<std::int64_t>(pixel_columns_.size()) ? pixel_columns_.data() : nullptr;
  const std::uint8_t* const data = layer.tiles.bytes().data();
  tiledata::TileScan<kSize> scan(Bytes(data, n * kSize), layer.tiles.known());
  for (std::int64_t y = 0; y < rows; ++y) {
    const std::size_t row = static_cast<std::size_t>(y * lw);
    if (row >= n) break;
    const std::int64_t end = std::min<std::int64_t>(cols, static_cast<std::int64_t>(n - row));
    RowPainter<kSize> painter(
        *this, table, key_at, columns,
        image_.pixels.data() + static_cast<std::size_t>(y / factor_) * image_.width);
    scan.scan(data + row * kSize, static_cast<std::size_t>(end), painter);
  }
}

void level_size(const spritetile::Level& level, std::int64_t& width, std::int64_t& height) {
  width = height = 0;
  for (const auto& l : level.layers) {
    width = std::max<std::int64_t>(width, l.width);
    height = std::max<std::int64_t>(height, l.height);
  }
}

void Canvas::draw_level(const spritetile::Level& level) {
  const std::int32_t per_set = std::max(level.tiles_per_set(), 1);
  for (std::size_t i = 0; i < level.layers.size(); ++i) {
    const auto& l = level.layers[i];
    const spritetile::CellView cells = level.cells(i);
    const std::size_t n =
        std::min<std::size_t>(cells.size(), static_cast<std::size_t>(l.num_cells()));
    ++layers_drawn_;
    for (std::size_t c = 0; c < n; ++c) {
      const spritetile::Cell cell = cells[c];
      TileClass k = TileClass::air;
      if (cell.collider())
        k = TileClass::solid;
      else if (!cell.empty())
        k = static_cast<TileClass>(static_cast<std::size_t>(TileClass::set_1) +
                                   static_cast<std::size_t>(cell.tile / per_set) % kNumSetShades);
      if (k == TileClass::air) continue;
      const std::int64_t x = static_cast<std::int64_t>(c % static_cast<std::size_t>(l.width));
      const std::int64_t row = static_cast<std::int64_t>(c / static_cast<std::size_t>(l.width));
      put(x, map_height_ - 1 - row, k);  // row 0 is the bottom row
    }
  }
}

Result<ClassImage> level_image(const spritetile::Level& level, std::int32_t max_side) {
  std::int64_t w = 0, h = 0;
  level_size(level, w, h);
  auto canvas = Canvas::create(w, h, CanvasOptions{.max_side = max_side});
  if (!canvas) return canvas.error();
  canvas->draw_level(level);
  return canvas->take_image();
}

}  // namespace mapindex::render
