#include "common/utf8.h"

#include <cstdint>

#include "common/hex.h"

namespace mapindex {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// How a sequence with this lead byte goes on: its length and the allowed
// range of its second byte (the later bytes are always 80..BF). length 0:
// the byte cannot start a sequence.
struct Lead {
  std::size_t length = 0;
  std::uint8_t low = 0x80, high = 0xBF;
};

Lead lead_of(std::uint8_t c) {
  if (c >= 0xC2 && c <= 0xDF) return {2};
  if (c == 0xE0) return {3, 0xA0, 0xBF};  // no overlong forms
  if (c == 0xED) return {3, 0x80, 0x9F};  // no surrogates
  if (c >= 0xE1 && c <= 0xEF) return {3};
  if (c == 0xF0) return {4, 0x90, 0xBF};  // no overlong forms
  if (c == 0xF4) return {4, 0x80, 0x8F};  // nothing above U+10FFFF
  if (c >= 0xF1 && c <= 0xF3) return {4};
  return {};
}

// How many bytes from text[i] form a well-formed sequence (`complete` true)
// or the maximal subpart of one (`complete` false, at least 1).
std::size_t scan(std::string_view text, std::size_t i, bool& complete) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(text.data());
  complete = false;
  if (p[i] < 0x80) {
    complete = true;
    return 1;
  }
  const Lead lead = lead_of(p[i]);
  if (lead.length == 0) return 1;
  std::size_t k = 1;
  for (; k < lead.length && i + k < text.size(); ++k) {
    const std::uint8_t b = p[i + k];
    const std::uint8_t low = k == 1 ? lead.low : 0x80, high = k == 1 ? lead.high : 0xBF;
    if (b < low || b > high) return k;
  }
  complete = k == lead.length;
  return k;
}

}  // namespace

std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  bool complete = false;
  const std::size_t n = scan(text, i, complete);
  return complete ? n : 0;
}

bool is_valid_utf8(std::string_view text) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(text.data());
  for (std::size_t i = 0; i < text.size();) {
    if (p[i] < 0x80) {
      ++i;
      continue;
    }
    bool complete = false;
    const std::size_t n = scan(text, i, complete);
    if (!complete) return false;
    i += n;
  }
  return true;
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c == '\r')
      out += "\\r";
    else if (byte < 0x20 || byte == 0x7f) {
      out += "\\x";
      append_hex(out, byte);
    } else {
      out += c;
    }
  }
  return out;
}

std::string to_valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 8);
  for (std::size_t i = 0; i < text.size();) {
    bool complete = false;
    const std::size_t n = scan(text, i, complete);
    if (complete)
      out.append(text.substr(i, n));
    else
      out.append(kReplacement);
    i += n;
  }
  return out;
}

}  // namespace mapindex
