// The statistics of one map: what extract produces and the SQLite writer
// stores. Shared by Teeworlds maps and SpriteTile levels. Plain data: no
// behaviour beyond names of enum values.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/problem.h"
#include "common/sha256.h"
#include "decode/kinds.h"
#include "extract/game_verdict.h"

namespace mapindex {

// Bump whenever what extract produces for the same bytes changes: the index
// re-decodes maps measured by an older extractor version. 2: entities of
// switch layers include spawns and flag stands; names that are not UTF-8 are
// kept (text.not_utf8). 3: the Teeworlds 0.6 / 0.7 verdict. 4: thumbnails.
// 5: tile data inflated by zero_inflate, which refuses what zlib refuses;
// libdeflate, before, also read streams with more than 286 literal/length
// or 30 distance codes and the fixed codes' meaningless symbols.
inline constexpr int kExtractorVersion = 5;

enum class MapFormat : unsigned char { teeworlds, spritetile };
enum class MapStatus : unsigned char { ok, warnings, rejected };

// LayerKind, EnvelopeKind and EnvelopeRole, with their names: src/decode/kinds.h.

// Curve types of envelope points: step, linear, slow, fast, smooth, bezier,
// and unknown (anything above 5, which the game treats as linear).
inline constexpr std::size_t kNumCurveTypes = 7;

std::string_view to_string(MapFormat f);
std::string_view to_string(MapStatus s);
std::optional<MapStatus> parse_map_status(std::string_view text);  // "ok", "warnings", "rejected"

struct TileCount {
  std::int32_t tile =
      0;  // the layer's tile key (index byte, or type byte of tele/speedup/switch/tune)
  std::int64_t count = 0;
  bool operator==(const TileCount&) const = default;
};

struct NamedCount {
  std::string name;  // e.g. "SPAWN", "WEAPON_SHOTGUN", "DRAGGER_WEAK"
  std::int64_t count = 0;
  bool operator==(const NamedCount&) const = default;
};

struct SpriteTileLayerInfo {
  float tile_size_x = 0, tile_size_y = 0, z = 0;
  std::int32_t scroll_x = 0, scroll_y = 0, preview_size = 0;
  std::int32_t layer_lock = 0, add_border = 0;
  std::int64_t cells = 0;      // width * height
  std::int64_t colliders = 0;  // cells with the collider bit
  std::int64_t flip_both = 0;  // cells flipped in X and Y
  std::int32_t order_min = 0, order_max = 0;
  std::vector<std::int32_t> triggers;  // trigger values in use (non-zero), sorted
};

// The input of a tile layer's measurement. Only tile layers of datafile
// version 4 (zlib-compressed data) whose data item reads get a key.
struct LayerDataKey {
  Sha256 sha256{};  // of the data item's stored (compressed) bytes
  LayerKind kind = LayerKind::tiles;
  std::int32_t version = 0;  // tilemap item version (4+: skip compression)
  std::int64_t width = 0, height = 0;
  std::int64_t data_size = 0;  // the data item's declared uncompressed size

  bool operator==(const LayerDataKey&) const = default;
};

// A finding in a layer's data (skip or padding bytes, reserved bytes, short
// data, invalid tiles): a problem without its location, which is the layer
// that holds the data (Location::layer(layer index)) in each map.
struct LayerFinding {
  Code code{};
  std::string message;
  bool operator==(const LayerFinding&) const = default;
};

struct LayerStats {
  std::int32_t layer_index = -1;  // index among all layer items
  std::int32_t group_index = -1;  // -1 when no group holds it
  LayerKind kind = LayerKind::unknown;
  std::int32_t item_type = 0;  // raw layer type: 2 tilemap, 3 quads, 9/10 sounds
  std::int32_t version = 0;    // tilemap / quads / sounds item version
  std::string name;
  std::int64_t width = 0, height = 0;
  bool detail = false;
  std::int32_t image = -1;
  std::int32_t color_envelope = -1;
  std::array<std::int32_t, 4> color{255, 255, 255, 255};
  bool skip_compressed = false;  // tilemap version 4 skip compression
  // Tile layers: non-air tiles. Quads: quads. Sounds: sources. SpriteTile:
  // non-empty cells.
  std::int64_t non_empty = 0;
  std::int64_t flip_x = 0, flip_y = 0, rotate = 0;  // tiles/cells with each flag
  std::int64_t num_quads = 0;
  std::int64_t num_sources = 0;
  std::int32_t sound = -1;             // sounds layers
  std::vector<TileCount> tile_counts;  // non-empty tiles only, sorted by tile
  std::vector<NamedCount> entities;    // sorted by name
  std::vector<std::int32_t> numbers;   // tele/switch numbers or tune zones in use, sorted
  std::optional<SpriteTileLayerInfo> spritetile;
  // Tile layers of a v4 datafile whose data reads: the key of the data, and
  // its findings (also in MapStats::problems, located at this layer), which
  // with the fields above are the layer's LayerData (layer_data.h).
  std::optional<LayerDataKey> data_key;
  std::vector<LayerFinding> data_findings;
};

struct GroupStats {
  std::int32_t group_index = 0;
  std::int32_t version = 0;
  std::string name;
  std::int32_t offset_x = 0, offset_y = 0, parallax_x = 100, parallax_y = 100;
  std::int32_t start_layer = 0, num_layers = 0;
  bool clipping = false;
  std::int32_t clip_x = 0, clip_y = 0, clip_w = 0, clip_h = 0;
  bool game_group = false;  // holds the game layer
};

// One user of an image: a tile layer (quads == 0) or a quads layer (quads =
// number of its quads; all quads of a quads layer share the layer's image).
struct ImageUse {
  std::int32_t layer_index = 0;
  std::int64_t quads = 0;
};

struct ImageStats {
  std::int32_t image_index = 0;
  std::int32_t version = 0;
  std::string name;
  std::int32_t width = 0, height = 0;
  bool external = false;
  bool rgba = true;                    // version 2 variant 0 = RGB
  bool standard_name = false;          // name is one of the standard external images
  std::int64_t data_stored_size = -1;  // compressed bytes in the file; -1 when external
  std::int64_t data_size = -1;         // declared uncompressed bytes; -1 when external
  std::vector<ImageUse> used_by;
};

// One user of an envelope, by role (layer_color, quad_position, ...).
struct EnvelopeUse {
  std::int32_t layer_index = 0;
  EnvelopeRole role = EnvelopeRole::layer_color;
  std::int64_t count = 0;
};

struct EnvelopeStats {
  std::int32_t envelope_index = 0;
  std::int32_t version = 0;
  std::int32_t channels = 0;
  EnvelopeKind kind = EnvelopeKind::unknown;
  std::string name;
  bool synchronized = false;
  std::int32_t start_point = 0, num_points = 0;
  std::array<std::int64_t, kNumCurveTypes> curves{};  // points by curve type
  std::vector<EnvelopeUse> used_by;
};

struct SoundUse {
  std::int32_t layer_index = 0;
  std::int64_t sources = 0;
};

struct SoundStats {
  std::int32_t sound_index = 0;
  std::string name;
  bool external = false;
  std::int64_t data_stored_size = -1;
  std::int64_t data_size = -1;
  std::vector<SoundUse> used_by;
};

struct MapStats {
  MapFormat format = MapFormat::teeworlds;
  std::int32_t format_version = 0;   // datafile version (3, 4) or SpriteTile level version
  MapStatus status = MapStatus::ok;  // derived from problems by finalize_status()
  // Teeworlds maps: whether Teeworlds 0.6 / 0.7 load it (game_verdict.h);
  // set by finalize_status(), empty for SpriteTile levels.
  std::optional<TeeworldsVerdict> teeworlds;

  // Container (Teeworlds).
  bool crude_header = false;
  bool reversed_magic = false;
  std::int32_t num_items = 0;
  std::int32_t num_data = 0;
  std::vector<std::string> uuid_types;  // known names of UUID item types present

  // Info item (Teeworlds).
  std::optional<std::string> author, map_version, credits, license;
  std::vector<std::string> settings;

  std::int64_t game_width = 0, game_height = 0;  // last game layer; 0 when none
  std::int32_t tiles_per_set = 0;                // SpriteTile: 32768 / numsets

  std::vector<GroupStats> groups;
  std::vector<LayerStats> layers;
  std::vector<ImageStats> images;
  std::vector<EnvelopeStats> envelopes;
  std::int64_t num_envelope_points = 0;
  std::vector<SoundStats> sounds;
  std::int32_t num_automappers = 0;

  // DDNet's per-map features (the 40 flags of ddnet.org's mapinfo), by name,
  // in the order of kDdnetFeatureNames, only those present.
  std::vector<std::string> ddnet_features;

  Problems problems;

  // A thumbnail (PNG, longest side at most 256 pixels) when measured with
  // a ThumbnailMode other than none and the map has something to draw.
  std::vector<std::uint8_t> thumbnail_png;
  // The key of what the thumbnail was drawn from (measure.cpp thumbnail_key:
  // the drawn physics layers' LayerDataKeys, the map's size, the render
  // version), when every drawn layer has a key and was drawn.
  std::optional<Sha256> thumbnail_key;
};

// Sets `status` from the problems: rejected if any error, warnings if any
// warning, else ok (info findings do not count); and for a Teeworlds map its
// Teeworlds verdict.
void finalize_status(MapStats& stats);

// The bytes `stats` holds, itself and what its containers and strings have
// allocated (their capacity), give or take the allocator's own overhead: for
// a holder of many (the index writer's open batch) to bound them.
std::uint64_t held_bytes(const MapStats& stats);
// The same for a layer's counts by name and findings: the vector's elements
// and their strings (the layer store bounds its LayerData with these too).
std::uint64_t held_bytes(const std::vector<NamedCount>& counts);
std::uint64_t held_bytes(const std::vector<LayerFinding>& findings);

}  // namespace mapindex
