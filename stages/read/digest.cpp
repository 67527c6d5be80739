#include "stages/read/digest.h"

#include <libdeflate.h>
#include <openssl/evp.h>

#include <stdexcept>

namespace mapindex::read {
namespace {

constexpr char kHex[] = "0123456789abcdef";

}  // namespace

std::string FileDigest::sha256_hex() const {
  std::string out;
  out.reserve(64);
  for (std::uint8_t b : sha256) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 0xf]);
  }
  return out;
}

std::string FileDigest::crc32_hex() const {
  std::string out(8, '0');
  for (int i = 0; i < 8; ++i) out[static_cast<std::size_t>(i)] = kHex[(crc32 >> (28 - 4 * i)) & 0xf];
  return out;
}

FileDigest digest(Bytes bytes) {
  FileDigest d;
  d.size = bytes.size();
  unsigned int length = 0;
  // EVP_Digest only fails on allocation failure or a broken OpenSSL install.
  if (EVP_Digest(bytes.data(), bytes.size(), d.sha256.data(), &length, EVP_sha256(), nullptr) != 1 ||
      length != d.sha256.size())
    throw std::runtime_error("OpenSSL EVP_Digest(SHA-256) failed");
  d.crc32 = static_cast<std::uint32_t>(libdeflate_crc32(0, bytes.data(), bytes.size()));
  return d;
}

}  // namespace mapindex::read
