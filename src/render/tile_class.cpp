#include "render/tile_class.h"

#include "decode/teeworlds/tiles.h"

namespace mapindex::render {
namespace {

using C = TileClass;

constexpr std::array<PaletteEntry, kNumTileClasses> kPalette{{
    {C::air, "air", {22, 26, 34}, "key 0 of every layer; nothing drawn"},
    {C::design_1, "design_1", {48, 54, 66}, "design tile layers 1, 4, 7, ... (--layers all)"},
    {C::design_2, "design_2", {58, 64, 78}, "design tile layers 2, 5, 8, ..."},
    {C::design_3, "design_3", {68, 75, 90}, "design tile layers 3, 6, 9, ..."},
    {C::set_1, "set_1", {122, 96, 70}, "SpriteTile tiles of sets 0, 8, 16, 24"},
    {C::set_2, "set_2", {80, 118, 80}, "SpriteTile tiles of sets 1, 9, 17, 25"},
    {C::set_3, "set_3", {78, 98, 138}, "SpriteTile tiles of sets 2, 10, 18, 26"},
    {C::set_4, "set_4", {126, 80, 118}, "SpriteTile tiles of sets 3, 11, 19, 27"},
    {C::set_5, "set_5", {118, 118, 68}, "SpriteTile tiles of sets 4, 12, 20, 28"},
    {C::set_6, "set_6", {66, 118, 118}, "SpriteTile tiles of sets 5, 13, 21, 29"},
    {C::set_7, "set_7", {138, 86, 76}, "SpriteTile tiles of sets 6, 14, 22, 30"},
    {C::set_8, "set_8", {98, 98, 98}, "SpriteTile tiles of sets 7, 15, 23, 31"},
    {C::other,
     "other",
     {92, 132, 150},
     "every other game/front tile: NOLASER, THROUGH, THROUGH_ALL, JUMP, UNFREEZE, DUNFREEZE, "
     "LUNFREEZE, WALLJUMP, STOP, STOPS, STOPA, the enable and disable tiles (EHOOK_ENABLE, "
     "SOLO_DISABLE, ...), ADD_TIME, CREDITS_1 .. CREDITS_8, ..."},
    {C::solid, "solid", {176, 148, 108}, "SOLID (1); SpriteTile colliders"},
    {C::unhookable, "unhookable", {128, 136, 160}, "NOHOOK (3)"},
    {C::checkpoint,
     "checkpoint",
     {150, 230, 150},
     "TIME_CHECKPOINT_FIRST .. TIME_CHECKPOINT_LAST (35-59), CP (64), CP_F (65)"},
    {C::entity,
     "entity",
     {255, 150, 210},
     "entities other than spawns (195 and up): flag stands, armor, health, weapons, ninja, "
     "lasers, plasma, crazy shotguns, draggers, doors"},
    {C::speedup, "speedup", {255, 150, 30}, "every tile of the speedup layer"},
    {C::switch_tile, "switch", {0, 200, 170}, "every tile of the switch layer"},
    {C::teleporter, "teleporter", {170, 90, 240}, "every tile of the tele layer"},
    {C::freeze, "freeze", {100, 180, 255}, "FREEZE (9), LFREEZE (144)"},
    {C::deep_freeze, "deep_freeze", {30, 60, 200}, "DFREEZE (12)"},
    {C::death, "death", {230, 40, 40}, "DEATH (2)"},
    {C::finish, "finish", {255, 220, 40}, "FINISH (34)"},
    {C::start, "start", {60, 210, 60}, "START (33)"},
    {C::spawn, "spawn", {255, 255, 255}, "SPAWN, SPAWN_RED, SPAWN_BLUE (192-194)"},
}};

constexpr bool palette_in_order() {
  for (std::size_t i = 0; i < kPalette.size(); ++i)
    if (static_cast<std::size_t>(kPalette[i].tile_class) != i) return false;
  return true;
}
static_assert(palette_in_order(), "kPalette is indexed by TileClass");

std::array<TileClass, 256> game_table() {
  using namespace teeworlds::game_tile;
  std::array<TileClass, 256> t;
  t.fill(C::other);
  t[teeworlds::kAir] = C::air;
  t[kSolid] = C::solid;
  t[kNohook] = C::unhookable;
  t[kDeath] = C::death;
  t[kFreeze] = C::freeze;
  t[kLfreeze] = C::freeze;
  t[kDfreeze] = C::deep_freeze;
  t[kStart] = C::start;
  t[kFinish] = C::finish;
  for (int k = kTimeCheckpointFirst; k <= kTimeCheckpointLast; ++k) t[k] = C::checkpoint;
  t[kCp] = C::checkpoint;
  t[kCpF] = C::checkpoint;
  for (int k = kFirstEntity; k < 256; ++k) t[k] = C::entity;
  t[kSpawn] = t[kSpawnRed] = t[kSpawnBlue] = C::spawn;
  return t;
}

std::array<TileClass, 256> all_but_air(TileClass c) {
  std::array<TileClass, 256> t;
  t.fill(c);
  t[teeworlds::kAir] = C::air;
  return t;
}

}  // namespace

const std::array<PaletteEntry, kNumTileClasses>& palette() { return kPalette; }

const std::array<TileClass, 256>& class_table(LayerKind kind) {
  static const auto game = game_table();
  static const auto tele = all_but_air(C::teleporter);
  static const auto speedup = all_but_air(C::speedup);
  static const auto switches = all_but_air(C::switch_tile);
  static const auto nothing = all_but_air(C::air);
  switch (kind) {
    case LayerKind::game:
    case LayerKind::front: return game;
    case LayerKind::tele: return tele;
    case LayerKind::speedup: return speedup;
    case LayerKind::switch_layer: return switches;
    default: return nothing;
  }
}

TileClass class_of(LayerKind kind, std::uint8_t key) { return class_table(kind)[key]; }

bool is_drawn_physics(LayerKind kind) {
  return kind == LayerKind::game || kind == LayerKind::front || kind == LayerKind::tele ||
         kind == LayerKind::speedup || kind == LayerKind::switch_layer;
}

}  // namespace mapindex::render
