// DDNet's 40 per-map "features" (the "has tile X" flags ddnet.org shows per
// map), derived per layer kind as docs/schema.md's feature table lists them. Unlike the
// public tool, which adds every layer into one histogram, a key counts only on
// the layers that give it that meaning: speedup 29 is BOOST (not TELECHECK),
// and every time checkpoint 35..59 counts.
#pragma once

#include <array>
#include <bitset>
#include <string>
#include <string_view>
#include <vector>

#include "decode/teeworlds/map_items.h"

namespace mapindex::teeworlds {

inline constexpr std::array<std::string_view, 40> kDdnetFeatureNames = {
    "DEATH",          "THROUGH",        "JUMP",          "DFREEZE",      "EHOOK_START",
    "HIT_END",        "SOLO_START",     "TELE_GUN",      "TELE_GRENADE", "TELE_LASER",
    "NPC_START",      "SUPER_START",    "JETPACK_START", "WALLJUMP",     "NPH_START",
    "WEAPON_SHOTGUN", "WEAPON_GRENADE", "POWERUP_NINJA", "WEAPON_RIFLE", "LASER_STOP",
    "CRAZY_SHOTGUN",  "DRAGGER",        "DOOR",          "SWITCH_TIMED", "SWITCH",
    "STOP",           "THROUGH_ALL",    "TUNE",          "OLDLASER",     "TELEINEVIL",
    "TELEIN",         "TELECHECK",      "TELEINWEAPON",  "TELEINHOOK",   "CHECKPOINT_FIRST",
    "BONUS",          "BOOST",          "PLASMAF",       "PLASMAE",      "PLASMAU"};

// Keys present (non-zero count) on the layers the game uses, per tilemap kind
// (indexed by the tilemap kinds of LayerKind).
using KeysPresent = std::array<std::bitset<256>, kNumTilemapKinds>;

// The features present, in the order of kDdnetFeatureNames.
std::vector<std::string> ddnet_features(const KeysPresent& present);

// The ddnet_mapinfo column (a name of kDdnetFeatureNames) that key `key` sets
// on a layer of kind `layer_kind` ("game", "front", ... as to_string(LayerKind)
// spells it), or "" when it sets none: game 106 JETPACK_ENABLE sets
// JETPACK_START. The index's tile_names.mapinfo_name.
std::string_view ddnet_feature_of(std::string_view layer_kind, int key);

// The rule that sets feature f (index into kDdnetFeatureNames) as a row of the
// docs/schema.md's table: "| `DEATH` | game, front, switch | 2 |" (layer kinds, then
// the tile indices, or the `type` byte on tele, speedup and switch layers).
std::string ddnet_feature_rule_row(std::size_t f);

}  // namespace mapindex::teeworlds
