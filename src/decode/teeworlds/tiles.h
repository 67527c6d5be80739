// Tiles by name: the byte layout of each tilemap kind's tile struct, the tile
// flag bits, and the tile numbers the code refers to. Names follow
// schema/tile_names.csv (which names every tile; tests/test_map_layouts.cpp
// checks these against it). Facts: docs/formats/map-items.md.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mapindex::teeworlds {

// Tile struct of tiles, game and front layers (4 bytes).
namespace tile_struct {
inline constexpr std::size_t kIndex = 0, kFlags = 1, kSkip = 2, kReserved = 3;
inline constexpr std::size_t kSize = 4;
}  // namespace tile_struct

// Tele tiles (2 bytes): the tele number, then the type.
namespace tele_struct {
inline constexpr std::size_t kNumber = 0, kType = 1;
inline constexpr std::size_t kSize = 2;
}  // namespace tele_struct

// Speedup tiles (6 bytes): force, max speed, type, a padding byte, then the
// angle as a little-endian int16.
namespace speedup_struct {
inline constexpr std::size_t kForce = 0, kMaxSpeed = 1, kType = 2, kAngle = 4;
inline constexpr std::size_t kSize = 6;
}  // namespace speedup_struct

// Switch tiles (4 bytes): the switch number, type, flags, delay.
namespace switch_struct {
inline constexpr std::size_t kNumber = 0, kType = 1, kFlags = 2, kDelay = 3;
inline constexpr std::size_t kSize = 4;
}  // namespace switch_struct

// Tune tiles (2 bytes): the tune zone number, then the type.
namespace tune_struct {
inline constexpr std::size_t kNumber = 0, kType = 1;
inline constexpr std::size_t kSize = 2;
}  // namespace tune_struct

// Bits of a tile's flags byte (Tile and Switch structs).
namespace tile_flag {
inline constexpr std::uint8_t kFlipX = 1, kFlipY = 2, kOpaque = 4, kRotate = 8;
}  // namespace tile_flag

// Key 0 is air on every tilemap kind.
inline constexpr std::uint8_t kAir = 0;

// Game and front layers' index numbers (and, where the CSV lists them, the
// switch layer's type numbers, which share them).
namespace game_tile {
inline constexpr std::uint8_t kSolid = 1, kNohook = 3, kFreeze = 9, kUnfreeze = 11, kStart = 33,
                              kFinish = 34, kCp = 64, kCpF = 65, kLfreeze = 144;
inline constexpr std::uint8_t kDeath = 2, kThroughCut = 5, kThrough = 6, kJump = 7, kDfreeze = 12,
                              kWalljump = 16, kEhookEnable = 17, kHitDisable = 20, kSoloEnable = 21,
                              kTimeCheckpointFirst = 35, kTimeCheckpointLast = 59, kStop = 60,
                              kStopa = 62, kThroughAll = 66, kThroughDir = 67, kOldlaser = 71,
                              kNpc = 72, kEhook = 73, kNohit = 74, kNph = 75, kAddTime = 79,
                              kSubtractTime = 95, kTeleGunEnable = 96, kNpcEnable = 104,
                              kUnlimitedJumpsEnable = 105, kJetpackEnable = 106, kNphEnable = 107,
                              kTeleGrenadeEnable = 112, kTeleLaserEnable = 128;
// Entities: DDNet's ENTITY_OFFSET (191) + the entity number, so every entity
// is 192 or more; the spawns come first.
inline constexpr std::uint8_t kFirstEntity = 192;
inline constexpr std::uint8_t kSpawn = 192, kSpawnRed = 193, kSpawnBlue = 194;
inline constexpr std::uint8_t kWeaponShotgun = 199, kWeaponGrenade = 200, kPowerupNinja = 201,
                              kWeaponLaser = 202, kLaserFastCcw = 203, kLaserFastCw = 209,
                              kPlasmaE = 220, kPlasmaF = 221, kPlasma = 222, kPlasmaU = 223,
                              kCrazyShotgunEx = 224, kCrazyShotgun = 225, kDraggerWeak = 233,
                              kDraggerStrongNw = 238, kDoor = 240;
}  // namespace game_tile

// Switch layers' own type numbers.
namespace switch_tile {
inline constexpr std::uint8_t kTimedOpen = 22, kTimedClose = 23, kOpen = 24, kClose = 25;
}  // namespace switch_tile

// Tele layers' type numbers.
namespace tele_tile {
inline constexpr std::uint8_t kInEvil = 10, kInWeapon = 14, kInHook = 15, kIn = 26, kCheck = 29;
}  // namespace tele_tile

// Speedup layers' type numbers.
namespace speedup_tile {
inline constexpr std::uint8_t kBoostOld = 28, kBoost = 29;
}  // namespace speedup_tile

// Tune layers' type numbers.
namespace tune_tile {
inline constexpr std::uint8_t kTune = 68;
}  // namespace tune_tile

}  // namespace mapindex::teeworlds
