// zlib's own Adler-32, as the reference the product's checksum code
// (src/tiledata/adler32.h, libdeflate underneath) is tested against.
#pragma once

#include <zlib.h>

#include <algorithm>
#include <cstdint>

#include "common/bytes.h"

namespace mapindex::testing {

inline std::uint32_t zlib_adler32(Bytes data) {
  uLong a = ::adler32(0L, Z_NULL, 0);
  for (std::size_t at = 0; at < data.size();) {  // zlib takes at most 4 GiB a call
    const std::size_t n = std::min<std::size_t>(data.size() - at, 1u << 30);
    a = ::adler32(a, data.data() + at, static_cast<uInt>(n));
    at += n;
  }
  return static_cast<std::uint32_t>(a);
}

}  // namespace mapindex::testing
