// The rows of one measured map: the maps row, what it shares with other maps
// (schema/011_stored_once.sql: its layers, body, DDNet features and
// thumbnail, each written only when no stored row has its key) and its
// problems. Runs inside the caller's transaction; throws IndexError.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "extract/layer_data.h"
#include "extract/map_stats.h"
#include "index/part_key.h"
#include "sqlite/statement.h"

namespace mapindex::index {

struct MapIdentity {
  const Sha256& sha256;
  std::uint32_t crc32 = 0;
  std::uint64_t size = 0;
};

// The map_id and extractor version of the map with this content, if indexed.
struct StoredMap {
  std::int64_t map_id = 0;
  int extractor_version = 0;
};
std::optional<StoredMap> find_map(sqlite::StatementCache& statements, const Sha256& sha256);

// The PNG of a thumbnail stored with `layers_key` (thumbnail_images.layers_key:
// MapStats::thumbnail_key), or nullopt when the index has none.
std::optional<std::vector<std::uint8_t>> find_thumbnail(sqlite::StatementCache& statements,
                                                        const Sha256& layers_key);

// Whether the index holds any tile layer result (layer_data) / any thumbnail
// with a layers_key: a reader may skip looking up an index that holds none.
bool any_layer_data(sqlite::StatementCache& statements);
bool any_keyed_thumbnail(sqlite::StatementCache& statements);

// The stored result of a tile layer's data (table layer_data and its
// children) measured by `extractor_version`, or nullopt when the index has
// none (or holds a finding code this build does not know: measured again).
std::optional<LayerData> find_layer_data(sqlite::StatementCache& statements, int extractor_version,
                                         const LayerDataKey& key);

// The ids of shared rows (layer_defs, map_bodies, feature_sets,
// thumbnail_images) by key, as the writer found or wrote them: a map that
// repeats known parts is written without looking them up in the index. It
// holds rows of the open transaction too: whoever rolls back any write must
// clear() it. At most kMaxEntries; full, it starts again empty.
class PartCache {
 public:
  enum class Kind : std::uint8_t { layer_def, body, feature_set, thumbnail };
  static constexpr std::size_t kMaxEntries = 1u << 17;

  std::optional<std::int64_t> find(Kind kind, const Sha256& key) const;
  void add(Kind kind, const Sha256& key, std::int64_t id);
  void clear() { ids_.clear(); }
  std::size_t size() const { return ids_.size(); }

 private:
  struct Key {
    Sha256 sha256;
    Kind kind;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const noexcept {
      return Sha256Hash{}(k.sha256) ^ static_cast<std::size_t>(k.kind);
    }
  };
  std::unordered_map<Key, std::int64_t, KeyHash> ids_;
};

// Inserts `problems` as the problems rows, in order, of the map `map_id` or
// of the file `file_id` (exactly one of the two is given).
void insert_problems(sqlite::StatementCache& statements, std::int64_t run_id,
                     std::optional<std::int64_t> map_id, std::optional<std::int64_t> file_id,
                     const Problems& problems);

// Stores a measured map: the maps row and its parts, found by their `keys`
// (part_keys of `stats`) in `cache` or the index, written when new. Content
// indexed already by `extractor_version` (or a newer one) keeps its rows,
// and gets the thumbnail in `stats` if it has none (it was indexed with
// --no-thumbnails); content indexed by an older version is updated in place
// (keeping map_id and first_run_id), its old parts replaced (those no other
// map refers to are deleted).
struct StoredMapRows {
  std::int64_t map_id = 0;
  // Whether it wrote the map's parts (a map_layers row per layer among
  // them): not for content indexed already by this extractor or a newer one.
  bool parts_written = false;
};
StoredMapRows store_map(sqlite::StatementCache& statements, PartCache& cache, std::int64_t run_id,
                        int extractor_version, const MapIdentity& identity, const MapStats& stats,
                        const MapPartKeys& keys);

}  // namespace mapindex::index
