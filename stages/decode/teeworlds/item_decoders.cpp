#include "stages/decode/teeworlds/item_decoders.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <string>

#include "stages/decode/teeworlds/i32_string.h"

namespace mapindex::teeworlds {
namespace {

Error too_short(Code code, const char* what, std::size_t have, std::size_t need) {
  return Error{code, std::string(what) + " item has " + std::to_string(have) + " ints (" +
                         std::to_string(have * 4) + " bytes), at least " + std::to_string(need) +
                         " needed"};
}

LayerType tilemap_kind(std::int32_t flags) {
  if (flags & kTilemapGame) return LayerType::game;
  if (flags & kTilemapTele) return LayerType::tele;
  if (flags & kTilemapSpeedup) return LayerType::speedup;
  if (flags & kTilemapFront) return LayerType::front;
  if (flags & kTilemapSwitch) return LayerType::switch_layer;
  if (flags & kTilemapTune) return LayerType::tune;
  return LayerType::tiles;
}

}  // namespace

bool is_tilemap(LayerType t) {
  switch (t) {
    case LayerType::tiles: case LayerType::game: case LayerType::tele: case LayerType::speedup:
    case LayerType::front: case LayerType::switch_layer: case LayerType::tune:
      return true;
    default:
      return false;
  }
}

bool is_physics(LayerType t) { return is_tilemap(t) && t != LayerType::tiles; }

const char* layer_type_name(LayerType t) {
  switch (t) {
    case LayerType::tiles: return "tiles";
    case LayerType::game: return "game";
    case LayerType::tele: return "tele";
    case LayerType::speedup: return "speedup";
    case LayerType::front: return "front";
    case LayerType::switch_layer: return "switch";
    case LayerType::tune: return "tune";
    case LayerType::quads: return "quads";
    case LayerType::sounds: return "sounds";
    case LayerType::sounds_deprecated: return "sounds_deprecated";
    case LayerType::unknown: return "unknown";
  }
  return "unknown";
}

std::size_t tile_struct_size(LayerType t) {
  switch (t) {
    case LayerType::tele: return 2;
    case LayerType::speedup: return 6;
    case LayerType::tune: return 2;
    default: return 4;
  }
}

int ddnet_data_slot(LayerType t) {
  switch (t) {
    case LayerType::tele: return 0;
    case LayerType::speedup: return 1;
    case LayerType::front: return 2;
    case LayerType::switch_layer: return 3;
    case LayerType::tune: return 4;
    default: return -1;
  }
}

std::int32_t TilemapLayer::tile_data() const {
  const int slot = ddnet_data_slot(kind);
  return slot < 0 ? data : ddnet_data[static_cast<std::size_t>(slot)];
}

Result<VersionItem> decode_version(Int32View item) {
  if (item.size() < 1) return too_short(Code::M1, "version", item.size(), 1);
  VersionItem v{item[0]};
  if (v.version != 1)
    return Error{Code::M1, "version item holds version " + std::to_string(v.version) + ", expected 1"};
  return v;
}

Result<InfoItem> decode_info(Int32View item) {
  if (item.size() < 1) return too_short(Code::info_item_size, "info", item.size(), 1);
  InfoItem info;
  info.version = item[0];
  info.author = item.get_or(1, -1);
  info.map_version = item.get_or(2, -1);
  info.credits = item.get_or(3, -1);
  info.license = item.get_or(4, -1);
  info.settings = item.get_or(5, -1);
  return info;
}

Result<ImageItem> decode_image(Int32View item) {
  if (item.size() < 6) return too_short(Code::image_item_size, "image", item.size(), 6);
  ImageItem img;
  img.version = item[0];
  img.width = item[1];
  img.height = item[2];
  img.external = item[3] != 0;
  img.name = item[4];
  img.data = item[5];
  if (img.version >= 2) img.variant = item.get_or(6, 1);
  return img;
}

Result<EnvelopeItem> decode_envelope(Int32View item) {
  if (item.size() < 4) return too_short(Code::envelope_item_size, "envelope", item.size(), 4);
  EnvelopeItem env;
  env.version = item[0];
  env.channels = item[1];
  env.start_point = item[2];
  env.num_points = item[3];
  if (item.size() >= 12) env.name = decode_i32_string(item.subview(4, 8));
  if (env.version >= 2 && item.size() >= 13) env.synchronized = item[12] != 0;
  return env;
}

Result<GroupItem> decode_group(Int32View item) {
  if (item.size() < 7) return too_short(Code::M2, "group", item.size(), 7);
  GroupItem g;
  g.version = item[0];
  g.offset_x = item[1];
  g.offset_y = item[2];
  g.parallax_x = item[3];
  g.parallax_y = item[4];
  g.start_layer = item[5];
  g.num_layers = item[6];
  if (g.version >= 2 && item.size() >= 12) {
    g.clipping = item[7] != 0;
    g.clip_x = item[8];
    g.clip_y = item[9];
    g.clip_w = item[10];
    g.clip_h = item[11];
  }
  if (g.version >= 3 && item.size() >= 15) g.name = decode_i32_string(item.subview(12, 3));
  return g;
}

Result<GroupExItem> decode_group_ex(Int32View item) {
  if (item.size() < 2) return too_short(Code::group_ex_item_size, "group extension", item.size(), 2);
  return GroupExItem{item[0], item[1]};
}

Result<LayerHeader> decode_layer_header(Int32View item) {
  if (item.size() < 3) return too_short(Code::M4, "layer", item.size(), 3);
  return LayerHeader{item[0], item[1], item[2]};
}

Result<SoundItem> decode_sound(Int32View item) {
  if (item.size() < 4) return too_short(Code::sound_item_size, "sound", item.size(), 4);
  SoundItem s;
  s.version = item[0];
  s.external = item[1] != 0;
  s.name = item[2];
  s.data = item[3];
  s.data_size = item.get_or(4, 0);
  return s;
}

Result<AutomapperItem> decode_automapper(Int32View item) {
  if (item.size() < 3) return too_short(Code::automapper_item_size, "automapper", item.size(), 3);
  AutomapperItem a;
  a.version = item[0];
  a.group = item[1];
  a.layer = item[2];
  a.config = item.get_or(3, -1);
  a.seed = item.get_or(4, 0);
  a.flags = item.get_or(5, 0);
  return a;
}

Result<TilemapLayer> decode_tilemap(Int32View item) {
  if (item.size() < 15) return too_short(Code::M5, "tilemap layer", item.size(), 15);
  TilemapLayer t;
  t.version = item[3];
  t.width = item[4];
  t.height = item[5];
  t.flags = item[6];
  for (std::size_t c = 0; c < 4; ++c) t.color[c] = item[7 + c];
  t.color_envelope = item[11];
  t.color_envelope_offset = item[12];
  t.image = item[13];
  t.data = item[14];
  t.kind = tilemap_kind(t.flags);
  t.physics_bits = std::popcount(static_cast<std::uint32_t>(t.flags & kTilemapPhysicsMask));
  // DDNet's extra indices follow the name from version 3 on, and follow
  // `data` directly in old version-2 DDRace layouts; either may be a prefix.
  std::size_t extra_at = 15;
  if (t.version >= 3 && item.size() >= 18) {
    t.name = decode_i32_string(item.subview(15, 3));
    t.has_name = true;
    extra_at = 18;
  }
  if (t.version >= 3 && !t.has_name) extra_at = item.size();  // no room for extras either
  for (std::size_t s = 0; s < static_cast<std::size_t>(kNumDdnetDataSlots); ++s) {
    if (extra_at + s >= item.size()) break;
    t.ddnet_data[s] = item[extra_at + s];
    t.num_ddnet_data = static_cast<int>(s) + 1;
  }
  return t;
}

std::vector<Error> validate_tilemap(const TilemapLayer& t, std::size_t item_ints) {
  std::vector<Error> errors;
  if (t.version < 2 || t.version > 4)
    errors.push_back({Code::M5, "tilemap version " + std::to_string(t.version) + ", expected 2..4"});
  if (t.physics_bits > 1)
    errors.push_back({Code::M5, "tilemap flags " + std::to_string(t.flags) +
                                " set more than one physics kind (1 game, 2 tele, 4 speedup, "
                                "8 front, 16 switch, 32 tune)"});
  if (t.version >= 3 && item_ints < 18)
    errors.push_back({Code::M6, "version " + std::to_string(t.version) + " tilemap item has " +
                                std::to_string(item_ints * 4) +
                                " bytes, at least 72 needed for the name"});
  const int slot = ddnet_data_slot(t.kind);
  if (slot >= 0 && t.num_ddnet_data <= slot)
    errors.push_back({Code::M6, std::string(layer_type_name(t.kind)) +
                                " layer item lacks its data index (DDNet extra index " +
                                std::to_string(slot + 1) + " of 5; the item holds " +
                                std::to_string(t.num_ddnet_data) + ")"});
  if (t.width < 2 || t.height < 2) {
    errors.push_back({Code::M7, "tilemap size " + std::to_string(t.width) + "x" +
                                std::to_string(t.height) + ", expected at least 2x2"});
  } else {
    const std::uint64_t tile_bytes = std::max<std::size_t>(4, tile_struct_size(t.kind));
    const std::uint64_t bytes = static_cast<std::uint64_t>(t.width) *
                                static_cast<std::uint64_t>(t.height) * tile_bytes;
    if (bytes > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
      errors.push_back({Code::M7, "tilemap size " + std::to_string(t.width) + "x" +
                                  std::to_string(t.height) + " times " +
                                  std::to_string(tile_bytes) + " bytes per tile overflows"});
  }
  if (t.kind == LayerType::tiles) {
    for (std::size_t c = 0; c < 4; ++c) {
      if (t.color[c] < 0 || t.color[c] > 255) {
        errors.push_back({Code::M8, "color component " + std::to_string(c) + " is " +
                                    std::to_string(t.color[c]) + ", expected 0..255"});
      }
    }
  }
  return errors;
}

Result<QuadsLayer> decode_quads_layer(Int32View item) {
  if (item.size() < 7) return too_short(Code::quads_item_size, "quads layer", item.size(), 7);
  QuadsLayer q;
  q.version = item[3];
  q.num_quads = item[4];
  q.data = item[5];
  q.image = item[6];
  if (q.version >= 2 && item.size() >= 10) q.name = decode_i32_string(item.subview(7, 3));
  return q;
}

Result<SoundsLayer> decode_sounds_layer(Int32View item, bool deprecated) {
  if (item.size() < 7) return too_short(Code::sounds_item_size, "sounds layer", item.size(), 7);
  SoundsLayer s;
  s.deprecated = deprecated;
  s.version = item[3];
  s.num_sources = item[4];
  s.data = item[5];
  s.sound = item[6];
  if (item.size() >= 10) s.name = decode_i32_string(item.subview(7, 3));
  return s;
}

Quad decode_quad(const std::uint8_t* p) {
  auto at = [p](std::size_t i) { return load_le_i32(p + 4 * i); };
  Quad q;
  for (std::size_t i = 0; i < 5; ++i) q.points[i] = {at(2 * i), at(2 * i + 1)};
  for (std::size_t c = 0; c < 4; ++c)
    for (std::size_t k = 0; k < 4; ++k) q.colors[c][k] = at(10 + 4 * c + k);
  for (std::size_t i = 0; i < 4; ++i) q.texture[i] = {at(26 + 2 * i), at(27 + 2 * i)};
  q.position_envelope = at(34);
  q.position_envelope_offset = at(35);
  q.color_envelope = at(36);
  q.color_envelope_offset = at(37);
  return q;
}

SoundSource decode_sound_source(const std::uint8_t* p, bool deprecated) {
  auto at = [p](std::size_t i) { return load_le_i32(p + 4 * i); };
  SoundSource s;
  s.position = {at(0), at(1)};
  s.looping = at(2) != 0;
  if (deprecated) {
    s.panning = true;
    s.delay = at(3);
    s.falloff = 0;
    s.shape_kind = 1;
    s.shape_width = at(4);
    s.position_envelope = at(5);
    s.position_envelope_offset = at(6);
    s.sound_envelope = at(7);
    s.sound_envelope_offset = at(8);
  } else {
    s.panning = at(3) != 0;
    s.delay = at(4);
    s.falloff = at(5);
    s.position_envelope = at(6);
    s.position_envelope_offset = at(7);
    s.sound_envelope = at(8);
    s.sound_envelope_offset = at(9);
    s.shape_kind = at(10);
    s.shape_width = at(11);
    s.shape_height = at(12);
  }
  return s;
}

EnvelopePoints::EnvelopePoints(Int32View points, std::size_t point_ints, Int32View bezier)
    : points_(points), point_ints_(point_ints == 0 ? kEnvPointInts : point_ints) {
  count_ = points_.size() / point_ints_;
  trailing_ = points_.size() % point_ints_;
  if (point_ints_ == kEnvPointInts && !bezier.empty() &&
      bezier.size() / kEnvPointBezierInts == count_ && count_ > 0) {
    bezier_ = bezier;
    bezier_used_ = true;
  }
}

EnvPoint EnvelopePoints::point(std::size_t i) const {
  EnvPoint p;
  const std::size_t base = i * point_ints_;
  p.time = points_[base];
  p.curve = points_[base + 1];
  for (std::size_t c = 0; c < 4; ++c) p.values[c] = points_[base + 2 + c];
  if (point_ints_ == kEnvPointV3Ints) {
    p.has_bezier = true;
    for (std::size_t c = 0; c < 4; ++c) {
      p.in_dx[c] = points_[base + 6 + c];
      p.in_dy[c] = points_[base + 10 + c];
      p.out_dx[c] = points_[base + 14 + c];
      p.out_dy[c] = points_[base + 18 + c];
    }
  } else if (bezier_used_) {
    p.has_bezier = true;
    const std::size_t b = i * kEnvPointBezierInts;
    for (std::size_t c = 0; c < 4; ++c) {
      p.in_dx[c] = bezier_[b + c];
      p.in_dy[c] = bezier_[b + 4 + c];
      p.out_dx[c] = bezier_[b + 8 + c];
      p.out_dy[c] = bezier_[b + 12 + c];
    }
  }
  return p;
}

Result<std::vector<std::uint8_t>> expand_skip_tiles(Bytes compressed, std::size_t num_tiles) {
  std::vector<std::uint8_t> out(num_tiles * 4);
  const std::size_t runs = compressed.size() / 4;
  std::size_t written = 0;
  std::size_t r = 0;
  for (; r < runs && written < num_tiles; ++r) {
    const std::uint8_t* t = compressed.data() + 4 * r;
    const std::size_t repeat = std::size_t{t[2]} + 1;
    if (repeat > num_tiles - written) {
      return Error{Code::M14, "skip-compressed tiles expand past " + std::to_string(num_tiles) +
                              " tiles (run " + std::to_string(r) + " repeats " +
                              std::to_string(repeat) + " at tile " + std::to_string(written) +
                              ")"};
    }
    for (std::size_t k = 0; k < repeat; ++k, ++written) {
      std::uint8_t* o = out.data() + 4 * written;
      o[0] = t[0];
      o[1] = t[1];
      o[2] = 0;
      o[3] = t[3];
    }
  }
  if (written < num_tiles)
    return Error{Code::M14, "skip-compressed tiles expand to " + std::to_string(written) +
                            " tiles, expected " + std::to_string(num_tiles)};
  if (r != runs || compressed.size() % 4 != 0)
    return Error{Code::M14, "skip-compressed tile data has " +
                            std::to_string(compressed.size() - 4 * r) +
                            " bytes left over after " + std::to_string(num_tiles) + " tiles"};
  return out;
}

}  // namespace mapindex::teeworlds
