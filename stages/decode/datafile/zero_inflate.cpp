#include "stages/decode/datafile/zero_inflate.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>

#include "stages/common/bytes.h"

namespace mapindex::datafile {
namespace {

// --- Huffman tables ----------------------------------------------------------
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
enum Kind : std::uint32_t { kInvalid = 0, kLiteral = 1, kBase = 2, kEndOfBlock = 3, kLink = 4 };

constexpr std::uint32_t make_entry(Kind kind, std::uint32_t extra, std::uint32_t value) {
  return value << 16 | extra << 8 | static_cast<std::uint32_t>(kind) << 4;
}
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

// Fills `table` for the code given by `lengths` (a length per symbol, 0 for
// none); false when zlib would refuse it: over-subscribed, or incomplete
// (fewer codes than the lengths leave room for) unless `incomplete` allows a
// single code of length 1 (zlib allows that for lengths and distances). With
// no code at all every entry is invalid: true when `incomplete` allows it.
bool build_table(const std::uint8_t* lengths, unsigned n, const std::uint32_t* entries,
                 unsigned bits, Incomplete incomplete, std::uint32_t* table, std::size_t capacity) {
  std::array<unsigned, kMaxCodeLength + 1> count{};
  for (unsigned s = 0; s < n; ++s) count[lengths[s]]++;
  unsigned longest = kMaxCodeLength;
  while (longest > 0 && count[longest] == 0) --longest;
  const std::size_t primary = std::size_t{1} << bits;
  std::fill(table, table + primary, 0u);
  if (longest == 0) return incomplete == Incomplete::single_code_allowed;
  int left = 1;  // codes still free at the current length
  for (unsigned len = 1; len <= kMaxCodeLength; ++len) {
    left = 2 * left - static_cast<int>(count[len]);
    if (left < 0) return false;  // over-subscribed
  }
  if (left > 0 && !(incomplete == Incomplete::single_code_allowed && longest == 1)) return false;

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
  const unsigned coded = static_cast<unsigned>(
      std::count_if(lengths, lengths + n, [](std::uint8_t l) { return l != 0; }));
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
      std::fill(table + sub, table + used, 0u);
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

struct Tables {
  std::array<std::uint32_t, kLitTableSize> lit;
  std::array<std::uint32_t, kDistTableSize> dist;
};

// The fixed codes of block type 1 (RFC 1951 3.2.6).
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

// The first and the last K bytes of `n` (K <= n <= 2K) copied with two loads
// and two stores, which overlap each other when n < 2K.
template <std::size_t K>
inline void copy_ends(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) {
  std::uint8_t head[K], tail[K];
  std::memcpy(head, src, K);
  std::memcpy(tail, src + n - K, K);
  std::memcpy(dst, head, K);
  std::memcpy(dst + n - K, tail, K);
}

// memcpy of `n` bytes that do not overlap; most copies are short (3 to 32
// bytes), inline instead of a call.
inline void copy_apart(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) {
  if (n >= 16 && n <= 32)
    copy_ends<16>(dst, src, n);
  else if (n >= 8 && n < 16)
    copy_ends<8>(dst, src, n);
  else if (n >= 4 && n < 8)
    copy_ends<4>(dst, src, n);
  else
    std::memcpy(dst, src, n);
}

// Whether the `n` bytes at `p` are all zero.
inline bool all_zero(const std::uint8_t* p, std::size_t n) {
  std::uint64_t any = 0;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    any |= load_host_u64(p + i);
    if (any != 0) return false;
  }
  for (; i < n; ++i) any |= p[i];
  return any == 0;
}

// Repeats of a match's bits taken at once: for a match of k bits (1 to
// kMaxRepeatBits: at least two fit in 56), kRepeatUnit[k] has a 1 at bits 0,
// k, 2k, ... for the 56 / k repeats, so that `bits * kRepeatUnit[k]` is
// those bits that many times.
constexpr unsigned kMaxRepeatBits = 28;
constexpr std::array<std::uint64_t, kMaxRepeatBits + 1> repeat_units() {
  std::array<std::uint64_t, kMaxRepeatBits + 1> u{};
  for (unsigned k = 1; k <= kMaxRepeatBits; ++k)
    for (unsigned i = 0; i < 56 / k; ++i) u[k] |= std::uint64_t{1} << (i * k);
  return u;
}
constexpr auto kRepeatUnit = repeat_units();

// --- The decoder ---------------------------------------------------------------

// The input, read a bit at a time from the low end of a 64-bit buffer.
struct BitReader {
  const std::uint8_t* begin;
  const std::uint8_t* in;
  const std::uint8_t* end;
  std::size_t overrun = 0;  // zero bytes read past `end`
  std::uint64_t bits = 0;   // the next `nbits` bits of input, from bit 0
  unsigned nbits = 0;

  // At least 56 bits in the buffer: past the end of the input they are zero
  // (counted in `overrun`). False once more than 8 such bytes were needed:
  // the buffer holds 8 bytes, so at least one of them was taken as input.
  bool refill() {
    if (end - in >= 8) {
      bits |= load_le_u64(in) << nbits;
      const unsigned bytes = (63 - nbits) >> 3;
      in += bytes;
      nbits += 8 * bytes;
      return true;
    }
    while (nbits <= 56) {
      if (in < end)
        bits |= std::uint64_t{*in++} << nbits;
      else if (++overrun > 8)
        return false;
      nbits += 8;
    }
    return true;
  }
  void consume(unsigned n) {
    bits >>= n;
    nbits -= n;
  }
  unsigned take(unsigned n) {
    const auto v = static_cast<unsigned>(bits & ((std::uint64_t{1} << n) - 1));
    consume(n);
    return v;
  }
  // Bits taken from the input so far, counting those past its end.
  std::size_t consumed_bits() const {
    return 8 * (static_cast<std::size_t>(in - begin) + overrun) - nbits;
  }
  // Whether bits past the end of the input were taken: the stream was cut
  // short.
  bool overran() const { return consumed_bits() > 8 * static_cast<std::size_t>(end - begin); }
  // Bytes read so far, counting those past the end and not those still in
  // the buffer whole.
  std::size_t position() const {
    return static_cast<std::size_t>(in - begin) + overrun - nbits / 8;
  }
  // Reading goes on at byte `at` of the input, with nothing buffered.
  void restart_at(std::size_t at) {
    in = begin + at;
    overrun = 0;
    bits = 0;
    nbits = 0;
  }
  // The entry of `table` (primary index `bits` wide) for the next code, its
  // bits consumed.
  std::uint32_t decode(const std::uint32_t* table, unsigned table_bits) {
    std::uint32_t e = table[bits & ((1u << table_bits) - 1)];
    if (kind_of(e) == kLink) {
      consume(table_bits);
      e = table[value_of(e) + (bits & ((1u << extra_of(e)) - 1))];
    }
    consume(length_of(e));
    return e;
  }
};

class Decoder {
 public:
  Decoder(Bytes in, ZeroedBuffer& buffer, std::size_t size, Tables& tables)
      : r_{in.data(), in.data(), in.data() + in.size()},
        buffer_(buffer),
        out_(buffer.data()),
        size_(size),
        dynamic_(tables) {}

  RawInflateOutcome run() {
    bool last = false;
    while (!last) {
      if (!r_.refill()) return fail(InflateStatus::corrupt);
      last = (r_.bits & 1u) != 0;
      const unsigned type = (r_.bits >> 1) & 3u;
      r_.consume(3);
      InflateStatus s = InflateStatus::ok;
      switch (type) {
        case 0: s = stored(); break;
        case 1: s = huffman(fixed_tables()); break;
        case 2: s = dynamic(); break;
        default: s = InflateStatus::corrupt; break;
      }
      if (s != InflateStatus::ok) return fail(s);
    }
    if (r_.overran()) return fail(InflateStatus::corrupt);
    RawInflateOutcome out;
    out.status = pos_ == size_ ? InflateStatus::ok : InflateStatus::too_short;
    out.produced = pos_;
    // Counting the bits of its last byte that follow its end.
    out.used = (r_.consumed_bits() + 7) / 8;
    return out;
  }

 private:
  RawInflateOutcome fail(InflateStatus s) const {
    RawInflateOutcome out;
    // Output beyond `size` decoded from bits past the end of the input is a
    // stream cut short (zlib: a buffer error), not one that is too long.
    if (s == InflateStatus::too_long && r_.overran()) s = InflateStatus::corrupt;
    out.status = s;
    out.produced = s == InflateStatus::too_long ? size_ : 0;
    return out;
  }

  InflateStatus stored() {
    r_.consume(r_.nbits & 7u);  // to the byte boundary
    if (!r_.refill()) return InflateStatus::corrupt;
    const unsigned len = r_.take(16), nlen = r_.take(16);
    if (len != (~nlen & 0xffffu)) return InflateStatus::corrupt;
    // The bytes still in the bit buffer come first: go back to them.
    const std::size_t at = r_.position();
    const auto available = static_cast<std::size_t>(r_.end - r_.begin);
    if (at > available || len > available - at) return InflateStatus::corrupt;
    if (len > size_ - pos_) return InflateStatus::too_long;
    if (len != 0) {
      std::memcpy(out_ + pos_, r_.begin + at, len);
      buffer_.mark(pos_, len);
      pos_ += len;
      zero_from_ = pos_;
    }
    r_.restart_at(at + len);
    return InflateStatus::ok;
  }

  InflateStatus dynamic() {
    if (!r_.refill()) return InflateStatus::corrupt;
    const unsigned nlit = r_.take(5) + 257, ndist = r_.take(5) + 1, nprecode = r_.take(4) + 4;
    if (nlit > 286 || ndist > 30) return InflateStatus::corrupt;
    static constexpr std::array<std::uint8_t, kNumPrecode> kOrder = {
        16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    std::array<std::uint8_t, kNumPrecode> precode_lengths{};
    std::array<std::uint32_t, kPrecodeTableSize> precode;
    for (unsigned i = 0; i < nprecode; ++i) {
      if (r_.nbits < 3 && !r_.refill()) return InflateStatus::corrupt;
      precode_lengths[kOrder[i]] = static_cast<std::uint8_t>(r_.take(3));
    }
    if (!build_table(precode_lengths.data(), kNumPrecode, kPrecodeEntries.data(), kPrecodeBits,
                     Incomplete::refused, precode.data(), precode.size()))
      return InflateStatus::corrupt;

    std::array<std::uint8_t, 286 + 30> lengths{};
    const unsigned total = nlit + ndist;
    for (unsigned i = 0; i < total;) {
      if (!r_.refill()) return InflateStatus::corrupt;
      const std::uint32_t e = r_.decode(precode.data(), kPrecodeBits);
      if (kind_of(e) == kInvalid) return InflateStatus::corrupt;
      const unsigned sym = value_of(e);
      if (sym < 16) {
        lengths[i++] = static_cast<std::uint8_t>(sym);
        continue;
      }
      std::uint8_t value = 0;
      unsigned repeat = 0;
      if (sym == 16) {
        if (i == 0) return InflateStatus::corrupt;  // nothing to repeat
        value = lengths[i - 1];
        repeat = 3 + r_.take(2);
      } else if (sym == 17) {
        repeat = 3 + r_.take(3);
      } else {
        repeat = 11 + r_.take(7);
      }
      if (repeat > total - i) return InflateStatus::corrupt;
      std::fill_n(lengths.begin() + i, repeat, value);
      i += repeat;
    }
    if (lengths[256] == 0) return InflateStatus::corrupt;  // no end of block
    if (!build_table(lengths.data(), nlit, kLitEntries.data(), kLitBits,
                     Incomplete::single_code_allowed, dynamic_.lit.data(), dynamic_.lit.size()) ||
        !build_table(lengths.data() + nlit, ndist, kDistEntries.data(), kDistBits,
                     Incomplete::single_code_allowed, dynamic_.dist.data(), dynamic_.dist.size()))
      return InflateStatus::corrupt;
    return huffman(dynamic_);
  }

  // One block's symbols up to its end of block.
  InflateStatus huffman(const Tables& t) {
    const std::uint32_t* lit = t.lit.data();
    const std::uint32_t* dist = t.dist.data();
    std::uint8_t* const out = out_;
    const std::size_t size = size_;
    std::size_t pos = pos_;
    BitReader r = r_;                    // a copy the compiler keeps in registers
    std::size_t zero_from = zero_from_;  // out[zero_from, pos) is zero
    InflateStatus status = InflateStatus::ok;
    for (;;) {
      // A symbol takes at most 15 + 5 + 15 + 13 = 48 bits of the 56.
      if (!r.refill()) {
        status = InflateStatus::corrupt;
        break;
      }
      const std::uint64_t before = r.bits;
      const unsigned available = r.nbits;
      const std::uint32_t e = r.decode(lit, kLitBits);
      const unsigned kind = kind_of(e);
      if (kind == kLiteral) {
        if (pos == size) {
          status = InflateStatus::too_long;
          break;
        }
        const auto byte = static_cast<std::uint8_t>(value_of(e));
        if (byte != 0) {
          out[pos] = byte;
          buffer_.mark(pos);
          zero_from = pos + 1;
        }
        ++pos;
        continue;
      }
      if (kind != kBase) {
        if (kind != kEndOfBlock) status = InflateStatus::corrupt;
        break;
      }
      const std::size_t len = value_of(e) + r.take(extra_of(e));
      const std::uint32_t d = r.decode(dist, kDistBits);
      if (kind_of(d) != kBase) {
        status = InflateStatus::corrupt;
        break;
      }
      const std::size_t distance = value_of(d) + r.take(extra_of(d));
      if (distance > pos) {
        status = InflateStatus::corrupt;
        break;
      }
      if (len > size - pos) {
        status = InflateStatus::too_long;
        break;
      }
      // Copies from the zeros that end the output so far need no look.
      if (pos - distance < zero_from) {
        if (copy(out, pos, distance, len)) zero_from = pos + len;
        pos += len;
        continue;
      }
      pos += len;
      // A run of air is the same match again and again (most often 258
      // bytes at distance 1): while the next bits are this match's bits
      // again, each is more zeros, without decoding it.
      const unsigned k = available - r.nbits;
      const std::uint64_t mask = (std::uint64_t{1} << k) - 1, same = before & mask;
      const auto one_more = [&] {
        if (r.nbits < k && !r.refill()) return false;
        if ((r.bits & mask) != same || len > size - pos) return false;
        r.consume(k);
        pos += len;
        return true;
      };
      // Most runs end within a repeat or two. Past two, a run goes on for
      // tens to thousands of repeats (most of the repeats are in those):
      // they are taken several at a time, as many as 56 bits hold, and what
      // is left one at a time. A refill there asks for no more than the
      // next symbol's would.
      if (!one_more() || !one_more()) continue;
      if (k <= kMaxRepeatBits) {
        const unsigned reps = 56 / k, bits = reps * k;
        const std::uint64_t many = same * kRepeatUnit[k];
        const std::uint64_t many_mask = (std::uint64_t{1} << bits) - 1;
        const std::size_t many_len = len * reps;
        for (;;) {
          if (r.nbits < bits && !r.refill()) break;
          if ((r.bits & many_mask) != many || many_len > size - pos) break;
          r.consume(bits);
          pos += many_len;
        }
      }
      while (one_more()) {
      }
    }
    pos_ = pos;
    r_ = r;
    zero_from_ = zero_from;
    return status;
  }

  // The `len` bytes at `pos` are those `distance` bytes before, repeating
  // when distance < len. What is there is zero: a copy of zeros is skipped.
  // Whether it wrote.
  bool copy(std::uint8_t* out, std::size_t pos, std::size_t distance, std::size_t len) {
    std::uint8_t* dst = out + pos;
    const std::uint8_t* src = dst - distance;
    if (distance == 1) {
      if (*src == 0) return false;
      std::memset(dst, *src, len);
    } else if (distance >= len) {
      if (all_zero(src, len)) return false;
      copy_apart(dst, src, len);
    } else {
      if (all_zero(src, distance)) return false;
      // Periodic with period `distance`, so with any multiple of it: copy
      // from `step` bytes back, doubling the step while it is small.
      std::size_t step = distance, done = 0;
      while (done < len) {
        const std::size_t n = std::min(step, len - done);
        copy_apart(dst + done, dst + done - step, n);
        done += n;
        if (step < 256) step *= 2;
      }
    }
    buffer_.mark(pos, len);
    return true;
  }

  BitReader r_;
  ZeroedBuffer& buffer_;
  std::uint8_t* const out_;
  const std::size_t size_;
  std::size_t pos_ = 0;
  std::size_t zero_from_ = 0;
  Tables& dynamic_;
};

}  // namespace

RawInflateOutcome inflate_onto_zeros(Bytes deflate, ZeroedBuffer& buffer, std::size_t size) {
  // The tables of dynamic blocks: 57 KB, once per thread.
  thread_local const std::unique_ptr<Tables> tables = std::make_unique<Tables>();
  Decoder decoder(deflate, buffer, size, *tables);
  return decoder.run();
}

}  // namespace mapindex::datafile
