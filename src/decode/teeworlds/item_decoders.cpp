#include "decode/teeworlds/item_decoders.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <string>

#include "decode/teeworlds/i32_string.h"
#include "decode/teeworlds/item_layouts.h"
#include "decode/teeworlds/tiles.h"

namespace mapindex::teeworlds {
namespace {

Error too_short(Code code, const char* what, std::size_t have, std::size_t need) {
  return Error{code, std::string(what) + " item has " + std::to_string(have) + " ints (" +
                         std::to_string(have * 4) + " bytes), at least " + std::to_string(need) +
                         " needed"};
}

LayerKind tilemap_kind(std::int32_t flags) {
  if (flags & kTilemapGame) return LayerKind::game;
  if (flags & kTilemapTele) return LayerKind::tele;
  if (flags & kTilemapSpeedup) return LayerKind::speedup;
  if (flags & kTilemapFront) return LayerKind::front;
  if (flags & kTilemapSwitch) return LayerKind::switch_layer;
  if (flags & kTilemapTune) return LayerKind::tune;
  return LayerKind::tiles;
}

}  // namespace

std::size_t tile_struct_size(LayerKind t) {
  switch (t) {
    case LayerKind::tele: return tele_struct::kSize;
    case LayerKind::speedup: return speedup_struct::kSize;
    case LayerKind::switch_layer: return switch_struct::kSize;
    case LayerKind::tune: return tune_struct::kSize;
    default: return tile_struct::kSize;
  }
}

int ddnet_data_slot(LayerKind t) {
  switch (t) {
    case LayerKind::tele: return 0;
    case LayerKind::speedup: return 1;
    case LayerKind::front: return 2;
    case LayerKind::switch_layer: return 3;
    case LayerKind::tune: return 4;
    default: return -1;
  }
}

std::int32_t TilemapLayer::tile_data() const {
  const int slot = ddnet_data_slot(kind);
  return slot < 0 ? data : ddnet_data[static_cast<std::size_t>(slot)];
}

Result<VersionItem> decode_version(Int32View item) {
  namespace L = layout::version;
  if (item.size() < L::kMinWords) return too_short(Code::M1, "version", item.size(), L::kMinWords);
  VersionItem v{item[L::kVersion]};
  if (v.version != L::kOnlyVersion)
    return Error{Code::M1,
                 "version item holds version " + std::to_string(v.version) + ", expected 1"};
  return v;
}

Result<InfoItem> decode_info(Int32View item) {
  namespace L = layout::info;
  if (item.size() < L::kMinWords)
    return too_short(Code::info_item_size, "info", item.size(), L::kMinWords);
  InfoItem info;
  info.version = item[L::kVersion];
  info.author = item.get_or(L::kAuthor, -1);
  info.map_version = item.get_or(L::kMapVersion, -1);
  info.credits = item.get_or(L::kCredits, -1);
  info.license = item.get_or(L::kLicense, -1);
  info.settings = item.get_or(L::kSettings, -1);
  return info;
}

Result<ImageItem> decode_image(Int32View item) {
  namespace L = layout::image;
  if (item.size() < L::kMinWords)
    return too_short(Code::image_item_size, "image", item.size(), L::kMinWords);
  ImageItem img;
  img.version = item[L::kVersion];
  img.width = item[L::kWidth];
  img.height = item[L::kHeight];
  img.external = item[L::kExternal] != 0;
  img.name = item[L::kName];
  img.data = item[L::kData];
  if (img.version >= L::kVariantSince) img.variant = item.get_or(L::kVariant, 1);
  return img;
}

Result<EnvelopeItem> decode_envelope(Int32View item) {
  namespace L = layout::envelope;
  if (item.size() < L::kMinWords)
    return too_short(Code::envelope_item_size, "envelope", item.size(), L::kMinWords);
  EnvelopeItem env;
  env.version = item[L::kVersion];
  env.channels = item[L::kChannels];
  env.start_point = item[L::kStartPoint];
  env.num_points = item[L::kNumPoints];
  if (L::kNameAdded.held_by(env.version, item.size()))
    env.name = decode_i32_string(item.subview(L::kName, L::kNameWords));
  if (L::kSynchronizedAdded.held_by(env.version, item.size()))
    env.synchronized = item[L::kSynchronized] != 0;
  return env;
}

Result<GroupItem> decode_group(Int32View item) {
  namespace L = layout::group;
  if (item.size() < L::kMinWords) return too_short(Code::M2, "group", item.size(), L::kMinWords);
  GroupItem g;
  g.version = item[L::kVersion];
  g.offset_x = item[L::kOffsetX];
  g.offset_y = item[L::kOffsetY];
  g.parallax_x = item[L::kParallaxX];
  g.parallax_y = item[L::kParallaxY];
  g.start_layer = item[L::kStartLayer];
  g.num_layers = item[L::kNumLayers];
  if (L::kClipAdded.held_by(g.version, item.size())) {
    g.clipping = item[L::kClipping] != 0;
    g.clip_x = item[L::kClipX];
    g.clip_y = item[L::kClipY];
    g.clip_w = item[L::kClipW];
    g.clip_h = item[L::kClipH];
  }
  if (L::kNameAdded.held_by(g.version, item.size()))
    g.name = decode_i32_string(item.subview(L::kName, L::kNameWords));
  return g;
}

Result<GroupExItem> decode_group_ex(Int32View item) {
  namespace L = layout::group_ex;
  if (item.size() < L::kMinWords)
    return too_short(Code::group_ex_item_size, "group extension", item.size(), L::kMinWords);
  return GroupExItem{item[L::kVersion], item[L::kParallaxZoom]};
}

Result<LayerHeader> decode_layer_header(Int32View item) {
  namespace L = layout::layer;
  if (item.size() < L::kHeaderWords)
    return too_short(Code::M4, "layer", item.size(), L::kHeaderWords);
  return LayerHeader{item[L::kVersion], item[L::kType], item[L::kFlags]};
}

Result<SoundItem> decode_sound(Int32View item) {
  namespace L = layout::sound;
  if (item.size() < L::kMinWords)
    return too_short(Code::sound_item_size, "sound", item.size(), L::kMinWords);
  SoundItem s;
  s.version = item[L::kVersion];
  s.external = item[L::kExternal] != 0;
  s.name = item[L::kName];
  s.data = item[L::kData];
  s.data_size = item.get_or(L::kDataSize, 0);
  return s;
}

Result<AutomapperItem> decode_automapper(Int32View item) {
  namespace L = layout::automapper;
  if (item.size() < L::kMinWords)
    return too_short(Code::automapper_item_size, "automapper", item.size(), L::kMinWords);
  AutomapperItem a;
  a.version = item[L::kVersion];
  a.group = item[L::kGroup];
  a.layer = item[L::kLayer];
  a.config = item.get_or(L::kConfig, -1);
  a.seed = item.get_or(L::kSeed, 0);
  a.flags = item.get_or(L::kFlags, 0);
  return a;
}

Result<TilemapLayer> decode_tilemap(Int32View item) {
  namespace L = layout::tilemap;
  if (item.size() < L::kMinWords)
    return too_short(Code::M5, "tilemap layer", item.size(), L::kMinWords);
  TilemapLayer t;
  t.version = item[L::kVersion];
  t.width = item[L::kWidth];
  t.height = item[L::kHeight];
  t.flags = item[L::kFlags];
  for (std::size_t c = 0; c < L::kColorWords; ++c) t.color[c] = item[L::kColor + c];
  t.color_envelope = item[L::kColorEnvelope];
  t.color_envelope_offset = item[L::kColorEnvelopeOffset];
  t.image = item[L::kImage];
  t.data = item[L::kData];
  t.kind = tilemap_kind(t.flags);
  t.physics_bits = std::popcount(static_cast<std::uint32_t>(t.flags & kTilemapPhysicsMask));
  // DDNet's extra indices follow the name from version 3 on, and follow
  // `data` directly in old version-2 DDRace layouts; either may be a prefix.
  std::size_t extra_at = L::kDdnetDataV2;
  if (L::kNameAdded.held_by(t.version, item.size())) {
    t.name = decode_i32_string(item.subview(L::kName, L::kNameWords));
    t.has_name = true;
    extra_at = L::kDdnetDataAfterName;
  }
  if (t.version >= L::kNameAdded.since && !t.has_name)
    extra_at = item.size();  // no room for extras either
  for (std::size_t s = 0; s < static_cast<std::size_t>(kNumDdnetDataSlots); ++s) {
    if (extra_at + s >= item.size()) break;
    t.ddnet_data[s] = item[extra_at + s];
    t.num_ddnet_data = static_cast<int>(s) + 1;
  }
  return t;
}

std::vector<Error> validate_tilemap(const TilemapLayer& t, std::size_t item_ints) {
  std::vector<Error> errors;
  if (t.version < layout::tilemap::kFirstVersion || t.version > layout::tilemap::kLastVersion)
    errors.push_back(
        {Code::M5, "tilemap version " + std::to_string(t.version) + ", expected 2..4"});
  if (t.physics_bits > 1)
    errors.push_back({Code::M5, "tilemap flags " + std::to_string(t.flags) +
                                    " set more than one physics kind (1 game, 2 tele, 4 speedup, "
                                    "8 front, 16 switch, 32 tune)"});
  if (t.version >= layout::tilemap::kNameAdded.since && item_ints < layout::tilemap::kNameAdded.end)
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
    const std::uint64_t tile_bytes =
        std::max<std::size_t>(tile_struct::kSize, tile_struct_size(t.kind));
    const std::uint64_t bytes =
        static_cast<std::uint64_t>(t.width) * static_cast<std::uint64_t>(t.height) * tile_bytes;
    if (bytes > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
      errors.push_back({Code::M7, "tilemap size " + std::to_string(t.width) + "x" +
                                      std::to_string(t.height) + " times " +
                                      std::to_string(tile_bytes) + " bytes per tile overflows"});
  }
  if (t.kind == LayerKind::tiles) {
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
  namespace L = layout::quads;
  if (item.size() < L::kMinWords)
    return too_short(Code::quads_item_size, "quads layer", item.size(), L::kMinWords);
  QuadsLayer q;
  q.version = item[L::kVersion];
  q.num_quads = item[L::kNumQuads];
  q.data = item[L::kData];
  q.image = item[L::kImage];
  if (L::kNameAdded.held_by(q.version, item.size()))
    q.name = decode_i32_string(item.subview(L::kName, L::kNameWords));
  return q;
}

Result<SoundsLayer> decode_sounds_layer(Int32View item, bool deprecated) {
  namespace L = layout::sounds;
  if (item.size() < L::kMinWords)
    return too_short(Code::sounds_item_size, "sounds layer", item.size(), L::kMinWords);
  SoundsLayer s;
  s.deprecated = deprecated;
  s.version = item[L::kVersion];
  s.num_sources = item[L::kNumSources];
  s.data = item[L::kData];
  s.sound = item[L::kSound];
  if (L::kNameAdded.held_by(s.version, item.size()))
    s.name = decode_i32_string(item.subview(L::kName, L::kNameWords));
  return s;
}

Quad decode_quad(const std::uint8_t* p) {
  namespace L = layout::quad;
  auto at = [p](std::size_t i) { return load_le_i32(p + 4 * i); };
  Quad q;
  for (std::size_t i = 0; i < L::kNumPoints; ++i)
    q.points[i] = {at(L::kPoints + 2 * i), at(L::kPoints + 2 * i + 1)};
  for (std::size_t c = 0; c < L::kNumColors; ++c)
    for (std::size_t k = 0; k < 4; ++k) q.colors[c][k] = at(L::kColors + 4 * c + k);
  for (std::size_t i = 0; i < L::kNumTexture; ++i)
    q.texture[i] = {at(L::kTexture + 2 * i), at(L::kTexture + 2 * i + 1)};
  q.position_envelope = at(L::kPositionEnvelope);
  q.position_envelope_offset = at(L::kPositionEnvelopeOffset);
  q.color_envelope = at(L::kColorEnvelope);
  q.color_envelope_offset = at(L::kColorEnvelopeOffset);
  return q;
}

SoundSource decode_sound_source(const std::uint8_t* p, bool deprecated) {
  auto at = [p](std::size_t i) { return load_le_i32(p + 4 * i); };
  SoundSource s;
  if (deprecated) {
    namespace L = layout::sound_source_deprecated;
    s.position = {at(L::kX), at(L::kY)};
    s.looping = at(L::kLooping) != 0;
    s.panning = true;
    s.delay = at(L::kDelay);
    s.falloff = 0;
    s.shape_kind = 1;
    s.shape_width = at(L::kRadius);
    s.position_envelope = at(L::kPositionEnvelope);
    s.position_envelope_offset = at(L::kPositionEnvelopeOffset);
    s.sound_envelope = at(L::kSoundEnvelope);
    s.sound_envelope_offset = at(L::kSoundEnvelopeOffset);
  } else {
    namespace L = layout::sound_source;
    s.position = {at(L::kX), at(L::kY)};
    s.looping = at(L::kLooping) != 0;
    s.panning = at(L::kPanning) != 0;
    s.delay = at(L::kDelay);
    s.falloff = at(L::kFalloff);
    s.position_envelope = at(L::kPositionEnvelope);
    s.position_envelope_offset = at(L::kPositionEnvelopeOffset);
    s.sound_envelope = at(L::kSoundEnvelope);
    s.sound_envelope_offset = at(L::kSoundEnvelopeOffset);
    s.shape_kind = at(L::kShapeKind);
    s.shape_width = at(L::kShapeWidth);
    s.shape_height = at(L::kShapeHeight);
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
  namespace L = layout::env_point;
  EnvPoint p;
  const std::size_t base = i * point_ints_;
  p.time = points_[base + L::kTime];
  p.curve = points_[base + L::kCurve];
  for (std::size_t c = 0; c < L::kChannels; ++c) p.values[c] = points_[base + L::kValues + c];
  if (point_ints_ == kEnvPointV3Ints) {
    p.has_bezier = true;
    for (std::size_t c = 0; c < L::kChannels; ++c) {
      p.in_dx[c] = points_[base + L::kInDx + c];
      p.in_dy[c] = points_[base + L::kInDy + c];
      p.out_dx[c] = points_[base + L::kOutDx + c];
      p.out_dy[c] = points_[base + L::kOutDy + c];
    }
  } else if (bezier_used_) {
    namespace B = layout::env_point_bezier;
    p.has_bezier = true;
    const std::size_t b = i * kEnvPointBezierInts;
    for (std::size_t c = 0; c < L::kChannels; ++c) {
      p.in_dx[c] = bezier_[b + B::kInDx + c];
      p.in_dy[c] = bezier_[b + B::kInDy + c];
      p.out_dx[c] = bezier_[b + B::kOutDx + c];
      p.out_dy[c] = bezier_[b + B::kOutDy + c];
    }
  }
  return p;
}

bool tiles_readable(const std::vector<Error>& findings) {
  return std::all_of(findings.begin(), findings.end(),
                     [](const Error& e) { return e.code == Code::M8; });
}

std::vector<std::size_t> tile_data_indices(const datafile::Datafile& df) {
  std::vector<std::size_t> out;
  const datafile::ItemRange layers = df.items_of_type(kLayerType);
  for (std::uint32_t i = layers.start; i < layers.start + layers.num; ++i) {
    const datafile::Item item = df.item(i);
    auto header = decode_layer_header(item.data);
    if (!header || header->type != kLayerTilemap) continue;
    auto tilemap = decode_tilemap(item.data);
    if (!tilemap) continue;
    const std::int32_t d = tilemap->tile_data();
    if (!tiles_readable(validate_tilemap(*tilemap, item.data.size())) || d < 0 ||
        static_cast<std::size_t>(d) >= df.num_data())
      continue;
    out.push_back(static_cast<std::size_t>(d));
  }
  return out;
}

}  // namespace mapindex::teeworlds
