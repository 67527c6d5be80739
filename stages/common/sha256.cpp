#include "stages/common/sha256.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace mapindex {

Sha256 sha256(Bytes bytes) {
  Sha256 out{};
  unsigned int length = 0;
  // EVP_Digest only fails on allocation failure or a broken OpenSSL install.
  if (EVP_Digest(bytes.data(), bytes.size(), out.data(), &length, EVP_sha256(), nullptr) != 1 ||
      length != out.size())
    throw std::runtime_error("OpenSSL EVP_Digest(SHA-256) failed");
  return out;
}

}  // namespace mapindex
