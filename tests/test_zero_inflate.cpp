// inflate_onto_zeros (src/deflate/zero_inflate.h), the decoder of tile
// data, against zlib's inflate, the reference implementation of deflate (and
// what DDNet writes maps with): streams zlib writes at every level and
// strategy, blocks written by hand for each rule of RFC 1951 that zlib
// enforces, damaged streams, streams of tiny blocks, an all-zero code where
// the input is cut, the buffer's marks and its reuse; every data item of the
// corpus against libdeflate; and `mapindex index --inflate libdeflate`, the
// fallback, against it. KnownZeros (zero_blocks.h) and the tile counter must
// give what they give without the marks.
#include <doctest/doctest.h>
#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "decode/datafile/datafile.h"
#include "deflate/zero_inflate.h"
#include "extract/teeworlds_tile_counter.h"
#include "tests/support/archive_builder.h"
#include "tests/support/corpus.h"
#include "tests/support/datafile_writer.h"
#include "tests/support/deflate_writer.h"
#include "tests/support/map_builder.h"
#include "tests/support/process.h"
#include "tests/support/sqlite_probe.h"
#include "tiledata/adler32.h"
#include "tiledata/zero_blocks.h"
#include "tiledata/zeroed_buffer.h"

using namespace mapindex;
using deflate::InflateStatus;
using testing::BitWriter;
using testing::CodeLength;
using testing::dynamic_header;
using testing::fixed_litlen;
using testing::fixed_match;
using testing::HuffmanCode;
using testing::MapBuilder;
using testing::TileGrid;
using testing::zlib_deflate_raw;

namespace {

// --- zlib, the reference -------------------------------------------------------

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

// What libdeflate says of `stream` with room for `size` bytes, in the same
// terms. It reads a superset of what zlib reads.
Reference libdeflate_inflate_raw(const std::vector<std::uint8_t>& stream, std::size_t size) {
  const std::unique_ptr<libdeflate_decompressor, decltype(&libdeflate_free_decompressor)> d(
      libdeflate_alloc_decompressor(), &libdeflate_free_decompressor);
  REQUIRE(d);
  std::vector<std::uint8_t> out(size + 1);
  std::size_t used = 0, produced = 0;
  const libdeflate_result r = libdeflate_deflate_decompress_ex(
      d.get(), stream.data(), stream.size(), out.data(), size, &used, &produced);
  Reference ref;
  if (r == LIBDEFLATE_SUCCESS) {
    ref.status = produced == size ? InflateStatus::ok : InflateStatus::too_short;
    ref.bytes.assign(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(produced));
    ref.used = used;
  } else if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
    ref.status = InflateStatus::too_long;
  }
  return ref;
}

// --- the decoder ---------------------------------------------------------------

struct Decoded {
  deflate::RawInflateOutcome outcome;
  std::vector<std::uint8_t> bytes;  // the first `produced` bytes (ok and too_short)
};

// Inflates into `buffer` with room for `size` bytes (and more behind it, which
// must stay zero), and checks the buffer's marks: a chunk not marked is zero.
Decoded decode(const std::vector<std::uint8_t>& stream, std::size_t size,
               tiledata::ZeroedBuffer& buffer) {
  const std::size_t slack = 777;
  const std::span<std::uint8_t> all = buffer.take(size + slack).bytes();
  CHECK(std::all_of(all.begin(), all.end(), [](std::uint8_t b) { return b == 0; }));
  Decoded d;
  // Nothing was written since: the front `size` bytes, taken again, still zero.
  deflate::ZeroInflateTables tables;
  d.outcome = deflate::inflate_onto_zeros(Bytes(stream), buffer.take(size), tables);
  if (d.outcome.status == InflateStatus::ok || d.outcome.status == InflateStatus::too_short)
    d.bytes.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(d.outcome.produced));
  bool marks_hold = true;
  for (std::size_t at = 0; at < all.size(); at += tiledata::ZeroedBuffer::kChunkSize) {
    const std::size_t end = std::min(all.size(), at + tiledata::ZeroedBuffer::kChunkSize);
    if (buffer.clean(at >> tiledata::ZeroedBuffer::kChunkShift))
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
                     tiledata::ZeroedBuffer& buffer) {
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

// --- streams that end where an all-zero code goes on ---------------------------

// A dynamic block whose literal/length code gives `zero_sym` the code of one
// 0 bit: literal `first`, then `repeats` of `zero_sym` (with a length, the
// distance code 0, one 0 bit too: distance 1). Cut: the block goes on, the
// input ends (its last byte padded with zero bits). Otherwise the block ends
// and is the last: a valid stream. zero_sym 0, a literal 0, is libdeflate's
// test_overread.c; 285 is a match of 258 bytes at distance 1 in two 0 bits,
// which the decoder takes several at a time.
struct ZeroCodeStream {
  std::vector<std::uint8_t> bytes;
  std::size_t output = 0;  // what the input's own bits give, padding included
};
ZeroCodeStream zero_code_stream(unsigned zero_sym, std::uint8_t first, unsigned repeats, bool cut) {
  const bool match = zero_sym == 285;
  // zero_sym 1 bit, `first` and the end of block 2 bits: complete.
  std::vector<unsigned> lit(match ? 286 : 257, 0);
  lit[zero_sym] = 1;
  lit[first] = 2;
  lit[256] = 2;
  const HuffmanCode code(lit);
  BitWriter w;
  dynamic_header(w, !cut, lit, {1});
  code.put(w, first);
  for (unsigned k = 0; k < repeats; ++k) {
    code.put(w, zero_sym);
    if (match) w.code(0, 1);
  }
  if (!cut) code.put(w, 256);
  const std::size_t bits = w.bits_written();
  ZeroCodeStream out;
  out.bytes = w.done();
  std::size_t n = repeats;
  if (cut) n += (8 * out.bytes.size() - bits) / (match ? 2 : 1);  // the padding's
  out.output = 1 + (match ? 258 : 1) * n;
  return out;
}

// The zlib stream (RFC 1950) of `deflate`, whose output is `output`.
std::vector<std::uint8_t> zlib_wrap(const std::vector<std::uint8_t>& deflate,
                                    const std::vector<std::uint8_t>& output) {
  std::vector<std::uint8_t> z = {0x78, 0x01};  // 32 KiB window, no dictionary
  z.insert(z.end(), deflate.begin(), deflate.end());
  const std::uint32_t sum = tiledata::adler32(Bytes(output));
  for (int shift = 24; shift >= 0; shift -= 8) z.push_back(static_cast<std::uint8_t>(sum >> shift));
  return z;
}

}  // namespace

TEST_SUITE("zero inflate") {
  TEST_CASE(
      "zero inflate: every stream zlib writes, at every level and strategy, as zlib reads it") {
    std::mt19937 rng(4242);
    tiledata::ZeroedBuffer buffer;  // one buffer for all: each take() must leave it zero
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
    tiledata::ZeroedBuffer buffer;
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
    tiledata::ZeroedBuffer buffer;
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
    tiledata::ZeroedBuffer buffer;
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
    tiledata::ZeroedBuffer buffer;
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
    tiledata::ZeroedBuffer buffer;
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
    constexpr std::size_t kChunk = tiledata::ZeroedBuffer::kChunkSize;
    // 301 chunks (4 words of marks and a bit, the last chunk partial), and
    // 256 (4 whole words: a run may end with the last word).
    for (const std::size_t size : {300 * kChunk + 77, 256 * kChunk}) {
      tiledata::ZeroedBuffer buffer;
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
    constexpr std::size_t kChunk = tiledata::ZeroedBuffer::kChunkSize;
    tiledata::ZeroedBuffer buffer;
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
    const tiledata::KnownZeros known(buffer);
    const auto walk = [&](std::size_t at, std::size_t n) {
      const bool clean = buffer.clean(at / kChunk);
      n = std::min({n, tiledata::KnownZeros::kLookahead, capacity - at});
      std::size_t run = 0;
      while (run < n && buffer.clean((at + run) / kChunk) == clean)
        run = std::min(((at + run) / kChunk + 1) * kChunk - at, n);
      return tiledata::KnownZeros::Run{run, clean};
    };
    std::mt19937 rng(4242);
    std::size_t by_n = 0, by_change = 0, by_lookahead = 0, clean_runs = 0, marked_runs = 0;
    for (int i = 0; i < 20000; ++i) {
      const std::size_t at = rng() % capacity;
      const std::size_t n = rng() % 3 == 0 ? rng() % (2 * kChunk) : rng() % (capacity + kChunk);
      CAPTURE(at);
      CAPTURE(n);
      const tiledata::KnownZeros::Run want = walk(at, n),
                                      got = known.chunk_run_at(bytes.data() + at, n);
      CHECK(got.bytes == want.bytes);
      if (n == 0) continue;
      CHECK(got.clean == want.clean);
      CHECK(got.bytes > 0);
      by_n += got.bytes == n;
      by_lookahead += got.bytes == tiledata::KnownZeros::kLookahead;
      by_change +=
          got.bytes < std::min(n, tiledata::KnownZeros::kLookahead) && at + got.bytes < capacity;
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
    const tiledata::KnownZeros::Run outside =
        known.chunk_run_at(elsewhere.data(), elsewhere.size());
    CHECK(outside.bytes == elsewhere.size());
    CHECK_FALSE(outside.clean);
  }

  TEST_CASE("zero inflate: tiledata::zero_blocks leaves the chunks known to be zero unread") {
    // Written chunks (zeros, marked) and chunks never written; then a byte
    // that is not zero put into each chunk never written, without marking
    // it ("poison"): told what the buffer knows, the scan goes through the
    // poison as through zeros, and stops at the first byte of a written
    // chunk that is not zero; without it, it stops at the first poison.
    constexpr std::size_t kChunk = tiledata::ZeroedBuffer::kChunkSize;
    tiledata::ZeroedBuffer buffer;
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
    const tiledata::KnownZeros known(buffer);
    const std::size_t blocks = size / 32;
    // All zero as far as the buffer knows: every block.
    CHECK(tiledata::zero_blocks(out.data(), blocks, known) == blocks);
    // A byte that is not zero in a written chunk ends the stretch there.
    std::size_t last_written = 299;
    while (!written[last_written]) --last_written;
    const std::size_t at = last_written * kChunk + 100;
    out[at] = 1;
    CHECK(tiledata::zero_blocks(out.data(), blocks, known) == at / 32);
    // Without what the buffer knows, the first poison ends it.
    std::size_t first_poison = 0;
    while (out[first_poison] == 0) ++first_poison;
    CHECK(tiledata::zero_blocks(out.data(), blocks) == first_poison / 32);
    CHECK(first_poison / 32 < at / 32);
  }

  TEST_CASE("zero inflate: what tiledata::KnownZeros knows, the scans find by reading") {
    std::mt19937 rng(31337);
    tiledata::ZeroedBuffer buffer;
    deflate::ZeroInflateTables tables;
    for (int round = 0; round < 30; ++round) {
      const std::size_t tiles = 100 + rng() % 60000;
      const auto data = tile_layer(rng, tiles);
      const auto stream = zlib_deflate_raw(data, 6, Z_DEFAULT_STRATEGY);
      tiledata::ZeroedSpan taken = buffer.take(data.size());
      const std::span<std::uint8_t> out = taken.bytes();
      REQUIRE(deflate::inflate_onto_zeros(Bytes(stream), std::move(taken), tables).status ==
              InflateStatus::ok);
      const tiledata::KnownZeros known(buffer);
      // zero_blocks from anywhere, for any length, with and without.
      for (int probe = 0; probe < 300; ++probe) {
        const std::size_t at = rng() % data.size();
        const std::size_t n = rng() % ((data.size() - at) / 32 + 1);
        CHECK(tiledata::zero_blocks(out.data() + at, n, known) ==
              tiledata::zero_blocks(out.data() + at, n));
      }
      // The counts of each tile kind's structs, with and without.
      for (const LayerKind kind : {LayerKind::game, LayerKind::tele, LayerKind::speedup,
                                   LayerKind::switch_layer, LayerKind::tune}) {
        const std::size_t n = data.size() / teeworlds::tile_struct_size(kind);
        teeworlds::TileCounts plain, marked;
        tiledata::Adler32Scan plain_scan{Bytes(out.data(), data.size())};
        tiledata::Adler32Scan marked_scan{Bytes(out.data(), data.size())};
        teeworlds::count_plain_tiles(Bytes(out.data(), data.size()), kind, n, plain, &plain_scan);
        teeworlds::count_plain_tiles(Bytes(out.data(), data.size()), kind, n, marked, &marked_scan,
                                     known);
        CAPTURE(static_cast<int>(kind));
        CHECK(plain.keys == marked.keys);
        CHECK(plain.flags == marked.flags);
        CHECK(plain.numbers == marked.numbers);
        CHECK(plain.tiles == marked.tiles);
        CHECK(plain.reserved_nonzero == marked.reserved_nonzero);
        CHECK(marked_scan.finish() == tiledata::adler32(Bytes(data)));
        CHECK(plain_scan.finish() == tiledata::adler32(Bytes(data)));
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
    tiledata::ZeroedBuffer buffer;
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
        const auto got = again->tile_data(i, buffer);
        CHECK(got.ok() == want.ok());
        if (!want || !got) {
          if (!want && !got) CHECK(got.error().message == want.error().message);
          continue;
        }
        REQUIRE(got->expected());
        CHECK(tiledata::adler32(got->bytes()) == *got->expected());
        CHECK(got->bytes().size() == want->size());
        CHECK(std::memcmp(got->bytes().data(), want->data(), want->size()) == 0);
        ++items;
        bytes += want->size();
      }
    }
    MESSAGE("data items compared: " << items << ", " << bytes << " bytes");
    CHECK(items > 1000);
  }
  TEST_CASE(
      "zero inflate: streams of empty or one-byte blocks read as zlib and libdeflate read them") {
    // Every block costs its header, and a dynamic one the building of its
    // tables, for at most one byte of output: the most work per input byte
    // a stream can ask for. What that costs is measured by
    // mapindex-bench-inflate (benchmarks/); here, that they read right.
    tiledata::ZeroedBuffer buffer;
    int checked = 0;
    for (const auto kind : testing::kAllTinyBlocks) {
      for (const std::size_t blocks : {1u, 2u, 3u, 100u, 4000u}) {
        CAPTURE(testing::to_string(kind));
        CAPTURE(blocks);
        const auto stream = testing::tiny_blocks(kind, blocks);
        const std::size_t size = testing::tiny_blocks_size(kind, blocks);
        const std::vector<std::uint8_t> want(size, testing::kTinyBlockByte);
        const Decoded got = decode(stream, size, buffer);
        CHECK(got.outcome.status == InflateStatus::ok);
        CHECK(got.outcome.used == stream.size());
        CHECK(got.bytes == want);
        const Reference lib = libdeflate_inflate_raw(stream, size);
        CHECK(lib.status == InflateStatus::ok);
        CHECK(lib.used == stream.size());
        CHECK(lib.bytes == want);
        check_like_zlib(stream, size, buffer);
        check_like_zlib(stream, size + 1, buffer);
        if (size > 0) check_like_zlib(stream, size - 1, buffer);
        // Cut before the last block ends.
        for (std::size_t cut = 1; cut <= std::min<std::size_t>(stream.size(), 3); ++cut)
          check_like_zlib(std::vector<std::uint8_t>(stream.begin(), stream.end() - cut), size,
                          buffer);
        ++checked;
      }
    }
    CHECK(checked == 5 * 5);
  }

  TEST_CASE("zero inflate: an all-zero code at a cut input is an error, not output of zero bits") {
    // Past the end of its input the decoder reads zero bits (at most 8
    // bytes of them, then it stops), and a symbol whose code is all zeros
    // decodes from them again and again: as many literal zeros, or matches
    // of 258 bytes, as the room allows. The stream was cut: whatever room
    // the output has past what the input's own bits give, the answer is
    // corrupt (zlib: the input ran out), never ok, too_short or too_long.
    tiledata::ZeroedBuffer buffer;
    int checked = 0;
    for (const unsigned zero_sym : {0u, 285u}) {
      for (const std::uint8_t first : {std::uint8_t{0}, std::uint8_t{7}}) {
        if (zero_sym == first) continue;  // the literal 0 is the all-zero code
        for (const unsigned repeats : {0u, 1u, 2u, 3u, 40u}) {
          CAPTURE(zero_sym);
          CAPTURE(static_cast<int>(first));
          CAPTURE(repeats);
          const auto whole = zero_code_stream(zero_sym, first, repeats, false);
          std::vector<std::uint8_t> want(whole.output, zero_sym == 0 ? 0 : first);
          want[0] = first;
          // Ended, the block reads as written.
          const Decoded ended = decode(whole.bytes, whole.output, buffer);
          REQUIRE(ended.outcome.status == InflateStatus::ok);
          CHECK(ended.bytes == want);
          const auto cut = zero_code_stream(zero_sym, first, repeats, true);
          const std::size_t step = zero_sym == 285 ? 258 : 1;
          for (const std::size_t more :
               {std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{31}, std::size_t{32},
                std::size_t{33}, std::size_t{64}, std::size_t{65}, std::size_t{100}}) {
            for (const std::size_t size :
                 {cut.output + more * step, cut.output + more * step + 1}) {
              CAPTURE(size);
              CHECK(zlib_inflate_raw(cut.bytes, size).status == InflateStatus::corrupt);
              CHECK(decode(cut.bytes, size, buffer).outcome.status == InflateStatus::corrupt);
              ++checked;
            }
          }
          CHECK(decode(cut.bytes, std::size_t{1} << 20, buffer).outcome.status ==
                InflateStatus::corrupt);
          // Within what the input's own bits give, as zlib reads it.
          check_like_zlib(cut.bytes, cut.output, buffer);
          check_like_zlib(cut.bytes, cut.output - 1, buffer);
        }
      }
    }
    CHECK(checked == 3 * 5 * 9 * 2);
  }

  TEST_CASE("zero inflate e2e: index takes --inflate zeros or libdeflate, not shown in --help") {
    const auto help = testing::run_mapindex({"index", "--help"});
    CHECK(help.exit_code == 0);
    CHECK(help.out.find("--inflate") == std::string::npos);
    testing::TempDir tmp;
    const auto bad = testing::run_mapindex(
        {"index", "--db", tmp.file("x.sqlite"), "--inflate", "zlib", tmp.path().string()});
    CHECK(bad.exit_code == 2);
    CHECK(bad.err == "mapindex index: --inflate must be zeros or libdeflate, not 'zlib'\n");
    CHECK_FALSE(std::filesystem::exists(tmp / "x.sqlite"));
  }

  TEST_CASE("zero inflate e2e: --inflate libdeflate reads tile data with libdeflate's rules") {
    // A game layer of 37 x 23 zero tiles, its stream written by hand with
    // 287 literal/length codes: one more than zlib takes, as libdeflate does.
    // The index shows which decoder read it: M15 (the game layer cannot be
    // read) by default, nothing with libdeflate.
    MapBuilder b;
    b.add_game_group();
    const std::int32_t width = 37, height = 23;
    b.add_tile_layer(TileGrid(LayerKind::game, width, height));
    const std::vector<std::uint8_t> built = b.build();
    auto df = datafile::Datafile::open(Bytes(built));
    REQUIRE(df);
    std::size_t item = df->num_data();
    for (std::size_t i = 0; i < df->num_data(); ++i)
      if (df->data_size(i) == std::int64_t{width} * height * 4) item = i;
    REQUIRE(item < df->num_data());
    const std::vector<std::uint8_t> tiles(std::size_t{width} * height * 4, 0);
    std::vector<unsigned> lit(287, 0);
    for (const unsigned sym : {0u, 256u, 274u, 285u}) lit[sym] = 2;
    const HuffmanCode code(lit);
    BitWriter w;
    dynamic_header(w, true, lit, {1});
    code.put(w, 0);                 // a zero byte,
    for (int k = 0; k < 13; ++k) {  // 13 x 258 more,
      code.put(w, 285);
      w.code(0, 1);
    }
    code.put(w, 274);  // 49 more (43 + 6),
    w.bits(6, 3);
    w.code(0, 1);
    code.put(w, 256);  // 1 + 3354 + 49 = 3404
    const std::vector<std::uint8_t> deflate = w.done();
    REQUIRE(zlib_inflate_raw(deflate, tiles.size()).status == InflateStatus::corrupt);
    const Reference lib = libdeflate_inflate_raw(deflate, tiles.size());
    REQUIRE(lib.status == InflateStatus::ok);
    REQUIRE(lib.bytes == tiles);
    testing::TempDir tmp;
    std::filesystem::create_directory(tmp / "in");
    testing::write_file(tmp / "in" / "layer.map",
                        Bytes(testing::with_stored_data(built, item, zlib_wrap(deflate, tiles))));
    const auto m15 = [](const std::filesystem::path& db) {
      return testing::sql_int(db, "SELECT count(*) FROM problems WHERE code = 'M15'");
    };
    const auto zeros = tmp / "zeros.sqlite", libdeflate = tmp / "libdeflate.sqlite";
    const auto r1 = testing::index_archive(zeros, tmp / "in");
    CHECK(r1.exit_code == 1);  // a rejected map
    CHECK(m15(zeros) == 1);
    const auto r2 = testing::index_archive(libdeflate, tmp / "in", {"--inflate", "libdeflate"});
    CHECK(r2.exit_code == 0);
    CHECK(m15(libdeflate) == 0);
    CHECK(testing::sql_int(libdeflate, "SELECT count(*) FROM maps") == 1);
  }

  TEST_CASE(
      "zero inflate corpus: the corpus indexed with --inflate libdeflate gives the same index") {
    const auto maps = testing::corpus_dir("maps");
    if (!maps) {
      testing::report_corpus_missing("maps", "--inflate libdeflate differential");
      return;
    }
    testing::TempDir tmp;
    const auto zeros = tmp / "zeros.sqlite", libdeflate = tmp / "libdeflate.sqlite";
    const auto r1 = testing::index_archive(zeros, *maps, {"--threads", "2"});
    REQUIRE_MESSAGE(r1.exit_code <= 1, r1.err);
    const auto r2 =
        testing::index_archive(libdeflate, *maps, {"--threads", "2", "--inflate", "libdeflate"});
    REQUIRE_MESSAGE(r2.exit_code <= 1, r2.err);
    const auto reference = testing::index_tables(zeros);
    CHECK(reference.at("layer_data").size() > 0);
    CHECK(reference.at("thumbnails").size() > 0);  // drawn from the inflated tiles
    CHECK(testing::first_difference(testing::index_tables(libdeflate), reference) == "");
  }
}
