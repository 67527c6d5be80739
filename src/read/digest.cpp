#include "read/digest.h"

#include <libdeflate.h>
#include "common/hex.h"
#include "common/sha256.h"

namespace mapindex::read {

std::string FileDigest::sha256_hex() const { return to_hex(sha256); }

std::string FileDigest::crc32_hex() const {
  const std::uint8_t big_endian[4] = {
      static_cast<std::uint8_t>(crc32 >> 24), static_cast<std::uint8_t>(crc32 >> 16),
      static_cast<std::uint8_t>(crc32 >> 8), static_cast<std::uint8_t>(crc32)};
  return to_hex(big_endian);
}

FileDigest digest(Bytes bytes) {
  FileDigest d;
  d.size = bytes.size();
  d.sha256 = mapindex::sha256(bytes);
  d.crc32 = static_cast<std::uint32_t>(libdeflate_crc32(0, bytes.data(), bytes.size()));
  return d;
}

}  // namespace mapindex::read
