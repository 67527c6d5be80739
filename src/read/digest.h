// Content identity of a file: SHA-256 (the index key) and CRC32 (the
// checksum DDNet puts in map file names, "name_<crc32>.map").
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "common/bytes.h"

namespace mapindex::read {

struct FileDigest {
  std::array<std::uint8_t, 32> sha256{};
  std::uint32_t crc32 = 0;
  std::uint64_t size = 0;

  std::string sha256_hex() const;  // 64 lowercase hex digits
  std::string crc32_hex() const;   // 8 lowercase hex digits, as DDNet names maps
};

// SHA-256 via OpenSSL EVP, CRC32 (IEEE, zlib's) via libdeflate.
FileDigest digest(Bytes bytes);

}  // namespace mapindex::read
