#include "stages/extract/map_stats.h"

namespace mapindex {

std::string_view to_string(MapFormat f) {
  return f == MapFormat::teeworlds ? "teeworlds" : "spritetile";
}

std::string_view to_string(MapStatus s) {
  switch (s) {
    case MapStatus::ok: return "ok";
    case MapStatus::warnings: return "warnings";
    case MapStatus::rejected: return "rejected";
  }
  return "rejected";
}

std::string_view to_string(LayerKind k) {
  switch (k) {
    case LayerKind::tiles: return "tiles";
    case LayerKind::game: return "game";
    case LayerKind::front: return "front";
    case LayerKind::tele: return "tele";
    case LayerKind::speedup: return "speedup";
    case LayerKind::switch_layer: return "switch";
    case LayerKind::tune: return "tune";
    case LayerKind::quads: return "quads";
    case LayerKind::sounds: return "sounds";
    case LayerKind::sounds_deprecated: return "sounds_deprecated";
    case LayerKind::spritetile: return "spritetile";
    case LayerKind::unknown: return "unknown";
  }
  return "unknown";
}

std::string_view to_string(EnvelopeKind k) {
  switch (k) {
    case EnvelopeKind::sound: return "sound";
    case EnvelopeKind::position: return "position";
    case EnvelopeKind::color: return "color";
    case EnvelopeKind::unknown: return "unknown";
  }
  return "unknown";
}

std::string_view curve_type_name(std::size_t curve) {
  static constexpr std::string_view names[kNumCurveTypes] = {
      "step", "linear", "slow", "fast", "smooth", "bezier", "unknown"};
  return curve < kNumCurveTypes ? names[curve] : names[kNumCurveTypes - 1];
}

void finalize_status(MapStats& stats) {
  bool warning = false;
  for (const auto& p : stats.problems) {
    if (p.severity() == Severity::error) {
      stats.status = MapStatus::rejected;
      return;
    }
    warning = true;
  }
  stats.status = warning ? MapStatus::warnings : MapStatus::ok;
}

}  // namespace mapindex
