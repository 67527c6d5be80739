// Decoders for single map items: pure functions from an item's int32 payload
// to the typed items of map_items.h. They read what the item holds (optional
// trailing fields take their defaults when absent) and fail only when an item
// is too short to be read at all; the caller names the item in the problem.
// Rule codes are the map rules of src/extract/README.md ("M2", "M4", ...)
// or "<item>.item_size" for items the rules do not cover.
#pragma once

#include <vector>

#include "common/result.h"
#include "decode/datafile/datafile.h"
#include "decode/teeworlds/map_items.h"

namespace mapindex::teeworlds {

using datafile::Int32View;

Result<VersionItem> decode_version(Int32View item);        // M1: >= 1 int, value 1
Result<InfoItem> decode_info(Int32View item);              // "info.item_size": >= 1 int
Result<ImageItem> decode_image(Int32View item);            // "image.item_size": >= 6 ints
Result<EnvelopeItem> decode_envelope(Int32View item);      // "envelope.item_size": >= 4 ints
Result<GroupItem> decode_group(Int32View item);            // M2: >= 7 ints (28 bytes)
Result<GroupExItem> decode_group_ex(Int32View item);       // "group_ex.item_size": >= 2 ints
Result<LayerHeader> decode_layer_header(Int32View item);   // M4: >= 3 ints (12 bytes)
Result<SoundItem> decode_sound(Int32View item);            // "sound.item_size": >= 4 ints
Result<AutomapperItem> decode_automapper(Int32View item);  // "automapper.item_size": >= 3 ints

// Layer bodies: `item` is the whole layer item (header included).
// Tilemaps: M5 when shorter than 15 ints (60 bytes); everything else about a
// tilemap is judged by validate_tilemap.
Result<TilemapLayer> decode_tilemap(Int32View item);
// Quads and sounds layers: "<kind>.item_size" when shorter than 7 ints.
Result<QuadsLayer> decode_quads_layer(Int32View item);
Result<SoundsLayer> decode_sounds_layer(Int32View item, bool deprecated);

// The rules M5 (version 2..4, one physics flag at most), M6 (v3/v4 hold the
// name; the layer's own physics data index is present), M7 (width, height >=
// 2; width*height*tile size fits in 31 bits) and M8 (tiles layers: color
// components 0..255) for a decoded tilemap of `item_ints` ints.
std::vector<Error> validate_tilemap(const TilemapLayer& layer, std::size_t item_ints);
// Whether a tilemap's tiles can be read, given what validate_tilemap found:
// only when it found nothing but colour warnings (M8).
bool tiles_readable(const std::vector<Error>& findings);

// The data items holding the tiles of a map's tilemap layers: a layer's own
// `data` index for tiles and game layers, DDNet's extra index of its kind for
// front, tele, speedup, switch and tune layers (TilemapLayer::tile_data). Only
// layers whose item decodes, that validate_tilemap finds nothing but colour
// warnings (M8) in, and whose index is in range; in layer item order (an index
// two layers share comes twice).
std::vector<std::size_t> tile_data_indices(const datafile::Datafile& df);

// Quads and sound sources from their (decompressed) data: `bytes` must hold
// kQuadBytes / source_bytes() bytes at `p`.
Quad decode_quad(const std::uint8_t* p);
SoundSource decode_sound_source(const std::uint8_t* p, bool deprecated);

// The envelope points of a map: the single points item (6 ints per point, or
// 22 when any envelope has version 3) and, for 6-int points, DDNet's bezier
// item (16 ints per point), used when it holds exactly as many points.
class EnvelopePoints {
 public:
  EnvelopePoints() = default;
  EnvelopePoints(Int32View points, std::size_t point_ints, Int32View bezier);

  std::size_t size() const { return count_; }
  std::size_t point_ints() const { return point_ints_; }
  bool has_bezier() const { return point_ints_ == kEnvPointV3Ints || bezier_used_; }
  bool bezier_item_used() const { return bezier_used_; }
  // Ints left over after the last whole point (0 when the item size is a
  // multiple of the point size).
  std::size_t trailing_ints() const { return trailing_; }
  // Precondition: i < size().
  std::int32_t time(std::size_t i) const {
    return points_[i * point_ints_ + layout::env_point::kTime];
  }
  std::int32_t curve(std::size_t i) const {
    return points_[i * point_ints_ + layout::env_point::kCurve];
  }
  EnvPoint point(std::size_t i) const;

 private:
  Int32View points_;
  Int32View bezier_;
  std::size_t point_ints_ = kEnvPointInts;
  std::size_t count_ = 0;
  std::size_t trailing_ = 0;
  bool bezier_used_ = false;
};

}  // namespace mapindex::teeworlds
