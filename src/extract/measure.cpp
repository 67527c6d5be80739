#include "extract/measure.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "decode/spritetile/level.h"
#include "extract/spritetile_stats.h"
#include "render/png.h"

namespace mapindex {
namespace {

// The thumbnail of a Teeworlds map, drawn from the physics layers in use as
// the measure stage inflates them, on a canvas of the game layer's size.
class ThumbnailDrawer final : public TileLayerSink {
 public:
  void on_tile_layer(const render::TileLayerView& layer) override {
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

// The drawn layers that were read (and so drawn): their data has a key in
// the stats.
std::vector<std::int32_t> read_layers(const MapStats& stats,
                                      const std::vector<std::int32_t>& layer_indices) {
  std::vector<std::int32_t> read;
  for (const std::int32_t index : layer_indices) {
    const auto it = std::find_if(stats.layers.begin(), stats.layers.end(),
                                 [&](const LayerStats& l) { return l.layer_index == index; });
    if (it != stats.layers.end() && it->data_key) read.push_back(index);
  }
  return read;
}

// The drawing side of a Teeworlds map's thumbnail: the drawn physics layers
// are inflated even when the layer store has their counts, unless the store
// has the thumbnail of exactly those layers (by their keys).
class ThumbnailSink final : public TileLayerSink {
 public:
  ThumbnailSink(LayerDataStore* store, const ContentOptions& options)
      : store_(store), options_(options) {}

  std::uint32_t kinds_always_inflated() const override {
    std::uint32_t kinds = 0;
    for (std::size_t k = 0; k < kNumTilemapKinds; ++k)
      if (render::is_drawn_physics(static_cast<LayerKind>(k))) kinds |= 1u << k;
    return kinds;
  }
  bool already_drawn(const DrawnLayers& drawn) override {
    key_ = thumbnail_key(drawn);
    drawn_layers_ = drawn.layer_indices;
    if (key_ && store_) {
      auto lookup = store_->find_thumbnail(*key_);
      known_ = std::move(lookup.png);
      pending_ = std::move(lookup.wait);
      drawn_lookup_ = std::move(lookup.drawn);
      if (!known_ && !pending_) claim_ = ThumbnailClaim(store_, *key_);
    }
    drawing_ = !known_ && !pending_;
    return !drawing_;
  }
  void on_tile_layer(const render::TileLayerView& layer) override {
    if (drawing_) drawer_.on_tile_layer(layer);  // with the thumbnail known, nothing to draw
    if (options_.on_tile_layer) options_.on_tile_layer(layer);
  }

  // The thumbnail of the measured map into m: the stored one when every
  // drawn layer read, else the one drawn from the layers that did read (keyed
  // only when that is all of them).
  void finish(Bytes file, const MeasureContext& context, Measurement& m) {
    // Another thread's thumbnail of the same layers: waited for only now,
    // while this map was measured it was encoded.
    if (pending_) known_ = std::exchange(pending_, nullptr)();
    const std::vector<std::int32_t> read = read_layers(m.stats, drawn_layers_);
    const bool all_read = read.size() == drawn_layers_.size();
    if (known_ && all_read) {
      m.stats.thumbnail_png = *known_;
      m.stats.thumbnail_key = key_;
      return;
    }
    // Its PNG not there yet (a caller that may not wait), but the image it
    // encodes is: the same image, left to finish_thumbnail like a drawn one
    // (which takes the PNG if it has come by then), not drawn again.
    if (!known_ && all_read && drawn_lookup_) {
      if (auto image = std::exchange(drawn_lookup_, nullptr)()) {
        m.thumbnail = DrawnThumbnail{std::move(image), key_, {}, true};
        return;
      }
    }
    // A drawn layer did not read here (e.g. over the inflate budget) but the
    // stored thumbnail shows it, or the thread drawing it gave it up: draw
    // the layers that read, and only them.
    if (!drawing_) redraw_tile_layers(file, context, read, drawer_);
    if (auto image = drawer_.image()) {
      auto shared = std::make_shared<const render::ClassImage>(std::move(*image));
      m.thumbnail = DrawnThumbnail{shared, std::nullopt, {}};
      if (all_read) {
        m.thumbnail->key = key_;
        m.thumbnail->claim = std::move(claim_);
        if (key_ && store_ && m.thumbnail->claim.held())
          store_->offer_drawn_thumbnail(*key_, std::move(shared));
      }
    }
  }

 private:
  LayerDataStore* store_;
  const ContentOptions& options_;
  ThumbnailDrawer drawer_;
  std::optional<Sha256> key_;
  std::vector<std::int32_t> drawn_layers_;  // what already_drawn was offered
  std::shared_ptr<const std::vector<std::uint8_t>> known_;
  std::function<std::shared_ptr<const std::vector<std::uint8_t>>()> pending_;  // see finish
  std::function<std::shared_ptr<const render::ClassImage>()> drawn_lookup_;    // see finish
  bool drawing_ = true;   // neither known_ nor pending_ when the layers came
  ThumbnailClaim claim_;  // key_ claimed (known_ null): moved into the drawn thumbnail
};

// Gives every tile layer to ContentOptions::on_tile_layer (no thumbnail).
class WatchingSink final : public TileLayerSink {
 public:
  explicit WatchingSink(const ContentOptions& options) : options_(options) {}
  void on_tile_layer(const render::TileLayerView& layer) override { options_.on_tile_layer(layer); }

 private:
  const ContentOptions& options_;
};

// finish_thumbnail now, unless the caller asked to do it later.
void finish_unless_deferred(Measurement& m, const MeasureContext& context,
                            const ContentOptions& options) {
  if (options.thumbnail == ThumbnailMode::drawn_only) return;
  if (context.workspace)
    finish_thumbnail(m, context.layer_store, context.workspace->png);
  else
    finish_thumbnail(m, context.layer_store);
}

}  // namespace

Measurement measure_content(Bytes file, const MeasureContext& context,
                            const ContentOptions& options) {
  Measurement m;
  const bool thumbnails = options.thumbnail != ThumbnailMode::none;
  if (looks_like_datafile(file)) {
    m.kind = ContentKind::map;
    if (!thumbnails) {
      WatchingSink watching(options);
      m.stats = measure_teeworlds(file, context, options.on_tile_layer ? &watching : nullptr);
      return m;
    }
    ThumbnailSink sink(context.layer_store, options);
    m.stats = measure_teeworlds(file, context, &sink);
    sink.finish(file, context, m);
    finish_unless_deferred(m, context, options);
    return m;
  }
  if (spritetile::looks_like_spritetile(file)) {
    std::optional<render::ClassImage> image;
    auto st = measure_spritetile(file, {}, [&](const spritetile::Level& level) {
      if (!thumbnails) return;
      if (auto drawn = render::level_image(level, render::kThumbnailSide))
        image = std::move(drawn.value());
    });
    if (st.is_level) {
      m.kind = ContentKind::map;
      m.stats = std::move(st.stats);
      if (image)
        m.thumbnail = DrawnThumbnail{
            std::make_shared<const render::ClassImage>(std::move(*image)), std::nullopt, {}};
      finish_unless_deferred(m, context, options);
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
  // Another map's image, taken while its PNG was being made: its PNG when
  // it has come, else encoded here (never waiting: the encoding of the
  // other may be queued behind this one). Offered only under this call's
  // own claim (the other gave the key up).
  if (drawn.borrowed && drawn.key && store) {
    auto lookup = store->find_thumbnail(*drawn.key);
    if (lookup.png) {
      m.stats.thumbnail_png = *lookup.png;
      m.stats.thumbnail_key = drawn.key;
      return;
    }
    if (!lookup.wait) drawn.claim = ThumbnailClaim(store, *drawn.key);
  }
  auto png = render::encode_png(*drawn.image, 1, blocks);
  if (!png) return;
  m.stats.thumbnail_png = std::move(png.value());
  if (!drawn.key) return;
  m.stats.thumbnail_key = drawn.key;
  if (store && (!drawn.borrowed || drawn.claim.held())) {
    store->offer_thumbnail(
        *drawn.key, std::make_shared<const std::vector<std::uint8_t>>(m.stats.thumbnail_png));
    drawn.claim.released();
  }
}

}  // namespace mapindex
