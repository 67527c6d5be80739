#include "extract/teeworlds_features.h"

#include <initializer_list>

namespace mapindex::teeworlds {
namespace {

enum LayerMask : unsigned {
  kGame = 1u << static_cast<unsigned>(LayerKind::game),
  kTele = 1u << static_cast<unsigned>(LayerKind::tele),
  kSpeedup = 1u << static_cast<unsigned>(LayerKind::speedup),
  kFront = 1u << static_cast<unsigned>(LayerKind::front),
  kSwitch = 1u << static_cast<unsigned>(LayerKind::switch_layer),
  kTune = 1u << static_cast<unsigned>(LayerKind::tune),
  kGameFrontSwitch = kGame | kFront | kSwitch,
};

struct Range {
  int first, last;
  constexpr Range(int key) : first(key), last(key) {}
  constexpr Range(int first_key, int last_key) : first(first_key), last(last_key) {}
};

struct Feature {
  unsigned layers;
  std::initializer_list<Range> keys;
};

using namespace game_tile;

// Same order as kDdnetFeatureNames.
const Feature kFeatures[] = {
    {kGameFrontSwitch, {kDeath}},                                       // DEATH
    {kGameFrontSwitch, {kThrough}},                                     // THROUGH
    {kSwitch, {kJump}},                                                 // JUMP
    {kGameFrontSwitch, {kDfreeze}},                                     // DFREEZE
    {kGameFrontSwitch, {kEhookEnable, kEhook}},                         // EHOOK_START
    {kGameFrontSwitch, {kHitDisable, kNohit}},                          // HIT_END
    {kGameFrontSwitch, {kSoloEnable}},                                  // SOLO_START
    {kGameFrontSwitch, {kTeleGunEnable}},                               // TELE_GUN
    {kGameFrontSwitch, {kTeleGrenadeEnable}},                           // TELE_GRENADE
    {kGameFrontSwitch, {kTeleLaserEnable}},                             // TELE_LASER
    {kGameFrontSwitch, {kNpcEnable, kNpc}},                             // NPC_START
    {kGameFrontSwitch, {kUnlimitedJumpsEnable}},                        // SUPER_START
    {kGameFrontSwitch, {kJetpackEnable}},                               // JETPACK_START
    {kGameFrontSwitch, {kWalljump}},                                    // WALLJUMP
    {kGameFrontSwitch, {kNphEnable, kNph}},                             // NPH_START
    {kGameFrontSwitch, {kWeaponShotgun}},                               // WEAPON_SHOTGUN
    {kGameFrontSwitch, {kWeaponGrenade}},                               // WEAPON_GRENADE
    {kGameFrontSwitch, {kPowerupNinja}},                                // POWERUP_NINJA
    {kGameFrontSwitch, {kWeaponLaser}},                                 // WEAPON_RIFLE
    {kGameFrontSwitch, {{kLaserFastCcw, kLaserFastCw}}},                // LASER_STOP
    {kGameFrontSwitch, {{kCrazyShotgunEx, kCrazyShotgun}}},             // CRAZY_SHOTGUN
    {kGameFrontSwitch, {{kDraggerWeak, kDraggerStrongNw}}},             // DRAGGER
    {kGameFrontSwitch, {kDoor}},                                        // DOOR
    {kSwitch, {{switch_tile::kTimedOpen, switch_tile::kTimedClose}}},   // SWITCH_TIMED
    {kGameFrontSwitch, {{switch_tile::kOpen, switch_tile::kClose}}},    // SWITCH
    {kGameFrontSwitch, {{kStop, kStopa}}},                              // STOP
    {kGameFrontSwitch, {{kThroughAll, kThroughDir}, kThroughCut}},      // THROUGH_ALL
    {kTune, {tune_tile::kTune}},                                        // TUNE
    {kGameFrontSwitch, {kOldlaser}},                                    // OLDLASER
    {kTele, {tele_tile::kInEvil}},                                      // TELEINEVIL
    {kTele, {tele_tile::kIn}},                                          // TELEIN
    {kTele, {tele_tile::kCheck}},                                       // TELECHECK
    {kTele, {tele_tile::kInWeapon}},                                    // TELEINWEAPON
    {kTele, {tele_tile::kInHook}},                                      // TELEINHOOK
    {kGameFrontSwitch, {{kTimeCheckpointFirst, kTimeCheckpointLast}}},  // CHECKPOINT_FIRST
    {kGameFrontSwitch, {kSubtractTime, kAddTime}},                      // BONUS
    {kSpeedup, {{speedup_tile::kBoostOld, speedup_tile::kBoost}}},      // BOOST
    {kGameFrontSwitch, {{kPlasmaF, kPlasma}}},                          // PLASMAF
    {kGameFrontSwitch, {kPlasmaE}},                                     // PLASMAE
    {kGameFrontSwitch, {kPlasmaU}},                                     // PLASMAU
};
static_assert(std::size(kFeatures) == kDdnetFeatureNames.size());

}  // namespace

std::string ddnet_feature_rule_row(std::size_t f) {
  const Feature& feature = kFeatures[f];
  std::string layers, keys;
  for (unsigned kind = 0; kind < kNumTilemapKinds; ++kind) {
    if (!(feature.layers & (1u << kind))) continue;
    if (!layers.empty()) layers += ", ";
    layers += layer_type_name(static_cast<LayerKind>(kind));
  }
  for (const Range& r : feature.keys) {
    if (!keys.empty()) keys += ", ";
    keys += std::to_string(r.first);
    if (r.last != r.first) keys += ".." + std::to_string(r.last);
  }
  return "| `" + std::string(kDdnetFeatureNames[f]) + "` | " + layers + " | " + keys + " |";
}

std::string_view ddnet_feature_of(std::string_view layer_kind, int key) {
  for (unsigned kind = 0; kind < kNumTilemapKinds; ++kind) {
    if (to_string(static_cast<LayerKind>(kind)) != layer_kind) continue;
    for (std::size_t f = 0; f < std::size(kFeatures); ++f) {
      if (!(kFeatures[f].layers & (1u << kind))) continue;
      for (const Range& r : kFeatures[f].keys)
        if (key >= r.first && key <= r.last) return kDdnetFeatureNames[f];
    }
  }
  return "";
}

std::vector<std::string> ddnet_features(const KeysPresent& present) {
  std::vector<std::string> out;
  for (std::size_t f = 0; f < std::size(kFeatures); ++f) {
    bool found = false;
    for (std::size_t kind = 0; kind < present.size() && !found; ++kind) {
      if (!(kFeatures[f].layers & (1u << kind))) continue;
      for (const Range& r : kFeatures[f].keys)
        for (int k = r.first; k <= r.last && !found; ++k)
          found = present[kind][static_cast<std::size_t>(k)];
    }
    if (found) out.emplace_back(kDdnetFeatureNames[f]);
  }
  return out;
}

}  // namespace mapindex::teeworlds
