// Names of DDNet tiles and entities per layer kind, from the project's
// schema/tile_names.csv (embedded in the binary, see
// src/extract/tile_names_csv.h). One parser reads it for both users: the flat
// 256-entry tables the measuring uses (tile.invalid, entities) and the
// tile_names table the writer fills (src/index/tile_names.h).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "decode/teeworlds/map_items.h"

namespace mapindex::teeworlds {

// One row of tile_names.csv.
struct TileName {
  std::string layer_kind;  // "game", "front", "tele", "speedup", "switch", "tune"
  std::int32_t tile = 0;   // 0..255
  std::string name;
  std::string category;  // "tile" or "entity"
  bool operator==(const TileName&) const = default;
};

// The grammar of tile_names.csv: lines end in "\n" or "\r\n"; empty lines and
// lines starting with '#' are skipped; the first other line is the header
// "layer_kind,tile,name,category"; every later line has those four fields,
// separated by commas. A field may be quoted ("..."), a quote inside written
// twice (""); a quoted field cannot span lines. layer_kind is one of the six
// physics layer kinds, tile a number 0..255, name not empty, category "tile"
// or "entity"; a (layer_kind, tile) pair appears once. Errors name the line.
// The rows come back sorted by (layer_kind, tile).
Result<std::vector<TileName>> parse_tile_names_csv(std::string_view csv);

// The embedded schema/tile_names.csv, parsed once. Throws std::runtime_error
// when it does not parse (a broken build; tests parse it).
const std::vector<TileName>& builtin_tile_names();

enum class TileCategory : std::uint8_t { invalid, tile, entity };

struct TileNameTable {
  std::array<TileCategory, 256> category{};  // invalid for keys the layer does not define
  std::array<std::string, 256> name{};       // e.g. "SOLID", "SPAWN" (entities without "ENTITY_")
};

// One table per tilemap layer kind, indexed by LayerKind.
using TileNameTables = std::array<TileNameTable, kNumTilemapKinds>;

// The tables holding `rows`.
TileNameTables tile_name_tables(const std::vector<TileName>& rows);

// The builtin table of a physics layer kind (game, front, tele, speedup,
// switch, tune); nullptr for tiles layers (any index is a tileset tile) and
// non-tilemap layers. Only keys with a row of their own are valid.
const TileNameTable* tile_names(LayerKind kind);

}  // namespace mapindex::teeworlds
