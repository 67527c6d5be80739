// DigestMemo (src/extract/digest_memo.h): every digest it gives is the
// SHA-256 of the bytes asked about, whether remembered, told apart from a
// string with the same candidate key, dropped for the budget or asked for by
// several threads at once. The expectations come from sha256() itself and
// from counting what was asked.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "common/sha256.h"
#include "extract/digest_memo.h"

using namespace mapindex;

namespace {

std::vector<std::uint8_t> random_bytes(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::uint8_t> out(n);
  for (auto& b : out) b = static_cast<std::uint8_t>(rng());
  return out;
}

Bytes view(const std::vector<std::uint8_t>& v) { return Bytes(v.data(), v.size()); }

}  // namespace

TEST_SUITE("digest memo") {
  TEST_CASE("digest memo: every digest is the SHA-256, and repeats of long strings hit") {
    std::mt19937_64 rng(7);
    std::vector<std::vector<std::uint8_t>> strings;
    for (const std::size_t n : {std::size_t{1}, std::size_t{8}, DigestMemo::kMinBytes - 1,
                                DigestMemo::kMinBytes, std::size_t{4096}, std::size_t{100000}})
      for (int copy = 0; copy < 5; ++copy) strings.push_back(random_bytes(rng, n));
    DigestMemo memo;
    std::uint64_t expected_hits = 0;
    for (int round = 0; round < 4; ++round) {
      std::shuffle(strings.begin(), strings.end(), rng);
      for (const auto& s : strings) {
        CHECK(memo.digest(view(s)) == sha256(view(s)));
        // Noted in the first round, remembered in the second, found from
        // the third on; short strings are always hashed.
        if (round > 1 && s.size() >= DigestMemo::kMinBytes) ++expected_hits;
      }
      // Nothing is copied in the first round.
      if (round == 0) CHECK(memo.bytes() == 0);
    }
    CHECK(expected_hits == 3 * 5 * 2);
    CHECK(memo.hits() == expected_hits);
    CHECK(memo.bytes() == 5 * (DigestMemo::kMinBytes + 4096 + 100000));
  }

  TEST_CASE("digest memo: strings that never repeat are not copied") {
    // As in a run of maps whose layers all differ: each string is hashed,
    // and only its key is noted.
    std::mt19937_64 rng(5);
    DigestMemo memo;
    for (int i = 0; i < 500; ++i) {
      const auto s = random_bytes(rng, 1000 + static_cast<std::size_t>(rng() % 3000));
      CHECK(memo.digest(view(s)) == sha256(view(s)));
    }
    CHECK(memo.bytes() == 0);
    CHECK(memo.hits() == 0);
  }

  TEST_CASE("digest memo: strings with the same size and last bytes are told apart") {
    // The candidate key is the size and the last 8 bytes: these differ only
    // in their first byte, so they share it.
    std::vector<std::vector<std::uint8_t>> strings;
    for (int i = 0; i < DigestMemo::kMaxCompared + 3; ++i) {
      std::vector<std::uint8_t> s(1000, 0x5a);
      s[0] = static_cast<std::uint8_t>(i);
      strings.push_back(s);
    }
    DigestMemo memo;
    for (int round = 0; round < 2; ++round)
      for (const auto& s : strings) CHECK(memo.digest(view(s)) == sha256(view(s)));
    // The first notes the key; each later one with that key counts as its
    // second sighting, and only the first kMaxCompared of those are kept:
    // those hit the second time.
    CHECK(memo.hits() == static_cast<std::uint64_t>(DigestMemo::kMaxCompared));
    CHECK(memo.bytes() == DigestMemo::kMaxCompared * 1000u);
    // A string of another size with the same candidate key (the key mixes
    // the size into the last 8 bytes, little-endian: one bit of the first of
    // them makes up for the size's) is not compared with them: under ASan,
    // comparing it would read past their ends.
    std::vector<std::uint8_t> longer(1001, 0x5a);
    longer[1001 - 8] = 0x5a ^ (1000 ^ 1001);
    CHECK(memo.digest(view(longer)) == sha256(view(longer)));
    CHECK(memo.hits() == static_cast<std::uint64_t>(DigestMemo::kMaxCompared));
  }

  TEST_CASE("digest memo: holds at most its budget, the oldest dropped first") {
    constexpr std::size_t kSize = 4096;
    constexpr std::uint64_t kBudget = 64 * kSize;
    std::mt19937_64 rng(11);
    std::vector<std::vector<std::uint8_t>> strings;
    for (int i = 0; i < 1000; ++i) strings.push_back(random_bytes(rng, kSize));
    DigestMemo memo(kBudget);
    for (std::size_t i = 0; i < strings.size(); ++i) {
      // Asked twice: the second asking remembers it.
      for (int twice = 0; twice < 2; ++twice)
        CHECK(memo.digest(view(strings[i])) == sha256(view(strings[i])));
      CHECK(memo.bytes() <= kBudget);
      // Every 10th step, the 32 most recent are all still found (each
      // lookup hits), and one 64 strings back, dropped since, is not:
      // dropping strings kept every remaining one reachable.
      if (i % 10 == 9 && i >= 64) {
        const std::uint64_t before = memo.hits();
        for (std::size_t back = 0; back < 32; ++back) {
          const auto& s = strings[i - back];
          CHECK(memo.digest(view(s)) == sha256(view(s)));
        }
        CHECK(memo.hits() == before + 32);
        const auto& old = strings[i - 64];
        CHECK(memo.digest(view(old)) == sha256(view(old)));
        CHECK(memo.hits() == before + 32);
        // The memo is full: asking for it either remembered it again, in
        // place of the oldest (its key still noted), or not.
        CHECK(memo.bytes() == kBudget);
      }
    }
    // A string over a quarter of the budget is hashed and never remembered.
    const auto big = random_bytes(rng, kBudget / 4 + 1);
    const std::uint64_t held = memo.bytes();
    CHECK(memo.digest(view(big)) == sha256(view(big)));
    CHECK(memo.digest(view(big)) == sha256(view(big)));
    CHECK(memo.bytes() == held);
  }

  TEST_CASE("digest memo: strings crafted to share a home slot are kept only near it") {
    // Keys that differ only in their low bits share their top bits, a
    // string's home at every table size. The key is (tail ^ size) times an
    // odd constant C: tail_i = (i * C^-1 mod 2^64) ^ size gives key i.
    constexpr std::uint64_t kC = 0x9e3779b97f4a7c15ull;
    std::uint64_t inverse = 1;  // Newton's iteration for C^-1 mod 2^64
    for (int i = 0; i < 6; ++i) inverse *= 2 - kC * inverse;
    REQUIRE(inverse * kC == 1);
    constexpr std::size_t kSize = 300;
    DigestMemo memo;
    std::vector<std::vector<std::uint8_t>> strings;
    for (std::uint64_t i = 1; i <= 2000; ++i) {
      std::vector<std::uint8_t> s(kSize, 0x33);
      const std::uint64_t tail = (i * inverse) ^ kSize;
      std::memcpy(s.data() + kSize - 8, &tail, 8);
      strings.push_back(std::move(s));
    }
    // Each asked twice in a row, so that the second asking remembers it (the
    // keys share their top bits, so each replaces the last one's note).
    for (const auto& s : strings)
      for (int twice = 0; twice < 2; ++twice) CHECK(memo.digest(view(s)) == sha256(view(s)));
    CHECK(memo.hits() == 0);
    for (const auto& s : strings) CHECK(memo.digest(view(s)) == sha256(view(s)));
    // All share one home, so only the first kMaxProbe were kept, and only
    // those were found again.
    CHECK(memo.bytes() == DigestMemo::kMaxProbe * kSize);
    CHECK(memo.hits() == DigestMemo::kMaxProbe);
  }

  TEST_CASE("digest memo: threads asking for the same strings at once get their digests") {
    std::mt19937_64 rng(13);
    std::vector<std::vector<std::uint8_t>> strings;
    std::vector<Sha256> expected;
    for (int i = 0; i < 200; ++i) {
      strings.push_back(random_bytes(rng, 300 + static_cast<std::size_t>(rng() % 5000)));
      expected.push_back(sha256(view(strings.back())));
    }
    // A budget that holds about half of them: threads remember and drop at once.
    DigestMemo memo(200 * 2600 / 2);
    std::vector<int> wrong(4, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {
        std::mt19937_64 order(static_cast<std::uint64_t>(t));
        for (int n = 0; n < 3000; ++n) {
          const auto i = static_cast<std::size_t>(order() % strings.size());
          if (memo.digest(view(strings[i])) != expected[i]) ++wrong[static_cast<std::size_t>(t)];
        }
      });
    for (auto& t : threads) t.join();
    CHECK(wrong == std::vector<int>(4, 0));
    CHECK(memo.hits() > 0);
    CHECK(memo.bytes() <= 200 * 2600 / 2);
  }
}
