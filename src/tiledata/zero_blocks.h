// Scanning decompressed tile data for air: most of a map's tile data is zero
// bytes in long stretches, which the tile counter and the thumbnail drawing
// skip a stretch at a time instead of a tile at a time.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "tiledata/zeroed_buffer.h"

namespace mapindex::tiledata {

// What a scan may know without reading: the bytes of a ZeroedBuffer's chunks
// not marked since take() are zero (inflate_onto_zeros marks every chunk it
// writes). Knows nothing by default, or about bytes outside the buffer.
class KnownZeros {
 public:
  KnownZeros() = default;
  explicit KnownZeros(const ZeroedBuffer& buffer) : buffer_(&buffer) {}

  // Whether `p` is in the buffer: what follows says nothing of other bytes.
  bool covers(const std::uint8_t* p) const {
    if (!buffer_) return false;
    // Compared as addresses: `p` may point into another object (v3 data is a
    // slice of the file).
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    const auto base = reinterpret_cast<std::uintptr_t>(buffer_->data());
    return at >= base && at - base < buffer_->capacity();
  }

  // The bytes from `p` on, up to `n` of them, that are known zero
  // (`clean`: in chunks not marked) or that must be read (in marked chunks,
  // or all n when p is not in the buffer), as p's chunk is; at least one
  // byte when n > 0. Reads at most one word of marks past p's (kLookahead
  // bytes): a scan asks again where a run stops short.
  struct Run {
    std::size_t bytes = 0;
    bool clean = false;
  };
  static constexpr std::size_t kLookahead = 64 * ZeroedBuffer::kChunkSize;
  Run chunk_run_at(const std::uint8_t* p, std::size_t n) const {
    if (n == 0) return {};
    if (!covers(p)) return {n, false};
    const auto at = static_cast<std::size_t>(p - buffer_->data());
    const std::size_t limit = at + std::min({n, kLookahead, buffer_->capacity() - at});
    return {buffer_->run_end(at, limit) - at, buffer_->clean(at >> ZeroedBuffer::kChunkShift)};
  }

  // The bytes from `p` (in the buffer) to the end of its chunk when the
  // chunk is marked; 0 when it is not.
  std::size_t written_bytes_left_in_chunk(const std::uint8_t* p) const {
    const auto at = static_cast<std::size_t>(p - buffer_->data());
    if (buffer_->clean(at >> ZeroedBuffer::kChunkShift)) return 0;
    return ZeroedBuffer::kChunkSize - (at & (ZeroedBuffer::kChunkSize - 1));
  }

 private:
  const ZeroedBuffer* buffer_ = nullptr;
};

// The number of leading all-zero 32-byte blocks among the `n` blocks at `p`
// (reads at most 32 * n bytes). AVX2 where the CPU has it.
std::size_t zero_blocks(const std::uint8_t* p, std::size_t n);

// The same, without reading the blocks `known` knows are zero.
std::size_t zero_blocks(const std::uint8_t* p, std::size_t n, const KnownZeros& known);

// The same with 8-byte loads only: what zero_blocks must agree with.
std::size_t zero_blocks_portable(const std::uint8_t* p, std::size_t n);

}  // namespace mapindex::tiledata
