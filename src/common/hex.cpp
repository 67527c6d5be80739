#include "common/hex.h"

namespace mapindex {

std::string to_hex(std::span<const std::uint8_t> bytes, HexCase letters) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const std::uint8_t b : bytes) append_hex(out, b, letters);
  return out;
}

std::string to_hex(std::string_view bytes, HexCase letters) {
  return to_hex(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()),
                letters);
}

std::string hex_bytes(std::string_view bytes, std::size_t max_bytes) {
  std::string out;
  const std::size_t shown = bytes.size() < max_bytes ? bytes.size() : max_bytes;
  out.reserve(shown * 3 + 4);
  for (std::size_t i = 0; i < shown; ++i) {
    if (i > 0) out += ' ';
    append_hex(out, static_cast<std::uint8_t>(bytes[i]));
  }
  if (shown < bytes.size()) out += " ...";
  return out;
}

}  // namespace mapindex
