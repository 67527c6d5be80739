#include "common/base64.h"

#include <openssl/evp.h>

#include <algorithm>

namespace mapindex {

std::string base64_encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3), '\0');
  // EVP_EncodeBlock takes an int length: encode in chunks (a multiple of 3).
  constexpr std::size_t kChunk = 3 * (1u << 20);
  std::size_t in = 0, written = 0;
  while (in < bytes.size()) {
    const std::size_t n = std::min(kChunk, bytes.size() - in);
    written += static_cast<std::size_t>(EVP_EncodeBlock(
        reinterpret_cast<unsigned char*>(out.data() + written),
        reinterpret_cast<const unsigned char*>(bytes.data() + in), static_cast<int>(n)));
    in += n;
  }
  out.resize(written);
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  for (const char c : text) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '+' || c == '/' || c == '=';
    if (!ok) return std::nullopt;
  }
  std::size_t padding = 0;
  while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') ++padding;
  if (text.substr(0, text.size() - padding).find('=') != std::string_view::npos)
    return std::nullopt;
  std::string out(3 * (text.size() / 4), '\0');
  constexpr std::size_t kChunk = 4 * (1u << 20);
  std::size_t in = 0, written = 0;
  while (in < text.size()) {
    const std::size_t n = std::min(kChunk, text.size() - in);
    const int got = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data() + written),
                                    reinterpret_cast<const unsigned char*>(text.data() + in),
                                    static_cast<int>(n));
    if (got < 0) return std::nullopt;
    written += static_cast<std::size_t>(got);
    in += n;
  }
  // EVP_DecodeBlock counts the padding as zero bytes.
  out.resize(written - padding);
  return out;
}

}  // namespace mapindex
