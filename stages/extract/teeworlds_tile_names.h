// Names of DDNet tiles and entities per layer kind, loaded once from the
// project's schema/tile_names.csv (embedded in the binary, see
// stages/extract/tile_names_csv.h) into flat 256-entry tables.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "stages/decode/teeworlds/map_items.h"

namespace mapindex::teeworlds {

enum class TileCategory : std::uint8_t { invalid, tile, entity };

struct TileNameTable {
  std::array<TileCategory, 256> category{};  // invalid for keys the layer does not define
  std::array<std::string, 256> name{};       // e.g. "SOLID", "SPAWN" (entities without "ENTITY_")
};

// The table of a physics layer kind (game, front, tele, speedup, switch,
// tune); nullptr for tiles layers (any index is a tileset tile) and
// non-tilemap layers. A `X_FIRST`..`X_LAST` pair in the CSV (time
// checkpoints 35..59) makes every key between them valid too.
const TileNameTable* tile_names(LayerKind kind);

}  // namespace mapindex::teeworlds
