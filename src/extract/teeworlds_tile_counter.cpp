#include "extract/teeworlds_tile_counter.h"

#include "common/bytes.h"
#include "decode/teeworlds/skip_runs.h"
#include "decode/teeworlds/tiles.h"
#include "tiledata/adler32.h"
#include "tiledata/tile_scan.h"
#include "tiledata/zero_blocks.h"

namespace mapindex::teeworlds {
namespace {

// The counts of one layer's structs as a tiledata::TileScan reports them.
// Air is added up apart and counted under key 0 at the end; with `adler`,
// each run of air is reported to it, so the checksum skips it too.
// `Struct` says where the key and the other counted bytes are: Tile structs
// (index, flags, skip, reserved), numbered structs (tele, switch, tune:
// a number and a type, switch flags too) and speedups (a type only).
template <std::size_t kSize, class Struct>
class Counter {
 public:
  // Reads the first block of a stretch of known zeros: the counter's pass
  // is cheaper so where written and unwritten chunks alternate.
  using Scan = tiledata::TileScan<kSize, false>;
  Counter(TileCounts& out, tiledata::Adler32Scan* adler) : out_(out), adler_(adler) {}
  ~Counter() {
    out_.keys[0] += air_;
    out_.reserved_nonzero += reserved_;
  }
  Counter(const Counter&) = delete;
  Counter& operator=(const Counter&) = delete;

  void air(const std::uint8_t* first, std::size_t tiles) {
    air_ += static_cast<std::int64_t>(tiles);
    if (adler_) adler_->zeros(first, tiles * kSize);
  }
  void repeated(const std::uint8_t* first, std::size_t tiles) {
    Struct::count(first, static_cast<std::int64_t>(tiles), out_, reserved_);
  }
  void block(const std::uint8_t* first) {
    if constexpr (Struct::kAirPairs) {
      // Pairs of air (8 zero bytes) inside a block are air without a lookup.
      static_assert(kSize == 4 && Scan::kBlockTiles == 8);
      for (std::size_t k = 0; k < 4; ++k) {
        const std::uint8_t* pair = first + 8 * k;
        if (load_host_u64(pair) == 0) {
          air_ += 2;
          continue;
        }
        Struct::count(pair, 1, out_, reserved_);
        Struct::count(pair + 4, 1, out_, reserved_);
      }
    } else {
      for (std::size_t k = 0; k < Scan::kBlockTiles; ++k)
        Struct::count(first + k * kSize, 1, out_, reserved_);
    }
  }
  void single(const std::uint8_t* tile) { Struct::count(tile, 1, out_, reserved_); }

 private:
  TileCounts& out_;
  tiledata::Adler32Scan* adler_;
  std::int64_t air_ = 0, reserved_ = 0;  // added to out_ at the end
};

// Tile structs (tiles, game, front layers): keys by index, flags of the
// tiles that are not air, and reserved bytes that are not 0.
struct TileStruct {
  static constexpr bool kAirPairs = true;
  static void count(const std::uint8_t* t, std::int64_t times, TileCounts& out,
                    std::int64_t& reserved) {
    const std::uint8_t index = t[tile_struct::kIndex];
    out.keys[index] += times;
    out.flags[t[tile_struct::kFlags]] += index != 0 ? times : 0;
    reserved += t[tile_struct::kReserved] != 0 ? times : 0;
  }
};

// Structs with a (number, type) pair at `kNumberAt`/`kTypeAt`, and flags at
// `kFlagsAt` when kFlags.
template <std::size_t kNumberAt, std::size_t kTypeAt, bool kFlags, std::size_t kFlagsAt = 0>
struct NumberedStruct {
  static constexpr bool kAirPairs = false;
  static void count(const std::uint8_t* t, std::int64_t times, TileCounts& out,
                    std::int64_t& /*reserved: none*/) {
    const std::uint8_t type = t[kTypeAt];
    out.keys[type] += times;
    out.numbers[t[kNumberAt]] += type != 0 ? times : 0;
    if constexpr (kFlags) out.flags[t[kFlagsAt]] += type != 0 ? times : 0;
  }
};

struct SpeedupStruct {
  static constexpr bool kAirPairs = false;
  static void count(const std::uint8_t* t, std::int64_t times, TileCounts& out,
                    std::int64_t& /*reserved: none*/) {
    out.keys[t[speedup_struct::kType]] += times;
  }
};

template <std::size_t kSize, class Struct>
void count_structs(Bytes data, std::size_t n, TileCounts& out, tiledata::Adler32Scan* adler,
                   const tiledata::KnownZeros& known) {
  typename Counter<kSize, Struct>::Scan scan(Bytes(data.data(), n * kSize), known);
  Counter<kSize, Struct> counter(out, adler);
  scan.scan(data.data(), n, counter);
}

}  // namespace

void count_plain_tiles(Bytes data, LayerKind kind, std::size_t n, TileCounts& out,
                       tiledata::Adler32Scan* adler, const tiledata::KnownZeros& known) {
  switch (kind) {
    case LayerKind::tele:
      count_structs<tele_struct::kSize,
                    NumberedStruct<tele_struct::kNumber, tele_struct::kType, false>>(data, n, out,
                                                                                     adler, known);
      break;
    case LayerKind::speedup:
      count_structs<speedup_struct::kSize, SpeedupStruct>(data, n, out, adler, known);
      break;
    case LayerKind::switch_layer:
      count_structs<switch_struct::kSize,
                    NumberedStruct<switch_struct::kNumber, switch_struct::kType, true,
                                   switch_struct::kFlags>>(data, n, out, adler, known);
      break;
    case LayerKind::tune:
      count_structs<tune_struct::kSize,
                    NumberedStruct<tune_struct::kNumber, tune_struct::kType, false>>(data, n, out,
                                                                                     adler, known);
      break;
    default: count_structs<tile_struct::kSize, TileStruct>(data, n, out, adler, known); break;
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
