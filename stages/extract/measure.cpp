#include "stages/extract/measure.h"

#include <optional>

#include "stages/decode/spritetile/level.h"
#include "stages/extract/spritetile_stats.h"
#include "stages/render/png.h"

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

void store_thumbnail(const std::optional<render::ClassImage>& image, MapStats& stats) {
  if (!image) return;
  if (auto png = render::encode_png(*image)) stats.thumbnail_png = std::move(png.value());
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
    ThumbnailDrawer drawer;
    MeasureOptions with_hook = options;
    // The drawn physics layers are inflated even when the layer store has
    // their counts: the thumbnail needs their tiles.
    for (std::size_t k = 0; k < kNumTilemapKinds; ++k)
      if (render::is_drawn_physics(static_cast<LayerKind>(k))) with_hook.inflate_always |= 1u << k;
    with_hook.on_tile_layer = [&drawer, &options](const render::TileLayerView& layer) {
      drawer.draw(layer);
      if (options.on_tile_layer) options.on_tile_layer(layer);
    };
    m.stats = measure_teeworlds(file, with_hook);
    store_thumbnail(drawer.image(), m.stats);
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
      store_thumbnail(image, m.stats);
    } else {
      m.not_map_reason = st.not_level_reason;
    }
    return m;
  }
  m.not_map_reason = "neither a Teeworlds datafile (DATA/ATAD magic) nor a SpriteTile level";
  return m;
}

}  // namespace mapindex
