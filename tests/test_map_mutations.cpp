// Hostile input: map items with their fields replaced by extreme values
// (sizes, counts, indices), and raw tile data with random bytes. Nothing may
// crash or read out of bounds (run under the sanitizer build), and every
// mutated map keeps two invariants: it is rejected exactly when an error
// problem was found, and it has one measured layer per layer item that the
// container holds (a broken layer is reported, never dropped).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <random>

#include "common/bytes.h"
#include "decode/datafile/datafile.h"
#include "decode/teeworlds/map_items.h"
#include "extract/teeworlds_measure.h"
#include "tests/support/corpus.h"
#include "tests/support/datafile_writer.h"
#include "tests/support/map_builder.h"

namespace mapindex::testing {
namespace {

// Positions of the payload ints of every item (after each 8-byte header).
std::vector<std::size_t> payload_ints(const std::vector<std::uint8_t>& file) {
  const FileLayout l = file_layout(file);
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < l.num_items; ++i) {
    const std::size_t start = load_le_u32(file.data() + l.item_offsets + 4 * i);
    const std::size_t end =
        i + 1 < l.num_items ? load_le_u32(file.data() + l.item_offsets + 4 * (i + 1)) : l.item_size;
    for (std::size_t p = start + 8; p + 4 <= end; p += 4) out.push_back(l.items + p);
  }
  return out;
}

// MAPINDEX_MUTATION_SCALE multiplies the rounds (for a longer hunt).
int scaled(int rounds) {
  const char* env = std::getenv("MAPINDEX_MUTATION_SCALE");
  const int scale = env ? std::max(1, std::atoi(env)) : 1;
  return rounds * scale;
}

// The invariants every measured map keeps, however broken.
void check_invariants(const std::vector<std::uint8_t>& file) {
  const MapStats s = measure_teeworlds(Bytes(file));
  CHECK((s.status == MapStatus::rejected) == has_errors(s.problems));
  const auto df = datafile::Datafile::open(Bytes(file));
  if (!df) {
    CHECK(s.status == MapStatus::rejected);
    return;
  }
  CHECK(s.layers.size() == df->items_of_type(teeworlds::kLayerType).num);
}

void mutate_and_measure(const std::vector<std::uint8_t>& original, std::uint32_t seed, int rounds) {
  rounds = scaled(rounds);
  const auto ints = payload_ints(original);
  REQUIRE_FALSE(ints.empty());
  const std::int32_t extremes[] = {-1,    0, 1, 2, 3, 255, 256, 65535, 0x7FFFFFFF, -0x7FFFFFFF - 1,
                                   100000};
  std::mt19937 rng(seed);
  for (int r = 0; r < rounds; ++r) {
    std::vector<std::uint8_t> file = original;
    const int changes = 1 + static_cast<int>(rng() % 4);
    for (int c = 0; c < changes; ++c) {
      const std::size_t at = ints[rng() % ints.size()];
      const std::int32_t v =
          rng() % 3 == 0 ? static_cast<std::int32_t>(rng()) : extremes[rng() % std::size(extremes)];
      patch_i32(file, at, v);
    }
    check_invariants(file);
  }
}

}  // namespace

TEST_SUITE("map") {
  TEST_CASE("map mutations: items of a realistic map with extreme field values") {
    RealisticMapOptions o;
    o.width = 50;
    o.height = 40;
    WriterOptions v3;
    v3.version = 3;
    mutate_and_measure(make_realistic_ddnet_map(o), 1, 400);
    o.skip_compressed = true;
    mutate_and_measure(make_realistic_ddnet_map(o), 2, 400);
    mutate_and_measure(make_realistic_ddnet_map(o, v3), 3, 400);
  }

  TEST_CASE("map mutations: random bytes in uncompressed (v3) tile data") {
    RealisticMapOptions o;
    o.width = 40;
    o.height = 30;
    o.skip_compressed = true;
    WriterOptions v3;
    v3.version = 3;
    const auto original = make_realistic_ddnet_map(o, v3);
    const FileLayout l = file_layout(original);
    std::mt19937 rng(7);
    for (int r = 0; r < scaled(200); ++r) {
      auto file = original;
      for (int c = 0; c < 64; ++c)
        file[l.data + rng() % l.data_size] = static_cast<std::uint8_t>(rng());
      check_invariants(file);
    }
  }

  TEST_CASE("map mutations corpus: items of a few corpus maps") {
    const auto files = corpus_files("maps", ".map");
    if (files.empty()) {
      report_corpus_missing("maps", "corpus mutation test");
      return;
    }
    std::uint32_t seed = 11;
    for (std::size_t i = 0; i < files.size(); i += files.size() / 6 + 1) {
      const auto bytes = read_file(files[i]);
      CAPTURE(files[i].filename().string());
      if (measure_teeworlds(Bytes(bytes)).num_items == 0) continue;  // does not open
      mutate_and_measure(bytes, seed++, 60);
    }
  }

}  // TEST_SUITE

}  // namespace mapindex::testing
