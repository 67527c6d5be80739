#include <doctest/doctest.h>

#include <string_view>
#include <vector>

#include "read/digest.h"

namespace {

mapindex::read::FileDigest digest_of(std::string_view text) {
  std::vector<std::uint8_t> bytes(text.begin(), text.end());
  return mapindex::read::digest(bytes);
}

}  // namespace

TEST_SUITE("read") {
  // SHA-256 vectors from FIPS 180-2 / NIST examples; CRC32 check values of
  // the IEEE polynomial (zlib's crc32).
  TEST_CASE("read digest: SHA-256 and CRC32 known vectors") {
    auto empty = digest_of("");
    CHECK(empty.sha256_hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(empty.crc32 == 0u);
    CHECK(empty.crc32_hex() == "00000000");
    CHECK(empty.size == 0);

    auto abc = digest_of("abc");
    CHECK(abc.sha256_hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(abc.crc32 == 0x352441c2u);
    CHECK(abc.crc32_hex() == "352441c2");
    CHECK(abc.size == 3);
    CHECK(abc.sha256[0] == 0xba);
    CHECK(abc.sha256[31] == 0xad);

    auto two_blocks = digest_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq");
    CHECK(two_blocks.sha256_hex() ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");

    auto check = digest_of("123456789");
    CHECK(check.crc32 == 0xcbf43926u);
    CHECK(check.crc32_hex() == "cbf43926");

    auto fox = digest_of("The quick brown fox jumps over the lazy dog");
    CHECK(fox.crc32_hex() == "414fa339");
    CHECK(fox.sha256_hex() == "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592");
  }

  TEST_CASE("read digest: crc32_hex keeps leading zeros") {
    mapindex::read::FileDigest d;
    d.crc32 = 0x00abcdefu;
    CHECK(d.crc32_hex() == "00abcdef");
  }
}
