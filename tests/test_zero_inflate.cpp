// inflate_onto_zeros (zero_inflate.h), the decoder of tile data, against
// zlib's inflate, the reference implementation of deflate (and what DDNet
// writes maps with): streams zlib writes at every level and strategy, blocks
// written by hand for each rule of RFC 1951 that zlib enforces, damaged
// streams, the buffer's marks and its reuse; and every data item of the
// corpus against libdeflate. KnownZeros (zero_blocks.h) and the tile counter
// must give what they give without the marks.
#include <doctest/doctest.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "stages/common/adler32.h"
#include "stages/common/zero_blocks.h"
#include "stages/common/zeroed_buffer.h"
#include "stages/decode/datafile/datafile.h"
#include "stages/decode/datafile/zero_inflate.h"
#include "stages/extract/teeworlds_tile_counter.h"
#include "tests/support/corpus.h"

using namespace mapindex;
using datafile::InflateStatus;

namespace {

// --- zlib, the reference -------------------------------------------------------

std::vector<std::uint8_t> zlib_deflate_raw(const std::vector<std::uint8_t>& data, int level,
                                           int strategy, int mem_level = 8) {
  z_stream zs{};
  REQUIRE(deflateInit2(&zs, level, Z_DEFLATED, -15, mem_level, strategy) == Z_OK);
  std::vector<std::uint8_t> out(deflateBound(&zs, data.size()) + 16);
  zs.next_in = const_cast<Bytef*>(data.data());
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = out.data();
  zs.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

// What zlib's inflate says of `stream` with room for `size` bytes, in the
// decoder's terms. zlib stopping with its output full is `too_long` here;
// the decoder may say corrupt there instead (the symbol that did not fit
// may itself be invalid, which the decoder looks at first).
struct Reference {
  InflateStatus status = InflateStatus::corrupt;
  std::vector<std::uint8_t> bytes;  // ok and too_short
  std::size_t used = 0;             // ok and too_short
};

Reference zlib_inflate_raw(const std::vector<std::uint8_t>& stream, std::size_t size) {
  z_stream zs{};
  REQUIRE(inflateInit2(&zs, -15) == Z_OK);
  std::vector<std::uint8_t> out(size + 1);
  zs.next_in = const_cast<Bytef*>(stream.data());
  zs.avail_in = static_cast<uInt>(stream.size());
  zs.next_out = out.data();
  zs.avail_out = static_cast<uInt>(size);
  const int r = inflate(&zs, Z_FINISH);
  Reference ref;
  if (r == Z_STREAM_END) {
    ref.status = zs.total_out == size ? InflateStatus::ok : InflateStatus::too_short;
    ref.bytes.assign(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(zs.total_out));
    ref.used = zs.total_in;
  } else if (r == Z_BUF_ERROR && zs.avail_out == 0) {
    ref.status = InflateStatus::too_long;
  } else {
    ref.status = InflateStatus::corrupt;  // Z_DATA_ERROR, or the input ran out
  }
  inflateEnd(&zs);
  return ref;
}

// --- the decoder ---------------------------------------------------------------

struct Decoded {
  datafile::RawInflateOutcome outcome;
  std::vector<std::uint8_t> bytes;  // the first `produced` bytes (ok and too_short)
};

// Inflates into `buffer` with room for `size` bytes (and more behind it, which
// must stay zero), and checks the buffer's marks: a chunk not marked is zero.
Decoded decode(const std::vector<std::uint8_t>& stream, std::size_t size, ZeroedBuffer& buffer) {
  const std::size_t slack = 777;
  const std::span<std::uint8_t> all = buffer.take(size + slack);
  CHECK(std::all_of(all.begin(), all.end(), [](std::uint8_t b) { return b == 0; }));
  Decoded d;
  d.outcome = datafile::inflate_onto_zeros(Bytes(stream), buffer, size);
  if (d.outcome.status == InflateStatus::ok || d.outcome.status == InflateStatus::too_short)
    d.bytes.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(d.outcome.produced));
  bool marks_hold = true;
  for (std::size_t at = 0; at < all.size(); at += ZeroedBuffer::kChunkSize) {
    const std::size_t end = std::min(all.size(), at + ZeroedBuffer::kChunkSize);
    if (buffer.clean(at >> ZeroedBuffer::kChunkShift))
      marks_hold &= std::all_of(all.begin() + static_cast<std::ptrdiff_t>(at),
                                all.begin() + static_cast<std::ptrdiff_t>(end),
                                [](std::uint8_t b) { return b == 0; });
  }
  CHECK(marks_hold);
  CHECK(std::all_of(all.begin() + static_cast<std::ptrdiff_t>(size), all.end(),
                    [](std::uint8_t b) { return b == 0; }));
  return d;
}

// The decoder says what zlib says: the same bytes and input used when the
// stream is valid, and a failure where zlib fails.
void check_like_zlib(const std::vector<std::uint8_t>& stream, std::size_t size,
                     ZeroedBuffer& buffer) {
  const Reference want = zlib_inflate_raw(stream, size);
  const Decoded got = decode(stream, size, buffer);
  CAPTURE(static_cast<int>(want.status));
  CAPTURE(static_cast<int>(got.outcome.status));
  switch (want.status) {
    case InflateStatus::ok:
    case InflateStatus::too_short:
      CHECK(got.outcome.status == want.status);
      CHECK(got.outcome.produced == want.bytes.size());
      CHECK(got.outcome.used == want.used);
      CHECK(got.bytes == want.bytes);
      break;
    case InflateStatus::too_long:
      CHECK((got.outcome.status == InflateStatus::too_long ||
             got.outcome.status == InflateStatus::corrupt));
      break;
    case InflateStatus::corrupt: CHECK(got.outcome.status == InflateStatus::corrupt); break;
  }
}

// --- what is compressed --------------------------------------------------------

// A tile layer: 4-byte tiles, mostly air, some single tiles, some stretches
// of one tile (walls, freeze), some noise.
std::vector<std::uint8_t> tile_layer(std::mt19937& rng, std::size_t tiles) {
  std::vector<std::uint8_t> d(tiles * 4, 0);
  for (std::size_t i = 0; i < tiles;) {
    const auto pick = static_cast<unsigned>(rng() % 100);
    if (pick < 80) {
      i += 1 + rng() % 300;  // air
      continue;
    }
    const std::size_t n = pick < 90 ? 1 : 1 + rng() % 120;
    const std::uint8_t index = static_cast<std::uint8_t>(1 + rng() % 255),
                       flags = rng() % 4 ? 0 : 8;
    for (std::size_t k = 0; k < n && i < tiles; ++k, ++i) {
      d[4 * i] = pick < 97 ? index : static_cast<std::uint8_t>(rng());
      d[4 * i + 1] = flags;
    }
  }
  return d;
}

// A pattern of `period` bytes (not all zero) repeated: copies at distances
// below the copy length.
std::vector<std::uint8_t> periodic(std::mt19937& rng, std::size_t period, std::size_t n) {
  std::vector<std::uint8_t> pattern(period);
  for (auto& b : pattern) b = static_cast<std::uint8_t>(rng());
  pattern[0] |= 1;
  std::vector<std::uint8_t> d(n);
  for (std::size_t i = 0; i < n; ++i) d[i] = pattern[i % period];
  return d;
}

std::vector<std::uint8_t> random_bytes(std::mt19937& rng, std::size_t n) {
  std::vector<std::uint8_t> d(n);
  for (auto& b : d) b = static_cast<std::uint8_t>(rng());
  return d;
}

// Words from a small alphabet: literals and short matches of all distances.
std::vector<std::uint8_t> text(std::mt19937& rng, std::size_t n) {
  std::vector<std::uint8_t> d;
  while (d.size() < n) {
    const std::size_t word = 1 + rng() % 9;
    for (std::size_t k = 0; k < word; ++k) d.push_back(static_cast<std::uint8_t>('a' + rng() % 6));
    d.push_back(' ');
  }
  d.resize(n);
  return d;
}

// A random block, then its start again exactly 32768 bytes later (the
// longest distance deflate has), and zeros copied from far back.
std::vector<std::uint8_t> far_copies(std::mt19937& rng) {
  std::vector<std::uint8_t> d = random_bytes(rng, 32768);
  d.insert(d.end(), d.begin(), d.begin() + 3000);
  d.resize(d.size() + 40000, 0);
  for (int i = 0; i < 50; ++i) d[32768 + 3000 + static_cast<std::size_t>(rng() % 40000)] = 7;
  d.insert(d.end(), d.end() - 32768, d.end() - 30000);
  return d;
}

std::vector<std::vector<std::uint8_t>> payloads(std::mt19937& rng) {
  std::vector<std::vector<std::uint8_t>> p;
  p.push_back({});
  p.push_back({0});
  p.push_back({42});
  p.push_back(std::vector<std::uint8_t>(100000, 0));
  p.push_back(tile_layer(rng, 200 * 150));
  p.push_back(tile_layer(rng, 1000 * 70));
  for (std::size_t period : {2, 3, 4, 5, 7, 8, 9, 16, 31, 100, 300})
    p.push_back(periodic(rng, period, 5000 + rng() % 3000));
  p.push_back(random_bytes(rng, 70000));
  p.push_back(text(rng, 50000));
  p.push_back(far_copies(rng));
  return p;
}

// --- streams written bit by bit ------------------------------------------------

// Deflate's bit order: values from their lowest bit, Huffman codes from
// their highest.
class BitWriter {
 public:
  void bits(unsigned value, unsigned n) {
    for (unsigned i = 0; i < n; ++i) put((value >> i) & 1u);
  }
  void code(unsigned code, unsigned length) {
    for (unsigned i = length; i-- > 0;) put((code >> i) & 1u);
  }
  void align() {
    while (used_ % 8 != 0) put(0);
  }
  void byte(std::uint8_t b) {
    align();
    bits(b, 8);
  }
  // A block's first 3 bits: last block or not, its type.
  void block(bool last, unsigned type) {
    bits(last ? 1 : 0, 1);
    bits(type, 2);
  }
  // A stored block's header, up to its bytes (`nlen` should be ~len).
  void stored(bool last, unsigned len, unsigned nlen) {
    block(last, 0);
    align();
    bits(len, 16);
    bits(nlen & 0xffffu, 16);
  }
  std::vector<std::uint8_t> done() {
    align();
    return bytes_;
  }

 private:
  void put(unsigned bit) {
    if (used_ % 8 == 0) bytes_.push_back(0);
    bytes_.back() |= static_cast<std::uint8_t>(bit << (used_ % 8));
    ++used_;
  }
  std::vector<std::uint8_t> bytes_;
  std::size_t used_ = 0;
};

// Canonical codes for `lengths` (RFC 1951 3.2.2), whatever they are
// (over-subscribed or incomplete sets get codes too: what is tested is that
// they are refused).
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

// Fixed codes (RFC 1951 3.2.6).
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

// A dynamic block header for `lit` (HLIT = lit.size() - 257) and `dist`
// lengths, sent one code length per symbol (`runs`: symbols of the code
// length code, with their extra bits, sent instead when given).
struct CodeLength {
  unsigned symbol, extra = 0, extra_bits = 0;
};
void dynamic_header(BitWriter& w, bool final, const std::vector<unsigned>& lit,
                    const std::vector<unsigned>& dist, std::vector<CodeLength> runs = {}) {
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

// A match (length 3-258, distance 1-32768) in a block with the fixed codes.
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

struct HuffmanCode {
  std::vector<unsigned> lengths, codes;
  explicit HuffmanCode(std::vector<unsigned> l)
      : lengths(std::move(l)), codes(canonical_codes(lengths)) {}
  void put(BitWriter& w, unsigned sym) const { w.code(codes[sym], lengths[sym]); }
};

}  // namespace

TEST_SUITE("zero inflate") {
  TEST_CASE(
      "zero inflate: every stream zlib writes, at every level and strategy, as zlib reads it") {
    std::mt19937 rng(4242);
    ZeroedBuffer buffer;  // one buffer for all: each take() must leave it zero
    int checked = 0;
    for (const auto& data : payloads(rng)) {
      for (int level : {0, 1, 6, 9}) {
        for (int strategy : {Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED}) {
          CAPTURE(data.size());
          CAPTURE(level);
          CAPTURE(strategy);
          const auto stream = zlib_deflate_raw(data, level, strategy, level == 1 ? 1 : 8);
          const Decoded got = decode(stream, data.size(), buffer);
          CHECK(got.outcome.status == InflateStatus::ok);
          CHECK(got.outcome.used == stream.size());
          CHECK(got.bytes == data);
          // Room for more, and for less.
          check_like_zlib(stream, data.size() + 3, buffer);
          if (!data.empty()) check_like_zlib(stream, data.size() - 1, buffer);
          ++checked;
        }
      }
    }
    CHECK(checked == 20 * 4 * 5);
  }

  TEST_CASE("zero inflate: a copy of every length, from near and far, as zlib reads it") {
    // Copies are written in pieces whose size depends on the length and on
    // whether the copy overlaps what it copies (distance < length): every
    // length, at distances below, at and above each piece size.
    ZeroedBuffer buffer;
    std::mt19937 rng(77);
    int checked = 0;
    for (const unsigned distance : {1u,  2u,  3u,  4u,  5u,  7u,  8u,  9u,   15u,  16u,
                                    17u, 31u, 32u, 33u, 63u, 64u, 65u, 100u, 257u, 300u}) {
      for (unsigned length = 3; length <= 258; ++length) {
        CAPTURE(distance);
        CAPTURE(length);
        BitWriter w;
        w.block(true, 1);
        // `distance` bytes that are not zero (so the copy is written), a
        // zero among them now and then; the copy; one more byte.
        for (unsigned k = 0; k < distance; ++k)
          fixed_litlen(w, k % 11 == 5 ? 0u : 1u + static_cast<unsigned>(rng() % 255));
        fixed_match(w, length, distance);
        fixed_litlen(w, 9);
        fixed_litlen(w, 256);
        const auto stream = w.done();
        const std::size_t size = distance + length + 1;
        REQUIRE(zlib_inflate_raw(stream, size).status == InflateStatus::ok);
        check_like_zlib(stream, size, buffer);
        ++checked;
      }
    }
    CHECK(checked == 20 * 256);
  }

  TEST_CASE("zero inflate: runs of air of every count, cut by the size or the input anywhere") {
    // A run of air is one match repeated; the decoder takes several repeats
    // at once while they all fit (as many as 56 bits hold, for the match's
    // length in bits). Runs of every count of repeats up to past two groups,
    // with the match coded in 13 bits (fixed codes: 258 bytes at distance 1)
    // and in a few bits (zlib's run-length strategy, dynamic codes), each
    // cut by the room given at every repeat and inside repeats, and by the
    // input ending within its last bytes: as zlib reads them.
    ZeroedBuffer buffer;
    int checked = 0;
    std::size_t long_runs = 0;
    for (const int strategy : {Z_FIXED, Z_RLE}) {
      for (std::size_t repeats = 1; repeats <= 30; ++repeats) {
        std::vector<std::uint8_t> data = {7, 7, 9};
        data.resize(data.size() + 1 + 258 * repeats + repeats % 5, 0);
        data.push_back(5);
        data.push_back(6);
        const auto stream = zlib_deflate_raw(data, 9, strategy);
        CAPTURE(strategy);
        CAPTURE(repeats);
        const Decoded whole = decode(stream, data.size(), buffer);
        REQUIRE(whole.outcome.status == InflateStatus::ok);
        CHECK(whole.bytes == data);
        // The air is coded as repeats: literals take at least a bit a byte.
        long_runs += stream.size() * 16 < data.size();
        for (std::size_t cut = 0; cut <= 258 * std::min<std::size_t>(repeats, 6) + 1; cut += 43) {
          CAPTURE(cut);
          check_like_zlib(stream, data.size() - cut, buffer);
          ++checked;
        }
        for (std::size_t shorter = 1; shorter <= std::min<std::size_t>(stream.size() - 1, 12);
             ++shorter) {
          CAPTURE(shorter);
          const std::vector<std::uint8_t> cut_input(stream.begin(),
                                                    stream.end() - static_cast<long>(shorter));
          check_like_zlib(cut_input, data.size(), buffer);
          ++checked;
        }
      }
    }
    CHECK(long_runs == 2 * 30);
    CHECK(checked > 500);
  }

  TEST_CASE(
      "zero inflate slow: damaged streams fail where zlib fails, and read alike where it reads") {
    std::mt19937 rng(777);
    ZeroedBuffer buffer;
    std::array<int, 4> seen{};  // by zlib's status
    const auto sources = payloads(rng);
    for (int round = 0; round < 3000; ++round) {
      const auto& data = sources[static_cast<std::size_t>(rng()) % sources.size()];
      auto stream =
          zlib_deflate_raw(data, round % 10, round % 3 == 0 ? Z_FIXED : Z_DEFAULT_STRATEGY);
      if (stream.empty()) continue;
      // Damage: bits flipped (few, so the stream often stays readable), a
      // byte replaced, the stream cut short, bytes appended.
      switch (round % 4) {
        case 0:
          for (unsigned k = 0; k < 1 + rng() % 3; ++k)
            stream[rng() % stream.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
          break;
        case 1:
          stream[rng() % std::min<std::size_t>(stream.size(), 40)] =
              static_cast<std::uint8_t>(rng());
          break;
        case 2: stream.resize(rng() % stream.size()); break;
        case 3: stream.insert(stream.end(), 1 + rng() % 9, static_cast<std::uint8_t>(rng())); break;
      }
      CAPTURE(round);
      const std::size_t sizes[] = {data.size() / 2, data.size(), data.size() + 100};
      const std::size_t size = sizes[rng() % 3];
      check_like_zlib(stream, size, buffer);
      seen[static_cast<std::size_t>(zlib_inflate_raw(stream, size).status)]++;
    }
    // Each of zlib's answers came up often enough to mean something.
    for (int n : seen) CHECK(n > 50);
  }

  TEST_CASE("zero inflate: each of zlib's rules, on blocks written by hand") {
    ZeroedBuffer buffer;
    const auto check = [&](const std::vector<std::uint8_t>& stream, std::size_t size,
                           InflateStatus zlib_says) {
      // What zlib says, stated by the test, then the decoder against zlib.
      CHECK(zlib_inflate_raw(stream, size).status == zlib_says);
      check_like_zlib(stream, size, buffer);
    };
    {  // Stored blocks: empty, with data, NLEN not LEN's complement, cut short.
      for (const unsigned len : {0u, 5u}) {
        for (const bool good : {true, false}) {
          BitWriter w;
          w.stored(true, len, good ? ~len : ~len ^ 4u);
          for (unsigned k = 0; k < len; ++k) w.byte(static_cast<std::uint8_t>(k * 40));
          check(w.done(), len, good ? InflateStatus::ok : InflateStatus::corrupt);
        }
      }
      BitWriter w;
      w.stored(true, 100, ~100u);
      for (unsigned k = 0; k < 60; ++k) w.byte(1);
      check(w.done(), 100, InflateStatus::corrupt);  // cut short
    }
    {  // A copy of the byte a stored block wrote: not to be taken for a zero.
      BitWriter w;
      w.stored(false, 1, ~1u);
      w.byte(7);
      w.block(true, 1);
      fixed_litlen(w, 257);  // length 3
      w.code(0, 5);          // distance 1
      fixed_litlen(w, 256);
      const auto stream = w.done();
      check(stream, 4, InflateStatus::ok);
      CHECK(decode(stream, 4, buffer).bytes == std::vector<std::uint8_t>{7, 7, 7, 7});
    }
    {  // Block type 3.
      BitWriter w;
      w.block(true, 3);
      check(w.done(), 0, InflateStatus::corrupt);
    }
    {  // Fixed codes: literal/length 286 and 287 and distance 30 and 31 are
       // invalid; a distance past the start of the output is invalid.
      for (const unsigned sym : {286u, 287u}) {
        BitWriter w;
        w.block(true, 1);
        fixed_litlen(w, 'x');
        fixed_litlen(w, sym);
        w.bits(0, 16);
        check(w.done(), 10, InflateStatus::corrupt);
      }
      for (const unsigned d : {0u, 1u, 29u, 30u, 31u}) {
        BitWriter w;
        w.block(true, 1);
        for (int k = 0; k < 8; ++k) fixed_litlen(w, 'a' + static_cast<unsigned>(k));
        fixed_litlen(w, 257);  // length 3
        w.code(d, 5);
        w.bits(0, d >= 4 && d < 30 ? (d - 2) / 2 : 0);  // extra bits: the base distance
        fixed_litlen(w, 256);
        // Distances 1 and 2 are in the output; 29 is 24577 bytes back: too far.
        check(w.done(), 11, d <= 1 ? InflateStatus::ok : InflateStatus::corrupt);
      }
    }
    {  // Dynamic: one distance code of length 1 (incomplete) is allowed ...
      std::vector<unsigned> l(258, 0);
      l['A'] = 1;
      l[256] = 2;
      l[257] = 2;
      const HuffmanCode litc(l);
      for (const unsigned dl : {1u, 2u}) {
        BitWriter w;
        dynamic_header(w, true, l, {dl});
        litc.put(w, 'A');
        litc.put(w, 257);  // length 3
        w.code(0, dl);     // distance 1
        litc.put(w, 256);
        // ... one of length 2 is not.
        check(w.done(), 4, dl == 1 ? InflateStatus::ok : InflateStatus::corrupt);
      }
    }
    {  // No distance code at all is allowed while none is used.
      std::vector<unsigned> l(257, 0);
      l['Z'] = 1;
      l[256] = 1;
      const HuffmanCode litc(l);
      BitWriter w;
      dynamic_header(w, true, l, {0});
      litc.put(w, 'Z');
      litc.put(w, 256);
      check(w.done(), 1, InflateStatus::ok);
    }
    {  // A single literal/length code of length 1 (only the end of block).
      std::vector<unsigned> l(257, 0);
      l[256] = 1;
      BitWriter w;
      dynamic_header(w, true, l, {1});
      w.code(0, 1);
      check(w.done(), 0, InflateStatus::ok);
    }
    {  // Literal/length codes incomplete beyond that, over-subscribed, or
       // without an end of block.
      std::vector<unsigned> incomplete(257, 0), over(258, 0), no_end(257, 0);
      incomplete['A'] = 1;
      incomplete[256] = 2;
      over['A'] = 1;
      over[256] = 1;
      over[257] = 1;
      no_end['A'] = 1;
      no_end['B'] = 1;
      for (const auto* l : {&incomplete, &over, &no_end}) {
        BitWriter w;
        dynamic_header(w, true, *l, {1});
        w.bits(0, 16);
        check(w.done(), 1, InflateStatus::corrupt);
      }
    }
    {  // Code length repeats: 16 with nothing before it; 17 and 18 past the
       // lengths there are; 18 filling them exactly.
      std::vector<unsigned> l(257, 0);
      l[256] = 1;
      const std::vector<std::vector<CodeLength>> bad = {
          {{16, 0, 2}},
          {{18, 127, 7}, {18, 127, 7}},              // 138 + 138 > 258 lengths
          {{18, 127, 7}, {18, 100, 7}, {17, 7, 3}},  // 138 + 111 + 10 > 258
      };
      for (const auto& runs : bad) {
        BitWriter w;
        dynamic_header(w, true, l, {1}, runs);
        w.bits(0, 16);
        check(w.done(), 0, InflateStatus::corrupt);
      }
      BitWriter w;  // 138 + 118 zeros, then 1 (256) and 1 (the distance)
      dynamic_header(w, true, l, {1}, {{18, 127, 7}, {18, 107, 7}, {1}, {1}});
      w.code(0, 1);
      check(w.done(), 0, InflateStatus::ok);
    }
    {  // More than 286 literal/length or 30 distance codes.
      for (const auto& [nlit, ndist] :
           {std::pair{287u, 1u}, std::pair{288u, 1u}, std::pair{257u, 31u}}) {
        std::vector<unsigned> l(nlit, 0), d(ndist, 0);
        l[256] = 1;
        l['q'] = 1;
        d[0] = 1;
        BitWriter w;
        dynamic_header(w, true, l, d);
        w.bits(0, 16);
        check(w.done(), 1, InflateStatus::corrupt);
      }
    }
    {  // Output that does not fit, in a stored block and in a match.
      BitWriter s;
      s.stored(true, 9, ~9u);
      for (int k = 0; k < 9; ++k) s.byte(3);
      check(s.done(), 8, InflateStatus::too_long);
      BitWriter m;
      m.block(true, 1);
      fixed_litlen(m, 'a');
      fixed_litlen(m, 284);  // length 227 + 5 extra bits
      m.bits(30, 5);         // length 257: 258 bytes with the literal
      m.code(0, 5);
      fixed_litlen(m, 256);
      const auto stream = m.done();
      check(stream, 258, InflateStatus::ok);
      check(stream, 200, InflateStatus::too_long);
    }
  }

  TEST_CASE("zero inflate: a used buffer is zero again after take(), however it was written") {
    std::mt19937 rng(99);
    ZeroedBuffer buffer;
    std::vector<std::uint8_t> before;
    for (int round = 0; round < 40; ++round) {
      const auto data =
          round % 2 ? random_bytes(rng, 1 + rng() % 20000) : tile_layer(rng, 1 + rng() % 9000);
      const auto stream = zlib_deflate_raw(data, 6, Z_DEFAULT_STRATEGY);
      // Sizes that grow and shrink: a smaller take() after a larger one must
      // still zero what the larger one's data left.
      const Decoded got = decode(stream, data.size(), buffer);
      CHECK(got.outcome.status == InflateStatus::ok);
      CHECK(got.bytes == data);
    }
    buffer.release();
    CHECK(buffer.capacity() == 0);
    const auto again = buffer.take(10);
    CHECK(std::all_of(again.begin(), again.end(), [](std::uint8_t b) { return b == 0; }));
  }

  TEST_CASE(
      "zero inflate: zeroed buffer: take() zeroes every marked chunk, in runs of any length and place") {
    // Marks in runs that start and end inside a word, fill whole words, cross
    // word boundaries and reach the last chunk; each marked range is filled
    // with bytes that are not zero, as the inflater would leave it.
    std::mt19937 rng(7);
    constexpr std::size_t kChunk = ZeroedBuffer::kChunkSize;
    // 301 chunks (4 words of marks and a bit, the last chunk partial), and
    // 256 (4 whole words: a run may end with the last word).
    for (const std::size_t size : {300 * kChunk + 77, 256 * kChunk}) {
      ZeroedBuffer buffer;
      for (int round = 0; round < 100; ++round) {
        auto bytes = buffer.take(size);
        REQUIRE(bytes.size() == size);
        const std::size_t runs = 1 + rng() % 6;
        for (std::size_t r = 0; r < runs; ++r) {
          std::size_t at, n;
          switch (rng() % 4) {
            case 0: at = rng() % size, n = 1 + rng() % 64; break;  // within a chunk or two
            case 1: at = (rng() % 4) * 64 * kChunk, n = 64 * kChunk; break;      // a whole word
            case 2: at = size - 1 - rng() % (3 * kChunk), n = size - at; break;  // to the end
            default: at = rng() % size, n = 1 + rng() % (150 * kChunk); break;   // across words
          }
          n = std::min(n, size - at);
          std::fill_n(bytes.data() + at, n, static_cast<std::uint8_t>(1 + rng() % 255));
          buffer.mark(at, n);
        }
        const auto again = buffer.take(size);
        const auto first_set =
            std::find_if(again.begin(), again.end(), [](std::uint8_t b) { return b != 0; });
        REQUIRE_MESSAGE(first_set == again.end(),
                        "size " << size << ", round " << round << ": byte "
                                << (first_set - again.begin()) << " not zero");
        for (std::size_t c = 0; c * kChunk < size; ++c) REQUIRE(buffer.clean(c));
      }
    }
  }

  TEST_CASE(
      "zero inflate: zeroed buffer: runs of clean or marked chunks end at a change, at n, or one word on") {
    // The runs KnownZeros reports, against a walk chunk by chunk over
    // ZeroedBuffer::clean: from any byte, for any n, the run from that byte
    // on of chunks in the same state, cut at n, at the buffer's end and at
    // the lookahead.
    constexpr std::size_t kChunk = ZeroedBuffer::kChunkSize;
    ZeroedBuffer buffer;
    const std::size_t size = 200 * kChunk + 100;  // four words of marks, the last one partial
    const auto bytes = buffer.take(size);
    REQUIRE(buffer.capacity() >= size);
    const std::size_t capacity = buffer.capacity();
    // Marked: a chunk alone, a run across a word's end, a run longer than a
    // word, and the last three chunks (the last one partly in the buffer).
    const std::size_t chunks = (capacity + kChunk - 1) / kChunk;
    REQUIRE(chunks * kChunk > capacity);
    for (const auto& [first, count] :
         {std::pair<std::size_t, std::size_t>{5, 1}, {60, 10}, {100, 80}, {chunks - 3, 3}})
      buffer.mark(first * kChunk, count * kChunk);
    const KnownZeros known(buffer);
    const auto walk = [&](std::size_t at, std::size_t n) {
      const bool clean = buffer.clean(at / kChunk);
      n = std::min({n, KnownZeros::kLookahead, capacity - at});
      std::size_t run = 0;
      while (run < n && buffer.clean((at + run) / kChunk) == clean)
        run = std::min(((at + run) / kChunk + 1) * kChunk - at, n);
      return KnownZeros::Run{run, clean};
    };
    std::mt19937 rng(4242);
    std::size_t by_n = 0, by_change = 0, by_lookahead = 0, clean_runs = 0, marked_runs = 0;
    for (int i = 0; i < 20000; ++i) {
      const std::size_t at = rng() % capacity;
      const std::size_t n = rng() % 3 == 0 ? rng() % (2 * kChunk) : rng() % (capacity + kChunk);
      CAPTURE(at);
      CAPTURE(n);
      const KnownZeros::Run want = walk(at, n), got = known.run_from(bytes.data() + at, n);
      CHECK(got.bytes == want.bytes);
      if (n == 0) continue;
      CHECK(got.clean == want.clean);
      CHECK(got.bytes > 0);
      by_n += got.bytes == n;
      by_lookahead += got.bytes == KnownZeros::kLookahead;
      by_change += got.bytes < std::min(n, KnownZeros::kLookahead) && at + got.bytes < capacity;
      (want.clean ? clean_runs : marked_runs)++;
    }
    // Every way a run ends was met, from both kinds of chunks.
    CHECK(by_n > 500);
    CHECK(by_change > 500);
    CHECK(by_lookahead > 500);
    CHECK(clean_runs > 500);
    CHECK(marked_runs > 500);
    // Outside the buffer nothing is known: every byte must be read.
    std::vector<std::uint8_t> elsewhere(100, 0);
    const KnownZeros::Run outside = known.run_from(elsewhere.data(), elsewhere.size());
    CHECK(outside.bytes == elsewhere.size());
    CHECK_FALSE(outside.clean);
  }

  TEST_CASE("zero inflate: zero_blocks leaves the chunks known to be zero unread") {
    // Written chunks (zeros, marked) and chunks never written; then a byte
    // that is not zero put into each chunk never written, without marking
    // it ("poison"): told what the buffer knows, the scan goes through the
    // poison as through zeros, and stops at the first byte of a written
    // chunk that is not zero; without it, it stops at the first poison.
    constexpr std::size_t kChunk = ZeroedBuffer::kChunkSize;
    ZeroedBuffer buffer;
    const std::size_t size = 300 * kChunk;
    const auto out = buffer.take(size);
    std::mt19937 rng(99);
    std::vector<bool> written(300, false);
    for (std::size_t c = 0; c < 300; ++c) {
      written[c] = rng() % 3 == 0;
      if (written[c]) buffer.mark(c * kChunk, kChunk);  // written, with zeros
    }
    std::size_t poisoned = 0;
    for (std::size_t c = 0; c < 300; ++c)
      if (!written[c]) {
        out[c * kChunk + rng() % kChunk] = 0xee;
        ++poisoned;
      }
    REQUIRE(poisoned > 100);
    const KnownZeros known(buffer);
    const std::size_t blocks = size / 32;
    // All zero as far as the buffer knows: every block.
    CHECK(zero_blocks(out.data(), blocks, known) == blocks);
    // A byte that is not zero in a written chunk ends the stretch there.
    std::size_t last_written = 299;
    while (!written[last_written]) --last_written;
    const std::size_t at = last_written * kChunk + 100;
    out[at] = 1;
    CHECK(zero_blocks(out.data(), blocks, known) == at / 32);
    // Without what the buffer knows, the first poison ends it.
    std::size_t first_poison = 0;
    while (out[first_poison] == 0) ++first_poison;
    CHECK(zero_blocks(out.data(), blocks) == first_poison / 32);
    CHECK(first_poison / 32 < at / 32);
  }

  TEST_CASE("zero inflate: what KnownZeros knows, the scans find by reading") {
    std::mt19937 rng(31337);
    ZeroedBuffer buffer;
    for (int round = 0; round < 30; ++round) {
      const std::size_t tiles = 100 + rng() % 60000;
      const auto data = tile_layer(rng, tiles);
      const auto stream = zlib_deflate_raw(data, 6, Z_DEFAULT_STRATEGY);
      const std::span<std::uint8_t> out = buffer.take(data.size());
      REQUIRE(datafile::inflate_onto_zeros(Bytes(stream), buffer, data.size()).status ==
              InflateStatus::ok);
      const KnownZeros known(buffer);
      // zero_blocks from anywhere, for any length, with and without.
      for (int probe = 0; probe < 300; ++probe) {
        const std::size_t at = rng() % data.size();
        const std::size_t n = rng() % ((data.size() - at) / 32 + 1);
        CHECK(zero_blocks(out.data() + at, n, known) == zero_blocks(out.data() + at, n));
      }
      // The counts of each tile kind's structs, with and without.
      for (const LayerKind kind : {LayerKind::game, LayerKind::tele, LayerKind::speedup,
                                   LayerKind::switch_layer, LayerKind::tune}) {
        const std::size_t n = data.size() / teeworlds::tile_struct_size(kind);
        teeworlds::TileCounts plain, marked;
        Adler32Scan plain_scan{Bytes(out.data(), data.size())};
        Adler32Scan marked_scan{Bytes(out.data(), data.size())};
        teeworlds::count_plain_tiles(Bytes(out.data(), data.size()), kind, n, plain, &plain_scan);
        teeworlds::count_plain_tiles(Bytes(out.data(), data.size()), kind, n, marked, &marked_scan,
                                     known);
        CAPTURE(static_cast<int>(kind));
        CHECK(plain.keys == marked.keys);
        CHECK(plain.flags == marked.flags);
        CHECK(plain.numbers == marked.numbers);
        CHECK(plain.tiles == marked.tiles);
        CHECK(plain.reserved_nonzero == marked.reserved_nonzero);
        CHECK(marked_scan.finish() == adler32(Bytes(data)));
        CHECK(plain_scan.finish() == adler32(Bytes(data)));
      }
    }
  }

  TEST_CASE(
      "zero inflate corpus: every data item of the corpus inflates as libdeflate inflates it") {
    const auto files = testing::corpus_files("maps", ".map");
    if (files.empty()) {
      testing::report_corpus_missing("maps", "zero inflate corpus test");
      return;
    }
    ZeroedBuffer buffer;
    std::vector<std::uint8_t> scratch;
    std::size_t items = 0, bytes = 0;
    for (const auto& path : files) {
      const auto file = testing::read_file(path);
      auto df = datafile::Datafile::open(Bytes(file));
      if (!df || df->version() != 4) continue;
      for (std::size_t i = 0; i < df->num_data(); ++i) {
        CAPTURE(path.filename().string());
        CAPTURE(i);
        // Two Datafiles: each counts what it inflates against its budget.
        auto again = datafile::Datafile::open(Bytes(file));
        REQUIRE(again);
        const auto want = df->data(i, scratch);
        std::optional<std::uint32_t> checksum;
        const auto got = again->data_unchecked(i, buffer, checksum);
        CHECK(got.ok() == want.ok());
        if (!want || !got) {
          if (!want && !got) CHECK(got.error().message == want.error().message);
          continue;
        }
        REQUIRE(checksum);
        CHECK(adler32(*got) == *checksum);
        CHECK(got->size() == want->size());
        CHECK(std::memcmp(got->data(), want->data(), want->size()) == 0);
        ++items;
        bytes += want->size();
      }
    }
    MESSAGE("data items compared: " << items << ", " << bytes << " bytes");
    CHECK(items > 1000);
  }
}
