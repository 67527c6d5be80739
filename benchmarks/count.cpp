// mapindex-bench-count: the tile counter (teeworlds_tile_counter.h) and the
// thumbnail drawing (render/canvas.h), timed apart from everything else, so
// that changes to them can be measured without the noise of a whole run:
//
//   mapindex-bench-count [--repeat R] ARCHIVE...
//
// Every readable plain tile layer of every Teeworlds map in the archives (not
// skip-compressed, and holding all its tiles; the others count as failures)
// is inflated onto zeros R times (default 3), as mapindex inflates tile data,
// and then counted R times with the Adler-32 scan, the calls mapindex makes;
// the best of the R times (the data warm in cache after the first) of each
// layer is summed per layer kind. A layer whose checksum does not hold is a failure
// and is not timed. The physics layers the game uses are then drawn R times
// into the map's thumbnail canvas (256 pixels on its longest side), as
// mapindex draws them, best of the R times. Prints, per layer kind, the
// layers, tiles, failures, counting seconds, inflating seconds and drawing
// seconds, then one line of totals.
//
// One buffer serves every layer here, so it grows to the corpus's largest
// layer; mapindex's buffer per thread grows to the largest layer it met up to
// 32 MiB. Costs that grow with the buffer's size show more here.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "benchmarks/entry_stream.h"
#include "decode/datafile/datafile.h"
#include "decode/teeworlds/teeworlds_map.h"
#include "extract/teeworlds_tile_counter.h"
#include "render/canvas.h"
#include "tiledata/adler32.h"
#include "tiledata/zeroed_buffer.h"

namespace {

using namespace mapindex;

struct KindTotals {
  std::uint64_t layers = 0, tiles = 0, failures = 0;
  double seconds = 0;          // counting (with the checksum), best of the repeats
  double inflate_seconds = 0;  // inflating onto zeros, best of the repeats
  double draw_seconds = 0;     // drawing into the map's thumbnail, best of the repeats
};

// Seconds one call of `f` takes.
template <class F>
double seconds_of(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int usage() {
  std::fprintf(stderr, "usage: mapindex-bench-count [--repeat R] ARCHIVE...\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 3;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--repeat" && i + 1 < argc) {
      char* end = nullptr;
      const long r = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || r < 1 || r > 1000) return usage();
      repeat = static_cast<int>(r);
    } else if (arg.starts_with("-"))
      return usage();
    else
      inputs.push_back(arg);
  }
  if (inputs.empty()) return usage();

  std::vector<KindTotals> kinds(kNumTilemapKinds);
  tiledata::ZeroedBuffer buffer;
  std::int64_t check = 0;
  for (const auto& input : inputs) {
    auto r = bench::for_each_entry(input, [&](const std::string&, Bytes bytes) {
      auto df = datafile::Datafile::open(bytes);
      if (!df) return;
      const teeworlds::TeeworldsMap map = teeworlds::decode_map(*df);
      // The thumbnail's canvas, as mapindex draws it: the game layer's size.
      std::optional<render::Canvas> canvas;
      std::int32_t map_width = 0, map_height = 0;
      if (const std::int32_t game = map.game_layer(); game >= 0) {
        map_width = map.layers[static_cast<std::size_t>(game)].tilemap->width;
        map_height = map.layers[static_cast<std::size_t>(game)].tilemap->height;
        if (auto c =
                render::Canvas::create(map_width, map_height, {.max_side = render::kThumbnailSide}))
          canvas = std::move(*c);
      }
      for (const auto& layer : map.layers) {
        if (!layer.tilemap || !layer.tiles_readable || layer.tilemap->skip_compressed()) continue;
        const auto& t = *layer.tilemap;
        if (index_of(layer.type) >= kNumTilemapKinds) continue;
        KindTotals& k = kinds[index_of(layer.type)];
        std::optional<std::uint32_t> checksum;
        const auto index = static_cast<std::size_t>(t.tile_data());
        std::optional<Result<Bytes>> inflated;
        double best_inflate =
            seconds_of([&] { inflated.emplace(df->data_unchecked(index, buffer, checksum)); });
        for (int rep = 1; rep < repeat; ++rep) {
          // A Datafile of its own for each repeat: each has an inflate budget.
          auto again = datafile::Datafile::open(bytes);
          if (!again) break;
          best_inflate =
              std::min(best_inflate, seconds_of([&] {
                         inflated.emplace(again->data_unchecked(index, buffer, checksum));
                       }));
        }
        const Result<Bytes>& data = *inflated;
        k.inflate_seconds += best_inflate;
        const auto n = static_cast<std::size_t>(std::int64_t{t.width} * t.height);
        if (!data || data->size() / teeworlds::tile_struct_size(layer.type) < n) {
          k.failures++;
          continue;
        }
        double best = 1e9;
        bool sum_holds = true;
        for (int rep = 0; rep < repeat; ++rep) {
          teeworlds::TileCounts counts;
          tiledata::Adler32Scan scan(*data);
          std::uint32_t sum = 0;
          best = std::min(best, seconds_of([&] {
                            teeworlds::count_plain_tiles(*data, layer.type, n, counts,
                                                         checksum ? &scan : nullptr,
                                                         tiledata::KnownZeros(buffer));
                            sum = scan.finish();
                          }));
          sum_holds = !checksum || sum == *checksum;
          check += counts.non_empty();
        }
        if (!sum_holds) {
          k.failures++;
          continue;
        }
        if (canvas && render::is_drawn_physics(layer.type) &&
            map.physics_layer(layer.type) == layer.index) {
          const render::TileLayerView view{.kind = layer.type,
                                           .layer_index = layer.index,
                                           .width = t.width,
                                           .height = t.height,
                                           .data = *data,
                                           .known_zeros = tiledata::KnownZeros(buffer),
                                           .map_width = map_width,
                                           .map_height = map_height};
          double best_draw = 1e9;
          for (int rep = 0; rep < repeat; ++rep)
            best_draw = std::min(best_draw, seconds_of([&] { canvas->draw(view); }));
          k.draw_seconds += best_draw;
          for (const std::uint8_t p : canvas->image().pixels) check += p;
        }
        k.layers++;
        k.tiles += n;
        k.seconds += best;
      }
    });
    if (!r) {
      std::fprintf(stderr, "mapindex-bench-count: %s\n", r.error().message.c_str());
      return 1;
    }
  }
  KindTotals all;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const KindTotals& k = kinds[i];
    if (k.layers == 0) continue;
    std::printf(
        "kind=%s layers=%llu tiles=%llu failures=%llu seconds=%.4f inflate_seconds=%.4f "
        "draw_seconds=%.4f\n",
        to_string(static_cast<LayerKind>(i)).data(), static_cast<unsigned long long>(k.layers),
        static_cast<unsigned long long>(k.tiles), static_cast<unsigned long long>(k.failures),
        k.seconds, k.inflate_seconds, k.draw_seconds);
    all.layers += k.layers;
    all.tiles += k.tiles;
    all.failures += k.failures;
    all.seconds += k.seconds;
    all.inflate_seconds += k.inflate_seconds;
    all.draw_seconds += k.draw_seconds;
  }
  std::printf(
      "layers=%llu tiles=%llu failures=%llu seconds=%.4f inflate_seconds=%.4f draw_seconds=%.4f "
      "check=%lld\n",
      static_cast<unsigned long long>(all.layers), static_cast<unsigned long long>(all.tiles),
      static_cast<unsigned long long>(all.failures), all.seconds, all.inflate_seconds,
      all.draw_seconds, static_cast<long long>(check));
  return 0;
}
