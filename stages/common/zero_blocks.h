// Scanning decompressed tile data for air: most of a map's tile data is zero
// bytes in long stretches, which the tile counter and the thumbnail drawing
// skip a stretch at a time instead of a tile at a time.
#pragma once

#include <cstddef>
#include <cstdint>

#include "stages/common/zeroed_buffer.h"

namespace mapindex {

// What a scan may know without reading: the bytes of a ZeroedBuffer's chunks
// not marked since take() are zero (inflate_onto_zeros marks every chunk it
// writes). Knows nothing by default, or about bytes outside the buffer.
class KnownZeros {
 public:
  KnownZeros() = default;
  explicit KnownZeros(const ZeroedBuffer& buffer) : buffer_(&buffer) {}

  // Whether `p` is in the buffer: what follows says nothing of other bytes.
  bool covers(const std::uint8_t* p) const;
  // How many of the `n` bytes from `p` on are in unmarked chunks of the
  // buffer, from p on without a gap: 0 when p's chunk is marked or p is not
  // in the buffer. Costs a read of the marks of those n bytes at most.
  std::size_t clean_from(const std::uint8_t* p, std::size_t n) const;
  // How many of the `n` bytes from `p` on are in marked chunks, from p on
  // without a gap: 0 when p's chunk is not marked; all n when p is not in
  // the buffer (nothing is known of them: they must be read).
  std::size_t marked_from(const std::uint8_t* p, std::size_t n) const;

 private:
  const ZeroedBuffer* buffer_ = nullptr;
};

// Whether 32 bytes, loaded as four 8-byte words, hold one 4-byte struct
// eight times (walls, freeze, fills: most of the tiles that are not air).
inline bool one_struct_eight_times(std::uint64_t a, std::uint64_t b, std::uint64_t c,
                                   std::uint64_t d) {
  return a == b && a == c && a == d && (a >> 32) == (a & 0xffffffffu);
}

// The number of leading all-zero 32-byte blocks among the `n` blocks at `p`
// (reads at most 32 * n bytes). AVX2 where the CPU has it.
std::size_t zero_blocks(const std::uint8_t* p, std::size_t n);

// The same, without reading the blocks `known` knows are zero.
std::size_t zero_blocks(const std::uint8_t* p, std::size_t n, const KnownZeros& known);

// The same with 8-byte loads only: what zero_blocks must agree with.
std::size_t zero_blocks_portable(const std::uint8_t* p, std::size_t n);

}  // namespace mapindex
