// Whether a Teeworlds map loads in Teeworlds 0.6 and 0.7, not only in DDNet.
// DDNet's loader is the strictest; legacy and mod maps (infclass, ...) run on
// servers built from Teeworlds 0.6 or 0.7, whose loaders check much less but
// crash on some maps DDNet refuses cleanly. The rules per problem code, and
// where they come from, are in docs/formats/map-loaders.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stages/common/problem.h"

namespace mapindex {

struct MapStats;
enum class MapStatus : unsigned char;

// The game an archive is for (`--game`): which verdict status, summary and
// audit speak of.
enum class Game : unsigned char { ddnet, teeworlds };
std::string_view to_string(Game g);             // "ddnet", "teeworlds"
std::optional<Game> parse_game(std::string_view name);

// What one Teeworlds version does with a map that has a DDNet error.
enum class GameRule : unsigned char {
  loads,                // the version does not check it, or it is harmless there
  fails,                // refuses the map, or crashes / reads out of bounds on it
  fails_at_game_layer,  // fails when the problem is at the game layer (or the file)
  fails_at_tile_layer,  // fails when the problem is at the game layer or a plain tiles layer
};

struct TeeworldsRules {
  GameRule v06 = GameRule::fails;
  GameRule v07 = GameRule::fails;
};

// The rules for an error code; an error code without its own rules fails in
// both versions (the safe reading).
TeeworldsRules teeworlds_rules(std::string_view code);

// Every code with its own rules, as the README's table row of it:
// "| M11 | game layer | tile layers |".
std::vector<std::string> teeworlds_rule_rows();

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
