// libFuzzer target: the tile scan (src/tiledata/tile_scan.h) through both of
// its visitors, the tile counter and the canvas, against naive loops written
// here, on tile data built from the input. Aborts on any difference.
//
// Input: a header of kHeaderBytes, then ops that build the tile data, one
// struct at a time (so runs end anywhere, not only at block edges):
//   header[0]      layer kind (game, front, tele, speedup, switch, tune, tiles)
//   header[1..2]   layer width - 1 (little-endian; wider than the canvas's
//                  column table when header[6] & 1)
//   header[3..4]   canvas width and height, in 1/256ths of the layer's (0: equal)
//   header[5]      tiles per pixel side: 0 = one pixel per tile, else max_side
//   header[6]      bit 1: poison the chunks never written (the scan must not
//                  read them); bit 2: a tail of bytes shorter than a struct
//   header[7..14]  which chunks of zeros are marked as written (bit per chunk mod 64)
//   op byte, top 2 bits: 0 air (low 6 bits + 1 structs), 1 long air (64 x that),
//                  2 one struct (the next bytes) repeated low+1 times, 3 low+1
//                  structs copied from the input
// The data is inflated-like: in a ZeroedBuffer, every chunk holding a byte
// that is not zero marked, as the inflater marks what it writes.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "decode/teeworlds/map_items.h"
#include "decode/teeworlds/tiles.h"
#include "extract/teeworlds_tile_counter.h"
#include "render/canvas.h"
#include "render/tile_class.h"
#include "tests/support/tile_reference.h"
#include "tiledata/adler32.h"
#include "tiledata/checked_tiles.h"
#include "tiledata/zero_blocks.h"
#include "tiledata/zeroed_buffer.h"

using namespace mapindex;

namespace {

constexpr std::size_t kHeaderBytes = 15;
constexpr std::size_t kMaxTiles = std::size_t{1} << 18;

using Layout = testing::TileLayout;
constexpr const auto& kLayouts = testing::kTileLayouts;

void check(bool ok) {
  if (!ok) std::abort();
}

std::vector<std::uint8_t> build_tiles(const Layout& l, const std::uint8_t* in, std::size_t n) {
  std::vector<std::uint8_t> data;
  std::size_t i = 0;
  while (i < n && data.size() < kMaxTiles * l.size) {
    const std::uint8_t op = in[i++];
    const std::size_t count = (op & 63u) + 1;
    switch (op >> 6) {
      case 0: data.resize(data.size() + count * l.size, 0); break;
      case 1: data.resize(data.size() + 64 * count * l.size, 0); break;
      case 2: {
        std::array<std::uint8_t, 6> s{};
        for (std::size_t b = 0; b < l.size && i < n; ++b) s[b] = in[i++];
        for (std::size_t k = 0; k < count; ++k)
          data.insert(data.end(), s.begin(), s.begin() + l.size);
        break;
      }
      default:
        for (std::size_t b = 0; b < count * l.size && i < n; ++b) data.push_back(in[i++]);
        data.resize((data.size() + l.size - 1) / l.size * l.size, 0);
    }
  }
  data.resize(std::min(data.size(), kMaxTiles * l.size));
  return data;
}

bool same(const teeworlds::TileCounts& a, const teeworlds::TileCounts& b) {
  return a.keys == b.keys && a.flags == b.flags && a.numbers == b.numbers && a.tiles == b.tiles &&
         a.reserved_nonzero == b.reserved_nonzero;
}

// Each pixel: the highest class of the tiles it covers, tile by tile.
std::vector<std::uint8_t> naive_image(const Layout& l, const std::uint8_t* data, std::size_t n,
                                      std::int64_t lw, const render::ClassImage& image,
                                      std::int64_t map_w, std::int64_t map_h, std::int32_t factor) {
  std::vector<std::uint8_t> want(image.pixels.size(), 0);
  if (!render::is_drawn_physics(l.kind)) return want;
  for (std::size_t t = 0; t < n; ++t) {
    const std::int64_t x = static_cast<std::int64_t>(t) % lw, y = static_cast<std::int64_t>(t) / lw;
    const std::uint8_t key = data[t * l.size + l.key];
    if (key == 0 || x >= map_w || y >= map_h) continue;
    auto& p = want[static_cast<std::size_t>(y / factor * image.width + x / factor)];
    p = std::max(p, static_cast<std::uint8_t>(render::class_of(l.kind, key)));
  }
  return want;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* in, std::size_t size) {
  if (size < kHeaderBytes) return 0;
  const Layout& l = kLayouts[in[0] % kLayouts.size()];
  const bool wide = (in[6] & 1u) != 0, poison = (in[6] & 2u) != 0, tail = (in[6] & 4u) != 0;
  const std::int64_t lw = 1 + (in[1] | in[2] << 8) + (wide ? 65536 : 0);
  std::uint64_t extra_marks = 0;
  for (std::size_t b = 0; b < 8; ++b) extra_marks |= std::uint64_t{in[7 + b]} << (8 * b);
  std::vector<std::uint8_t> clean = build_tiles(l, in + kHeaderBytes, size - kHeaderBytes);
  if (tail && !clean.empty()) clean.resize(clean.size() + l.size - 1, 0x5a);  // a cut struct
  if (clean.empty()) return 0;
  const std::size_t n = clean.size() / l.size;

  // The data as the inflater leaves it: chunks with bytes marked, and the
  // chunks of zeros the header says; the others may then be poisoned.
  static tiledata::ZeroedBuffer buffer;
  constexpr std::size_t kChunk = tiledata::ZeroedBuffer::kChunkSize;
  const auto out = buffer.take(clean.size());
  std::copy(clean.begin(), clean.end(), out.begin());
  for (std::size_t chunk = 0; chunk * kChunk < clean.size(); ++chunk) {
    const auto from = clean.begin() + static_cast<std::ptrdiff_t>(chunk * kChunk);
    const auto to =
        clean.begin() + static_cast<std::ptrdiff_t>(std::min(clean.size(), (chunk + 1) * kChunk));
    if ((extra_marks >> (chunk % 64) & 1u) || std::any_of(from, to, [](auto b) { return b != 0; }))
      buffer.mark(chunk * kChunk, kChunk);
  }
  if (poison)
    for (std::size_t chunk = 0; chunk * kChunk < clean.size(); ++chunk)
      if (buffer.clean(chunk)) {
        // The key of the first struct that starts in the chunk: a struct
        // that starts in a written chunk is read whole, as it must be.
        const std::size_t at = (chunk * kChunk + l.size - 1) / l.size * l.size + l.key;
        if (at < std::min(clean.size(), (chunk + 1) * kChunk)) out[at] = 0xee;
      }
  const tiledata::KnownZeros known(buffer);
  const Bytes data(out.data(), clean.size());
  const Bytes plain(clean);

  // The counter, with and without what the buffer knows; the checksum.
  const teeworlds::TileCounts want = testing::naive_tile_counts(l, clean.data(), n);
  // Not on poisoned data: the counter reads the first block of a stretch of
  // known zeros (TileScan<S, false>), which is zero in every real buffer.
  for (const bool use_known : {true, false}) {
    if (poison) break;
    teeworlds::TileCounts got;
    const Bytes counted = use_known ? data : plain;
    tiledata::Adler32Scan adler(Bytes(counted.data(), n * l.size));
    teeworlds::count_plain_tiles(counted, l.kind, n, got, &adler,
                                 use_known ? known : tiledata::KnownZeros{});
    check(same(got, want));
    check(adler.finish() == tiledata::adler32(Bytes(clean.data(), n * l.size)));
  }

  // The canvas: a layer lw wide, on a canvas of the layer's size or cut.
  const std::int64_t lh = (static_cast<std::int64_t>(n) + lw - 1) / lw;
  const std::int64_t map_w = in[3] ? std::max<std::int64_t>(1, lw * in[3] / 256) : lw;
  const std::int64_t map_h = in[4] ? std::max<std::int64_t>(1, lh * in[4] / 256) : lh;
  auto canvas = render::Canvas::create(map_w, map_h, {.max_side = in[5]});
  if (!canvas) return 0;
  render::TileLayerView view{.kind = l.kind,
                             .width = static_cast<std::int32_t>(lw),
                             .height = static_cast<std::int32_t>(lh),
                             .tiles = *tiledata::check(tiledata::UncheckedTiles(data, known, {})),
                             .map_width = static_cast<std::int32_t>(map_w),
                             .map_height = static_cast<std::int32_t>(map_h)};
  canvas->draw(view);
  check(canvas->image().pixels ==
        naive_image(l, clean.data(), n, lw, canvas->image(), map_w, map_h, canvas->factor()));
  // Without what the buffer knows, on the clean bytes.
  if (poison) return 0;
  auto again = render::Canvas::create(map_w, map_h, {.max_side = in[5]});
  view.tiles = *tiledata::check(tiledata::UncheckedTiles(plain, {}, {}));
  again->draw(view);
  check(again->image().pixels == canvas->image().pixels);
  return 0;
}
