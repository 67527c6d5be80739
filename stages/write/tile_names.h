// The tile_names table: DDNet's tile and entity names per layer kind, from
// schema/tile_names.csv (embedded in the binary).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "stages/common/result.h"

namespace mapindex::index {

struct TileName {
  std::string layer_kind;  // "game", "front", "tele", "speedup", "switch", "tune"
  std::int32_t tile = 0;
  std::string name;
  std::string category;    // "tile" or "entity"
  bool operator==(const TileName&) const = default;
};

// Parses "layer_kind,tile,name,category" lines after that header. Fields are
// plain (no quoting); errors name the line.
Result<std::vector<TileName>> parse_tile_names_csv(std::string_view csv);

// The embedded schema/tile_names.csv, parsed once.
const std::vector<TileName>& builtin_tile_names();

// Makes the tile_names table hold exactly `names` (in one transaction, only
// when it differs). Throws IndexError on SQLite failures.
void sync_tile_names(sqlite3* db, const std::vector<TileName>& names);

}  // namespace mapindex::index
