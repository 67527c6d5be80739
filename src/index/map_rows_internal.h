// What map_rows.cpp, layer_rows.cpp and body_rows.cpp share, internal to
// src/index: the SQL of named-parameter INSERTs, the lookup of a shared
// row by key, and the writers of a map's layers, body and feature set.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "index/map_rows.h"

namespace mapindex::index {

// "INSERT INTO table (a, b) VALUES (:a, :b)": each column's value is the
// parameter named after it (bound with Statement::bind_named).
std::string insert_sql(std::string_view table, std::span<const std::string_view> columns);

// The id of the shared row with `key`: from the cache, else found with
// `find_sql` (a SELECT of the id by key, from the table's index; then cached).
std::optional<std::int64_t> find_part(sqlite::StatementCache& st, PartCache& cache,
                                      PartCache::Kind kind, std::string_view find_sql,
                                      const Sha256& key);

// The map's layers: each layer's layer_defs row (found by its key, or new),
// listed in map_layers (layer_rows.cpp).
void write_layers(sqlite::StatementCache& st, PartCache& cache, int extractor_version,
                  std::int64_t map_id, const MapStats& stats, const MapPartKeys& keys);

// Deletes the layer_defs row `def` (and the layer_data row it owns, one
// without a key) unless a map lists it in map_layers.
void delete_layer_def_unless_listed(sqlite::StatementCache& st, std::int64_t def);

// The map's body: the stored one with its key, or a new one (body_rows.cpp).
std::int64_t body_id(sqlite::StatementCache& st, PartCache& cache, const MapStats& stats,
                     const MapPartKeys& keys);

// The map's DDNet feature set (none when it has no feature): the stored one
// with its key, or a new one (body_rows.cpp).
std::optional<std::int64_t> feature_set_id(sqlite::StatementCache& st, PartCache& cache,
                                           const MapStats& stats, const MapPartKeys& keys);

}  // namespace mapindex::index
