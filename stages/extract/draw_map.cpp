#include "stages/extract/draw_map.h"

#include <optional>
#include <string>

#include "stages/decode/spritetile/level.h"
#include "stages/extract/teeworlds_measure.h"

namespace mapindex {
namespace {

// The largest side a downscaled canvas may have: 8192^2 = render::kMaxPixels.
constexpr std::int32_t kCappedSide = 8192;

Result<DrawnMap> draw_teeworlds(Bytes file, const render::CanvasOptions& full,
                                const render::CanvasOptions& capped) {
  std::optional<render::Canvas> canvas;
  MeasureOptions mo;
  mo.on_tile_layer = [&](const render::TileLayerView& layer) {
    if (!canvas) {
      if (layer.map_width <= 0) return;
      auto c = render::Canvas::create(layer.map_width, layer.map_height, full);
      if (!c) c = render::Canvas::create(layer.map_width, layer.map_height, capped);
      if (!c) return;
      canvas.emplace(std::move(*c));
    }
    canvas->draw(layer);
  };
  const MapStats stats = measure_teeworlds(file, mo);
  if (!canvas || canvas->layers_drawn() == 0) {
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
  const std::int32_t factor = canvas->factor();
  return DrawnMap{canvas->take_image(), factor};
}

Result<DrawnMap> draw_spritetile(Bytes file, const render::CanvasOptions& full,
                                 const render::CanvasOptions& capped) {
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
  auto canvas = render::Canvas::create(w, h, full);
  if (!canvas) canvas = render::Canvas::create(w, h, capped);
  if (!canvas) {
    Error e = canvas.error();
    e.message = e.to_string();
    return e;
  }
  canvas->draw_level(*level);
  const std::int32_t factor = canvas->factor();
  return DrawnMap{canvas->take_image(), factor};
}

}  // namespace

Result<DrawnMap> draw_map(Bytes file, bool all_layers) {
  const render::CanvasOptions full{.design_layers = all_layers};
  render::CanvasOptions capped = full;
  capped.max_side = kCappedSide;
  if (looks_like_datafile(file)) return draw_teeworlds(file, full, capped);
  if (spritetile::looks_like_spritetile(file)) return draw_spritetile(file, full, capped);
  return Error{.code = Code::render_nothing,
               .message =
                   "not a map: neither a Teeworlds datafile (DATA/ATAD magic) nor a "
                   "SpriteTile level",
               .location = {}};
}

}  // namespace mapindex
