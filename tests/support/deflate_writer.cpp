#include "tests/support/deflate_writer.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <stdexcept>

namespace mapindex::testing {

std::vector<std::uint8_t> zlib_deflate_raw(const std::vector<std::uint8_t>& data, int level,
                                           int strategy, int mem_level) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, -15, mem_level, strategy) != Z_OK)
    throw std::runtime_error("zlib deflateInit2 failed");
  std::vector<std::uint8_t> out(deflateBound(&zs, data.size()) + 16);
  zs.next_in = const_cast<Bytef*>(data.data());
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = out.data();
  zs.avail_out = static_cast<uInt>(out.size());
  const int r = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  if (r != Z_STREAM_END) throw std::runtime_error("zlib deflate did not finish");
  return out;
}

std::vector<unsigned> canonical_codes(const std::vector<unsigned>& lengths) {
  std::array<unsigned, 17> count{}, next{};
  for (unsigned l : lengths) count[l]++;
  count[0] = 0;
  unsigned code = 0;
  for (unsigned len = 1; len <= 16; ++len) {
    code = (code + count[len - 1]) << 1;
    next[len] = code;
  }
  std::vector<unsigned> codes(lengths.size());
  for (std::size_t s = 0; s < lengths.size(); ++s)
    if (lengths[s] != 0) codes[s] = next[lengths[s]]++;
  return codes;
}

void fixed_litlen(BitWriter& w, unsigned sym) {
  if (sym < 144)
    w.code(0x30 + sym, 8);
  else if (sym < 256)
    w.code(0x190 + sym - 144, 9);
  else if (sym < 280)
    w.code(sym - 256, 7);
  else
    w.code(0xc0 + sym - 280, 8);
}

void dynamic_header(BitWriter& w, bool final, const std::vector<unsigned>& lit,
                    const std::vector<unsigned>& dist, std::vector<CodeLength> runs) {
  w.block(final, 2);
  w.bits(static_cast<unsigned>(lit.size() - 257), 5);
  w.bits(static_cast<unsigned>(dist.size() - 1), 5);
  w.bits(19 - 4, 4);
  // Code length code: 0-15 five bits, 16 two, 17 and 18 three (complete).
  std::vector<unsigned> pre(19, 5);
  pre[16] = 2;
  pre[17] = 3;
  pre[18] = 3;
  const unsigned order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
  for (unsigned s : order) w.bits(pre[s], 3);
  const auto pre_codes = canonical_codes(pre);
  if (runs.empty())
    for (const auto* lengths : {&lit, &dist})
      for (unsigned l : *lengths) runs.push_back({l});
  for (const auto& r : runs) {
    w.code(pre_codes[r.symbol], pre[r.symbol]);
    w.bits(r.extra, r.extra_bits);
  }
}

void fixed_match(BitWriter& w, unsigned length, unsigned distance) {
  static constexpr unsigned kLengthBase[29] = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                               15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                               67, 83, 99, 115, 131, 163, 195, 227, 258};
  static constexpr unsigned kLengthExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
  static constexpr unsigned kDistanceBase[30] = {
      1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
      193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
  unsigned l = 28;
  while (kLengthBase[l] > length) --l;
  fixed_litlen(w, 257 + l);
  w.bits(length - kLengthBase[l], kLengthExtra[l]);
  unsigned d = 29;
  while (kDistanceBase[d] > distance) --d;
  w.code(d, 5);
  w.bits(distance - kDistanceBase[d], d < 4 ? 0 : d / 2 - 1);
}

void short_dynamic_header(BitWriter& w, bool final, const std::vector<unsigned>& lit,
                          const std::vector<unsigned>& dist) {
  w.block(final, 2);
  w.bits(static_cast<unsigned>(lit.size() - 257), 5);
  w.bits(static_cast<unsigned>(dist.size() - 1), 5);
  // The code length code's lengths in their order (16, 17, 18, 0, 8, 7, 9,
  // 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1): 18 and 1 have 1 bit, so their
  // codes are 1 and 0; the rest none.
  w.bits(18 - 4, 4);
  for (unsigned i = 0; i < 18; ++i) w.bits(i == 2 || i == 17 ? 1 : 0, 3);
  std::vector<unsigned> all = lit;
  all.insert(all.end(), dist.begin(), dist.end());
  for (std::size_t i = 0; i < all.size();) {
    if (all[i] > 1) throw std::invalid_argument("short_dynamic_header: a length above 1");
    if (all[i] == 1) {
      w.code(0, 1);
      ++i;
      continue;
    }
    std::size_t zeros = 0;
    while (i + zeros < all.size() && all[i + zeros] == 0) ++zeros;
    if (zeros < 11) throw std::invalid_argument("short_dynamic_header: fewer than 11 zeros");
    i += zeros;
    while (zeros > 0) {
      std::size_t run = std::min<std::size_t>(zeros, 138);
      if (zeros - run > 0 && zeros - run < 11) run = zeros - 11;
      w.code(1, 1);
      w.bits(static_cast<unsigned>(run - 11), 7);
      zeros -= run;
    }
  }
}

const char* to_string(TinyBlocks kind) {
  switch (kind) {
    case TinyBlocks::empty_stored: return "empty stored blocks";
    case TinyBlocks::empty_fixed: return "empty fixed blocks";
    case TinyBlocks::empty_dynamic: return "empty dynamic blocks";
    case TinyBlocks::byte_fixed: return "fixed blocks of one byte";
    case TinyBlocks::byte_dynamic: return "dynamic blocks of one byte";
  }
  return "?";
}

std::size_t tiny_blocks_size(TinyBlocks kind, std::size_t blocks) {
  return kind == TinyBlocks::byte_fixed || kind == TinyBlocks::byte_dynamic ? blocks : 0;
}

std::vector<std::uint8_t> tiny_blocks(TinyBlocks kind, std::size_t blocks) {
  // Dynamic: a single 1-bit literal/length code (the end of block alone, or
  // with the byte: two codes) and one 1-bit distance code, never used.
  std::vector<unsigned> lit(257, 0);
  lit[256] = 1;
  if (kind == TinyBlocks::byte_dynamic) lit[kTinyBlockByte] = 1;
  const HuffmanCode lit_code(lit);
  BitWriter w;
  for (std::size_t b = 0; b < blocks; ++b) {
    const bool final = b + 1 == blocks;
    switch (kind) {
      case TinyBlocks::empty_stored: w.stored(final, 0, ~0u); break;
      case TinyBlocks::empty_fixed:
      case TinyBlocks::byte_fixed:
        w.block(final, 1);
        if (kind == TinyBlocks::byte_fixed) fixed_litlen(w, kTinyBlockByte);
        fixed_litlen(w, 256);
        break;
      case TinyBlocks::empty_dynamic:
      case TinyBlocks::byte_dynamic:
        short_dynamic_header(w, final, lit, {1});
        if (kind == TinyBlocks::byte_dynamic) lit_code.put(w, kTinyBlockByte);
        lit_code.put(w, 256);
        break;
    }
  }
  return w.done();
}

}  // namespace mapindex::testing
