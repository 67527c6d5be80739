#include "decode/teeworlds/i32_string.h"

namespace mapindex::teeworlds {

std::string decode_i32_string(datafile::Int32View ints) {
  std::string out;
  const std::size_t n = ints.size();
  out.reserve(n * 4);
  for (std::size_t i = 0; i < n; ++i) {
    const auto v = static_cast<std::uint32_t>(ints[i]);
    for (int b = 3; b >= 0; --b) {
      if (i + 1 == n && b == 0) return out;  // the last byte is the terminator
      const auto c = static_cast<unsigned char>(((v >> (8 * b)) & 0xFFu) - 128u);
      if (c == 0) return out;
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

void encode_i32_string(const std::string& text, std::int32_t* out, std::size_t num_ints) {
  for (std::size_t i = 0; i < num_ints; ++i) {
    std::uint32_t v = 0;
    for (std::size_t b = 0; b < 4; ++b) {
      const std::size_t pos = i * 4 + b;
      const bool last = (i + 1 == num_ints && b == 3);
      const unsigned char c =
          (!last && pos < text.size()) ? static_cast<unsigned char>(text[pos]) : 0;
      v |= static_cast<std::uint32_t>(static_cast<unsigned char>(c + 128u)) << (8 * (3 - b));
    }
    if (num_ints > 0 && i + 1 == num_ints) v &= 0xFFFFFF00u;  // the terminator stays 0
    out[i] = static_cast<std::int32_t>(v);
  }
}

}  // namespace mapindex::teeworlds
