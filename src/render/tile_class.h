// Tile classes: what one pixel of a rendered map stands for (air, solid,
// freeze, start, a teleporter, ...), the palette that colours them, and which
// class each tile of each physics layer kind belongs to.
//
// The numeric value of a class is its importance: where tiles are combined
// into one pixel (layers drawn over each other, many tiles downscaled into
// one thumbnail pixel) the most important class wins, so a one-tile freeze
// line or a spawn survives a downscale and physics is drawn over design.
// docs/guide.md ("Pictures") documents the palette; tests check it against this
// table.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "decode/kinds.h"

namespace mapindex::render {

enum class TileClass : std::uint8_t {
  air,
  design_1,  // design tile layers (--layers all), a neutral shade per layer
  design_2,
  design_3,
  set_1,  // SpriteTile tiles, a shade per tile set (set number mod 8)
  set_2,
  set_3,
  set_4,
  set_5,
  set_6,
  set_7,
  set_8,
  other,  // physics tiles of no class below: through, jump, stoppers, unfreeze, ...
  solid,
  unhookable,
  checkpoint,
  entity,  // entities other than spawns: weapons, lasers, draggers, doors, ...
  speedup,
  switch_tile,
  teleporter,
  freeze,
  deep_freeze,
  death,
  finish,
  start,
  spawn,
};
inline constexpr std::size_t kNumTileClasses = static_cast<std::size_t>(TileClass::spawn) + 1;
inline constexpr std::size_t kNumDesignShades = 3;
inline constexpr std::size_t kNumSetShades = 8;

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb&) const = default;
};

struct PaletteEntry {
  TileClass tile_class;
  std::string_view name;   // "deep_freeze"
  Rgb rgb;                 // its colour in a PNG
  std::string_view tiles;  // which tiles, for the palette table of docs/guide.md
};

// Indexed by the class's value.
const std::array<PaletteEntry, kNumTileClasses>& palette();

// The class of tile key `key` (index byte of game and front layers, type byte
// of tele, speedup and switch layers) on a layer of `kind`. Air (key 0) and
// every key of other kinds (design tiles, tune) is TileClass::air.
TileClass class_of(LayerKind kind, std::uint8_t key);

// The classes of all 256 keys of `kind` (the table class_of reads).
const std::array<TileClass, 256>& class_table(LayerKind kind);

// The kinds drawn as physics: game, front, tele, speedup, switch.
bool is_drawn_physics(LayerKind kind);

}  // namespace mapindex::render
