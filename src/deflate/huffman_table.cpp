#include "deflate/huffman_table.h"

#include <algorithm>
#include <array>

namespace mapindex::deflate {
namespace {

constexpr std::uint32_t make_entry(Kind kind, std::uint32_t extra, std::uint32_t value) {
  return value << 16 | extra << 8 | static_cast<std::uint32_t>(kind) << 4;
}

// Length symbols 257-285 and distance symbols 0-29 (RFC 1951 3.2.5).
constexpr std::array<std::uint16_t, 29> kLengthBase = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                                       15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                                       67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::array<std::uint8_t, 29> kLengthExtra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                       2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::array<std::uint16_t, 30> kDistBase = {
    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::array<std::uint8_t, 30> kDistExtra = {0, 0, 0,  0,  1,  1,  2,  2,  3,  3,
                                                     4, 4, 5,  5,  6,  6,  7,  7,  8,  8,
                                                     9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

// What each symbol decodes to (without its length). Literal/length symbols
// 286 and 287 and distance symbols 30 and 31 have codes in fixed blocks but
// are not valid (zlib: "invalid literal/length code", "invalid distance code").
constexpr std::array<std::uint32_t, kNumLitLen> lit_entries() {
  std::array<std::uint32_t, kNumLitLen> e{};
  for (std::uint32_t s = 0; s < 256; ++s) e[s] = make_entry(kLiteral, 0, s);
  e[256] = make_entry(kEndOfBlock, 0, 0);
  for (std::uint32_t s = 257; s < 286; ++s)
    e[s] = make_entry(kBase, kLengthExtra[s - 257], kLengthBase[s - 257]);
  return e;  // 286, 287: kInvalid
}
constexpr std::array<std::uint32_t, kNumDist> dist_entries() {
  std::array<std::uint32_t, kNumDist> e{};
  for (std::uint32_t s = 0; s < 30; ++s) e[s] = make_entry(kBase, kDistExtra[s], kDistBase[s]);
  return e;  // 30, 31: kInvalid
}
constexpr std::array<std::uint32_t, kNumPrecode> precode_entries() {
  std::array<std::uint32_t, kNumPrecode> e{};
  for (std::uint32_t s = 0; s < kNumPrecode; ++s) e[s] = make_entry(kLiteral, 0, s);
  return e;
}
constexpr auto kLitEntries = lit_entries();
constexpr auto kDistEntries = dist_entries();
constexpr auto kPrecodeEntries = precode_entries();

constexpr std::array<std::uint8_t, 256> reversed_bytes() {
  std::array<std::uint8_t, 256> r{};
  for (unsigned b = 0; b < 256; ++b) {
    unsigned v = 0;
    for (unsigned i = 0; i < 8; ++i) v |= ((b >> i) & 1u) << (7 - i);
    r[b] = static_cast<std::uint8_t>(v);
  }
  return r;
}
constexpr auto kReversed = reversed_bytes();
// The low `n` bits of `code` in reverse order (n <= 16).
inline unsigned reverse_bits(unsigned code, unsigned n) {
  const unsigned r = unsigned{kReversed[code & 0xffu]} << 8 | kReversed[(code >> 8) & 0xffu];
  return r >> (16 - n);
}

enum class Incomplete { refused, single_code_allowed };

// The codes left unused by the code of `count` (codes per length, count[0]
// ignored), or -1 when it is over-subscribed.
int unused_codes(const std::array<unsigned, kMaxCodeLength + 1>& count) {
  int left = 1;  // codes still free at the current length
  for (unsigned len = 1; len <= kMaxCodeLength; ++len) {
    left = 2 * left - static_cast<int>(count[len]);
    if (left < 0) return -1;
  }
  return left;
}

// Fills `table` for the code given by `lengths` (a length per symbol, 0 for
// none); false when zlib would refuse it: over-subscribed, or incomplete
// unless `incomplete` allows a single code of length 1 (zlib allows that for
// lengths and distances). With no code at all every entry is invalid: true
// when `incomplete` allows it.
bool build_table(const std::uint8_t* lengths, unsigned n, const std::uint32_t* entries,
                 unsigned bits, Incomplete incomplete, std::uint32_t* table, std::size_t capacity) {
  std::array<unsigned, kMaxCodeLength + 1> count{};
  for (unsigned s = 0; s < n; ++s) count[lengths[s]]++;
  const unsigned coded = n - count[0];
  unsigned longest = kMaxCodeLength;
  while (longest > 0 && count[longest] == 0) --longest;
  const std::size_t primary = std::size_t{1} << bits;
  const int unused = longest == 0 ? 1 : unused_codes(count);
  if (unused < 0) return false;
  if (unused > 0) {
    if (longest > 1 || incomplete == Incomplete::refused) return false;
    // The entries no code reaches are invalid. A complete code reaches
    // every entry, and has no need of this.
    std::fill(table, table + primary, 0u);
    if (longest == 0) return true;
  }

  // Canonical codes (RFC 1951 3.2.2): by length, then by symbol.
  std::array<unsigned, kMaxCodeLength + 2> offset{};
  for (unsigned len = 1; len <= kMaxCodeLength; ++len) offset[len + 1] = offset[len] + count[len];
  std::array<std::uint16_t, kNumLitLen> sorted{};
  for (unsigned s = 0; s < n; ++s)
    if (lengths[s] != 0) sorted[offset[lengths[s]]++] = static_cast<std::uint16_t>(s);
  std::array<unsigned, kMaxCodeLength + 1> next{};
  unsigned code = 0;
  count[0] = 0;
  for (unsigned len = 1; len <= kMaxCodeLength; ++len) {
    code = (code + count[len - 1]) << 1;
    next[len] = code;
  }
  std::array<std::uint16_t, kNumLitLen> codes{};
  for (unsigned i = 0; i < coded; ++i)
    codes[i] = static_cast<std::uint16_t>(next[lengths[sorted[i]]]++);

  std::size_t used = primary;
  unsigned prefix = ~0u;  // the first `bits` bits of the codes of the current subtable
  std::size_t sub = 0;
  unsigned sub_bits = 0;
  for (unsigned i = 0; i < coded; ++i) {
    const unsigned s = sorted[i], len = lengths[s];
    const unsigned reversed = reverse_bits(codes[i], len);
    if (len <= bits) {
      for (std::size_t at = reversed; at < primary; at += std::size_t{1} << len)
        table[at] = entries[s] | len;
      continue;
    }
    // Codes longer than `bits` come last, in order of their first `bits`
    // bits; the last code with this prefix is the longest.
    const unsigned p = codes[i] >> (len - bits);
    if (p != prefix) {
      prefix = p;
      unsigned j = i;
      while (j + 1 < coded && unsigned{codes[j + 1]} >> (lengths[sorted[j + 1]] - bits) == p) ++j;
      sub_bits = lengths[sorted[j]] - bits;
      sub = used;
      used += std::size_t{1} << sub_bits;
      if (used > capacity) return false;  // cannot happen: see the table sizes
      table[reverse_bits(p, bits)] =
          make_entry(kLink, sub_bits, static_cast<std::uint32_t>(sub)) | bits;
    }
    const unsigned rest = len - bits;
    for (std::size_t at = reversed >> bits; at < (std::size_t{1} << sub_bits);
         at += std::size_t{1} << rest)
      table[sub + at] = entries[s] | rest;
  }
  return true;
}

}  // namespace

bool build_precode(const std::array<std::uint8_t, kNumPrecode>& lengths, PrecodeTable& table) {
  return build_table(lengths.data(), kNumPrecode, kPrecodeEntries.data(), kPrecodeBits,
                     Incomplete::refused, table.data(), table.size());
}

bool build_dynamic(const std::uint8_t* lit_lengths, unsigned nlit, const std::uint8_t* dist_lengths,
                   unsigned ndist, Tables& tables) {
  return build_table(lit_lengths, nlit, kLitEntries.data(), kLitBits,
                     Incomplete::single_code_allowed, tables.lit.data(), tables.lit.size()) &&
         build_table(dist_lengths, ndist, kDistEntries.data(), kDistBits,
                     Incomplete::single_code_allowed, tables.dist.data(), tables.dist.size());
}

const Tables& fixed_tables() {
  static const Tables tables = [] {
    Tables t{};
    std::array<std::uint8_t, kNumLitLen> lit{};
    std::fill(lit.begin(), lit.begin() + 144, 8);
    std::fill(lit.begin() + 144, lit.begin() + 256, 9);
    std::fill(lit.begin() + 256, lit.begin() + 280, 7);
    std::fill(lit.begin() + 280, lit.end(), 8);
    std::array<std::uint8_t, kNumDist> dist{};
    dist.fill(5);
    build_table(lit.data(), kNumLitLen, kLitEntries.data(), kLitBits, Incomplete::refused,
                t.lit.data(), t.lit.size());
    build_table(dist.data(), kNumDist, kDistEntries.data(), kDistBits, Incomplete::refused,
                t.dist.data(), t.dist.size());
    return t;
  }();
  return tables;
}

}  // namespace mapindex::deflate
