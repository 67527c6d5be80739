// Hexadecimal text of bytes: the one copy every stage, test and tool uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace mapindex {

enum class HexCase { lower, upper };

// The digit of `value` (0..15): '0'..'9', then 'a'..'f' or 'A'..'F'.
constexpr char hex_digit(unsigned value, HexCase letters = HexCase::lower) {
  return (letters == HexCase::lower ? "0123456789abcdef" : "0123456789ABCDEF")[value & 15];
}

// Appends the two digits of `byte`, high nibble first.
inline void append_hex(std::string& out, std::uint8_t byte, HexCase letters = HexCase::lower) {
  out += hex_digit(byte >> 4, letters);
  out += hex_digit(byte & 15, letters);
}

// Two digits per byte, no separators: "00ff41".
std::string to_hex(std::span<const std::uint8_t> bytes, HexCase letters = HexCase::lower);
std::string to_hex(std::string_view bytes, HexCase letters = HexCase::lower);

// The bytes as lowercase hex pairs separated by spaces: "41 ff 42". At most
// `max_bytes` bytes are shown, then " ..." follows. For messages.
std::string hex_bytes(std::string_view bytes, std::size_t max_bytes = 64);

}  // namespace mapindex
