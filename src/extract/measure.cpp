#include "extract/measure.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

#include "decode/spritetile/level.h"
#include "extract/spritetile_stats.h"
#include "render/png.h"

namespace mapindex {
namespace {

// The thumbnail of a Teeworlds map, drawn from the physics layers in use as
// the measure stage inflates them, on a canvas of the game layer's size.
class ThumbnailDrawer {
 public:
  void draw(const render::TileLayerView& layer) {
    if (!layer.in_use || !render::is_drawn_physics(layer.kind)) return;
    if (!canvas_ && !refused_) {
      auto c = render::Canvas::create(layer.map_width, layer.map_height,
                                      {.max_side = render::kThumbnailSide});
      if (!c) {
        refused_ = true;  // no game layer: nothing to draw on
        return;
      }
      canvas_.emplace(std::move(*c));
    }
    if (canvas_) canvas_->draw(layer);
  }
  std::optional<render::ClassImage> image() {
    if (!canvas_ || canvas_->layers_drawn() == 0) return std::nullopt;
    return canvas_->take_image();
  }

 private:
  std::optional<render::Canvas> canvas_;
  bool refused_ = false;
};

// Bump whenever what a thumbnail looks like changes (drawing, downscaling,
// palette, PNG encoding): thumbnails stored under another version are not
// reused.
constexpr std::uint32_t kThumbnailRenderVersion = 1;

void append_le(std::vector<std::uint8_t>& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

// The key of a Teeworlds map's thumbnail: SHA-256 over the render version,
// the map's size and the sorted keys (every field) of the layers it is drawn
// from. None when a drawn layer has no key or nothing would be drawn.
std::optional<Sha256> thumbnail_key(const DrawnLayers& drawn) {
  if (!drawn.all_keyed || drawn.keys.empty() || drawn.map_width <= 0 || drawn.map_height <= 0)
    return std::nullopt;
  std::vector<LayerDataKey> keys = drawn.keys;
  std::sort(keys.begin(), keys.end(), [](const LayerDataKey& a, const LayerDataKey& b) {
    return std::tie(a.kind, a.sha256, a.version, a.width, a.height, a.data_size) <
           std::tie(b.kind, b.sha256, b.version, b.width, b.height, b.data_size);
  });
  std::vector<std::uint8_t> input;
  append_le(input, kThumbnailRenderVersion, 4);
  append_le(input, static_cast<std::uint32_t>(drawn.map_width), 4);
  append_le(input, static_cast<std::uint32_t>(drawn.map_height), 4);
  append_le(input, keys.size(), 8);
  for (const auto& k : keys) {
    input.insert(input.end(), k.sha256.begin(), k.sha256.end());
    append_le(input, static_cast<std::uint64_t>(index_of(k.kind)), 4);
    append_le(input, static_cast<std::uint32_t>(k.version), 4);
    append_le(input, static_cast<std::uint64_t>(k.width), 8);
    append_le(input, static_cast<std::uint64_t>(k.height), 8);
    append_le(input, static_cast<std::uint64_t>(k.data_size), 8);
  }
  return sha256(Bytes(input.data(), input.size()));
}

// Every drawn layer was read (and so drawn): its data has a key in the stats.
bool all_drawn(const MapStats& stats, const std::vector<std::int32_t>& layer_indices) {
  for (const std::int32_t index : layer_indices) {
    const auto it = std::find_if(stats.layers.begin(), stats.layers.end(),
                                 [&](const LayerStats& l) { return l.layer_index == index; });
    if (it == stats.layers.end() || !it->data_key) return false;
  }
  return true;
}

// A Teeworlds map with its thumbnail: taken from the layer store when every
// layer it is drawn from is known by key (those layers are then not inflated
// for drawing), else drawn from the layers as they are inflated (m.thumbnail,
// keyed when every layer it shows was read, for finish_thumbnail).
void measure_with_thumbnail(Bytes file, const MeasureOptions& options, Measurement& m) {
  LayerDataStore* store = options.layer_store;
  for (bool reuse = store != nullptr;; reuse = false) {
    ThumbnailDrawer drawer;
    MeasureOptions with_hook = options;
    // The drawn physics layers are inflated even when the layer store has
    // their counts (unless it has the thumbnail): the drawer needs their tiles.
    for (std::size_t k = 0; k < kNumTilemapKinds; ++k)
      if (render::is_drawn_physics(static_cast<LayerKind>(k))) with_hook.inflate_always |= 1u << k;
    std::optional<Sha256> key;
    std::vector<std::int32_t> drawn_layers;
    std::shared_ptr<const std::vector<std::uint8_t>> known;
    with_hook.before_layers = [&](const DrawnLayers& drawn) {
      key = thumbnail_key(drawn);
      drawn_layers = drawn.layer_indices;
      if (key && reuse) known = store->find_thumbnail(*key);
      return known != nullptr;
    };
    with_hook.on_tile_layer = [&drawer, &known, &options](const render::TileLayerView& layer) {
      if (!known) drawer.draw(layer);  // with the thumbnail known, nothing to draw
      if (options.on_tile_layer) options.on_tile_layer(layer);
    };
    m.stats = measure_teeworlds(file, with_hook);
    const bool drawn = all_drawn(m.stats, drawn_layers);
    if (known) {
      if (drawn) {
        m.stats.thumbnail_png = *known;
        m.stats.thumbnail_key = key;
        return;
      }
      // A drawn layer did not read here (its data over the map's inflate
      // budget): the stored thumbnail shows it, so measure again, drawing.
      continue;
    }
    if (auto image = drawer.image())
      m.thumbnail = DrawnThumbnail{std::move(*image), drawn ? key : std::nullopt};
    return;
  }
}

// finish_thumbnail now, unless the caller asked to do it later.
void finish_unless_deferred(Measurement& m, const MeasureOptions& options) {
  if (options.defer_thumbnail_png) return;
  if (options.workspace)
    finish_thumbnail(m, options.layer_store, options.workspace->png);
  else
    finish_thumbnail(m, options.layer_store);
}

}  // namespace

Measurement measure_content(Bytes file, const MeasureOptions& options) {
  Measurement m;
  if (looks_like_datafile(file)) {
    m.kind = ContentKind::map;
    if (!options.thumbnails) {
      m.stats = measure_teeworlds(file, options);
      return m;
    }
    measure_with_thumbnail(file, options, m);
    finish_unless_deferred(m, options);
    return m;
  }
  if (spritetile::looks_like_spritetile(file)) {
    std::optional<render::ClassImage> image;
    auto st = measure_spritetile(file, {}, [&](const spritetile::Level& level) {
      if (!options.thumbnails) return;
      if (auto drawn = render::level_image(level, render::kThumbnailSide))
        image = std::move(drawn.value());
    });
    if (st.is_level) {
      m.kind = ContentKind::map;
      m.stats = std::move(st.stats);
      if (image) m.thumbnail = DrawnThumbnail{std::move(*image), std::nullopt};
      finish_unless_deferred(m, options);
    } else {
      m.not_map_reason = st.not_level_reason;
    }
    return m;
  }
  m.not_map_reason = "neither a Teeworlds datafile (DATA/ATAD magic) nor a SpriteTile level";
  return m;
}

void finish_thumbnail(Measurement& m, LayerDataStore* store) {
  render::PngBlocks blocks;
  finish_thumbnail(m, store, blocks);
}

void finish_thumbnail(Measurement& m, LayerDataStore* store, render::PngBlocks& blocks) {
  if (!m.thumbnail) return;
  DrawnThumbnail drawn = std::move(*m.thumbnail);
  m.thumbnail.reset();
  auto png = render::encode_png(drawn.image, 1, blocks);
  if (!png) return;
  m.stats.thumbnail_png = std::move(png.value());
  if (!drawn.key) return;
  m.stats.thumbnail_key = drawn.key;
  if (store)
    store->offer_thumbnail(
        *drawn.key, std::make_shared<const std::vector<std::uint8_t>>(m.stats.thumbnail_png));
}

}  // namespace mapindex
