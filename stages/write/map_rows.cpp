#include "stages/write/map_rows.h"

#include <array>
#include <bit>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "stages/common/hex.h"

#include "stages/render/png.h"

namespace mapindex::index {
namespace {

// "INSERT INTO table (a, b) VALUES (:a, :b)": each column's value is the
// parameter named after it (bound with Statement::bind_named).
std::string insert_sql(std::string_view table, std::span<const std::string_view> columns) {
  std::string names, values;
  for (const auto column : columns) {
    names += (names.empty() ? "" : ", ") + std::string(column);
    values += (values.empty() ? ":" : ", :") + std::string(column);
  }
  return "INSERT INTO " + std::string(table) + " (" + names + ") VALUES (" + values + ")";
}

// Rows of one table inserted several per statement: as many statements of
// kMaxRows rows as fit, the rest in statements of 16, 8, 4, 2 and 1 rows (at
// most five more). One row per statement spent most of the writer's SQLite
// steps on statement overhead.
class RowsSql {
 public:
  static constexpr int kMaxRows = 32;
  // `prefix`: "INSERT INTO t (a, b) VALUES " for `columns` values a row.
  RowsSql(std::string_view prefix, int columns) : columns_(columns) {
    std::string row = "(";
    for (int c = 0; c < columns; ++c) row += c ? ", ?" : "?";
    row += ")";
    for (std::size_t i = 0; i < texts_.size(); ++i) {
      texts_[i] = std::string(prefix);
      for (int r = 0; r < (1 << i); ++r) texts_[i] += (r ? ", " : "") + row;
    }
  }
  int columns() const { return columns_; }
  // The INSERT of `rows` rows (a power of two up to kMaxRows).
  const std::string& text(int rows) const {
    return texts_[static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(rows)))];
  }

  // Inserts `rows`: bind(statement, first, row) binds a row's values from
  // parameter `first` on (Statement::bind_from).
  template <class Row, class Bind>
  void insert(StatementCache& st, const std::vector<Row>& rows, Bind&& bind) const {
    std::size_t next = 0;
    for (int size = kMaxRows; size >= 1; size /= 2) {
      const auto n = static_cast<std::size_t>(size);
      while (rows.size() - next >= n) {
        auto& statement = st.get(text(size));
        statement
            .bind_rows(size, columns_,
                       [&](int r, int first) {
                         bind(statement, first, rows[next + static_cast<std::size_t>(r)]);
                       })
            .run();
        next += n;
        if (size != kMaxRows) break;  // a smaller size fits at most once
      }
    }
  }

 private:
  int columns_;
  std::array<std::string, 6> texts_;
};

// The tile counts of new layer_data rows, inserted once the map's layers are
// written. A layer's counts are unique by tile (counted in an array indexed
// by tile), so plain INSERTs: a duplicate fails the entry. Rows of several
// layers share a statement: most layers have fewer than 32 distinct tiles.
struct TileRow {
  std::int64_t id;
  std::string_view kind;  // to_string(LayerKind): static
  std::int32_t tile;
  std::int64_t count;
};
const RowsSql& tile_rows_sql() {
  static const RowsSql sql(
      "INSERT INTO layer_data_tiles (layer_data_id, layer_kind, tile, count) VALUES ", 4);
  return sql;
}

// Columns of maps written by store_map. first_run_id is only set on insert;
// sha256 is the conflict key.
constexpr std::array<std::string_view, 41> kMapColumns = {"sha256",
                                                          "crc32",
                                                          "size",
                                                          "extractor_version",
                                                          "first_run_id",
                                                          "measured_run_id",
                                                          "format",
                                                          "format_version",
                                                          "status",
                                                          "errors",
                                                          "warnings",
                                                          "game_width",
                                                          "game_height",
                                                          "author",
                                                          "map_version",
                                                          "credits",
                                                          "license",
                                                          "crude_header",
                                                          "reversed_magic",
                                                          "num_items",
                                                          "num_data",
                                                          "uuid_types",
                                                          "tiles_per_set",
                                                          "num_groups",
                                                          "num_layers",
                                                          "num_images",
                                                          "num_envelopes",
                                                          "num_envelope_points",
                                                          "num_sounds",
                                                          "num_settings",
                                                          "num_automappers",
                                                          "num_quads",
                                                          "num_sound_sources",
                                                          "author_raw",
                                                          "map_version_raw",
                                                          "credits_raw",
                                                          "license_raw",
                                                          "loads_teeworlds_06",
                                                          "loads_teeworlds_07",
                                                          "teeworlds_status",
                                                          "infos"};

// 1 / 0 when the map is a Teeworlds map, NULL for a SpriteTile level.
std::optional<std::int64_t> loads_flag(const MapStats& stats, bool TeeworldsVerdict::*field) {
  if (!stats.teeworlds) return std::nullopt;
  return (*stats.teeworlds).*field ? 1 : 0;
}

// The maps row of new content; a conflict (content indexed already) inserts
// nothing and is left to find_map.
const std::string& insert_map_sql() {
  static const std::string sql =
      insert_sql("maps", kMapColumns) + " ON CONFLICT (sha256) DO NOTHING";
  return sql;
}

// The maps row of content indexed by an older extractor, rewritten in place.
const std::string& upsert_map_sql() {
  static const std::string sql = [] {
    std::string updates;
    for (const auto column : kMapColumns) {
      if (column == "sha256" || column == "first_run_id") continue;
      if (!updates.empty()) updates += ", ";
      updates += std::string(column) + " = excluded." + std::string(column);
    }
    return insert_sql("maps", kMapColumns) + " ON CONFLICT (sha256) DO UPDATE SET " + updates +
           " RETURNING map_id";
  }();
  return sql;
}

// Columns of layer_defs, as the layers view shows them (map_id and
// layer_index come from map_layers), then the row's key.
constexpr std::array<std::string_view, 37> kLayerDefColumns = {
    "group_index",   "kind",         "item_type",       "version",        "name",
    "width",         "height",       "detail",          "image",          "color_envelope",
    "color_r",       "color_g",      "color_b",         "color_a",        "skip_compressed",
    "non_empty",     "flip_x",       "flip_y",          "rotate",         "num_quads",
    "num_sources",   "sound",        "st_tile_size_x",  "st_tile_size_y", "st_z",
    "st_scroll_x",   "st_scroll_y",  "st_preview_size", "st_layer_lock",  "st_add_border",
    "st_colliders",  "st_flip_both", "st_order_min",    "st_order_max",   "name_raw",
    "layer_data_id", "key"};

// The tables of a layer_data row's children.
constexpr std::array<std::string_view, 4> kLayerDataChildTables = {
    "layer_data_tiles", "layer_data_entities", "layer_data_numbers", "layer_data_findings"};

// The tables of a body's rows.
constexpr std::array<std::string_view, 8> kBodyTables = {
    "body_settings",  "body_groups",         "body_images", "body_image_users",
    "body_envelopes", "body_envelope_users", "body_sounds", "body_sound_users"};

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

// The id of the shared row with `key`: from the cache, else from `table`'s
// index on key (and then cached).
std::optional<std::int64_t> find_part(StatementCache& st, PartCache& cache, PartCache::Kind kind,
                                      std::string_view find_sql, const Sha256& key) {
  if (const auto id = cache.find(kind, key)) return id;
  auto& find = st.get(find_sql);
  const auto id = find.bind_all(blob_of(key)).single_int();
  if (id) cache.add(kind, key, *id);
  return id;
}

// Whether the layer has a layer_data row: a key, or rows to hold.
bool has_layer_data(const LayerStats& l) {
  return l.data_key || !l.tile_counts.empty() || !l.entities.empty() || !l.numbers.empty() ||
         (l.spritetile && !l.spritetile->triggers.empty());
}

// The layer's layer_data_id: the stored row of its key when there is one
// (written by an earlier map), else a new row with its children (its tile
// counts added to `tile_rows`, to insert).
std::int64_t layer_data_id(StatementCache& st, std::vector<TileRow>& tile_rows,
                           int extractor_version, const LayerStats& l) {
  const std::string_view kind = to_string(l.kind);
  std::optional<std::string> sha256;
  std::optional<std::int64_t> data_size;
  std::optional<std::int64_t> version_of_extractor;
  std::int64_t width = l.width, height = l.height, version = l.version;
  if (l.data_key) {
    const LayerDataKey& k = *l.data_key;
    sha256 = to_hex(k.sha256);
    data_size = k.data_size;
    version_of_extractor = extractor_version;
    width = k.width;
    height = k.height;
    version = k.version;
    auto& find = st.get(
        "SELECT layer_data_id FROM layer_data WHERE sha256 = ? AND kind = ? AND width = ? AND "
        "height = ? AND version = ? AND data_size = ? AND extractor_version = ?");
    find.bind_all(*sha256, to_string(k.kind), k.width, k.height, k.version, k.data_size,
                  extractor_version);
    std::optional<std::int64_t> found;
    if (find.step()) found = find.column_int(0);
    find.reset();
    if (found) return *found;
  }
  auto& insert = st.get(
      "INSERT INTO layer_data (sha256, kind, width, height, version, data_size, "
      "extractor_version, non_empty, flip_x, flip_y, rotate) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const std::int64_t id =
      insert
          .bind_all(sha256, kind, width, height, version, data_size, version_of_extractor,
                    l.non_empty, l.flip_x, l.flip_y, l.rotate)
          .insert();

  auto& entity_insert = st.get(
      "INSERT INTO layer_data_entities (layer_data_id, layer_kind, entity, count) "
      "VALUES (?, ?, ?, ?) "
      "ON CONFLICT (layer_data_id, entity) DO UPDATE SET count = count + excluded.count");
  auto& number_insert =
      st.get("INSERT OR IGNORE INTO layer_data_numbers (layer_data_id, number) VALUES (?, ?)");
  auto& finding_insert = st.get(
      "INSERT INTO layer_data_findings (layer_data_id, position, code, message) "
      "VALUES (?, ?, ?, ?)");
  for (const auto& t : l.tile_counts) tile_rows.push_back({id, kind, t.tile, t.count});
  for (const auto& e : l.entities) entity_insert.bind_all(id, kind, e.name, e.count).run();
  for (const auto n : l.numbers) number_insert.bind_all(id, n).run();
  if (l.spritetile)
    for (const auto n : l.spritetile->triggers) number_insert.bind_all(id, n).run();
  for (std::size_t i = 0; i < l.data_findings.size(); ++i)
    finding_insert.bind_all(id, i, to_string(l.data_findings[i].code), l.data_findings[i].message)
        .run();
  return id;
}

// A new layer_defs row for the layer (with its layer_data row, when it has
// one): its id.
std::int64_t insert_layer_def(StatementCache& st, std::vector<TileRow>& tile_rows,
                              int extractor_version, const LayerStats& l,
                              const std::optional<Sha256>& key) {
  static const std::string sql = insert_sql("layer_defs", kLayerDefColumns);
  const auto& s = l.spritetile;
  std::optional<double> tile_size_x, tile_size_y, z;
  std::optional<std::int64_t> scroll_x, scroll_y, preview_size, layer_lock, add_border, colliders,
      flip_both, order_min, order_max;
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
  std::optional<std::int64_t> data_id;
  if (has_layer_data(l)) data_id = layer_data_id(st, tile_rows, extractor_version, l);
  std::optional<Blob> key_blob;
  if (key) key_blob = blob_of(*key);
  return st.get(sql)
      .bind_named(
          named(":group_index", index_or_null(l.group_index)), named(":kind", to_string(l.kind)),
          named(":item_type", l.item_type), named(":version", l.version), named(":name", l.name),
          named(":width", l.width), named(":height", l.height), named(":detail", l.detail),
          named(":image", index_or_null(l.image)),
          named(":color_envelope", index_or_null(l.color_envelope)), named(":color_r", l.color[0]),
          named(":color_g", l.color[1]), named(":color_b", l.color[2]),
          named(":color_a", l.color[3]), named(":skip_compressed", l.skip_compressed),
          named(":non_empty", l.non_empty), named(":flip_x", l.flip_x), named(":flip_y", l.flip_y),
          named(":rotate", l.rotate), named(":num_quads", l.num_quads),
          named(":num_sources", l.num_sources), named(":sound", index_or_null(l.sound)),
          named(":st_tile_size_x", tile_size_x), named(":st_tile_size_y", tile_size_y),
          named(":st_z", z), named(":st_scroll_x", scroll_x), named(":st_scroll_y", scroll_y),
          named(":st_preview_size", preview_size), named(":st_layer_lock", layer_lock),
          named(":st_add_border", add_border), named(":st_colliders", colliders),
          named(":st_flip_both", flip_both), named(":st_order_min", order_min),
          named(":st_order_max", order_max), named(":name_raw", bytes_if_not_utf8(l.name)),
          named(":layer_data_id", data_id), named(":key", key_blob))
      .insert();
}

// The map's layers: each layer's layer_defs row (found by its key, or new),
// listed in map_layers.
void write_layers(StatementCache& st, PartCache& cache, int extractor_version, std::int64_t map_id,
                  const MapStats& stats, const MapPartKeys& keys) {
  struct MapLayer {
    std::int64_t map_id;
    std::int32_t layer_index;
    std::int64_t layer_def_id;
  };
  static const RowsSql map_layers_sql(
      "INSERT INTO map_layers (map_id, layer_index, layer_def_id) VALUES ", 3);
  if (keys.layers.size() != stats.layers.size())
    throw IndexError("map " + std::to_string(map_id) + ": " + std::to_string(keys.layers.size()) +
                     " layer keys for " + std::to_string(stats.layers.size()) + " layers");
  std::vector<MapLayer> rows;
  rows.reserve(stats.layers.size());
  std::vector<TileRow> tile_rows;
  for (std::size_t i = 0; i < stats.layers.size(); ++i) {
    const LayerStats& l = stats.layers[i];
    const auto& key = keys.layers[i];
    std::optional<std::int64_t> def_id;
    if (key)
      def_id = find_part(st, cache, PartCache::Kind::layer_def,
                         "SELECT layer_def_id FROM layer_defs WHERE key = ?", *key);
    if (!def_id) {
      def_id = insert_layer_def(st, tile_rows, extractor_version, l, key);
      if (key) cache.add(PartCache::Kind::layer_def, *key, *def_id);
    }
    rows.push_back({map_id, l.layer_index, *def_id});
  }
  map_layers_sql.insert(st, rows, [](Statement& s, int first, const MapLayer& r) {
    s.bind_from(first, r.map_id, r.layer_index, r.layer_def_id);
  });
  tile_rows_sql().insert(st, tile_rows, [](Statement& s, int first, const TileRow& r) {
    s.bind_from(first, r.id, r.kind, r.tile, r.count);
  });
}

// The rows of a new body: the map's settings, groups, images, envelopes,
// sounds and their users.
void write_body_rows(StatementCache& st, std::int64_t body_id, const MapStats& stats) {
  auto& setting_insert = st.get(
      "INSERT INTO body_settings (body_id, position, command, command_raw) VALUES (?, ?, ?, ?)");
  for (std::size_t i = 0; i < stats.settings.size(); ++i)
    setting_insert.bind_all(body_id, i, stats.settings[i], bytes_if_not_utf8(stats.settings[i]))
        .run();

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
                    named(":name_raw", bytes_if_not_utf8(g.name)), named(":offset_x", g.offset_x),
                    named(":offset_y", g.offset_y), named(":parallax_x", g.parallax_x),
                    named(":parallax_y", g.parallax_y), named(":start_layer", g.start_layer),
                    named(":num_layers", g.num_layers), named(":clipping", g.clipping),
                    named(":clip_x", g.clip_x), named(":clip_y", g.clip_y),
                    named(":clip_w", g.clip_w), named(":clip_h", g.clip_h),
                    named(":game_group", g.game_group))
        .run();

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
                    named(":name_raw", bytes_if_not_utf8(i.name)), named(":width", i.width),
                    named(":height", i.height), named(":external", i.external),
                    named(":rgba", i.rgba), named(":standard_name", i.standard_name),
                    named(":data_stored_size", size_or_null(i.data_stored_size)),
                    named(":data_size", size_or_null(i.data_size)))
        .run();
    for (const auto& u : i.used_by)
      image_user_insert.bind_all(body_id, i.image_index, u.layer_index, u.quads).run();
  }

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
                    named(":name_raw", bytes_if_not_utf8(e.name)),
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

  auto& sound_insert = st.get(
      "INSERT INTO body_sounds (body_id, sound_index, name, name_raw, external, "
      "data_stored_size, data_size) VALUES (?, ?, ?, ?, ?, ?, ?)");
  auto& sound_user_insert = st.get(
      "INSERT INTO body_sound_users (body_id, sound_index, layer_index, sources) "
      "VALUES (?, ?, ?, ?) ON CONFLICT (body_id, sound_index, layer_index) "
      "DO UPDATE SET sources = sources + excluded.sources");
  for (const auto& s : stats.sounds) {
    sound_insert
        .bind_all(body_id, s.sound_index, s.name, bytes_if_not_utf8(s.name), s.external,
                  size_or_null(s.data_stored_size), size_or_null(s.data_size))
        .run();
    for (const auto& u : s.used_by)
      sound_user_insert.bind_all(body_id, s.sound_index, u.layer_index, u.sources).run();
  }
}

// The map's body: the stored one with its key, or a new one.
std::int64_t body_id(StatementCache& st, PartCache& cache, const MapStats& stats,
                     const MapPartKeys& keys) {
  if (const auto found = find_part(st, cache, PartCache::Kind::body,
                                   "SELECT body_id FROM map_bodies WHERE key = ?", keys.body))
    return *found;
  const std::int64_t id =
      st.get("INSERT INTO map_bodies (key) VALUES (?)").bind_all(blob_of(keys.body)).insert();
  write_body_rows(st, id, stats);
  cache.add(PartCache::Kind::body, keys.body, id);
  return id;
}

// The map's DDNet feature set (none when it has no feature): the stored one
// with its key, or a new one.
std::optional<std::int64_t> feature_set_id(StatementCache& st, PartCache& cache,
                                           const MapStats& stats, const MapPartKeys& keys) {
  if (!keys.features) {
    if (!stats.ddnet_features.empty())
      throw IndexError("a map with DDNet features has no feature set key");
    return std::nullopt;
  }
  if (const auto found =
          find_part(st, cache, PartCache::Kind::feature_set,
                    "SELECT feature_set_id FROM feature_sets WHERE key = ?", *keys.features))
    return found;
  const std::int64_t id = st.get("INSERT INTO feature_sets (key) VALUES (?)")
                              .bind_all(blob_of(*keys.features))
                              .insert();
  const std::set<std::string_view> features(stats.ddnet_features.begin(),
                                            stats.ddnet_features.end());
  auto& member_insert =
      st.get("INSERT INTO feature_set_members (feature_set_id, feature) VALUES (?, ?)");
  for (const auto f : features) member_insert.bind_all(id, f).run();
  cache.add(PartCache::Kind::feature_set, *keys.features, id);
  return id;
}

// The map's thumbnail (none when it has no thumbnail): the stored one with
// the same layers_key and PNG, or a new one. One without a layers_key is
// always new: never shared, it goes with its map (delete_parts).
std::optional<std::int64_t> thumbnail_id(StatementCache& st, PartCache& cache,
                                         const MapStats& stats, const MapPartKeys& keys) {
  if (stats.thumbnail_png.empty()) return std::nullopt;
  const Bytes png(stats.thumbnail_png.data(), stats.thumbnail_png.size());
  if (stats.thumbnail_key && !keys.thumbnail)
    throw IndexError("a thumbnail with a layers_key has no thumbnail key");
  if (keys.thumbnail) {
    if (const auto id = cache.find(PartCache::Kind::thumbnail, *keys.thumbnail)) return id;
    auto& find = st.get(
        "SELECT thumbnail_id FROM thumbnail_images WHERE layers_key = ? AND png = ? LIMIT 1");
    if (const auto id = find.bind_all(blob_of(*stats.thumbnail_key), blob_of(png)).single_int()) {
      cache.add(PartCache::Kind::thumbnail, *keys.thumbnail, *id);
      return id;
    }
  }
  const auto size = render::png_size(png);
  if (!size) throw IndexError("the thumbnail is not a PNG");
  std::optional<Blob> layers_key;
  if (stats.thumbnail_key) layers_key = blob_of(*stats.thumbnail_key);
  const std::int64_t id =
      st.get("INSERT INTO thumbnail_images (width, height, png, layers_key) VALUES (?, ?, ?, ?)")
          .bind_all(size->first, size->second, blob_of(png), layers_key)
          .insert();
  if (keys.thumbnail) cache.add(PartCache::Kind::thumbnail, *keys.thumbnail, id);
  return id;
}

void write_problems(StatementCache& st, std::int64_t run_id, std::int64_t map_id,
                    const MapStats& stats) {
  auto& problem_insert = st.get(
      "INSERT INTO problems (run_id, map_id, file_id, position, severity, code, message, "
      "location) VALUES (?, ?, NULL, ?, ?, ?, ?, ?)");
  for (std::size_t i = 0; i < stats.problems.size(); ++i) {
    const auto& p = stats.problems[i];
    problem_insert
        .bind_all(run_id, map_id, i, to_string(p.severity()), to_string(p.code), p.message,
                  to_string(p.location))
        .run();
  }
}

void write_parts(StatementCache& st, PartCache& cache, std::int64_t run_id, int extractor_version,
                 std::int64_t map_id, const MapStats& stats, const MapPartKeys& keys) {
  const std::int64_t body = body_id(st, cache, stats, keys);
  const auto features = feature_set_id(st, cache, stats, keys);
  const auto thumbnail = thumbnail_id(st, cache, stats, keys);
  st.get(
        "INSERT INTO map_parts (map_id, body_id, feature_set_id, thumbnail_id) "
        "VALUES (?, ?, ?, ?)")
      .bind_all(map_id, body, features, thumbnail)
      .run();
  write_layers(st, cache, extractor_version, map_id, stats, keys);
  write_problems(st, run_id, map_id, stats);
}

// The ids one statement selects, all rows.
std::vector<std::int64_t> ids_of(Statement& select) {
  std::vector<std::int64_t> ids;
  while (select.step()) ids.push_back(select.column_int(0));
  select.reset();
  return ids;
}

// Removes the map's parts and problems before it is written again: its
// map_layers and map_parts rows, and the shared rows no other map refers to
// then (a body, a feature set, a layer_defs row; a thumbnail without
// layers_key). A layer's own layer_data row (no key) goes with its
// layer_defs row; rows with a key stay, as thumbnails with a layers_key do:
// they are what later runs reuse.
void delete_parts(StatementCache& st, PartCache& cache, std::int64_t map_id) {
  cache.clear();  // it may name rows deleted here
  std::optional<std::int64_t> body, features, thumbnail;
  {
    auto& parts =
        st.get("SELECT body_id, feature_set_id, thumbnail_id FROM map_parts WHERE map_id = ?");
    parts.bind_all(map_id);
    if (parts.step()) {
      body = parts.column_int(0);
      if (!parts.column_is_null(1)) features = parts.column_int(1);
      if (!parts.column_is_null(2)) thumbnail = parts.column_int(2);
    }
    parts.reset();
  }
  const auto defs =
      ids_of(st.get("SELECT layer_def_id FROM map_layers WHERE map_id = ?").bind_all(map_id));
  st.get("DELETE FROM map_layers WHERE map_id = ?").bind_all(map_id).run();
  st.get("DELETE FROM map_parts WHERE map_id = ?").bind_all(map_id).run();
  st.get("DELETE FROM problems WHERE map_id = ?").bind_all(map_id).run();

  for (const auto def : defs) {
    if (st.get("SELECT EXISTS (SELECT 1 FROM map_layers WHERE layer_def_id = ?)")
            .bind_all(def)
            .single_int()
            .value_or(0))
      continue;
    const auto own = ids_of(
        st.get("SELECT d.layer_data_id FROM layer_defs l JOIN layer_data d USING (layer_data_id) "
               "WHERE l.layer_def_id = ? AND d.sha256 IS NULL")
            .bind_all(def));
    st.get("DELETE FROM layer_defs WHERE layer_def_id = ?").bind_all(def).run();
    for (const auto id : own) {
      for (const auto table : kLayerDataChildTables)
        st.get("DELETE FROM " + std::string(table) + " WHERE layer_data_id = ?").bind_all(id).run();
      st.get("DELETE FROM layer_data WHERE layer_data_id = ?").bind_all(id).run();
    }
  }
  if (body && !st.get("SELECT EXISTS (SELECT 1 FROM map_parts WHERE body_id = ?)")
                   .bind_all(*body)
                   .single_int()
                   .value_or(0)) {
    for (const auto table : kBodyTables)
      st.get("DELETE FROM " + std::string(table) + " WHERE body_id = ?").bind_all(*body).run();
    st.get("DELETE FROM map_bodies WHERE body_id = ?").bind_all(*body).run();
  }
  if (features && !st.get("SELECT EXISTS (SELECT 1 FROM map_parts WHERE feature_set_id = ?)")
                       .bind_all(*features)
                       .single_int()
                       .value_or(0)) {
    st.get("DELETE FROM feature_set_members WHERE feature_set_id = ?").bind_all(*features).run();
    st.get("DELETE FROM feature_sets WHERE feature_set_id = ?").bind_all(*features).run();
  }
  if (thumbnail)
    st.get("DELETE FROM thumbnail_images WHERE thumbnail_id = ? AND layers_key IS NULL")
        .bind_all(*thumbnail)
        .run();
}

void bind_map(Statement& statement, std::int64_t run_id, int extractor_version,
              const MapIdentity& identity, const MapStats& stats) {
  std::int64_t errors = 0, warnings = 0, infos = 0;
  for (const auto& p : stats.problems)
    (p.severity() == Severity::error     ? errors
     : p.severity() == Severity::warning ? warnings
                                         : infos) += 1;
  std::int64_t quads = 0, sources = 0;
  for (const auto& l : stats.layers) {
    quads += l.num_quads;
    sources += l.num_sources;
  }
  statement.bind_named(
      named(":sha256", identity.sha256), named(":crc32", identity.crc32),
      named(":size", identity.size), named(":extractor_version", extractor_version),
      named(":first_run_id", run_id), named(":measured_run_id", run_id),
      named(":format", to_string(stats.format)), named(":format_version", stats.format_version),
      named(":status", to_string(stats.status)), named(":errors", errors),
      named(":warnings", warnings), named(":game_width", stats.game_width),
      named(":game_height", stats.game_height), named(":author", stats.author),
      named(":map_version", stats.map_version), named(":credits", stats.credits),
      named(":license", stats.license), named(":crude_header", stats.crude_header),
      named(":reversed_magic", stats.reversed_magic), named(":num_items", stats.num_items),
      named(":num_data", stats.num_data), named(":uuid_types", join_words(stats.uuid_types)),
      named(":tiles_per_set", stats.tiles_per_set), named(":num_groups", stats.groups.size()),
      named(":num_layers", stats.layers.size()), named(":num_images", stats.images.size()),
      named(":num_envelopes", stats.envelopes.size()),
      named(":num_envelope_points", stats.num_envelope_points),
      named(":num_sounds", stats.sounds.size()), named(":num_settings", stats.settings.size()),
      named(":num_automappers", stats.num_automappers), named(":num_quads", quads),
      named(":num_sound_sources", sources), named(":author_raw", raw_text(stats.author)),
      named(":map_version_raw", raw_text(stats.map_version)),
      named(":credits_raw", raw_text(stats.credits)),
      named(":license_raw", raw_text(stats.license)),
      named(":loads_teeworlds_06", loads_flag(stats, &TeeworldsVerdict::loads_06)),
      named(":loads_teeworlds_07", loads_flag(stats, &TeeworldsVerdict::loads_07)),
      named(":teeworlds_status", to_string(status_for(stats, Game::teeworlds))),
      named(":infos", infos));
}

void add_missing_thumbnail(StatementCache& st, PartCache& cache, std::int64_t map_id,
                           const MapStats& stats, const MapPartKeys& keys) {
  if (stats.thumbnail_png.empty()) return;
  auto& has = st.get("SELECT thumbnail_id IS NULL FROM map_parts WHERE map_id = ?");
  if (!has.bind_all(map_id).single_int().value_or(0)) return;
  const auto id = thumbnail_id(st, cache, stats, keys);
  st.get("UPDATE map_parts SET thumbnail_id = ? WHERE map_id = ?").bind_all(id, map_id).run();
}

}  // namespace

std::optional<std::int64_t> PartCache::find(Kind kind, const Sha256& key) const {
  const auto it = ids_.find(Key{key, kind});
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

void PartCache::add(Kind kind, const Sha256& key, std::int64_t id) {
  if (ids_.size() >= kMaxEntries) ids_.clear();
  ids_.insert_or_assign(Key{key, kind}, id);
}

std::optional<std::vector<std::uint8_t>> find_thumbnail(StatementCache& statements,
                                                        const Sha256& layers_key) {
  auto& find = statements.get("SELECT png FROM thumbnail_images WHERE layers_key = ? LIMIT 1");
  find.bind_all(blob_of(layers_key));
  if (!find.step()) {
    find.reset();
    return std::nullopt;
  }
  const std::string_view png = find.column_blob(0);
  std::vector<std::uint8_t> out(png.begin(), png.end());
  find.reset();
  return out;
}

bool any_layer_data(StatementCache& statements) {
  return statements.get("SELECT EXISTS (SELECT 1 FROM layer_data)").single_int().value_or(0) != 0;
}

bool any_keyed_thumbnail(StatementCache& statements) {
  return statements
             .get("SELECT EXISTS (SELECT 1 FROM thumbnail_images WHERE layers_key IS NOT NULL)")
             .single_int()
             .value_or(0) != 0;
}

std::optional<LayerData> find_layer_data(StatementCache& statements, int extractor_version,
                                         const LayerDataKey& key) {
  auto& find = statements.get(
      "SELECT layer_data_id, non_empty, flip_x, flip_y, rotate FROM layer_data "
      "WHERE sha256 = ? AND kind = ? AND width = ? AND height = ? AND version = ? AND "
      "data_size = ? AND extractor_version = ?");
  find.bind_all(to_hex(key.sha256), to_string(key.kind), key.width, key.height, key.version,
                key.data_size, extractor_version);
  if (!find.step()) {
    find.reset();
    return std::nullopt;
  }
  const std::int64_t id = find.column_int(0);
  LayerData d;
  d.non_empty = find.column_int(1);
  d.flip_x = find.column_int(2);
  d.flip_y = find.column_int(3);
  d.rotate = find.column_int(4);
  find.reset();

  auto& tiles = statements.get(
      "SELECT tile, count FROM layer_data_tiles WHERE layer_data_id = ? ORDER BY tile");
  tiles.bind_all(id);
  while (tiles.step())
    d.tile_counts.push_back(
        TileCount{static_cast<std::int32_t>(tiles.column_int(0)), tiles.column_int(1)});
  tiles.reset();
  auto& entities = statements.get(
      "SELECT entity, count FROM layer_data_entities WHERE layer_data_id = ? ORDER BY entity");
  entities.bind_all(id);
  while (entities.step())
    d.entities.push_back(NamedCount{entities.column_text(0), entities.column_int(1)});
  entities.reset();
  auto& numbers = statements.get(
      "SELECT number FROM layer_data_numbers WHERE layer_data_id = ? ORDER BY number");
  numbers.bind_all(id);
  while (numbers.step()) d.numbers.push_back(static_cast<std::int32_t>(numbers.column_int(0)));
  numbers.reset();
  auto& findings = statements.get(
      "SELECT code, message FROM layer_data_findings WHERE layer_data_id = ? ORDER BY position");
  findings.bind_all(id);
  bool known_codes = true;
  while (findings.step()) {
    const std::string code = findings.column_text(0);
    // Codes are stored as their strings; the string must name one code.
    std::optional<Code> parsed;
    int matches = 0;
    for (const auto& info : code_table())
      if (info.string == code) {
        parsed = info.code;
        ++matches;
      }
    if (matches != 1) {
      known_codes = false;
      break;
    }
    d.findings.push_back(LayerFinding{*parsed, findings.column_text(1)});
  }
  findings.reset();
  if (!known_codes) return std::nullopt;
  return d;
}

std::optional<StoredMap> find_map(StatementCache& statements, std::string_view sha256) {
  auto& select = statements.get("SELECT map_id, extractor_version FROM maps WHERE sha256 = ?");
  select.bind_all(sha256);
  std::optional<StoredMap> found;
  if (select.step())
    found = StoredMap{select.column_int(0), static_cast<int>(select.column_int(1))};
  select.reset();
  return found;
}

std::int64_t store_map(StatementCache& statements, PartCache& cache, std::int64_t run_id,
                       int extractor_version, const MapIdentity& identity, const MapStats& stats,
                       const MapPartKeys& keys) {
  auto& insert = statements.get(insert_map_sql());
  bind_map(insert, run_id, extractor_version, identity, stats);
  if (const auto map_id = insert.insert_unless_conflict()) {
    write_parts(statements, cache, run_id, extractor_version, *map_id, stats, keys);
    return *map_id;
  }
  // The content is indexed already.
  const auto stored = find_map(statements, identity.sha256);
  if (!stored) throw IndexError("storing map " + std::string(identity.sha256) + ": no map_id");
  if (stored->extractor_version >= extractor_version) {
    add_missing_thumbnail(statements, cache, stored->map_id, stats, keys);
    return stored->map_id;
  }
  auto& upsert = statements.get(upsert_map_sql());
  bind_map(upsert, run_id, extractor_version, identity, stats);
  if (!upsert.step())
    throw IndexError("storing map " + std::string(identity.sha256) + ": no map_id");
  const std::int64_t map_id = upsert.column_int(0);
  upsert.reset();
  delete_parts(statements, cache, map_id);
  write_parts(statements, cache, run_id, extractor_version, map_id, stats, keys);
  return map_id;
}

}  // namespace mapindex::index
