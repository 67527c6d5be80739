// What a layer and an envelope are: the one enum of each, decided by the
// decoders and carried unchanged through extract to the writer (which writes
// their names). Arrays per tilemap kind are sized from the enum.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mapindex {

// The kind of a layer. The tilemap kinds come first, tiles then the physics
// kinds in the order of their tilemap flag bits (game 1, tele 2, speedup 4,
// front 8, switch 16, tune 32; docs/formats/map-items.md), so a physics
// kind's index is its bit number + 1.
enum class LayerKind : unsigned char {
  tiles,
  game,
  tele,
  speedup,
  front,
  switch_layer,
  tune,
  quads,
  sounds,
  sounds_deprecated,
  spritetile,
  unknown
};

// Tilemap kinds: tiles .. tune, indices 0 .. kNumTilemapKinds - 1.
inline constexpr std::size_t kNumTilemapKinds = static_cast<std::size_t>(LayerKind::tune) + 1;
inline constexpr std::size_t kNumLayerKinds = static_cast<std::size_t>(LayerKind::unknown) + 1;

constexpr std::size_t index_of(LayerKind k) { return static_cast<std::size_t>(k); }
constexpr bool is_tilemap(LayerKind k) { return index_of(k) < kNumTilemapKinds; }
// game, tele, speedup, front, switch, tune
constexpr bool is_physics(LayerKind k) { return is_tilemap(k) && k != LayerKind::tiles; }

std::string_view to_string(LayerKind k);  // "tiles", "game", ..., "switch", ...

// The kind of an envelope, from its channel count (1 sound, 3 position,
// 4 color; anything else unknown).
enum class EnvelopeKind : unsigned char { sound, position, color, unknown };

EnvelopeKind envelope_kind_of_channels(std::int32_t channels);
std::string_view to_string(EnvelopeKind k);  // "sound", "position", "color", "unknown"

// How a layer, quad or sound source uses an envelope. In the order of their
// names, so per-layer uses sorted by role come out sorted by name.
enum class EnvelopeRole : unsigned char {
  layer_color,
  quad_color,
  quad_position,
  source_position,
  source_sound
};
inline constexpr std::size_t kNumEnvelopeRoles = 5;

std::string_view to_string(EnvelopeRole r);  // "layer_color", "quad_color", ...
// The envelope kind a role needs: color for layer_color and quad_color,
// position for quad_position and source_position, sound for source_sound.
EnvelopeKind expected_envelope_kind(EnvelopeRole r);

}  // namespace mapindex
