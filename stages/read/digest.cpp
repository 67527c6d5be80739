#include "stages/read/digest.h"

#include <libdeflate.h>
#include <openssl/evp.h>

#include <stdexcept>

#include "stages/common/hex.h"

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
  unsigned int length = 0;
  // EVP_Digest only fails on allocation failure or a broken OpenSSL install.
  if (EVP_Digest(bytes.data(), bytes.size(), d.sha256.data(), &length, EVP_sha256(), nullptr) !=
          1 ||
      length != d.sha256.size())
    throw std::runtime_error("OpenSSL EVP_Digest(SHA-256) failed");
  d.crc32 = static_cast<std::uint32_t>(libdeflate_crc32(0, bytes.data(), bytes.size()));
  return d;
}

}  // namespace mapindex::read
