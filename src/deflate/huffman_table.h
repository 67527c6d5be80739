// The decoding tables of deflate's Huffman codes (RFC 1951 3.2.2), for the
// decoder in zero_inflate.cpp; built as zlib builds them, refusing what it
// refuses.
//
// Deflate's codes are read a bit at a time, first bit first, with each code's
// bits packed from its most significant bit: in a bit buffer filled from its
// low end, the next code is the bit-reversed code in the low bits. A table
// indexed by the next kBits bits gives, for every code of at most kBits bits,
// its entry (repeated for every value of the bits after it); a code longer
// than that is found through a link to a subtable indexed by the bits after
// the first kBits.
//
// An entry is 32 bits: bits 0-3 the bits to consume (the code's length, or
// what is left of it in a subtable; kBits for a link), 4-7 its kind, 8-15
// extra bits to read (a link: the subtable's index bits), 16-31 a value
// (literal byte, base length or distance, subtable offset).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace mapindex::deflate {

enum Kind : std::uint32_t { kInvalid = 0, kLiteral = 1, kBase = 2, kEndOfBlock = 3, kLink = 4 };

inline unsigned length_of(std::uint32_t e) { return e & 15u; }
inline unsigned kind_of(std::uint32_t e) { return (e >> 4) & 15u; }
inline unsigned extra_of(std::uint32_t e) { return (e >> 8) & 0xffu; }
inline unsigned value_of(std::uint32_t e) { return e >> 16; }

constexpr unsigned kLitBits = 10, kDistBits = 8, kPrecodeBits = 7;
constexpr unsigned kMaxCodeLength = 15;
constexpr unsigned kNumLitLen = 288, kNumDist = 32, kNumPrecode = 19;
// Each subtable serves a prefix of at least one code longer than kBits and
// has at most 2^(15 - kBits) entries.
constexpr std::size_t kLitTableSize = (1u << kLitBits) + kNumLitLen * (1u << (15 - kLitBits));
constexpr std::size_t kDistTableSize = (1u << kDistBits) + kNumDist * (1u << (15 - kDistBits));
constexpr std::size_t kPrecodeTableSize = 1u << kPrecodeBits;  // its codes are at most 7 bits

// A block's literal/length and distance tables.
struct Tables {
  std::array<std::uint32_t, kLitTableSize> lit;
  std::array<std::uint32_t, kDistTableSize> dist;
};
// A dynamic block's code length code: its symbols 0-18 are kLiteral entries.
using PrecodeTable = std::array<std::uint32_t, kPrecodeTableSize>;

// The code length code from its 19 lengths (by symbol); false when zlib
// refuses it: over-subscribed or incomplete.
bool build_precode(const std::array<std::uint8_t, kNumPrecode>& lengths, PrecodeTable& table);

// A dynamic block's codes from the lengths of its `nlit` literal/length and
// `ndist` distance symbols (nlit <= 286, ndist <= 30); false when zlib refuses
// them: over-subscribed, or incomplete except a single code of length 1 (or
// no distance code at all, which leaves every distance invalid).
bool build_dynamic(const std::uint8_t* lit_lengths, unsigned nlit, const std::uint8_t* dist_lengths,
                   unsigned ndist, Tables& tables);

// The fixed codes of block type 1 (RFC 1951 3.2.6), built once.
const Tables& fixed_tables();

}  // namespace mapindex::deflate
