#include "stages/extract/teeworlds_features.h"

#include <initializer_list>

namespace mapindex::teeworlds {
namespace {

enum LayerMask : unsigned {
  kGame = 1u << static_cast<unsigned>(LayerType::game),
  kTele = 1u << static_cast<unsigned>(LayerType::tele),
  kSpeedup = 1u << static_cast<unsigned>(LayerType::speedup),
  kFront = 1u << static_cast<unsigned>(LayerType::front),
  kSwitch = 1u << static_cast<unsigned>(LayerType::switch_layer),
  kTune = 1u << static_cast<unsigned>(LayerType::tune),
  kGameFrontSwitch = kGame | kFront | kSwitch,
};

struct Range {
  int first, last;
};

struct Feature {
  unsigned layers;
  std::initializer_list<Range> keys;
};

// Same order as kDdnetFeatureNames.
const Feature kFeatures[] = {
    {kGameFrontSwitch, {{2, 2}}},                // DEATH
    {kGameFrontSwitch, {{6, 6}}},                // THROUGH
    {kSwitch, {{7, 7}}},                         // JUMP
    {kGameFrontSwitch, {{12, 12}}},              // DFREEZE
    {kGameFrontSwitch, {{17, 17}, {73, 73}}},    // EHOOK_START
    {kGameFrontSwitch, {{20, 20}, {74, 74}}},    // HIT_END
    {kGameFrontSwitch, {{21, 21}}},              // SOLO_START
    {kGameFrontSwitch, {{96, 96}}},              // TELE_GUN
    {kGameFrontSwitch, {{112, 112}}},            // TELE_GRENADE
    {kGameFrontSwitch, {{128, 128}}},            // TELE_LASER
    {kGameFrontSwitch, {{104, 104}, {72, 72}}},  // NPC_START
    {kGameFrontSwitch, {{105, 105}}},            // SUPER_START
    {kGameFrontSwitch, {{106, 106}}},            // JETPACK_START
    {kGameFrontSwitch, {{16, 16}}},              // WALLJUMP
    {kGameFrontSwitch, {{107, 107}, {75, 75}}},  // NPH_START
    {kGameFrontSwitch, {{199, 199}}},            // WEAPON_SHOTGUN
    {kGameFrontSwitch, {{200, 200}}},            // WEAPON_GRENADE
    {kGameFrontSwitch, {{201, 201}}},            // POWERUP_NINJA
    {kGameFrontSwitch, {{202, 202}}},            // WEAPON_RIFLE
    {kGameFrontSwitch, {{203, 209}}},            // LASER_STOP
    {kGameFrontSwitch, {{224, 225}}},            // CRAZY_SHOTGUN
    {kGameFrontSwitch, {{233, 238}}},            // DRAGGER
    {kGameFrontSwitch, {{240, 240}}},            // DOOR
    {kSwitch, {{22, 23}}},                       // SWITCH_TIMED
    {kGameFrontSwitch, {{24, 25}}},              // SWITCH
    {kGameFrontSwitch, {{60, 62}}},              // STOP
    {kGameFrontSwitch, {{66, 67}, {5, 5}}},      // THROUGH_ALL
    {kTune, {{68, 68}}},                         // TUNE
    {kGameFrontSwitch, {{71, 71}}},              // OLDLASER
    {kTele, {{10, 10}}},                         // TELEINEVIL
    {kTele, {{26, 26}}},                         // TELEIN
    {kTele, {{29, 29}}},                         // TELECHECK
    {kTele, {{14, 14}}},                         // TELEINWEAPON
    {kTele, {{15, 15}}},                         // TELEINHOOK
    {kGameFrontSwitch, {{35, 59}}},              // CHECKPOINT_FIRST
    {kGameFrontSwitch, {{95, 95}, {79, 79}}},    // BONUS
    {kSpeedup, {{28, 29}}},                      // BOOST
    {kGameFrontSwitch, {{221, 222}}},            // PLASMAF
    {kGameFrontSwitch, {{220, 220}}},            // PLASMAE
    {kGameFrontSwitch, {{223, 223}}},            // PLASMAU
};
static_assert(std::size(kFeatures) == kDdnetFeatureNames.size());

}  // namespace

std::string ddnet_feature_rule_row(std::size_t f) {
  const Feature& feature = kFeatures[f];
  std::string layers, keys;
  for (unsigned kind = 0; kind < 7; ++kind) {
    if (!(feature.layers & (1u << kind))) continue;
    if (!layers.empty()) layers += ", ";
    layers += layer_type_name(static_cast<LayerType>(kind));
  }
  for (const Range& r : feature.keys) {
    if (!keys.empty()) keys += ", ";
    keys += std::to_string(r.first);
    if (r.last != r.first) keys += ".." + std::to_string(r.last);
  }
  return "| `" + std::string(kDdnetFeatureNames[f]) + "` | " + layers + " | " + keys + " |";
}

std::vector<std::string> ddnet_features(const KeysPresent& present) {
  std::vector<std::string> out;
  for (std::size_t f = 0; f < std::size(kFeatures); ++f) {
    bool found = false;
    for (std::size_t kind = 0; kind < present.size() && !found; ++kind) {
      if (!(kFeatures[f].layers & (1u << kind))) continue;
      for (const Range& r : kFeatures[f].keys)
        for (int k = r.first; k <= r.last && !found; ++k) found = present[kind][static_cast<std::size_t>(k)];
    }
    if (found) out.emplace_back(kDdnetFeatureNames[f]);
  }
  return out;
}

}  // namespace mapindex::teeworlds
