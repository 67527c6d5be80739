#include "index/map_rows.h"

#include <array>
#include <span>
#include <string>
#include <vector>

#include "common/hex.h"
#include "index/layer_index.h"
#include "index/map_rows_internal.h"
#include "render/png.h"

namespace mapindex::index {

using sqlite::named;

std::string insert_sql(std::string_view table, std::span<const std::string_view> columns) {
  std::string names, values;
  for (const auto column : columns) {
    names += (names.empty() ? "" : ", ") + std::string(column);
    values += (values.empty() ? ":" : ", :") + std::string(column);
  }
  return "INSERT INTO " + std::string(table) + " (" + names + ") VALUES (" + values + ")";
}

std::optional<std::int64_t> find_part(sqlite::StatementCache& st, PartCache& cache,
                                      PartCache::Kind kind, std::string_view find_sql,
                                      const Sha256& key) {
  if (const auto id = cache.find(kind, key)) return id;
  auto& find = st.get(find_sql);
  const auto id = find.bind_all(sqlite::blob_of(key)).single_int();
  if (id) cache.add(kind, key, *id);
  return id;
}

void insert_problems(sqlite::StatementCache& st, std::int64_t run_id,
                     std::optional<std::int64_t> map_id, std::optional<std::int64_t> file_id,
                     const Problems& problems) {
  auto& problem_insert = st.get(
      "INSERT INTO problems (run_id, map_id, file_id, position, severity, code, message, "
      "location) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const auto& p = problems[i];
    problem_insert
        .bind_all(run_id, map_id, file_id, i, to_string(p.severity()), to_string(p.code), p.message,
                  to_string(p.location))
        .run();
  }
}

namespace {

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

// The tables of a layer_data row's children.
constexpr std::array<std::string_view, 4> kLayerDataChildTables = {
    "layer_data_tiles", "layer_data_entities", "layer_data_numbers", "layer_data_findings"};

// The tables of a body's rows.
constexpr std::array<std::string_view, 8> kBodyTables = {
    "body_settings",  "body_groups",         "body_images", "body_image_users",
    "body_envelopes", "body_envelope_users", "body_sounds", "body_sound_users"};

// The original bytes of an optional text that is not UTF-8 (NULL otherwise).
std::optional<sqlite::Blob> raw_text(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  return sqlite::bytes_if_not_utf8(*text);
}

std::string join_words(const std::vector<std::string>& words) {
  std::string joined;
  for (const auto& w : words) {
    if (!joined.empty()) joined += ' ';
    joined += w;
  }
  return joined;
}

// The map's thumbnail (none when it has no thumbnail): the stored one with
// the same layers_key and PNG, or a new one. One without a layers_key is
// always new: never shared, it goes with its map (delete_parts).
std::optional<std::int64_t> thumbnail_id(sqlite::StatementCache& st, PartCache& cache,
                                         const MapStats& stats, const MapPartKeys& keys) {
  if (stats.thumbnail_png.empty()) return std::nullopt;
  const Bytes png(stats.thumbnail_png.data(), stats.thumbnail_png.size());
  if (stats.thumbnail_key && !keys.thumbnail)
    throw sqlite::IndexError("a thumbnail with a layers_key has no thumbnail key");
  if (keys.thumbnail) {
    if (const auto id = cache.find(PartCache::Kind::thumbnail, *keys.thumbnail)) return id;
    auto& find = st.get(
        "SELECT thumbnail_id FROM thumbnail_images WHERE layers_key = ? AND png = ? LIMIT 1");
    if (const auto id = find.bind_all(sqlite::blob_of(*stats.thumbnail_key), sqlite::blob_of(png))
                            .single_int()) {
      cache.add(PartCache::Kind::thumbnail, *keys.thumbnail, *id);
      return id;
    }
  }
  const auto size = render::png_size(png);
  if (!size) throw sqlite::IndexError("the thumbnail is not a PNG");
  std::optional<sqlite::Blob> layers_key;
  if (stats.thumbnail_key) layers_key = sqlite::blob_of(*stats.thumbnail_key);
  const std::int64_t id =
      st.get("INSERT INTO thumbnail_images (width, height, png, layers_key) VALUES (?, ?, ?, ?)")
          .bind_all(size->first, size->second, sqlite::blob_of(png), layers_key)
          .insert();
  if (keys.thumbnail) cache.add(PartCache::Kind::thumbnail, *keys.thumbnail, id);
  return id;
}

void write_parts(sqlite::StatementCache& st, PartCache& cache, std::int64_t run_id,
                 int extractor_version, std::int64_t map_id, const MapStats& stats,
                 const MapPartKeys& keys) {
  const std::int64_t body = body_id(st, cache, stats, keys);
  const auto features = feature_set_id(st, cache, stats, keys);
  const auto thumbnail = thumbnail_id(st, cache, stats, keys);
  st.get(
        "INSERT INTO map_parts (map_id, body_id, feature_set_id, thumbnail_id) "
        "VALUES (?, ?, ?, ?)")
      .bind_all(map_id, body, features, thumbnail)
      .run();
  write_layers(st, cache, extractor_version, map_id, stats, keys);
  insert_problems(st, run_id, map_id, std::nullopt, stats.problems);
}

// The ids one statement selects, all rows.
std::vector<std::int64_t> ids_of(sqlite::Statement& select) {
  std::vector<std::int64_t> ids;
  while (select.step()) ids.push_back(select.column_int(0));
  select.reset();
  return ids;
}

}  // namespace

void delete_layer_def_unless_listed(sqlite::StatementCache& st, std::int64_t def) {
  if (st.get("SELECT EXISTS (SELECT 1 FROM map_layers WHERE layer_def_id = ?)")
          .bind_all(def)
          .single_int()
          .value_or(0))
    return;
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

namespace {

// Removes the map's parts and problems before it is written again: its
// map_layers and map_parts rows, and the shared rows no other map refers to
// then (a body, a feature set, a layer_defs row; a thumbnail without
// layers_key). A layer's own layer_data row (no key) goes with its
// layer_defs row; rows with a key stay, as thumbnails with a layers_key do:
// they are what later runs reuse.
void delete_parts(sqlite::StatementCache& st, PartCache& cache, std::int64_t map_id) {
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

  // Without map_layers_by_def (dropped for the rest of a large run,
  // layer_index.h) each of these lookups would read all of map_layers: the
  // rows no map lists any more are removed when the index is made again.
  if (layer_index_present(st))
    for (const auto def : defs) delete_layer_def_unless_listed(st, def);
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

void bind_map(sqlite::Statement& statement, std::int64_t run_id, int extractor_version,
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
      named(":sha256", to_hex(identity.sha256)), named(":crc32", identity.crc32),
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

void add_missing_thumbnail(sqlite::StatementCache& st, PartCache& cache, std::int64_t map_id,
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

std::optional<std::vector<std::uint8_t>> find_thumbnail(sqlite::StatementCache& statements,
                                                        const Sha256& layers_key) {
  auto& find = statements.get("SELECT png FROM thumbnail_images WHERE layers_key = ? LIMIT 1");
  find.bind_all(sqlite::blob_of(layers_key));
  if (!find.step()) {
    find.reset();
    return std::nullopt;
  }
  const std::string_view png = find.column_blob(0);
  std::vector<std::uint8_t> out(png.begin(), png.end());
  find.reset();
  return out;
}

bool any_layer_data(sqlite::StatementCache& statements) {
  return statements.get("SELECT EXISTS (SELECT 1 FROM layer_data)").single_int().value_or(0) != 0;
}

bool any_keyed_thumbnail(sqlite::StatementCache& statements) {
  return statements
             .get("SELECT EXISTS (SELECT 1 FROM thumbnail_images WHERE layers_key IS NOT NULL)")
             .single_int()
             .value_or(0) != 0;
}

std::optional<LayerData> find_layer_data(sqlite::StatementCache& statements, int extractor_version,
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

std::optional<StoredMap> find_map(sqlite::StatementCache& statements, const Sha256& sha256) {
  auto& select = statements.get("SELECT map_id, extractor_version FROM maps WHERE sha256 = ?");
  select.bind_all(to_hex(sha256));
  std::optional<StoredMap> found;
  if (select.step())
    found = StoredMap{select.column_int(0), static_cast<int>(select.column_int(1))};
  select.reset();
  return found;
}

StoredMapRows store_map(sqlite::StatementCache& statements, PartCache& cache, std::int64_t run_id,
                        int extractor_version, const MapIdentity& identity, const MapStats& stats,
                        const MapPartKeys& keys) {
  auto& insert = statements.get(insert_map_sql());
  bind_map(insert, run_id, extractor_version, identity, stats);
  if (const auto map_id = insert.insert_unless_conflict()) {
    write_parts(statements, cache, run_id, extractor_version, *map_id, stats, keys);
    return {*map_id, true};
  }
  // The content is indexed already.
  const auto stored = find_map(statements, identity.sha256);
  if (!stored) throw sqlite::IndexError("storing map " + to_hex(identity.sha256) + ": no map_id");
  if (stored->extractor_version >= extractor_version) {
    add_missing_thumbnail(statements, cache, stored->map_id, stats, keys);
    return {stored->map_id, false};
  }
  auto& upsert = statements.get(upsert_map_sql());
  bind_map(upsert, run_id, extractor_version, identity, stats);
  if (!upsert.step())
    throw sqlite::IndexError("storing map " + to_hex(identity.sha256) + ": no map_id");
  const std::int64_t map_id = upsert.column_int(0);
  upsert.reset();
  delete_parts(statements, cache, map_id);
  write_parts(statements, cache, run_id, extractor_version, map_id, stats, keys);
  return {map_id, true};
}

}  // namespace mapindex::index
