#include "render/canvas.h"

#include <algorithm>
#include <string>

#include "common/bytes.h"
#include "decode/teeworlds/map_items.h"
#include "decode/teeworlds/skip_runs.h"
#include "decode/teeworlds/tiles.h"
#include "tiledata/zero_blocks.h"

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

// The state of one layer's scan, carried from row to row (draw_keys).
struct Canvas::KeyScan {
  const std::array<TileClass, 256>& table;
  std::size_t struct_size, key_at;
  // Blocks of tiles 32 bytes long (structs that tile 32 bytes; 30 bytes of
  // speedups by four loads).
  std::int64_t block;
  std::size_t block_bytes;
  bool whole_blocks;
  const tiledata::KnownZeros& known;
  const std::uint8_t* data_end;
  // Where to consult known_zeros next: the end of the run of written chunks
  // the tiles are in (asking at each chunk's end took a tenth of the
  // drawing); a block is read whole only before it.
  const std::uint8_t* ask;
  // Pixel columns from the table when it covers every column drawn (maps up
  // to kColumnTable tiles wide): a block of mixed tiles is then drawn without
  // a branch per tile (air is class 0, under every other class).
  const std::int32_t* columns;
};

void Canvas::draw_skip_runs(const TileLayerView& layer, const std::array<TileClass, 256>& table) {
  const std::int64_t lw = layer.width;
  const std::size_t num_tiles = static_cast<std::size_t>(lw * layer.height);
  std::size_t at = 0;
  (void)teeworlds::for_each_skip_run(
      layer.data, num_tiles, [&](const std::uint8_t* run, std::size_t repeat) {
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
  const std::int64_t lw = layer.width;
  const std::size_t num_tiles = static_cast<std::size_t>(lw * layer.height);
  const std::size_t n = std::min(num_tiles, layer.data.size() / struct_size);
  const std::int64_t rows = std::min<std::int64_t>(layer.height, map_height_);
  const std::int64_t cols = std::min<std::int64_t>(lw, map_width_);
  // Most physics tiles are air (front, tele, speedup and switch layers almost
  // entirely): stretches of all-zero structs are skipped 32 bytes at a time.
  // Other blocks are drawn whole: eight times the same 4-byte tile (walls,
  // freeze, fills), and the blocks of that tile after it, as one class over
  // the pixels they cover, anything else tile by tile, with a division only
  // where a tile leaves its pixel's columns. Chunks the inflater never wrote
  // are skipped unread, up to the row's end: reading a page of fresh memory
  // would map the system's zero page into it, and the next layer's first
  // write there would pay for that (a copy-on-write fault and a TLB flush on
  // every core).
  const std::int64_t block = static_cast<std::int64_t>(32 / struct_size);
  const std::uint8_t* const data_end = layer.data.data() + n * struct_size;
  static_assert(static_cast<int>(TileClass::air) == 0);
  KeyScan scan{.table = table,
               .struct_size = struct_size,
               .key_at = key_at,
               .block = block,
               .block_bytes = static_cast<std::size_t>(block) * struct_size,
               .whole_blocks = static_cast<std::size_t>(block) * struct_size == 32,
               .known = layer.known_zeros,
               .data_end = data_end,
               .ask = layer.known_zeros.covers(layer.data.data()) ? layer.data.data() : data_end,
               .columns = cols <= static_cast<std::int64_t>(pixel_columns_.size())
                              ? pixel_columns_.data()
                              : nullptr};
  draw_rows(scan, layer.data.data(), n, lw, rows, cols);
}

void Canvas::draw_rows(const KeyScan& scan, const std::uint8_t* data, std::size_t n,
                       std::int64_t lw, std::int64_t rows, std::int64_t cols) {
  // The scan's fields in locals: a store to `out` (bytes) may alias any of
  // them, which would make the compiler load them again after each pixel.
  const KeyScan s = scan;
  const std::uint8_t* ask = s.ask;
  const std::size_t struct_size = s.struct_size;
  const std::int64_t block = s.block;
  for (std::int64_t y = 0; y < rows; ++y) {
    const std::size_t row = static_cast<std::size_t>(y * lw);
    if (row >= n) break;
    const std::int64_t end = std::min<std::int64_t>(cols, static_cast<std::int64_t>(n - row));
    const std::uint8_t* tile = data + row * struct_size;
    std::uint8_t* out = image_.pixels.data() + static_cast<std::size_t>(y / factor_) * image_.width;
    std::int64_t px = 0, px_end = factor_;  // the pixel of column x, and its first column past
    const auto draw_one = [&](std::int64_t x, const std::uint8_t* t) {
      const std::uint8_t key = t[s.key_at];
      if (!key) return;
      if (x >= px_end) {
        px = pixel_column(x);
        px_end = (px + 1) * factor_;
      }
      out[px] = max_class(out[px], s.table[key]);
    };
    for (std::int64_t x = 0; x < end;) {
      if (tile >= ask) {
        const tiledata::KnownZeros::Run run =
            s.known.run_from(tile, static_cast<std::size_t>(s.data_end - tile));
        if (run.clean && run.bytes >= struct_size) {
          const auto tiles = std::min(static_cast<std::int64_t>(run.bytes / struct_size), end - x);
          x += tiles;
          tile += struct_size * static_cast<std::size_t>(tiles);
          continue;
        }
        ask = run.clean ? tile : tile + run.bytes;
      }
      if (x + block > end || tile + s.block_bytes > ask) {
        draw_one(x, tile);
        ++x;
        tile += struct_size;
        continue;
      }
      const std::uint64_t a = load_host_u64(tile), b = load_host_u64(tile + 8),
                          c = load_host_u64(tile + 16), d = load_host_u64(tile + s.block_bytes - 8);
      if ((a | b | c | d) == 0) {
        const std::int64_t blocks =
            s.whole_blocks
                ? 1 + static_cast<std::int64_t>(tiledata::zero_blocks(
                          tile + 32, static_cast<std::size_t>((end - x) / block - 1), s.known))
                : 1;
        x += block * blocks;
        tile += s.block_bytes * static_cast<std::size_t>(blocks);
        continue;
      }
      if (struct_size == 4 && tiledata::one_struct_eight_times(a, b, c, d)) {
        const std::int64_t run = draw_repeated_tile(s, ask, tile, x, end, a, out);
        x += run;
        tile += static_cast<std::size_t>(run) * 4;
        continue;
      } else if (s.columns) {
        for (std::int64_t i = 0; i < block; ++i) {
          std::uint8_t& p = out[s.columns[x + i]];
          p = max_class(p, s.table[tile[static_cast<std::size_t>(i) * struct_size + s.key_at]]);
        }
      } else {
        for (std::int64_t i = 0; i < block; ++i)
          draw_one(x + i, tile + static_cast<std::size_t>(i) * struct_size);
      }
      x += block;
      tile += s.block_bytes;
    }
  }
}

std::int64_t Canvas::draw_repeated_tile(const KeyScan& s, const std::uint8_t* ask,
                                        const std::uint8_t* tile, std::int64_t x, std::int64_t end,
                                        std::uint64_t eight, std::uint8_t* out) const {
  // Walls and fills: the same tile in the blocks that follow too, drawn over
  // the pixels of the whole run at once.
  const std::int64_t block = s.block;
  std::int64_t run = block;
  while (x + run + block <= end && tile + static_cast<std::size_t>(run + block) * 4 <= ask &&
         load_host_u64(tile + run * 4) == eight && load_host_u64(tile + run * 4 + 8) == eight &&
         load_host_u64(tile + run * 4 + 16) == eight && load_host_u64(tile + run * 4 + 24) == eight)
    run += block;
  if (const TileClass k = s.table[tile[s.key_at]]; k != TileClass::air) {
    const std::int64_t first = s.columns ? s.columns[x] : pixel_column(x);
    const std::int64_t last = s.columns ? s.columns[x + run - 1] : pixel_column(x + run - 1);
    for (std::int64_t p = first; p <= last; ++p) out[p] = max_class(out[p], k);
  }
  return run;
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
