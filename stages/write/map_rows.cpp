#include "stages/write/map_rows.h"

#include <array>
#include <string>

namespace mapindex::index {
namespace {

// Columns of maps written by store_map, in bind order. first_run_id is only
// set on insert; sha256 is the conflict key.
constexpr std::array<std::string_view, 37> kMapColumns = {
    "sha256",         "crc32",           "size",           "extractor_version",
    "first_run_id",   "measured_run_id", "format",         "format_version",
    "status",         "errors",          "warnings",       "game_width",
    "game_height",    "author",          "map_version",    "credits",
    "license",        "crude_header",    "reversed_magic", "num_items",
    "num_data",       "uuid_types",      "tiles_per_set",  "num_groups",
    "num_layers",     "num_images",      "num_envelopes",  "num_envelope_points",
    "num_sounds",     "num_settings",    "num_automappers", "num_quads",
    "num_sound_sources", "author_raw",   "map_version_raw", "credits_raw",
    "license_raw"};

std::string make_upsert_map_sql() {
  std::string columns, values, updates;
  for (const auto column : kMapColumns) {
    if (!columns.empty()) {
      columns += ", ";
      values += ", ";
    }
    columns += column;
    values += "?";
    if (column == "sha256" || column == "first_run_id") continue;
    if (!updates.empty()) updates += ", ";
    updates += std::string(column) + " = excluded." + std::string(column);
  }
  return "INSERT INTO maps (" + columns + ") VALUES (" + values +
         ") ON CONFLICT (sha256) DO UPDATE SET " + updates + " RETURNING map_id";
}

const std::string& upsert_map_sql() {
  static const std::string sql = make_upsert_map_sql();
  return sql;
}

constexpr std::array<std::string_view, 14> kChildTables = {
    "settings",      "groups",     "layers",         "tile_counts", "entities",
    "layer_numbers", "images",     "image_users",    "envelopes",   "envelope_users",
    "sounds",        "sound_users", "ddnet_features", "problems"};

// -1 in the file means "none": NULL in the index.
std::optional<std::int32_t> index_or_null(std::int32_t index) {
  if (index == -1) return std::nullopt;
  return index;
}

// Sizes of external data are -1: NULL in the index.
std::optional<std::int64_t> size_or_null(std::int64_t size) {
  if (size < 0) return std::nullopt;
  return size;
}

// The original bytes of an optional text that is not UTF-8 (NULL otherwise).
std::optional<Blob> raw_text(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  return bytes_if_not_utf8(*text);
}

std::string join_words(const std::vector<std::string>& words) {
  std::string joined;
  for (const auto& w : words) {
    if (!joined.empty()) joined += ' ';
    joined += w;
  }
  return joined;
}

void delete_children(StatementCache& statements, std::int64_t map_id) {
  for (const auto table : kChildTables)
    statements.get("DELETE FROM " + std::string(table) + " WHERE map_id = ?")
        .bind_all(map_id)
        .run();
}

void write_layers(StatementCache& st, std::int64_t map_id, const MapStats& stats) {
  auto& layer_insert = st.get(
      "INSERT INTO layers (map_id, layer_index, group_index, kind, item_type, version, name, "
      "name_raw, "
      "width, height, detail, image, color_envelope, color_r, color_g, color_b, color_a, "
      "skip_compressed, non_empty, flip_x, flip_y, rotate, num_quads, num_sources, sound, "
      "st_tile_size_x, st_tile_size_y, st_z, st_scroll_x, st_scroll_y, st_preview_size, "
      "st_layer_lock, st_add_border, st_colliders, st_flip_both, st_order_min, st_order_max) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
      "?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  auto& tile_insert = st.get(
      "INSERT INTO tile_counts (map_id, layer_index, layer_kind, tile, count) "
      "VALUES (?, ?, ?, ?, ?) "
      "ON CONFLICT (map_id, layer_index, tile) DO UPDATE SET count = count + excluded.count");
  auto& entity_insert = st.get(
      "INSERT INTO entities (map_id, layer_index, layer_kind, entity, count) "
      "VALUES (?, ?, ?, ?, ?) "
      "ON CONFLICT (map_id, layer_index, entity) DO UPDATE SET count = count + excluded.count");
  auto& number_insert = st.get(
      "INSERT OR IGNORE INTO layer_numbers (map_id, layer_index, number) VALUES (?, ?, ?)");

  for (const auto& l : stats.layers) {
    const std::string_view kind = to_string(l.kind);
    const auto& s = l.spritetile;
    std::optional<double> tile_size_x, tile_size_y, z;
    std::optional<std::int64_t> scroll_x, scroll_y, preview_size, layer_lock, add_border,
        colliders, flip_both, order_min, order_max;
    if (s) {
      tile_size_x = s->tile_size_x;
      tile_size_y = s->tile_size_y;
      z = s->z;
      scroll_x = s->scroll_x;
      scroll_y = s->scroll_y;
      preview_size = s->preview_size;
      layer_lock = s->layer_lock;
      add_border = s->add_border;
      colliders = s->colliders;
      flip_both = s->flip_both;
      order_min = s->order_min;
      order_max = s->order_max;
    }
    layer_insert
        .bind_all(map_id, l.layer_index, index_or_null(l.group_index), kind, l.item_type,
                  l.version, l.name, bytes_if_not_utf8(l.name), l.width, l.height, l.detail, index_or_null(l.image),
                  index_or_null(l.color_envelope), l.color[0], l.color[1], l.color[2], l.color[3],
                  l.skip_compressed, l.non_empty, l.flip_x, l.flip_y, l.rotate, l.num_quads,
                  l.num_sources, index_or_null(l.sound), tile_size_x, tile_size_y, z, scroll_x,
                  scroll_y, preview_size, layer_lock, add_border, colliders, flip_both, order_min,
                  order_max)
        .run();
    for (const auto& t : l.tile_counts)
      tile_insert.bind_all(map_id, l.layer_index, kind, t.tile, t.count).run();
    for (const auto& e : l.entities)
      entity_insert.bind_all(map_id, l.layer_index, kind, e.name, e.count).run();
    for (const auto n : l.numbers) number_insert.bind_all(map_id, l.layer_index, n).run();
    if (s)
      for (const auto n : s->triggers) number_insert.bind_all(map_id, l.layer_index, n).run();
  }
}

void write_images(StatementCache& st, std::int64_t map_id, const MapStats& stats) {
  auto& image_insert = st.get(
      "INSERT INTO images (map_id, image_index, version, name, name_raw, width, height, external, "
      "rgba, standard_name, data_stored_size, data_size) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  auto& user_insert = st.get(
      "INSERT INTO image_users (map_id, image_index, layer_index, quads) VALUES (?, ?, ?, ?) "
      "ON CONFLICT (map_id, image_index, layer_index) DO UPDATE SET quads = quads + excluded.quads");
  for (const auto& i : stats.images) {
    image_insert
        .bind_all(map_id, i.image_index, i.version, i.name, bytes_if_not_utf8(i.name), i.width, i.height, i.external, i.rgba,
                  i.standard_name, size_or_null(i.data_stored_size), size_or_null(i.data_size))
        .run();
    for (const auto& u : i.used_by)
      user_insert.bind_all(map_id, i.image_index, u.layer_index, u.quads).run();
  }
}

void write_envelopes(StatementCache& st, std::int64_t map_id, const MapStats& stats) {
  auto& envelope_insert = st.get(
      "INSERT INTO envelopes (map_id, envelope_index, version, channels, kind, name, name_raw, "
      "synchronized, start_point, num_points, curve_step, curve_linear, curve_slow, curve_fast, "
      "curve_smooth, curve_bezier, curve_unknown) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  auto& user_insert = st.get(
      "INSERT INTO envelope_users (map_id, envelope_index, layer_index, role, count) "
      "VALUES (?, ?, ?, ?, ?) ON CONFLICT (map_id, envelope_index, layer_index, role) "
      "DO UPDATE SET count = count + excluded.count");
  static_assert(kNumCurveTypes == 7, "envelopes has one column per curve type");
  for (const auto& e : stats.envelopes) {
    const auto& c = e.curves;
    envelope_insert
        .bind_all(map_id, e.envelope_index, e.version, e.channels, to_string(e.kind), e.name,
                  bytes_if_not_utf8(e.name), e.synchronized, e.start_point, e.num_points, c[0],
                  c[1], c[2], c[3], c[4], c[5], c[6])
        .run();
    for (const auto& u : e.used_by)
      user_insert.bind_all(map_id, e.envelope_index, u.layer_index, u.role, u.count).run();
  }
}

void write_sounds(StatementCache& st, std::int64_t map_id, const MapStats& stats) {
  auto& sound_insert = st.get(
      "INSERT INTO sounds (map_id, sound_index, name, name_raw, external, data_stored_size, "
      "data_size) VALUES (?, ?, ?, ?, ?, ?, ?)");
  auto& user_insert = st.get(
      "INSERT INTO sound_users (map_id, sound_index, layer_index, sources) VALUES (?, ?, ?, ?) "
      "ON CONFLICT (map_id, sound_index, layer_index) "
      "DO UPDATE SET sources = sources + excluded.sources");
  for (const auto& s : stats.sounds) {
    sound_insert
        .bind_all(map_id, s.sound_index, s.name, bytes_if_not_utf8(s.name), s.external, size_or_null(s.data_stored_size),
                  size_or_null(s.data_size))
        .run();
    for (const auto& u : s.used_by)
      user_insert.bind_all(map_id, s.sound_index, u.layer_index, u.sources).run();
  }
}

void write_children(StatementCache& st, std::int64_t run_id, std::int64_t map_id,
                    const MapStats& stats) {
  auto& setting_insert =
      st.get("INSERT INTO settings (map_id, position, command, command_raw) VALUES (?, ?, ?, ?)");
  for (std::size_t i = 0; i < stats.settings.size(); ++i)
    setting_insert.bind_all(map_id, i, stats.settings[i], bytes_if_not_utf8(stats.settings[i]))
        .run();

  auto& group_insert = st.get(
      "INSERT INTO groups (map_id, group_index, version, name, name_raw, offset_x, offset_y, parallax_x, "
      "parallax_y, start_layer, num_layers, clipping, clip_x, clip_y, clip_w, clip_h, game_group) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  for (const auto& g : stats.groups)
    group_insert
        .bind_all(map_id, g.group_index, g.version, g.name, bytes_if_not_utf8(g.name), g.offset_x, g.offset_y, g.parallax_x,
                  g.parallax_y, g.start_layer, g.num_layers, g.clipping, g.clip_x, g.clip_y,
                  g.clip_w, g.clip_h, g.game_group)
        .run();

  write_layers(st, map_id, stats);
  write_images(st, map_id, stats);
  write_envelopes(st, map_id, stats);
  write_sounds(st, map_id, stats);

  auto& feature_insert =
      st.get("INSERT OR IGNORE INTO ddnet_features (map_id, feature) VALUES (?, ?)");
  for (const auto& f : stats.ddnet_features) feature_insert.bind_all(map_id, f).run();

  auto& problem_insert = st.get(
      "INSERT INTO problems (run_id, map_id, file_id, position, severity, code, message, "
      "location) VALUES (?, ?, NULL, ?, ?, ?, ?, ?)");
  for (std::size_t i = 0; i < stats.problems.size(); ++i) {
    const auto& p = stats.problems[i];
    problem_insert
        .bind_all(run_id, map_id, i, to_string(p.severity()), to_string(p.code), p.message, to_string(p.location))
        .run();
  }
}

}  // namespace

std::optional<StoredMap> find_map(StatementCache& statements, std::string_view sha256) {
  auto& select = statements.get("SELECT map_id, extractor_version FROM maps WHERE sha256 = ?");
  select.bind_all(sha256);
  std::optional<StoredMap> found;
  if (select.step())
    found = StoredMap{select.column_int(0), static_cast<int>(select.column_int(1))};
  select.reset();
  return found;
}

std::int64_t store_map(StatementCache& statements, std::int64_t run_id, int extractor_version,
                       const MapIdentity& identity, const MapStats& stats, bool replace) {
  std::int64_t errors = 0, warnings = 0;
  for (const auto& p : stats.problems) (p.severity() == Severity::error ? errors : warnings) += 1;
  std::int64_t quads = 0, sources = 0;
  for (const auto& l : stats.layers) {
    quads += l.num_quads;
    sources += l.num_sources;
  }

  auto& upsert = statements.get(upsert_map_sql());
  upsert.bind_all(identity.sha256, identity.crc32, identity.size, extractor_version, run_id,
                  run_id, to_string(stats.format), stats.format_version, to_string(stats.status),
                  errors, warnings, stats.game_width, stats.game_height, stats.author,
                  stats.map_version, stats.credits, stats.license, stats.crude_header,
                  stats.reversed_magic, stats.num_items, stats.num_data,
                  join_words(stats.uuid_types), stats.tiles_per_set, stats.groups.size(),
                  stats.layers.size(), stats.images.size(), stats.envelopes.size(),
                  stats.num_envelope_points, stats.sounds.size(), stats.settings.size(),
                  stats.num_automappers, quads, sources, raw_text(stats.author),
                  raw_text(stats.map_version), raw_text(stats.credits), raw_text(stats.license));
  if (!upsert.step()) throw IndexError("storing map " + std::string(identity.sha256) + ": no map_id");
  const std::int64_t map_id = upsert.column_int(0);
  upsert.reset();

  if (replace) delete_children(statements, map_id);
  write_children(statements, run_id, map_id, stats);
  return map_id;
}

}  // namespace mapindex::index
