#include "extract/teeworlds_tile_counter.h"

#include "common/bytes.h"
#include "decode/teeworlds/skip_runs.h"
#include "tiledata/adler32.h"
#include "tiledata/zero_blocks.h"

namespace mapindex::teeworlds {
namespace {

// Tile structs (4 bytes: index, flags, skip, reserved). Pairs of all-zero
// tiles (the bulk of most layers) are counted as air without touching the
// histograms.
void count_tile_structs(const std::uint8_t* p, std::size_t n, TileCounts& out,
                        tiledata::Adler32Scan* adler, const tiledata::KnownZeros& known) {
  std::int64_t air_pairs = 0, reserved = 0;
  std::size_t i = 0;
  auto one = [&](const std::uint8_t* t) {
    const std::uint8_t index = t[0];
    out.keys[index]++;
    out.flags[t[1]] += index != 0;
    reserved += t[3] != 0;
  };
  while (i + 8 <= n) {
    const std::uint64_t a = load_host_u64(p), b = load_host_u64(p + 8), c = load_host_u64(p + 16),
                        d = load_host_u64(p + 24);
    if ((a | b | c | d) == 0) {
      // Air comes in long stretches: skip them whole.
      const std::size_t blocks = 1 + tiledata::zero_blocks(p + 32, (n - i) / 8 - 1, known);
      if (adler) adler->zeros(p, 32 * blocks);
      air_pairs += 4 * static_cast<std::int64_t>(blocks);
      i += 8 * blocks;
      p += 32 * blocks;
      continue;
    }
    if (tiledata::one_struct_eight_times(a, b, c, d)) {
      // Eight times the same (non-air) tile: walls, freeze, fills.
      out.keys[p[0]] += 8;
      out.flags[p[1]] += p[0] != 0 ? 8 : 0;
      reserved += p[3] != 0 ? 8 : 0;
    } else {
      for (int k = 0; k < 4; ++k) {
        if (load_host_u64(p + 8 * k) == 0) {
          ++air_pairs;
          continue;
        }
        one(p + 8 * k);
        one(p + 8 * k + 4);
      }
    }
    i += 8;
    p += 32;
  }
  for (; i + 2 <= n; i += 2, p += 8) {
    if (load_host_u64(p) == 0) {
      ++air_pairs;
      continue;
    }
    one(p);
    one(p + 4);
  }
  if (i < n) one(p);
  out.keys[0] += 2 * air_pairs;
  out.reserved_nonzero += reserved;
}

// Structs with a (number, type) pair at `kNumberAt`/`kTypeAt`, and flags at
// `kFlagsAt` when kFlags.
template <std::size_t kSize, std::size_t kNumberAt, std::size_t kTypeAt, bool kFlags,
          std::size_t kFlagsAt = 0>
void count_numbered(const std::uint8_t* p, std::size_t n, TileCounts& out,
                    tiledata::Adler32Scan* adler, const tiledata::KnownZeros& known) {
  constexpr std::size_t kBlock = 32 / kSize;  // tiles per 32 bytes
  std::size_t i = 0;
  std::int64_t air = 0;
  for (; i + kBlock <= n; i += kBlock, p += 32) {
    if ((load_host_u64(p) | load_host_u64(p + 8) | load_host_u64(p + 16) | load_host_u64(p + 24)) ==
        0) {
      // Air comes in long stretches: skip them whole.
      const std::size_t blocks = 1 + tiledata::zero_blocks(p + 32, (n - i) / kBlock - 1, known);
      if (adler) adler->zeros(p, 32 * blocks);
      air += static_cast<std::int64_t>(kBlock * blocks);
      i += kBlock * (blocks - 1);
      p += 32 * (blocks - 1);
      continue;
    }
    for (std::size_t k = 0; k < kBlock; ++k) {
      const std::uint8_t* t = p + k * kSize;
      const std::uint8_t type = t[kTypeAt];
      out.keys[type]++;
      out.numbers[t[kNumberAt]] += type != 0;
      if constexpr (kFlags) out.flags[t[kFlagsAt]] += type != 0;
    }
  }
  out.keys[0] += air;
  for (; i < n; ++i, p += kSize) {
    const std::uint8_t type = p[kTypeAt];
    out.keys[type]++;
    out.numbers[p[kNumberAt]] += type != 0;
    if constexpr (kFlags) out.flags[p[kFlagsAt]] += type != 0;
  }
}

void count_speedup(const std::uint8_t* p, std::size_t n, TileCounts& out,
                   tiledata::Adler32Scan* adler, const tiledata::KnownZeros& known) {
  constexpr std::size_t kSize = speedup_struct::kSize, kTypeAt = speedup_struct::kType;
  static_assert(4 * kSize == 24);
  std::size_t i = 0;
  std::int64_t air = 0;
  for (; i + 4 <= n; i += 4, p += 4 * kSize) {  // 4 tiles of 6 bytes
    if ((load_host_u64(p) | load_host_u64(p + 8) | load_host_u64(p + 16)) == 0) {
      // Skip the air that follows in steps of 16 tiles (96 bytes: 3 blocks).
      const std::size_t groups = tiledata::zero_blocks(p + 24, (n - i - 4) / 16 * 3, known) / 3;
      if (adler) adler->zeros(p, 4 * kSize + 16 * kSize * groups);
      air += 4 + 16 * static_cast<std::int64_t>(groups);
      i += 16 * groups;
      p += 16 * kSize * groups;
      continue;
    }
    for (std::size_t k = 0; k < 4; ++k) out.keys[p[kSize * k + kTypeAt]]++;
  }
  out.keys[0] += air;
  for (; i < n; ++i, p += kSize) out.keys[p[kTypeAt]]++;
}

}  // namespace

void count_plain_tiles(Bytes data, LayerKind kind, std::size_t n, TileCounts& out,
                       tiledata::Adler32Scan* adler, const tiledata::KnownZeros& known) {
  const std::uint8_t* p = data.data();
  switch (kind) {
    case LayerKind::tele:
      count_numbered<tele_struct::kSize, tele_struct::kNumber, tele_struct::kType, false>(
          p, n, out, adler, known);
      break;
    case LayerKind::speedup: count_speedup(p, n, out, adler, known); break;
    case LayerKind::switch_layer:
      count_numbered<switch_struct::kSize, switch_struct::kNumber, switch_struct::kType, true,
                     switch_struct::kFlags>(p, n, out, adler, known);
      break;
    case LayerKind::tune:
      count_numbered<tune_struct::kSize, tune_struct::kNumber, tune_struct::kType, false>(
          p, n, out, adler, known);
      break;
    default: count_tile_structs(p, n, out, adler, known); break;
  }
  out.tiles += static_cast<std::int64_t>(n);
}

std::optional<Error> count_skip_tiles(Bytes data, std::size_t num_tiles, TileCounts& out) {
  std::size_t counted = 0;
  std::int64_t reserved = 0;
  auto error = for_each_skip_run(data, num_tiles, [&](const std::uint8_t* p, std::size_t repeat) {
    const auto c = static_cast<std::int64_t>(repeat);
    out.keys[p[0]] += c;
    out.flags[p[1]] += p[0] != 0 ? c : 0;
    reserved += p[3] != 0 ? c : 0;
    counted += repeat;
  });
  out.tiles += static_cast<std::int64_t>(counted);
  out.reserved_nonzero += reserved;
  return error;
}

}  // namespace mapindex::teeworlds
