// The data items holding the tiles of a map's tile layers, found with the
// project's own decoders (datafile + teeworlds item decoders), so the floor
// inflates exactly what mapindex must inflate to count tiles: a tile layer's
// own `data` index for tiles and game layers, DDNet's extra index of its kind
// for front, tele, speedup, switch and tune layers (TilemapLayer::tile_data).
#pragma once

#include <cstdint>
#include <vector>

#include "stages/common/bytes.h"
#include "stages/decode/datafile/datafile.h"

namespace mapindex::bench {

// Data indices of the tile layers whose tile data can be read (layer item
// decodes, validate_tilemap finds nothing but colour warnings, index in
// range), in layer order.
std::vector<std::size_t> tile_data_indices(const datafile::Datafile& df);

}  // namespace mapindex::bench
