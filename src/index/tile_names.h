// The tile_names table: DDNet's tile and entity names per layer kind, from
// schema/tile_names.csv (embedded in the binary).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "extract/teeworlds_tile_names.h"

namespace mapindex::index {

// The rows and their one parser live with the measuring, which needs them
// first (src/extract/teeworlds_tile_names.h).
using teeworlds::parse_tile_names_csv;
using teeworlds::TileName;

// The embedded schema/tile_names.csv, parsed once. Throws IndexError when it
// does not parse.
const std::vector<TileName>& builtin_tile_names();

// Makes the tile_names table hold exactly `names`, each with the ddnet_mapinfo
// column it sets (mapinfo_name, src/extract/teeworlds_features.h), in one
// transaction, only when it differs; `before_writing` runs first then, and
// may throw to stop it. Throws IndexError on SQLite failures.
void sync_tile_names(sqlite3* db, const std::vector<TileName>& names,
                     const std::function<void()>& before_writing = {});

}  // namespace mapindex::index
