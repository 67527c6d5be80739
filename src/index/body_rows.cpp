// A map's body rows (settings, groups, images, envelopes, sounds and their
// users) and its DDNet feature set, each shared by the maps with its key.
#include <array>
#include <set>
#include <string>

#include "index/map_rows_internal.h"

namespace mapindex::index {

using sqlite::named;
namespace {

// Sizes of external data are -1: NULL in the index.
std::optional<std::int64_t> size_or_null(std::int64_t size) {
  if (size < 0) return std::nullopt;
  return size;
}

void write_settings(sqlite::StatementCache& st, std::int64_t body_id, const MapStats& stats) {
  auto& setting_insert = st.get(
      "INSERT INTO body_settings (body_id, position, command, command_raw) VALUES (?, ?, ?, ?)");
  for (std::size_t i = 0; i < stats.settings.size(); ++i)
    setting_insert
        .bind_all(body_id, i, stats.settings[i], sqlite::bytes_if_not_utf8(stats.settings[i]))
        .run();
}

void write_groups(sqlite::StatementCache& st, std::int64_t body_id, const MapStats& stats) {
  static constexpr std::array<std::string_view, 17> kGroupColumns = {
      "body_id",  "group_index", "version",    "name",        "name_raw",   "offset_x",
      "offset_y", "parallax_x",  "parallax_y", "start_layer", "num_layers", "clipping",
      "clip_x",   "clip_y",      "clip_w",     "clip_h",      "game_group"};
  static const std::string group_sql = insert_sql("body_groups", kGroupColumns);
  auto& group_insert = st.get(group_sql);
  for (const auto& g : stats.groups)
    group_insert
        .bind_named(named(":body_id", body_id), named(":group_index", g.group_index),
                    named(":version", g.version), named(":name", g.name),
                    named(":name_raw", sqlite::bytes_if_not_utf8(g.name)),
                    named(":offset_x", g.offset_x), named(":offset_y", g.offset_y),
                    named(":parallax_x", g.parallax_x), named(":parallax_y", g.parallax_y),
                    named(":start_layer", g.start_layer), named(":num_layers", g.num_layers),
                    named(":clipping", g.clipping), named(":clip_x", g.clip_x),
                    named(":clip_y", g.clip_y), named(":clip_w", g.clip_w),
                    named(":clip_h", g.clip_h), named(":game_group", g.game_group))
        .run();
}

// The map's images, each with the layers that use it.
void write_images(sqlite::StatementCache& st, std::int64_t body_id, const MapStats& stats) {
  static constexpr std::array<std::string_view, 12> kImageColumns = {
      "body_id", "image_index", "version", "name",          "name_raw",         "width",
      "height",  "external",    "rgba",    "standard_name", "data_stored_size", "data_size"};
  static const std::string image_sql = insert_sql("body_images", kImageColumns);
  auto& image_insert = st.get(image_sql);
  auto& image_user_insert = st.get(
      "INSERT INTO body_image_users (body_id, image_index, layer_index, quads) "
      "VALUES (?, ?, ?, ?) ON CONFLICT (body_id, image_index, layer_index) "
      "DO UPDATE SET quads = quads + excluded.quads");
  for (const auto& i : stats.images) {
    image_insert
        .bind_named(named(":body_id", body_id), named(":image_index", i.image_index),
                    named(":version", i.version), named(":name", i.name),
                    named(":name_raw", sqlite::bytes_if_not_utf8(i.name)), named(":width", i.width),
                    named(":height", i.height), named(":external", i.external),
                    named(":rgba", i.rgba), named(":standard_name", i.standard_name),
                    named(":data_stored_size", size_or_null(i.data_stored_size)),
                    named(":data_size", size_or_null(i.data_size)))
        .run();
    for (const auto& u : i.used_by)
      image_user_insert.bind_all(body_id, i.image_index, u.layer_index, u.quads).run();
  }
}

// The map's envelopes, each with the layers that use it (and in which role).
void write_envelopes(sqlite::StatementCache& st, std::int64_t body_id, const MapStats& stats) {
  static constexpr std::array<std::string_view, 17> kEnvelopeColumns = {
      "body_id",      "envelope_index", "version",      "channels",    "kind",
      "name",         "name_raw",       "synchronized", "start_point", "num_points",
      "curve_step",   "curve_linear",   "curve_slow",   "curve_fast",  "curve_smooth",
      "curve_bezier", "curve_unknown"};
  static const std::string envelope_sql = insert_sql("body_envelopes", kEnvelopeColumns);
  auto& envelope_insert = st.get(envelope_sql);
  auto& envelope_user_insert = st.get(
      "INSERT INTO body_envelope_users (body_id, envelope_index, layer_index, role, count) "
      "VALUES (?, ?, ?, ?, ?) ON CONFLICT (body_id, envelope_index, layer_index, role) "
      "DO UPDATE SET count = count + excluded.count");
  static_assert(kNumCurveTypes == 7, "envelopes has one column per curve type");
  for (const auto& e : stats.envelopes) {
    const auto& c = e.curves;
    envelope_insert
        .bind_named(named(":body_id", body_id), named(":envelope_index", e.envelope_index),
                    named(":version", e.version), named(":channels", e.channels),
                    named(":kind", to_string(e.kind)), named(":name", e.name),
                    named(":name_raw", sqlite::bytes_if_not_utf8(e.name)),
                    named(":synchronized", e.synchronized), named(":start_point", e.start_point),
                    named(":num_points", e.num_points), named(":curve_step", c[0]),
                    named(":curve_linear", c[1]), named(":curve_slow", c[2]),
                    named(":curve_fast", c[3]), named(":curve_smooth", c[4]),
                    named(":curve_bezier", c[5]), named(":curve_unknown", c[6]))
        .run();
    for (const auto& u : e.used_by)
      envelope_user_insert
          .bind_all(body_id, e.envelope_index, u.layer_index, to_string(u.role), u.count)
          .run();
  }
}

// The map's sounds, each with the layers whose sources play it.
void write_sounds(sqlite::StatementCache& st, std::int64_t body_id, const MapStats& stats) {
  auto& sound_insert = st.get(
      "INSERT INTO body_sounds (body_id, sound_index, name, name_raw, external, "
      "data_stored_size, data_size) VALUES (?, ?, ?, ?, ?, ?, ?)");
  auto& sound_user_insert = st.get(
      "INSERT INTO body_sound_users (body_id, sound_index, layer_index, sources) "
      "VALUES (?, ?, ?, ?) ON CONFLICT (body_id, sound_index, layer_index) "
      "DO UPDATE SET sources = sources + excluded.sources");
  for (const auto& s : stats.sounds) {
    sound_insert
        .bind_all(body_id, s.sound_index, s.name, sqlite::bytes_if_not_utf8(s.name), s.external,
                  size_or_null(s.data_stored_size), size_or_null(s.data_size))
        .run();
    for (const auto& u : s.used_by)
      sound_user_insert.bind_all(body_id, s.sound_index, u.layer_index, u.sources).run();
  }
}

// The rows of a new body: the map's settings, groups, images, envelopes,
// sounds and their users.
void write_body_rows(sqlite::StatementCache& st, std::int64_t body_id, const MapStats& stats) {
  write_settings(st, body_id, stats);
  write_groups(st, body_id, stats);
  write_images(st, body_id, stats);
  write_envelopes(st, body_id, stats);
  write_sounds(st, body_id, stats);
}

}  // namespace

std::int64_t body_id(sqlite::StatementCache& st, PartCache& cache, const MapStats& stats,
                     const MapPartKeys& keys) {
  if (const auto found = find_part(st, cache, PartCache::Kind::body,
                                   "SELECT body_id FROM map_bodies WHERE key = ?", keys.body))
    return *found;
  const std::int64_t id = st.get("INSERT INTO map_bodies (key) VALUES (?)")
                              .bind_all(sqlite::blob_of(keys.body))
                              .insert();
  write_body_rows(st, id, stats);
  cache.add(PartCache::Kind::body, keys.body, id);
  return id;
}

std::optional<std::int64_t> feature_set_id(sqlite::StatementCache& st, PartCache& cache,
                                           const MapStats& stats, const MapPartKeys& keys) {
  if (!keys.features) {
    if (!stats.ddnet_features.empty())
      throw sqlite::IndexError("a map with DDNet features has no feature set key");
    return std::nullopt;
  }
  if (const auto found =
          find_part(st, cache, PartCache::Kind::feature_set,
                    "SELECT feature_set_id FROM feature_sets WHERE key = ?", *keys.features))
    return found;
  const std::int64_t id = st.get("INSERT INTO feature_sets (key) VALUES (?)")
                              .bind_all(sqlite::blob_of(*keys.features))
                              .insert();
  const std::set<std::string_view> features(stats.ddnet_features.begin(),
                                            stats.ddnet_features.end());
  auto& member_insert =
      st.get("INSERT INTO feature_set_members (feature_set_id, feature) VALUES (?, ?)");
  for (const auto f : features) member_insert.bind_all(id, f).run();
  cache.add(PartCache::Kind::feature_set, *keys.features, id);
  return id;
}

}  // namespace mapindex::index
