#include "extract/draw_map.h"

#include <string>

#include "decode/spritetile/level.h"
#include "extract/teeworlds_measure.h"

namespace mapindex {
namespace {

// The largest side a downscaled canvas may have: 8192^2 = render::kMaxPixels.
constexpr std::int32_t kCappedSide = 8192;

Result<render::Canvas> canvas_for(const MapView& view, std::int64_t width, std::int64_t height) {
  auto canvas = render::Canvas::create(width, height, view.options);
  if (!canvas && view.fallback) canvas = render::Canvas::create(width, height, *view.fallback);
  return canvas;
}

// One canvas per view, made at the first tile layer (the map's size known).
class ViewsSink final : public TileLayerSink {
 public:
  explicit ViewsSink(std::span<const MapView> views) : views_(views) {}
  void on_tile_layer(const render::TileLayerView& layer) override {
    if (failed_) return;
    if (canvases_.empty()) {
      if (layer.map_width <= 0) return;
      for (const auto& view : views_) {
        auto canvas = canvas_for(view, layer.map_width, layer.map_height);
        if (!canvas) {
          failed_ = true;
          canvases_.clear();
          return;
        }
        canvases_.push_back(std::move(*canvas));
      }
    }
    for (auto& canvas : canvases_) canvas.draw(layer);
  }
  std::vector<render::Canvas>& canvases() { return canvases_; }

 private:
  std::span<const MapView> views_;
  std::vector<render::Canvas> canvases_;
  bool failed_ = false;
};

Result<std::vector<DrawnMap>> draw_teeworlds(Bytes file, std::span<const MapView> views) {
  ViewsSink sink(views);
  const MapStats stats = measure_teeworlds(file, {}, &sink);
  std::vector<render::Canvas>& canvases = sink.canvases();
  if (canvases.empty() || canvases.front().layers_drawn() == 0) {
    std::string why =
        stats.game_width > 0 ? "its game layer's tiles cannot be read" : "it has no game layer";
    for (const auto& p : stats.problems)
      if (p.severity() == Severity::error) {
        why += std::string(" (") + std::string(to_string(p.code)) + ": " + p.message + ")";
        break;
      }
    return Error{
        .code = Code::render_nothing, .message = "nothing to draw: " + why, .location = {}};
  }
  std::vector<DrawnMap> drawn;
  for (auto& canvas : canvases) {
    const std::int32_t factor = canvas.factor();
    drawn.push_back(DrawnMap{canvas.take_image(), factor});
  }
  return drawn;
}

Result<std::vector<DrawnMap>> draw_spritetile(Bytes file, std::span<const MapView> views) {
  auto level = spritetile::decode_level(file);
  if (!level) {
    Error e = level.error();
    e.message = (e.code == Code::st_not_level ? "not a SpriteTile level: "
                                              : "the level cannot be decoded: ") +
                e.to_string();
    return e;
  }
  std::int64_t w = 0, h = 0;
  render::level_size(*level, w, h);
  auto canvas = canvas_for(views.front(), w, h);
  if (!canvas) {
    Error e = canvas.error();
    e.message = e.to_string();
    return e;
  }
  canvas->draw_level(*level);
  const std::int32_t factor = canvas->factor();
  return std::vector<DrawnMap>(views.size(), DrawnMap{canvas->take_image(), factor});
}

}  // namespace

Result<std::vector<DrawnMap>> draw_map_views(Bytes file, std::span<const MapView> views) {
  if (views.empty()) return std::vector<DrawnMap>{};
  if (looks_like_datafile(file)) return draw_teeworlds(file, views);
  if (spritetile::looks_like_spritetile(file)) return draw_spritetile(file, views);
  return Error{.code = Code::render_nothing,
               .message =
                   "not a map: neither a Teeworlds datafile (DATA/ATAD magic) nor a "
                   "SpriteTile level",
               .location = {}};
}

Result<DrawnMap> draw_map(Bytes file, bool all_layers) {
  const render::CanvasOptions full{.design_layers = all_layers};
  render::CanvasOptions capped = full;
  capped.max_side = kCappedSide;
  const MapView view{full, capped};
  auto drawn = draw_map_views(file, std::span(&view, 1));
  if (!drawn) return drawn.error();
  return std::move(drawn->front());
}

}  // namespace mapindex
