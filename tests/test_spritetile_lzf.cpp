// LZF stream walking and decompression (src/decode/spritetile/lzf_stream.h).
#include <doctest/doctest.h>
#include <lzf.h>

#include <cstdint>
#include <string>
#include <vector>

#include "decode/spritetile/lzf_stream.h"
#include "tests/support/codes.h"
#include "tests/support/spritetile_writer.h"

using namespace mapindex;
using namespace mapindex::spritetile;
using mapindex::testing::lzf_compress_bytes;
using mapindex::testing::lzf_literal_stream;

namespace {

using ByteVec = std::vector<std::uint8_t>;

ByteVec bytes_of(const std::string& s) { return ByteVec(s.begin(), s.end()); }

std::string error_code(const Result<std::size_t>& r) {
  return r.ok() ? "ok" : std::string(to_string(r.error().code));
}

// Mixed data: repetitive runs (long back references) and noise (literals).
ByteVec sample_data(std::size_t size) {
  ByteVec data(size);
  std::uint32_t state = 12345;
  for (std::size_t i = 0; i < size; ++i) {
    state = state * 1103515245u + 12345u;
    data[i] = (i / 500) % 2 == 0 ? static_cast<std::uint8_t>(i % 7)
                                 : static_cast<std::uint8_t>(state >> 24);
  }
  return data;
}

}  // namespace

TEST_SUITE("spritetile") {
  TEST_CASE("spritetile lzf: hand-made stream with an overlapping back reference") {
    // Literal "abc" (ctrl 2), then a back reference of length 2+2 = 4 at
    // distance 2+1 = 3: copies "abca" byte by byte -> "abcabca".
    const ByteVec stream = {0x02, 'a', 'b', 'c', 0x40, 0x02};
    auto size = lzf_decompressed_size(stream, 1000);
    REQUIRE(size.ok());
    CHECK(*size == 7);
    auto out = lzf_decompress(stream, 1000);
    REQUIRE(out.ok());
    CHECK(std::string(out->view().begin(), out->view().end()) == "abcabca");

    ByteVec prefix(5);
    CHECK(lzf_decompress_prefix(stream, prefix) == 5);
    CHECK(std::string(prefix.begin(), prefix.end()) == "abcab");
  }

  TEST_CASE("spritetile lzf: long back reference (length byte) expands 3 bytes to 264") {
    // Literal 'A', then ctrl 0xE0 (length 7 + next byte 255 + 2 = 264, distance 1).
    const ByteVec stream = {0x00, 'A', 0xE0, 0xFF, 0x00};
    auto size = lzf_decompressed_size(stream, 10000);
    REQUIRE(size.ok());
    CHECK(*size == 265);
    auto out = lzf_decompress(stream, 10000);
    REQUIRE(out.ok());
    for (std::uint8_t b : out->view()) REQUIRE(b == 'A');
    CHECK(lzf_size_cap(3) == 264);  // the 88x bound is exact for that token
  }

  TEST_CASE("spritetile lzf: liblzf round trips and the walk finds the exact size") {
    for (std::size_t size : {1u, 2u, 31u, 32u, 33u, 1000u, 70000u}) {
      CAPTURE(size);
      const ByteVec raw = sample_data(size);
      for (const ByteVec& stream : {lzf_compress_bytes(raw), lzf_literal_stream(raw)}) {
        auto walked = lzf_decompressed_size(stream, lzf_size_cap(stream.size()));
        REQUIRE(walked.ok());
        CHECK(*walked == size);
        auto out = lzf_decompress(stream, lzf_size_cap(stream.size()));
        REQUIRE(out.ok());
        CHECK(ByteVec(out->view().begin(), out->view().end()) == raw);
      }
    }
  }

  TEST_CASE("spritetile lzf: empty input is rejected before liblzf") {
    CHECK(error_code(lzf_decompressed_size({}, 100)) == "st.lzf.empty");
    auto out = lzf_decompress({}, 100);
    REQUIRE_FALSE(out.ok());
    CHECK(out.error().code == Code::st_lzf_empty);
  }

  TEST_CASE("spritetile lzf: truncated tokens") {
    // A literal run of 6 with only 2 bytes.
    CHECK(error_code(lzf_decompressed_size(ByteVec{0x05, 'a', 'b'}, 100)) == "st.lzf.truncated");
    // A back reference without its distance byte.
    CHECK(error_code(lzf_decompressed_size(ByteVec{0x00, 'a', 0x20}, 100)) == "st.lzf.truncated");
    // A long back reference without its length byte.
    CHECK(error_code(lzf_decompressed_size(ByteVec{0x00, 'a', 0xE0}, 100)) == "st.lzf.truncated");
    // ... and without its distance byte.
    CHECK(error_code(lzf_decompressed_size(ByteVec{0x00, 'a', 0xE0, 0x01}, 100)) ==
          "st.lzf.truncated");

    auto r = lzf_decompressed_size(ByteVec{0x00, 'a', 0x05, 'b'}, 100);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("input offset 2") != std::string::npos);
  }

  TEST_CASE(
      "spritetile lzf: every prefix of a real stream is either valid or truncated, as liblzf agrees") {
    const ByteVec raw = sample_data(3000);
    const ByteVec stream = lzf_compress_bytes(raw);
    for (std::size_t cut = 1; cut < stream.size(); ++cut) {
      CAPTURE(cut);
      const Bytes prefix(stream.data(), cut);
      auto size = lzf_decompressed_size(prefix, 1 << 20);
      if (size.ok()) {
        // Cut on a token boundary: liblzf decodes exactly that many bytes.
        ByteVec out(*size);
        CHECK(::lzf_decompress(prefix.data(), static_cast<unsigned>(cut), out.data(),
                               static_cast<unsigned>(out.size())) == *size);
        CHECK(std::equal(out.begin(), out.end(), raw.begin()));
      } else {
        CHECK(size.error().code == Code::st_lzf_truncated);
        CHECK(lzf_decompress(prefix, 1 << 20).error().code == Code::st_lzf_truncated);
      }
    }
  }

  TEST_CASE("spritetile lzf: the size walk and the prefix decoder read the same tokens") {
    // Both go through one token walk: on every cut and on corrupted copies of a
    // real stream, a stream the size walk accepts decodes in full through the
    // prefix decoder to liblzf's bytes, and a stream it refuses for a back
    // reference or a missing byte stops the prefix decoder short of the end.
    const ByteVec raw = sample_data(3000);
    const ByteVec stream = lzf_compress_bytes(raw);
    std::uint32_t x = 99;
    int accepted = 0, refused = 0;
    for (std::size_t round = 0; round < 400; ++round) {
      CAPTURE(round);
      ByteVec s(stream.begin(),
                stream.begin() + static_cast<std::ptrdiff_t>(1 + round * 7 % stream.size()));
      if (round % 2 == 1) {
        x = x * 1103515245u + 12345u;
        s[(x >> 8) % s.size()] = static_cast<std::uint8_t>(x >> 24);
      }
      auto size = lzf_decompressed_size(s, 1 << 20);
      ByteVec out(1 << 20);
      const std::size_t produced = lzf_decompress_prefix(s, out);
      if (size.ok()) {
        ++accepted;
        CHECK(produced == *size);
        ByteVec expected(*size);
        REQUIRE(::lzf_decompress(s.data(), static_cast<unsigned>(s.size()), expected.data(),
                                 static_cast<unsigned>(expected.size())) == *size);
        CHECK(std::equal(expected.begin(), expected.end(), out.begin()));
      } else {
        ++refused;
        // The prefix decoder stops on the stream too, not on its buffer: given
        // room for one byte more, it still produces no more.
        ByteVec one_more(produced + 1);
        CHECK(lzf_decompress_prefix(s, one_more) == produced);
      }
    }
    CHECK(accepted > 5);
    CHECK(refused > 20);
  }

  TEST_CASE("spritetile lzf: back references before the start of the output") {
    // First token is a back reference (distance 1, nothing decoded yet).
    CHECK(error_code(lzf_decompressed_size(ByteVec{0x20, 0x00}, 100)) == "st.lzf.backref");
    // 'A', then distance 6 with 1 byte decoded.
    CHECK(error_code(lzf_decompressed_size(ByteVec{0x00, 'A', 0x20, 0x05}, 100)) ==
          "st.lzf.backref");
    // Distance 1 + (31 << 8) + 255 = 8192 after 32 bytes.
    ByteVec far = {0x1F};
    far.resize(33, 'x');
    far.insert(far.end(), {0x3F, 0xFF});
    CHECK(error_code(lzf_decompressed_size(far, 1000)) == "st.lzf.backref");
    // Distance exactly equal to the output so far is fine.
    CHECK(error_code(lzf_decompressed_size(ByteVec{0x00, 'A', 0x20, 0x00}, 100)) == "ok");
  }

  TEST_CASE("spritetile lzf: output larger than the cap") {
    ByteVec stream = {0x00, 'A'};
    for (int i = 0; i < 100; ++i) stream.insert(stream.end(), {0xE0, 0xFF, 0x00});
    const std::size_t full = 1 + 100 * 264;
    CHECK(*lzf_decompressed_size(stream, full) == full);
    CHECK(error_code(lzf_decompressed_size(stream, full - 1)) == "st.lzf.cap");
    CHECK(lzf_decompress(stream, 1000).error().code == Code::st_lzf_cap);
  }

  TEST_CASE("spritetile lzf: cap is min(88 x input, ceiling)") {
    CHECK(lzf_size_cap(10) == 880);
    CHECK(lzf_size_cap(10, 100) == 100);
    CHECK(lzf_size_cap(std::size_t{100} << 20) == kDefaultMaxDecompressedSize);
    CHECK(lzf_size_cap(SIZE_MAX) == kDefaultMaxDecompressedSize);  // no overflow
  }

  TEST_CASE("spritetile lzf: prefix decoding stops at corruption and at the end") {
    ByteVec out(10);
    CHECK(lzf_decompress_prefix(ByteVec{}, out) == 0);
    CHECK(lzf_decompress_prefix(ByteVec{0x20, 0x00}, out) == 0);            // backref first
    CHECK(lzf_decompress_prefix(ByteVec{0x05, 'a', 'b'}, out) == 2);        // truncated literal
    CHECK(lzf_decompress_prefix(ByteVec{0x01, 'a', 'b', 0x20}, out) == 2);  // then truncated
    CHECK(lzf_decompress_prefix(bytes_of(std::string("\x1f") + std::string(32, 'z')), out) == 10);
  }

}  // TEST_SUITE
