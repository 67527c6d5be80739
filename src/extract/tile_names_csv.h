// schema/tile_names.csv, the one table of tile names and categories, compiled
// into the extract layer by scripts/embed_schema.cmake (MODE=csv).
#pragma once

#include <string_view>

namespace mapindex::teeworlds {

std::string_view embedded_tile_names_csv();

}  // namespace mapindex::teeworlds
