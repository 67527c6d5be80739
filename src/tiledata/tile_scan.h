// The one walk over inflated tile data that the tile counter
// (extract/teeworlds_tile_counter.h) and the thumbnail drawing
// (render/canvas.h) share: a range of tile structs reported to a visitor as
// runs of air, runs of one struct repeated, whole blocks and single tiles.
// Header-only: the walk is the hot loop over every tile, and the visitor's
// calls must be inlined into it.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <numeric>

#include "common/bytes.h"
#include "tiledata/zero_blocks.h"

namespace mapindex::tiledata {

// A visitor of a TileScan<kStructSize> has these members; the scan calls
// them in the order of the tiles, and every tile of a range is in exactly
// one call:
//   air(const std::uint8_t* first, std::size_t tiles): `tiles` >= 1 structs
//     whose bytes are all zero (what an Adler32Scan may skip);
//   repeated(const std::uint8_t* first, std::size_t tiles): `tiles` copies
//     of the struct at `first` (a multiple of kBlockTiles), not all zero;
//   block(const std::uint8_t* first): kBlockTiles structs, not all zero;
//   single(const std::uint8_t* tile): one struct, whatever it holds.
//
// Air is read a 32-byte block at a time (zero_blocks, which skips what
// `known` knows is zero). With kLeaveKnownZerosUnread, no byte known to be
// zero is read at all: reading a page of fresh memory maps the system's zero
// page into it, and the next write there pays a copy-on-write fault. A block
// is then read only before `ask`, the end of the run of written chunks the
// scan is in, and tiles in a block that crosses it are reported one by one;
// without it, the first block of a stretch of air is read, which costs fewer
// instructions where written and unwritten chunks alternate.
template <std::size_t kStructSize, bool kLeaveKnownZerosUnread = true>
class TileScan {
 public:
  static_assert(kStructSize == 2 || kStructSize == 4 || kStructSize == 6);
  // The fewest tiles whose bytes are a whole number of 32-byte blocks.
  static constexpr std::size_t kBlockTiles = std::lcm(std::size_t{32}, kStructSize) / kStructSize;
  static constexpr std::size_t kBlockBytes = kBlockTiles * kStructSize;
  // Structs that divide 8 bytes can fill a block with one struct.
  static constexpr bool kFindsRepeats = 8 % kStructSize == 0;

  // A scan of ranges of `data` (tile structs from data.data() on), in
  // increasing order. `known` knows which of its bytes are zero unread.
  TileScan(Bytes data, const KnownZeros& known)
      : known_(known),
        data_end_(data.data() + data.size()),
        ask_(kLeaveKnownZerosUnread && known.covers(data.data()) ? data.data() : data_end_) {}

  // Reports the `tiles` structs from `first` on (inside the data, after the
  // ranges scanned before) to `visit`.
  // Always inlined: the visitor's state then stays in registers.
  template <class Visitor>
  [[gnu::always_inline]] inline void scan(const std::uint8_t* first, std::size_t tiles,
                                          Visitor& visit);

 private:
  static std::uint64_t block_bits(const std::uint8_t* p) {
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < kBlockBytes; i += 8) bits |= load_host_u64(p + i);
    return bits;
  }
  // Whether the 32 bytes at `p` are the struct of `word` (its first 8
  // bytes, that struct repeated) four times over.
  static bool same_words(const std::uint8_t* p, std::uint64_t word) {
    return load_host_u64(p) == word && load_host_u64(p + 8) == word &&
           load_host_u64(p + 16) == word && load_host_u64(p + 24) == word;
  }

  KnownZeros known_;
  const std::uint8_t* data_end_;
  // Where to consult known_ next: bytes before it are in written chunks (or
  // in no buffer it knows), and may be read.
  const std::uint8_t* ask_;
};

template <std::size_t kStructSize, bool kLeaveKnownZerosUnread>
template <class Visitor>
void TileScan<kStructSize, kLeaveKnownZerosUnread>::scan(const std::uint8_t* first,
                                                         std::size_t tiles, Visitor& visit) {
  constexpr std::size_t S = kStructSize;
  // State in locals: the visitor's stores (bytes) may alias any member.
  const KnownZeros known = known_;
  const std::uint8_t* const data_end = data_end_;
  const std::uint8_t* ask = ask_;
  const std::uint8_t* tile = first;
  const std::uint8_t* const end = first + tiles * S;
  while (tile < end) {
    if (tile >= ask) {
      const KnownZeros::Run run =
          known.chunk_run_at(tile, static_cast<std::size_t>(data_end - tile));
      if (run.clean && run.bytes >= S) {
        const std::size_t n = std::min(run.bytes / S, static_cast<std::size_t>(end - tile) / S);
        visit.air(tile, n);
        tile += n * S;
        continue;
      }
      ask = run.clean ? tile : tile + run.bytes;
    }
    // The whole blocks before both `ask` and the range's end (ask >= tile).
    const std::size_t blocks = static_cast<std::size_t>(std::min(ask, end) - tile) / kBlockBytes;
    if (blocks == 0) {
      visit.single(tile);
      tile += S;
      continue;
    }
    const std::uint8_t* const stop = tile + blocks * kBlockBytes;
    while (tile < stop) {
      if (block_bits(tile) == 0) {
        // Air comes in long stretches: the blocks after this one, at once
        // (past `stop` too: zero_blocks leaves known zeros unread itself).
        constexpr std::size_t kZeroBlocks = kBlockBytes / 32;
        const std::size_t more =
            zero_blocks(tile + kBlockBytes,
                        (static_cast<std::size_t>(end - tile) / kBlockBytes - 1) * kZeroBlocks,
                        known) /
            kZeroBlocks;
        const std::size_t n = kBlockTiles * (1 + more);
        visit.air(tile, n);
        tile += n * S;
        continue;
      }
      if constexpr (kFindsRepeats) {
        const std::uint64_t word = load_host_u64(tile);
        if (word == std::rotl(word, static_cast<int>(8 * S)) && same_words(tile, word)) {
          // Walls, freeze, fills: the same struct in the blocks after it too.
          const std::uint8_t* next = tile + kBlockBytes;
          while (next < stop && same_words(next, word)) next += kBlockBytes;
          visit.repeated(tile, static_cast<std::size_t>(next - tile) / S);
          tile = next;
          continue;
        }
      }
      visit.block(tile);
      tile += kBlockBytes;
    }
  }
  ask_ = ask;
}

}  // namespace mapindex::tiledata
