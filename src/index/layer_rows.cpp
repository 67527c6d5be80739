// A map's layer rows: layer_defs (found by key, or new), their layer_data
// rows and children, and map_layers.
#include <array>
#include <bit>
#include <string>
#include <vector>

#include "common/hex.h"
#include "index/map_rows_internal.h"

namespace mapindex::index {

using sqlite::named;
namespace {

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
  void insert(sqlite::StatementCache& st, const std::vector<Row>& rows, Bind&& bind) const {
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

// -1 in the file means "none": NULL in the index.
std::optional<std::int32_t> index_or_null(std::int32_t index) {
  if (index == -1) return std::nullopt;
  return index;
}

// Whether the layer has a layer_data row: a key, or rows to hold.
bool has_layer_data(const LayerStats& l) {
  return l.data_key || !l.tile_counts.empty() || !l.entities.empty() || !l.numbers.empty() ||
         (l.spritetile && !l.spritetile->triggers.empty());
}

// The layer's layer_data_id: the stored row of its key when there is one
// (written by an earlier map), else a new row with its children (its tile
// counts added to `tile_rows`, to insert).
std::int64_t layer_data_id(sqlite::StatementCache& st, std::vector<TileRow>& tile_rows,
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
std::int64_t insert_layer_def(sqlite::StatementCache& st, std::vector<TileRow>& tile_rows,
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
  std::optional<sqlite::Blob> key_blob;
  if (key) key_blob = sqlite::blob_of(*key);
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
          named(":st_order_max", order_max), named(":name_raw", sqlite::bytes_if_not_utf8(l.name)),
          named(":layer_data_id", data_id), named(":key", key_blob))
      .insert();
}

}  // namespace

void write_layers(sqlite::StatementCache& st, PartCache& cache, int extractor_version,
                  std::int64_t map_id, const MapStats& stats, const MapPartKeys& keys) {
  struct MapLayer {
    std::int64_t map_id;
    std::int32_t layer_index;
    std::int64_t layer_def_id;
  };
  static const RowsSql map_layers_sql(
      "INSERT INTO map_layers (map_id, layer_index, layer_def_id) VALUES ", 3);
  if (keys.layers.size() != stats.layers.size())
    throw sqlite::IndexError("map " + std::to_string(map_id) + ": " +
                             std::to_string(keys.layers.size()) + " layer keys for " +
                             std::to_string(stats.layers.size()) + " layers");
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
  map_layers_sql.insert(st, rows, [](sqlite::Statement& s, int first, const MapLayer& r) {
    s.bind_from(first, r.map_id, r.layer_index, r.layer_def_id);
  });
  tile_rows_sql().insert(st, tile_rows, [](sqlite::Statement& s, int first, const TileRow& r) {
    s.bind_from(first, r.id, r.kind, r.tile, r.count);
  });
}

}  // namespace mapindex::index
