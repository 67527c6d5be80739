// The zlib checksum checked on the way: Adler32Scan (runs of zeros summed in
// one step) against zlib's own adler32(); inflate_zlib and
// inflate_zlib_unchecked against libdeflate_zlib_decompress on damaged
// streams; and a map whose tile layer's checksum is wrong, which must be
// refused exactly as before the counting checked it.
#include <doctest/doctest.h>
#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "decode/datafile/datafile.h"
#include "deflate/inflate.h"
#include "extract/layer_data.h"
#include "extract/teeworlds_measure.h"
#include "tests/support/map_builder.h"
#include "tests/support/zlib_reference.h"
#include "tiledata/adler32.h"

using namespace mapindex;
using namespace mapindex::testing;

namespace {

// Data with runs of zeros of every length class (none, short, around kMinRun,
// past the modulus 65521) between random bytes; the runs, as (offset, length).
struct Sparse {
  std::vector<std::uint8_t> bytes;
  std::vector<std::pair<std::size_t, std::size_t>> zero_runs;
};

Sparse make_sparse(std::mt19937& rng, std::size_t pieces) {
  Sparse s;
  const std::size_t lengths[] = {0, 1, 31, 255, 256, 257, 4096, 65520, 65521, 65522, 200000};
  for (std::size_t i = 0; i < pieces; ++i) {
    const std::size_t data = rng() % 70;
    for (std::size_t k = 0; k < data; ++k)
      s.bytes.push_back(static_cast<std::uint8_t>(rng() % 255 + 1));
    const std::size_t zeros = lengths[rng() % std::size(lengths)] + (rng() % 2 ? rng() % 40 : 0);
    if (zeros > 0) s.zero_runs.emplace_back(s.bytes.size(), zeros);
    s.bytes.resize(s.bytes.size() + zeros, 0);
  }
  return s;
}

deflate::InflateOutcome reference_inflate(Bytes compressed, std::span<std::uint8_t> out) {
  libdeflate_decompressor* d = libdeflate_alloc_decompressor();
  std::size_t actual = 0;
  const auto r = libdeflate_zlib_decompress(d, compressed.data(), compressed.size(), out.data(),
                                            out.size(), &actual);
  libdeflate_free_decompressor(d);
  if (r == LIBDEFLATE_SUCCESS)
    return {actual == out.size() ? deflate::InflateStatus::ok : deflate::InflateStatus::too_short,
            actual};
  if (r == LIBDEFLATE_INSUFFICIENT_SPACE) return {deflate::InflateStatus::too_long, out.size()};
  return {deflate::InflateStatus::corrupt, 0};
}

// Counts what measuring offers; knows nothing.
struct OfferCounter final : LayerDataStore {
  std::shared_ptr<const LayerData> find(const LayerDataKey&) override { return nullptr; }
  void offer(const LayerDataKey&, std::shared_ptr<const LayerData>) override { ++offers; }
  int offers = 0;
};

}  // namespace

TEST_SUITE("adler32") {
  TEST_CASE("adler32: summing runs of zeros in one step gives zlib's checksum") {
    std::mt19937 rng(1123);
    for (int round = 0; round < 200; ++round) {
      CAPTURE(round);
      const Sparse s = make_sparse(rng, 1 + rng() % 12);
      const std::uint32_t want = zlib_adler32(Bytes(s.bytes));
      CHECK(tiledata::adler32(Bytes(s.bytes)) == want);
      // Every run reported, none, and a random part of them (a caller skips
      // only the runs it finds).
      for (int mode = 0; mode < 3; ++mode) {
        tiledata::Adler32Scan scan{Bytes(s.bytes)};
        for (const auto& [at, n] : s.zero_runs)
          if (mode == 0 || (mode == 2 && rng() % 2)) scan.zeros(s.bytes.data() + at, n);
        CAPTURE(mode);
        CHECK(scan.finish() == want);
      }
      // Runs reported twice, and overlapping the run before.
      {
        tiledata::Adler32Scan scan{Bytes(s.bytes)};
        for (const auto& [at, n] : s.zero_runs) {
          scan.zeros(s.bytes.data() + at, n);
          scan.zeros(s.bytes.data() + at, n);
          if (n > 2) scan.zeros(s.bytes.data() + at + n / 2, n - n / 2);
        }
        CHECK(scan.finish() == want);
      }
      // A part of a run, not starting at its start.
      if (!s.zero_runs.empty() && s.zero_runs[0].second > 2) {
        tiledata::Adler32Scan scan{Bytes(s.bytes)};
        const auto [at, n] = s.zero_runs[0];
        scan.zeros(s.bytes.data() + at + 1, n - 2);
        CHECK(scan.finish() == want);
      }
    }
    // Long runs: the second sum wraps many times.
    std::vector<std::uint8_t> big(5'000'000, 0);
    big[0] = 200;
    big[3'000'000] = 7;
    big.back() = 1;
    tiledata::Adler32Scan scan{Bytes(big)};
    scan.zeros(big.data() + 1, 3'000'000 - 1);
    scan.zeros(big.data() + 3'000'001, big.size() - 3'000'002);
    CHECK(scan.finish() == zlib_adler32(Bytes(big)));
  }

  TEST_CASE("adler32: inflate checks a stream as libdeflate_zlib_decompress does") {
    deflate::LibdeflateDecompressor decompressor;
    std::mt19937 rng(2311);
    int corrupt = 0, ok = 0;
    for (int round = 0; round < 400; ++round) {
      const Sparse s = make_sparse(rng, 1 + rng() % 6);
      std::vector<std::uint8_t> z(compressBound(s.bytes.size()));
      uLongf zsize = z.size();
      REQUIRE(compress2(z.data(), &zsize, s.bytes.data(), s.bytes.size(), 6) == Z_OK);
      z.resize(zsize);
      // Damage: none, one byte anywhere (header, data, checksum), the
      // checksum only, cut short, bytes appended.
      const int damage = round % 5;
      if (damage == 1) z[rng() % z.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      if (damage == 2) z[z.size() - 1 - rng() % 4] ^= static_cast<std::uint8_t>(1 + rng() % 255);
      if (damage == 3) z.resize(rng() % z.size());
      if (damage == 4) z.insert(z.end(), 1 + rng() % 9, static_cast<std::uint8_t>(rng()));
      for (const std::size_t size : {s.bytes.size(), s.bytes.size() + 5, s.bytes.size() / 2}) {
        CAPTURE(round);
        CAPTURE(damage);
        CAPTURE(size);
        std::vector<std::uint8_t> a(size + 1), b(size + 1);
        const auto want = reference_inflate(Bytes(z), std::span(a.data(), size));
        const auto got = deflate::inflate_zlib(Bytes(z), std::span(b.data(), size), decompressor);
        CHECK(got.status == want.status);
        CHECK(got.produced == want.produced);
        // Unchecked: the same, except that `ok` waits for the sum.
        const auto lazy =
            deflate::inflate_zlib_unchecked(Bytes(z), std::span(b.data(), size), decompressor);
        const bool sum_ok = lazy.status == deflate::InflateStatus::ok &&
                            tiledata::adler32(Bytes(b.data(), lazy.produced)) == lazy.checksum;
        if (lazy.status == deflate::InflateStatus::ok)
          CHECK((sum_ok ? deflate::InflateStatus::ok : deflate::InflateStatus::corrupt) ==
                want.status);
        else
          CHECK(lazy.status == want.status);
        corrupt += want.status == deflate::InflateStatus::corrupt;
        ok += want.status == deflate::InflateStatus::ok;
      }
    }
    CHECK(corrupt > 100);  // the damage was seen
    CHECK(ok > 100);
  }

  TEST_CASE("adler32: a tile layer whose checksum is wrong is refused as before, counted or not") {
    MapBuilder b;
    b.add_game_group();
    const std::int32_t width = 37, height = 23;  // 3404 bytes: no other data item has that size
    b.add_tile_layer(TileGrid(LayerKind::game, width, height).fill(0, 20, 37, 3, 1).set(5, 5, 9));
    std::vector<std::uint8_t> file = b.build();
    auto df = datafile::Datafile::open(Bytes(file));
    REQUIRE(df);
    std::size_t item = df->num_data();
    for (std::size_t i = 0; i < df->num_data(); ++i)
      if (df->data_size(i) == std::int64_t{width} * height * 4) item = i;
    REQUIRE(item < df->num_data());
    const Bytes stored = *df->stored_data(item);
    const std::size_t last =
        static_cast<std::size_t>(stored.data() - file.data()) + stored.size() - 1;

    OfferCounter good_store;
    MeasureContext good_options;
    good_options.layer_store = &good_store;
    const MapStats good = measure_teeworlds(Bytes(file), good_options);
    CHECK(good_store.offers == 1);
    REQUIRE(good.layers.size() == 1);
    CHECK(!good.layers[0].tile_counts.empty());

    file[last] ^= 0x5a;  // the low byte of the stream's Adler-32: the deflate data is intact
    auto broken_df = datafile::Datafile::open(Bytes(file));
    REQUIRE(broken_df);
    std::vector<std::uint8_t> scratch;
    const auto read = broken_df->data(item, scratch);
    REQUIRE(!read);
    const std::string expected = "data item " + std::to_string(item) + ": " +
                                 std::to_string(stored.size()) +
                                 " compressed bytes are not a valid zlib stream (declared size " +
                                 std::to_string(width * height * 4) + ")";
    CHECK(read.error().message == expected);
    CHECK(broken_df->invalid_stream_error(item).message == expected);

    // A layer met again is taken by its key (the SHA-256 of the stored
    // stream, checksum included) without checking the checksum again: that
    // holds only if nothing that failed it is ever offered as a result.
    OfferCounter store;
    MeasureContext with_store;
    with_store.layer_store = &store;
    measure_teeworlds(Bytes(file), with_store);
    CHECK(store.offers == 0);
    const MapStats broken = measure_teeworlds(Bytes(file));
    REQUIRE(broken.layers.size() == 1);
    CHECK(broken.layers[0].tile_counts.empty());
    const auto m15 = std::find_if(broken.problems.begin(), broken.problems.end(),
                                  [](const Problem& p) { return p.code == Code::M15; });
    REQUIRE(m15 != broken.problems.end());
    CHECK(m15->message.find(expected) != std::string::npos);
    CHECK(to_string(m15->location) == to_string(Location::layer(0)));
  }
}
