// Scanning decompressed tile data for air: most of a map's tile data is zero
// bytes in long stretches, which the tile counter and the thumbnail drawing
// skip a stretch at a time instead of a tile at a time.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mapindex {

// The number of leading all-zero 32-byte blocks among the `n` blocks at `p`
// (reads at most 32 * n bytes). AVX2 where the CPU has it.
std::size_t zero_blocks(const std::uint8_t* p, std::size_t n);

// The same with 8-byte loads only: what zero_blocks must agree with.
std::size_t zero_blocks_portable(const std::uint8_t* p, std::size_t n);

}  // namespace mapindex
