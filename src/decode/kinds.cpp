#include "decode/kinds.h"

#include "decode/teeworlds/map_items.h"

namespace mapindex {

std::string_view to_string(LayerKind k) {
  switch (k) {
    case LayerKind::tiles: return "tiles";
    case LayerKind::game: return "game";
    case LayerKind::tele: return "tele";
    case LayerKind::speedup: return "speedup";
    case LayerKind::front: return "front";
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

EnvelopeKind envelope_kind_of_channels(std::int32_t channels) {
  switch (channels) {
    case teeworlds::kEnvSound: return EnvelopeKind::sound;
    case teeworlds::kEnvPosition: return EnvelopeKind::position;
    case teeworlds::kEnvColor: return EnvelopeKind::color;
    default: return EnvelopeKind::unknown;
  }
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

std::string_view to_string(EnvelopeRole r) {
  switch (r) {
    case EnvelopeRole::layer_color: return "layer_color";
    case EnvelopeRole::quad_color: return "quad_color";
    case EnvelopeRole::quad_position: return "quad_position";
    case EnvelopeRole::source_position: return "source_position";
    case EnvelopeRole::source_sound: return "source_sound";
  }
  return "unknown";
}

EnvelopeKind expected_envelope_kind(EnvelopeRole r) {
  switch (r) {
    case EnvelopeRole::quad_position:
    case EnvelopeRole::source_position: return EnvelopeKind::position;
    case EnvelopeRole::source_sound: return EnvelopeKind::sound;
    case EnvelopeRole::layer_color:
    case EnvelopeRole::quad_color: return EnvelopeKind::color;
  }
  return EnvelopeKind::unknown;
}

}  // namespace mapindex
