// Whole-buffer zlib inflate with libdeflate, into a buffer of an exactly
// known size, reusing one decompressor per thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "stages/common/bytes.h"

namespace mapindex::datafile {

enum class InflateStatus : unsigned char {
  ok,         // exactly out.size() bytes
  corrupt,    // not a valid zlib stream (bad header, data or checksum)
  too_short,  // valid stream, but fewer bytes than out.size() (see produced)
  too_long,   // valid so far, but it holds more than out.size() bytes
};

struct InflateOutcome {
  InflateStatus status = InflateStatus::corrupt;
  std::size_t produced = 0;  // bytes written (meaningful for ok and too_short)
};

// Inflates the zlib stream `compressed` into `out`. Bytes after the end of the
// zlib stream are ignored, as zlib's uncompress() does.
InflateOutcome inflate_zlib(Bytes compressed, std::span<std::uint8_t> out);

// The most bytes any deflate stream of `compressed_size` bytes can expand to:
// a length-258 match costs at least 2 bits, so 1032 bytes per input byte.
inline constexpr std::uint64_t kMaxDeflateRatio = 1032;
inline std::uint64_t max_inflated_size(std::uint64_t compressed_size) {
  return compressed_size * kMaxDeflateRatio;
}

}  // namespace mapindex::datafile
