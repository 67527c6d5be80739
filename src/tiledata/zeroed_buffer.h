// A reusable output buffer that knows which of its chunks may hold bytes
// other than zero, for the inflater that writes only those
// (src/deflate/zero_inflate.h).
//
// Tile data is mostly air: a 1000 x 1000 layer inflates to 4 MB of which
// often less than a tenth is not zero. Inflating onto a buffer that is
// already zero and writing only what is not zero skips most of the output.
// The chunks written are marked, so that (1) making the buffer zero again for
// the next data item costs only those chunks, and (2) a pass over the data
// (the tile counter, the thumbnail) skips the chunks never written, which
// hold only zero, without reading them (KnownZeros, zero_blocks.h).
//
// The memory is mapped from the system (mmap): it is zero already, and the
// pages that are never written (most of a large layer's air) are never given
// to the process at all. Not calloc: glibc serves sizes under its mmap
// threshold (which rises to the largest block freed, up to 32 MiB) from its
// heap and zeroes them there, touching every page. A page that may not be
// touched follows the mapping.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace mapindex::tiledata {

class ZeroedBuffer;

// The front of a ZeroedBuffer as take() left it: size() bytes, all zero, no
// chunk marked. Only take() makes one, and it cannot be copied: a writer that
// needs its output to start all zero (src/deflate/zero_inflate.h) takes one
// by value, so it is never handed a used buffer, nor the same span twice.
class ZeroedSpan {
 public:
  ZeroedSpan(const ZeroedSpan&) = delete;
  ZeroedSpan& operator=(const ZeroedSpan&) = delete;
  ZeroedSpan& operator=(ZeroedSpan&&) = delete;
  // Leaves `other` empty, with no buffer.
  ZeroedSpan(ZeroedSpan&& other) noexcept
      : buffer_(std::exchange(other.buffer_, nullptr)), bytes_(std::exchange(other.bytes_, {})) {}

  std::span<std::uint8_t> bytes() const { return bytes_; }
  std::uint8_t* data() const { return bytes_.data(); }
  std::size_t size() const { return bytes_.size(); }
  std::uint8_t& operator[](std::size_t i) const { return bytes_[i]; }
  auto begin() const { return bytes_.begin(); }
  auto end() const { return bytes_.end(); }
  // The buffer whose front it is: what is written must be marked there.
  ZeroedBuffer& buffer() const { return *buffer_; }

 private:
  friend class ZeroedBuffer;
  ZeroedSpan(ZeroedBuffer& buffer, std::span<std::uint8_t> bytes)
      : buffer_(&buffer), bytes_(bytes) {}
  ZeroedBuffer* buffer_;
  std::span<std::uint8_t> bytes_;
};

class ZeroedBuffer {
 public:
  ZeroedBuffer() = default;
  ZeroedBuffer(const ZeroedBuffer&) = delete;
  ZeroedBuffer& operator=(const ZeroedBuffer&) = delete;
  ~ZeroedBuffer() { unmap(); }
  static constexpr unsigned kChunkShift = 9;  // chunks of 512 bytes
  static constexpr std::size_t kChunkSize = std::size_t{1} << kChunkShift;

  // The first `n` bytes, all zero, with no chunk marked: zeroes the chunks
  // marked since the last call and grows the buffer (never shrinks it).
  ZeroedSpan take(std::size_t n);

  // Bytes [at, at + n) may no longer be zero (n > 0).
  void mark(std::size_t at, std::size_t n) {
    const std::size_t first = at >> kChunkShift, last = (at + n - 1) >> kChunkShift;
    for (std::size_t chunk = first; chunk <= last; ++chunk)
      marks_[chunk >> 6] |= std::uint64_t{1} << (chunk & 63);
  }
  void mark(std::size_t at) {
    marks_[at >> (kChunkShift + 6)] |= std::uint64_t{1} << ((at >> kChunkShift) & 63);
  }

  // Chunk `chunk` was not written since take(): its bytes are all zero.
  bool clean(std::size_t chunk) const { return ((marks_[chunk >> 6] >> (chunk & 63)) & 1u) == 0; }
  // The end of the run of chunks from byte `at`'s on that are all marked or
  // all not, as `at`'s chunk is (clean(at >> kChunkShift)), at most `limit`
  // (at < limit <= capacity). Reads the marks of the chunks before `limit`
  // only: a scan asks for what it can use, not for the rest of a buffer that
  // may be far larger than the data in it.
  std::size_t run_end(std::size_t at, std::size_t limit) const {
    std::size_t chunk = at >> kChunkShift;
    const std::size_t last_word = ((limit - 1) >> kChunkShift) >> 6;
    std::size_t w = chunk >> 6;
    // The bits of the chunks in the other state than at's.
    const std::uint64_t flip = clean(chunk) ? 0 : ~std::uint64_t{0};
    std::uint64_t other = (marks_[w] ^ flip) & (~std::uint64_t{0} << (chunk & 63));
    while (other == 0 && w < last_word) other = marks_[++w] ^ flip;
    if (other == 0) return limit;
    chunk = w * 64 + static_cast<std::size_t>(std::countr_zero(other));
    return std::min(chunk << kChunkShift, limit);
  }

  std::uint8_t* data() { return bytes_; }
  const std::uint8_t* data() const { return bytes_; }
  std::size_t capacity() const { return size_; }
  // Gives the memory back (the next take() allocates again).
  void release();

 private:
  void unmap();
  std::uint8_t* bytes_ = nullptr;  // zero except in marked chunks; mmap'd
  std::size_t size_ = 0;
  std::size_t mapped_ = 0;  // bytes mapped at bytes_: size_'s pages and an inaccessible one
  std::vector<std::uint64_t> marks_;  // a bit per chunk of bytes_
};

}  // namespace mapindex::tiledata
