// Whether a Teeworlds map loads in Teeworlds 0.6 and 0.7, not only in DDNet.
// DDNet's loader is the strictest; legacy and mod maps (infclass, ...) run on
// servers built from Teeworlds 0.6 or 0.7, whose loaders check much less but
// crash on some maps DDNet refuses cleanly. What each version does with each
// DDNet rule is in the problem code table (its Teeworlds 0.6 / 0.7 columns,
// src/common/problem_codes.h); the evidence is docs/formats/map-loaders.md.
#pragma once

#include <optional>
#include <string_view>

#include "common/problem.h"

namespace mapindex {

struct MapStats;
enum class MapStatus : unsigned char;

// The game an archive is for (`--game`): which verdict status, summary and
// audit speak of.
enum class Game : unsigned char { ddnet, teeworlds };
std::string_view to_string(Game g);  // "ddnet", "teeworlds"
std::optional<Game> parse_game(std::string_view name);

// The Teeworlds verdict of a measured Teeworlds map.
struct TeeworldsVerdict {
  bool loads_06 = true;
  bool loads_07 = true;
};

// From the map's error problems and layers (the later 0.7 reader, 0.7.5).
// Besides the DDNet errors, Teeworlds 0.6 fails on a skip-compressed (tilemap
// version 4) game layer, which DDNet and 0.7 read.
TeeworldsVerdict teeworlds_verdict(const MapStats& stats);

// The map's status for `game`: DDNet's verdict as it is; for Teeworlds,
// rejected when neither 0.6 nor 0.7 loads the map, otherwise ok when DDNet
// finds nothing and warnings when DDNet has findings (its errors then do not
// stop the map from loading in Teeworlds). A SpriteTile level has one status.
MapStatus status_for(const MapStats& stats, Game game);

}  // namespace mapindex
