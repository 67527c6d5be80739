// One SpriteTile map cell (7 bytes: short tile, ushort misc, short order,
// byte trigger) and a view of a layer's cells. Cells are read straight from
// the decoded level buffer, where they are always little-endian (the decoder
// normalises big-endian files in place).
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/bytes.h"

namespace mapindex::spritetile {

inline constexpr std::size_t kCellSize = 7;

// Bits of a cell's misc value.
namespace misc_bits {
inline constexpr std::uint16_t collider = 0x8000;
inline constexpr std::uint16_t flip_x = 0x1000;
inline constexpr std::uint16_t flip_y = 0x0800;
inline constexpr std::uint16_t rotation = 0x07ff;    // degrees * 5
inline constexpr std::uint16_t unused = 0x6000;      // bits 13 and 14
inline constexpr std::uint16_t max_rotation = 1799;  // 359.8 degrees
}  // namespace misc_bits

struct Cell {
  std::int16_t tile = -1;  // set * tiles_per_set + index; negative = no tile
  std::uint16_t misc = 0;
  std::int16_t order = 0;  // order in layer
  std::uint8_t trigger = 0;

  bool empty() const { return tile < 0; }
  bool collider() const { return (misc & misc_bits::collider) != 0; }
  bool flip_x() const { return (misc & misc_bits::flip_x) != 0; }
  bool flip_y() const { return (misc & misc_bits::flip_y) != 0; }
  int rotation_raw() const { return misc & misc_bits::rotation; }  // degrees * 5
  float rotation_degrees() const { return static_cast<float>(rotation_raw()) / 5.0f; }

  bool operator==(const Cell&) const = default;
};

// Reads the little-endian cell record at p (7 readable bytes).
inline Cell load_cell(const std::uint8_t* p) {
  return Cell{static_cast<std::int16_t>(load_le_u16(p)), load_le_u16(p + 2),
              static_cast<std::int16_t>(load_le_u16(p + 4)), p[6]};
}

// The cells of one layer, row by row from the lower-left corner.
class CellView {
 public:
  CellView() = default;
  explicit CellView(Bytes bytes) : bytes_(bytes) {}

  std::size_t size() const { return bytes_.size() / kCellSize; }
  // Precondition: i < size().
  Cell operator[](std::size_t i) const { return load_cell(bytes_.data() + i * kCellSize); }
  Bytes bytes() const { return bytes_; }

 private:
  Bytes bytes_;
};

}  // namespace mapindex::spritetile
