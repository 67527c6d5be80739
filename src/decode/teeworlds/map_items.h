// Typed Teeworlds 0.6/0.7 and DDNet map items, as stored in a datafile
// (docs/formats/map-items.md; word positions in item_layouts.h). Plain data:
// the decoders in item_decoders.h fill them from an item's int32 payload.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "decode/kinds.h"
#include "decode/teeworlds/item_layouts.h"
#include "decode/teeworlds/tiles.h"

namespace mapindex::teeworlds {

// Item type ids of the map items.
enum ItemTypeId : std::uint16_t {
  kVersionType = 0,
  kInfoType = 1,
  kImageType = 2,
  kEnvelopeType = 3,
  kGroupType = 4,
  kLayerType = 5,
  kEnvPointsType = 6,
  kSoundType = 7,
};

// Raw layer item types.
enum RawLayerType : std::int32_t {
  kLayerTilemap = 2,
  kLayerQuads = 3,
  kLayerSoundsDeprecated = 9,
  kLayerSounds = 10,
};

// Tilemap flags: the kind of a tilemap layer (at most one bit may be set).
enum TilemapFlag : std::int32_t {
  kTilemapGame = 1,
  kTilemapTele = 2,
  kTilemapSpeedup = 4,
  kTilemapFront = 8,
  kTilemapSwitch = 16,
  kTilemapTune = 32,
};
inline constexpr std::int32_t kTilemapPhysicsMask = 63;
// A physics kind's LayerKind index is its flag's bit number + 1.
static_assert(kTilemapGame == 1 << (index_of(LayerKind::game) - 1) &&
              kTilemapTele == 1 << (index_of(LayerKind::tele) - 1) &&
              kTilemapSpeedup == 1 << (index_of(LayerKind::speedup) - 1) &&
              kTilemapFront == 1 << (index_of(LayerKind::front) - 1) &&
              kTilemapSwitch == 1 << (index_of(LayerKind::switch_layer) - 1) &&
              kTilemapTune == 1 << (index_of(LayerKind::tune) - 1) &&
              kTilemapPhysicsMask == (1 << (kNumTilemapKinds - 1)) - 1);

inline constexpr std::int32_t kLayerFlagDetail = 1;

// What a layer is (LayerKind, src/decode/kinds.h) is decided from its
// type and tilemap flags. Its name as a C string, for messages.
inline const char* layer_type_name(LayerKind t) { return to_string(t).data(); }

// Bytes per tile of each tilemap kind: Tile 4 (tiles, game, front), Tele 2,
// Speedup 6, Switch 4, Tune 2.
std::size_t tile_struct_size(LayerKind t);

// Index of a physics kind's data in DDNet's extra data indices
// (tele, speedup, front, switch, tune), or -1 for tiles and game.
int ddnet_data_slot(LayerKind t);
inline constexpr int kNumDdnetDataSlots = 5;

struct VersionItem {
  std::int32_t version = 0;
};

struct InfoItem {
  std::int32_t version = 0;
  std::int32_t author = -1, map_version = -1, credits = -1, license = -1;  // data indices
  std::int32_t settings = -1;  // DDNet: NUL-separated command lines
};

// Maximum bytes (including the NUL) of the info strings.
inline constexpr std::size_t kInfoAuthorMax = 32, kInfoVersionMax = 16, kInfoCreditsMax = 128,
                             kInfoLicenseMax = 32;

struct ImageItem {
  std::int32_t version = 0;
  std::int32_t width = 0, height = 0;
  bool external = false;
  std::int32_t name = -1;    // data index of the name string
  std::int32_t data = -1;    // data index of the pixels (embedded images)
  std::int32_t variant = 1;  // version 2: 0 RGB, 1 RGBA; version 1 is RGBA
  bool rgba() const { return version < 2 || variant != 0; }
  int bytes_per_pixel() const { return rgba() ? 4 : 3; }
};
inline constexpr std::size_t kImageNameMax = 128;

enum EnvelopeChannels : std::int32_t { kEnvSound = 1, kEnvPosition = 3, kEnvColor = 4 };

struct EnvelopeItem {
  std::int32_t version = 0;
  std::int32_t channels = 0;
  std::int32_t start_point = 0, num_points = 0;
  std::string name;           // 8-int I32String, when present
  bool synchronized = false;  // version >= 2
};

// One envelope point: time, curve type, 4 values; bezier tangents when the
// map has them (22-int points or DDNet's bezier item).
struct EnvPoint {
  std::int32_t time = 0;
  std::int32_t curve = 0;
  std::array<std::int32_t, 4> values{};
  bool has_bezier = false;
  std::array<std::int32_t, 4> in_dx{}, in_dy{}, out_dx{}, out_dy{};
};
inline constexpr std::size_t kEnvPointInts = layout::env_point::kWords;
inline constexpr std::size_t kEnvPointV3Ints =
    layout::env_point::kBezierWords;  // Teeworlds 0.7 bezier points
inline constexpr std::size_t kEnvPointBezierInts =
    layout::env_point_bezier::kWords;  // DDNet's bezier UUID item, per point
inline constexpr std::int32_t kCurveBezier = 5;

struct GroupItem {
  std::int32_t version = 0;
  std::int32_t offset_x = 0, offset_y = 0;
  std::int32_t parallax_x = 100, parallax_y = 100;
  std::int32_t start_layer = 0, num_layers = 0;
  bool clipping = false;
  std::int32_t clip_x = 0, clip_y = 0, clip_w = 0, clip_h = 0;
  std::string name;
};

// DDNet's group extension (UUID item "mapitemtype-group@ddnet.tw", id = group).
struct GroupExItem {
  std::int32_t version = 0;
  std::int32_t parallax_zoom = 100;
};

struct LayerHeader {
  std::int32_t version = 0;  // unused; any value (was uninitialised)
  std::int32_t type = 0;
  std::int32_t flags = 0;
  bool detail() const { return (flags & kLayerFlagDetail) != 0; }
};

struct TilemapLayer {
  std::int32_t version = 0;
  std::int32_t width = 0, height = 0;
  std::int32_t flags = 0;
  std::array<std::int32_t, 4> color{255, 255, 255, 255};
  std::int32_t color_envelope = -1, color_envelope_offset = 0;
  std::int32_t image = -1;
  std::int32_t data = -1;
  std::string name;  // version >= 3
  bool has_name = false;
  // DDNet's extra data indices: tele, speedup, front, switch, tune. Present
  // ones are those the item holds (a prefix); absent ones are -1.
  std::array<std::int32_t, kNumDdnetDataSlots> ddnet_data{-1, -1, -1, -1, -1};
  int num_ddnet_data = 0;
  LayerKind kind = LayerKind::tiles;
  int physics_bits = 0;  // number of physics flags set (valid: 0 or 1)

  // The data item holding this layer's own tiles: `data` on tiles and game
  // layers, the extra index of the kind otherwise (-1 when absent).
  std::int32_t tile_data() const;
  bool skip_compressed() const {
    return version >= layout::tilemap::kSkipCompressedSince &&
           (kind == LayerKind::tiles || kind == LayerKind::game);
  }
};

struct QuadsLayer {
  std::int32_t version = 0;
  std::int32_t num_quads = 0;
  std::int32_t data = -1;
  std::int32_t image = -1;
  std::string name;
};
inline constexpr std::size_t kQuadBytes = 4 * layout::quad::kWords;
static_assert(kQuadBytes == 152);

struct Point {
  std::int32_t x = 0, y = 0;
};

struct Quad {
  std::array<Point, 5> points{};  // 4 corners (TL, TR, BL, BR), then the pivot
  std::array<std::array<std::int32_t, 4>, 4> colors{};
  std::array<Point, 4> texture{};
  std::int32_t position_envelope = -1, position_envelope_offset = 0;
  std::int32_t color_envelope = -1, color_envelope_offset = 0;
};

struct SoundsLayer {
  std::int32_t version = 0;
  std::int32_t num_sources = 0;
  std::int32_t data = -1;
  std::int32_t sound = -1;
  std::string name;
  bool deprecated = false;  // layer type 9: 36-byte sources
  std::size_t source_bytes() const;
};
inline constexpr std::size_t kSoundSourceBytes = 4 * layout::sound_source::kWords,
                             kSoundSourceDeprecatedBytes =
                                 4 * layout::sound_source_deprecated::kWords;
static_assert(kSoundSourceBytes == 52 && kSoundSourceDeprecatedBytes == 36);
inline std::size_t SoundsLayer::source_bytes() const {
  return deprecated ? kSoundSourceDeprecatedBytes : kSoundSourceBytes;
}

struct SoundSource {
  Point position;
  bool looping = false, panning = true;
  std::int32_t delay = 0;
  std::int32_t falloff = 0;
  std::int32_t position_envelope = -1, position_envelope_offset = 0;
  std::int32_t sound_envelope = -1, sound_envelope_offset = 0;
  std::int32_t shape_kind = 1;                     // 0 rectangle, 1 circle
  std::int32_t shape_width = 0, shape_height = 0;  // radius in width for circles
};

struct SoundItem {
  std::int32_t version = 0;
  bool external = false;
  std::int32_t name = -1;
  std::int32_t data = -1;
  std::int32_t data_size = 0;  // deprecated; the data item's size is what counts
};

// DDNet's automapper config (UUID item).
struct AutomapperItem {
  std::int32_t version = 0;
  std::int32_t group = -1;
  std::int32_t layer = -1;  // index within the group
  std::int32_t config = -1;
  std::int32_t seed = 0;
  std::int32_t flags = 0;  // 1 = automatic
};

}  // namespace mapindex::teeworlds
