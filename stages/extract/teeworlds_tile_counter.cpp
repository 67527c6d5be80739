#include "stages/extract/teeworlds_tile_counter.h"

#include <string>

#include "stages/decode/teeworlds/item_decoders.h"

namespace mapindex::teeworlds {
namespace {

inline std::uint64_t load_u64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Tile structs (4 bytes: index, flags, skip, reserved). Pairs of all-zero
// tiles (the bulk of most layers) are counted as air without touching the
// histograms.
void count_tile_structs(const std::uint8_t* p, std::size_t n, TileCounts& out) {
  std::int64_t air_pairs = 0, reserved = 0, skip = 0;
  std::size_t i = 0;
  auto one = [&](const std::uint8_t* t) {
    const std::uint8_t index = t[0];
    out.keys[index]++;
    out.flags[t[1]] += index != 0;
    reserved += t[3] != 0;
    skip += t[2] != 0;
  };
  for (; i + 8 <= n; i += 8, p += 32) {
    if ((load_u64(p) | load_u64(p + 8) | load_u64(p + 16) | load_u64(p + 24)) == 0) {
      air_pairs += 4;
      continue;
    }
    for (int k = 0; k < 4; ++k) {
      if (load_u64(p + 8 * k) == 0) { ++air_pairs; continue; }
      one(p + 8 * k);
      one(p + 8 * k + 4);
    }
  }
  for (; i + 2 <= n; i += 2, p += 8) {
    if (load_u64(p) == 0) {
      ++air_pairs;
      continue;
    }
    one(p);
    one(p + 4);
  }
  if (i < n) one(p);
  out.keys[0] += 2 * air_pairs;
  out.reserved_nonzero += reserved;
  out.skip_nonzero += skip;
}

// Structs with a (number, type) pair at `number_at`/`type_at`.
template <std::size_t kSize, std::size_t kNumberAt, std::size_t kTypeAt, bool kFlags>
void count_numbered(const std::uint8_t* p, std::size_t n, TileCounts& out) {
  constexpr std::size_t kBlock = 32 / kSize;  // tiles per 32 bytes
  std::size_t i = 0;
  std::int64_t air = 0;
  for (; i + kBlock <= n; i += kBlock, p += 32) {
    if ((load_u64(p) | load_u64(p + 8) | load_u64(p + 16) | load_u64(p + 24)) == 0) {
      air += kBlock;
      continue;
    }
    for (std::size_t k = 0; k < kBlock; ++k) {
      const std::uint8_t* t = p + k * kSize;
      const std::uint8_t type = t[kTypeAt];
      out.keys[type]++;
      out.numbers[t[kNumberAt]] += type != 0;
      if constexpr (kFlags) out.flags[t[2]] += type != 0;
    }
  }
  out.keys[0] += air;
  for (; i < n; ++i, p += kSize) {
    const std::uint8_t type = p[kTypeAt];
    out.keys[type]++;
    out.numbers[p[kNumberAt]] += type != 0;
    if constexpr (kFlags) out.flags[p[2]] += type != 0;
  }
}

void count_speedup(const std::uint8_t* p, std::size_t n, TileCounts& out) {
  std::size_t i = 0;
  std::int64_t air = 0;
  for (; i + 4 <= n; i += 4, p += 24) {  // 4 tiles of 6 bytes
    if ((load_u64(p) | load_u64(p + 8) | load_u64(p + 16)) == 0) { air += 4; continue; }
    for (int k = 0; k < 4; ++k) out.keys[p[6 * k + 2]]++;
  }
  out.keys[0] += air;
  for (; i < n; ++i, p += 6) out.keys[p[2]]++;
}

}  // namespace

void count_plain_tiles(Bytes data, LayerType kind, std::size_t n, TileCounts& out) {
  const std::uint8_t* p = data.data();
  switch (kind) {
    case LayerType::tele: count_numbered<2, 0, 1, false>(p, n, out); break;
    case LayerType::speedup: count_speedup(p, n, out); break;
    case LayerType::switch_layer: count_numbered<4, 0, 1, true>(p, n, out); break;
    case LayerType::tune: count_numbered<2, 0, 1, false>(p, n, out); break;
    default: count_tile_structs(p, n, out); break;
  }
  out.tiles += static_cast<std::int64_t>(n);
}

std::optional<Error> count_skip_tiles(Bytes data, std::size_t num_tiles, TileCounts& out) {
  const std::size_t runs = data.size() / 4;
  const std::uint8_t* p = data.data();
  std::size_t counted = 0, r = 0;
  std::int64_t reserved = 0;
  std::optional<Error> error;
  for (; r < runs && counted < num_tiles; ++r, p += 4) {
    std::size_t repeat = std::size_t{p[2]} + 1;
    if (repeat > num_tiles - counted) {
      error = Error{Code::M14, "skip-compressed tiles expand past " + std::to_string(num_tiles) +
                               " tiles (run " + std::to_string(r) + " repeats " +
                               std::to_string(repeat) + " at tile " + std::to_string(counted) +
                               ")"};
      repeat = num_tiles - counted;
    }
    const auto c = static_cast<std::int64_t>(repeat);
    out.keys[p[0]] += c;
    out.flags[p[1]] += p[0] != 0 ? c : 0;
    reserved += p[3] != 0 ? c : 0;
    counted += repeat;
  }
  out.tiles += static_cast<std::int64_t>(counted);
  out.reserved_nonzero += reserved;
  if (error) return error;
  if (counted < num_tiles)
    return Error{Code::M14, "skip-compressed tiles expand to " + std::to_string(counted) +
                            " tiles, expected " + std::to_string(num_tiles)};
  if (r != runs || data.size() % 4 != 0)
    return Error{Code::M14, "skip-compressed tile data has " + std::to_string(data.size() - 4 * r) +
                            " bytes left over after " + std::to_string(num_tiles) + " tiles"};
  return std::nullopt;
}

}  // namespace mapindex::teeworlds
