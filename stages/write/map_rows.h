// The rows of one measured map: the maps row and its child tables (settings,
// groups, layers, tile counts, entities, numbers, images, envelopes, sounds,
// their users, DDNet features, map problems). Runs inside the caller's
// transaction; throws IndexError.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "stages/extract/layer_data.h"
#include "stages/extract/map_stats.h"
#include "stages/sqlite/statement.h"

namespace mapindex::index {

struct MapIdentity {
  std::string_view sha256;  // 64 lowercase hex digits
  std::uint32_t crc32 = 0;
  std::uint64_t size = 0;
};

// The map_id and extractor version of the map with this content, if indexed.
struct StoredMap {
  std::int64_t map_id = 0;
  int extractor_version = 0;
};
std::optional<StoredMap> find_map(StatementCache& statements, std::string_view sha256);

// The PNG of a thumbnail stored with `layers_key` (thumbnails.layers_key:
// MapStats::thumbnail_key), or nullopt when the index has none.
std::optional<std::vector<std::uint8_t>> find_thumbnail(StatementCache& statements,
                                                        const Sha256& layers_key);

// Whether the index holds any tile layer result (layer_data) / any thumbnail
// with a layers_key: a reader may skip looking up an index that holds none.
bool any_layer_data(StatementCache& statements);
bool any_keyed_thumbnail(StatementCache& statements);

// The stored result of a tile layer's data (table layer_data and its
// children) measured by `extractor_version`, or nullopt when the index has
// none (or holds a finding code this build does not know: measured again).
std::optional<LayerData> find_layer_data(StatementCache& statements, int extractor_version,
                                         const LayerDataKey& key);

// Inserts the maps row (or updates it in place, keeping map_id and
// first_run_id, when the content is already indexed), deletes the map's old
// child rows when `replace` (the content was indexed before) and writes the
// new ones. Returns the map_id.
std::int64_t store_map(StatementCache& statements, std::int64_t run_id, int extractor_version,
                       const MapIdentity& identity, const MapStats& stats, bool replace);

// A map stored already (by this extractor version) that has no thumbnail
// (indexed with --no-thumbnails) gets the one in `stats`, if any.
void add_missing_thumbnail(StatementCache& statements, std::int64_t map_id, const MapStats& stats);

}  // namespace mapindex::index
