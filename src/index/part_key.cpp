#include "index/part_key.h"

#include <set>

namespace mapindex::index {

namespace {

// Whether the layer has a layer_data row of its own: rows to hold and no data
// key to share them by (map_rows.cpp writes one for it).
bool own_layer_data(const LayerStats& l) {
  return !l.data_key && (!l.tile_counts.empty() || !l.entities.empty() || !l.numbers.empty() ||
                         (l.spritetile && !l.spritetile->triggers.empty()));
}

// Every field the layer's layer_defs row is written from, and the identity of
// its layer_data row (its key and the extractor version), or that it has none.
std::optional<Sha256> layer_key(const LayerStats& l, int extractor_version) {
  if (own_layer_data(l)) return std::nullopt;
  KeyEncoder k;
  k.text("layer/1")
      .integer(l.group_index)
      .text(to_string(l.kind))
      .integer(l.item_type)
      .integer(l.version)
      .text(l.name)
      .integer(l.width)
      .integer(l.height)
      .integer(l.detail)
      .integer(l.image)
      .integer(l.color_envelope);
  for (const auto c : l.color) k.integer(c);
  k.integer(l.skip_compressed)
      .integer(l.non_empty)
      .integer(l.flip_x)
      .integer(l.flip_y)
      .integer(l.rotate)
      .integer(l.num_quads)
      .integer(l.num_sources)
      .integer(l.sound);
  if (const auto& s = l.spritetile) {
    k.integer(1)
        .real(s->tile_size_x)
        .real(s->tile_size_y)
        .real(s->z)
        .integer(s->scroll_x)
        .integer(s->scroll_y)
        .integer(s->preview_size)
        .integer(s->layer_lock)
        .integer(s->add_border)
        .integer(s->colliders)
        .integer(s->flip_both)
        .integer(s->order_min)
        .integer(s->order_max);
  } else {
    k.integer(0);
  }
  if (const auto& d = l.data_key) {
    k.integer(1)
        .blob(d->sha256)
        .text(to_string(d->kind))
        .integer(d->version)
        .integer(d->width)
        .integer(d->height)
        .integer(d->data_size)
        .integer(extractor_version);
  } else {
    k.integer(0);
  }
  return k.digest();
}

Sha256 body_key(const MapStats& s) {
  KeyEncoder k;
  k.text("body/1").integer(static_cast<std::int64_t>(s.settings.size()));
  for (const auto& command : s.settings) k.text(command);
  k.integer(static_cast<std::int64_t>(s.groups.size()));
  for (const auto& g : s.groups)
    k.integer(g.group_index)
        .integer(g.version)
        .text(g.name)
        .integer(g.offset_x)
        .integer(g.offset_y)
        .integer(g.parallax_x)
        .integer(g.parallax_y)
        .integer(g.start_layer)
        .integer(g.num_layers)
        .integer(g.clipping)
        .integer(g.clip_x)
        .integer(g.clip_y)
        .integer(g.clip_w)
        .integer(g.clip_h)
        .integer(g.game_group);
  k.integer(static_cast<std::int64_t>(s.images.size()));
  for (const auto& i : s.images) {
    k.integer(i.image_index)
        .integer(i.version)
        .text(i.name)
        .integer(i.width)
        .integer(i.height)
        .integer(i.external)
        .integer(i.rgba)
        .integer(i.standard_name)
        .integer(i.data_stored_size)
        .integer(i.data_size)
        .integer(static_cast<std::int64_t>(i.used_by.size()));
    for (const auto& u : i.used_by) k.integer(u.layer_index).integer(u.quads);
  }
  k.integer(static_cast<std::int64_t>(s.envelopes.size()));
  for (const auto& e : s.envelopes) {
    k.integer(e.envelope_index)
        .integer(e.version)
        .integer(e.channels)
        .text(to_string(e.kind))
        .text(e.name)
        .integer(e.synchronized)
        .integer(e.start_point)
        .integer(e.num_points);
    for (const auto c : e.curves) k.integer(c);
    k.integer(static_cast<std::int64_t>(e.used_by.size()));
    for (const auto& u : e.used_by)
      k.integer(u.layer_index).text(to_string(u.role)).integer(u.count);
  }
  k.integer(static_cast<std::int64_t>(s.sounds.size()));
  for (const auto& snd : s.sounds) {
    k.integer(snd.sound_index)
        .text(snd.name)
        .integer(snd.external)
        .integer(snd.data_stored_size)
        .integer(snd.data_size)
        .integer(static_cast<std::int64_t>(snd.used_by.size()));
    for (const auto& u : snd.used_by) k.integer(u.layer_index).integer(u.sources);
  }
  return k.digest();
}

}  // namespace

MapPartKeys part_keys(const MapStats& stats, int extractor_version) {
  MapPartKeys keys;
  keys.body = body_key(stats);
  // The features as stored: each once, in order.
  const std::set<std::string_view> features(stats.ddnet_features.begin(),
                                            stats.ddnet_features.end());
  if (!features.empty()) {
    KeyEncoder k;
    k.text("features/1").integer(static_cast<std::int64_t>(features.size()));
    for (const auto f : features) k.text(f);
    keys.features = k.digest();
  }
  if (!stats.thumbnail_png.empty() && stats.thumbnail_key) {
    KeyEncoder k;
    k.text("thumbnail/1").blob(*stats.thumbnail_key).blob(stats.thumbnail_png);
    keys.thumbnail = k.digest();
  }
  keys.layers.reserve(stats.layers.size());
  for (const auto& l : stats.layers) keys.layers.push_back(layer_key(l, extractor_version));
  return keys;
}

}  // namespace mapindex::index
