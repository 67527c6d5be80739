#include "common/sha256.h"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

namespace mapindex {
namespace {

// The implementation, fetched once: EVP_sha256() has OpenSSL 3 look it up
// again in every digest, which triples a small digest's cost, and a run
// hashes every entry and every tile layer. The first call also loads
// OpenSSL's configuration: sha256_warm_up().
const EVP_MD* sha256_md() {
  static EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  return md != nullptr ? md : EVP_sha256();
}

struct ContextFree {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};

}  // namespace

Sha256 sha256(Bytes bytes) {
  // A context per call: keeping one costs a thread-local or a caller's
  // object, and a new one adds only an allocation to a digest.
  const std::unique_ptr<EVP_MD_CTX, ContextFree> context(EVP_MD_CTX_new());
  Sha256 out{};
  unsigned int length = 0;
  // These only fail on allocation failure or a broken OpenSSL install.
  if (!context || EVP_DigestInit_ex2(context.get(), sha256_md(), nullptr) != 1 ||
      EVP_DigestUpdate(context.get(), bytes.data(), bytes.size()) != 1 ||
      EVP_DigestFinal_ex(context.get(), out.data(), &length) != 1 || length != out.size())
    throw std::runtime_error("OpenSSL SHA-256 failed");
  return out;
}

void sha256_warm_up() { sha256(Bytes{}); }

std::optional<Sha256> sha256_from_hex(std::string_view hex) {
  if (hex.size() != 64) return std::nullopt;
  const auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  Sha256 out{};
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int high = nibble(hex[2 * i]), low = nibble(hex[2 * i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    out[i] = static_cast<std::uint8_t>(high << 4 | low);
  }
  return out;
}

}  // namespace mapindex
