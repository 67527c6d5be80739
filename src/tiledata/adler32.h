// Adler-32 (RFC 1950), the checksum at the end of every zlib stream, with
// libdeflate's vectorised routine; and a scan that lets a pass which already
// finds long runs of zero bytes (the tile counter skipping air) check the
// checksum of the bytes it reads without reading them again.
//
// Over n zero bytes Adler-32's first sum A stays as it is and its second sum
// B grows by n * A (mod 65521), so a run of zeros costs a multiplication,
// not a pass over it. Inflated tile data is mostly air: checking its checksum
// this way instead of over every byte took a tenth of the decode time on
// layers that do not repeat.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/bytes.h"

namespace mapindex::tiledata {

// Adler-32 of `data`, continued from `adler` (1 starts a new checksum).
std::uint32_t adler32(Bytes data, std::uint32_t adler = 1);

// Adler-32 of `data`, given the runs of zero bytes a caller finds while it
// reads it. The caller reports runs in increasing order; whatever it does
// not report is summed byte by byte at the next run or at finish(). Runs
// shorter than kMinRun are summed byte by byte too (a call per short run
// would cost more than the bytes).
class Adler32Scan {
 public:
  static constexpr std::size_t kMinRun = 256;

  explicit Adler32Scan(Bytes data) : begin_(data.data()), end_(data.data() + data.size()) {}

  // The `n` bytes at `at` (inside the data) are all zero. Runs come in
  // increasing order; a run that overlaps one reported before counts only
  // for its part after it.
  void zeros(const std::uint8_t* at, std::size_t n) {
    if (n >= kMinRun) skip_zeros(at, n);
  }

  // Adler-32 of the whole data.
  std::uint32_t finish();

 private:
  void skip_zeros(const std::uint8_t* at, std::size_t n);

  const std::uint8_t* begin_;  // bytes before it are summed
  const std::uint8_t* end_;
  std::uint32_t adler_ = 1;
};

}  // namespace mapindex::tiledata
