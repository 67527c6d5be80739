// Tile data as a datafile hands it out (UncheckedTiles) and as it may be
// counted or drawn (CheckedTiles): only a matching Adler-32, summed over
// every byte or on the reader's own pass, or a content key turns the one into
// the other.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "tests/support/zlib_reference.h"
#include "tiledata/checked_tiles.h"

using namespace mapindex;
using namespace mapindex::tiledata;

// Nothing but check, read_and_check and a key makes CheckedTiles.
static_assert(!std::is_default_constructible_v<CheckedTiles>);
static_assert(!std::is_constructible_v<CheckedTiles, Bytes, KnownZeros>);
static_assert(!std::is_constructible_v<CheckedTiles, UncheckedTiles>);
static_assert(!std::is_convertible_v<UncheckedTiles, CheckedTiles>);

namespace {

// Tiles with long runs of air between a few non-zero bytes.
std::vector<std::uint8_t> sparse_tiles() {
  std::vector<std::uint8_t> bytes(4096 * 4, 0);
  for (std::size_t i = 0; i < bytes.size(); i += 997)
    bytes[i] = static_cast<std::uint8_t>(i % 251 + 1);
  return bytes;
}

// A reader like the tile counter: reports each run of zero bytes it skips
// to the scan, and returns how many non-zero bytes it met.
std::size_t count_nonzero(Bytes bytes, const KnownZeros&, Adler32Scan* scan) {
  std::size_t nonzero = 0;
  for (std::size_t i = 0; i < bytes.size();) {
    std::size_t j = i;
    while (j < bytes.size() && bytes[j] == 0) ++j;
    if (j > i) {
      if (scan) scan->zeros(bytes.data() + i, j - i);
      i = j;
      continue;
    }
    ++nonzero;
    ++i;
  }
  return nonzero;
}

}  // namespace

TEST_SUITE("tiledata") {
  TEST_CASE("tiledata checked tiles: check passes the stream's Adler-32 and refuses another") {
    const auto bytes = sparse_tiles();
    const std::uint32_t sum = testing::zlib_adler32(Bytes(bytes));
    const auto good = check(UncheckedTiles(Bytes(bytes), {}, sum));
    REQUIRE(good);
    CHECK(good->bytes().data() == bytes.data());
    CHECK(good->bytes().size() == bytes.size());
    CHECK(!check(UncheckedTiles(Bytes(bytes), {}, sum ^ 1u)));
    // No checksum to compare (a version 3 datafile's own bytes): checked.
    CHECK(check(UncheckedTiles(Bytes(bytes), {}, std::nullopt)));
  }

  TEST_CASE(
      "tiledata checked tiles: read_and_check hands out the reader's result only with a "
      "matching sum") {
    auto bytes = sparse_tiles();
    std::size_t expected_nonzero = 0;
    for (const auto b : bytes) expected_nonzero += b != 0;
    const std::uint32_t sum = testing::zlib_adler32(Bytes(bytes));

    bool scanned = false;
    const auto read = [&](Bytes b, const KnownZeros& k, Adler32Scan* scan) {
      scanned = scan != nullptr;
      return count_nonzero(b, k, scan);
    };
    const auto good = read_and_check(UncheckedTiles(Bytes(bytes), {}, sum), read);
    REQUIRE(good);
    CHECK(scanned);
    CHECK(good->second == expected_nonzero);
    CHECK(good->first.bytes().data() == bytes.data());

    // The same bytes with one of them changed: the sum the stream declares
    // no longer holds, and what was read is dropped.
    bytes[bytes.size() / 2] ^= 0x40;
    CHECK(!read_and_check(UncheckedTiles(Bytes(bytes), {}, sum), read));

    // Nothing expected: no scan is summed, the result is handed out.
    const auto unsummed = read_and_check(UncheckedTiles(Bytes(bytes), {}, std::nullopt), read);
    REQUIRE(unsummed);
    CHECK(!scanned);
  }

  TEST_CASE("tiledata checked tiles: a content key vouches for the bytes without reading them") {
    const std::vector<std::uint8_t> bytes(64, 7);
    // A wrong expected sum: the key, not the bytes, is what vouches.
    const UncheckedTiles unchecked(Bytes(bytes), {}, 0u);
    CHECK(!check(unchecked));
    const CheckedTiles vouched = CheckedTiles::vouched_by_key(unchecked, Sha256{});
    CHECK(vouched.bytes().data() == bytes.data());
    CHECK(vouched.bytes().size() == bytes.size());
  }
}
