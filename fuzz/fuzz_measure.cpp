// libFuzzer target: a map measured as `mapindex index` measures it with its
// default options (pipeline/measure_node.cpp): measure_content drawing the
// thumbnail (deferred, then encoded by finish_thumbnail), with the tile
// data's digests computed ahead and the run's layer store
// (pipeline/layer_store.h, in memory), so that the drawing (render::Canvas)
// meets hostile tile data. Measured again through the same store, every
// layer's result and the thumbnail come from the store: they must be what
// the first measuring gave, and so must measuring with no store, no digests
// and the thumbnail encoded at once.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "extract/map_stats.h"
#include "extract/measure.h"
#include "pipeline/layer_store.h"
#include "pipeline/run_counters.h"

using namespace mapindex;

namespace {

Measurement as_index_measures(Bytes file, LayerDataStore& store) {
  const TileDataDigests digests = digest_tile_data(file);
  MeasureContext context;
  context.layer_store = &store;
  context.digests = &digests;
  Measurement m = measure_content(file, context, {.thumbnail = ThumbnailMode::drawn_only});
  finish_thumbnail(m, &store);
  return m;
}

bool same_layer(const LayerStats& a, const LayerStats& b) {
  return a.layer_index == b.layer_index && a.kind == b.kind && a.non_empty == b.non_empty &&
         a.flip_x == b.flip_x && a.flip_y == b.flip_y && a.rotate == b.rotate &&
         a.tile_counts == b.tile_counts && a.entities == b.entities && a.numbers == b.numbers &&
         a.data_key == b.data_key && a.data_findings == b.data_findings;
}

void check_same(const Measurement& a, const Measurement& b) {
  if (a.kind != b.kind || a.not_map_reason != b.not_map_reason) std::abort();
  const MapStats &x = a.stats, &y = b.stats;
  if (x.status != y.status || x.problems != y.problems || x.layers.size() != y.layers.size() ||
      x.thumbnail_png != y.thumbnail_png || x.thumbnail_key != y.thumbnail_key)
    std::abort();
  for (std::size_t i = 0; i < x.layers.size(); ++i)
    if (!same_layer(x.layers[i], y.layers[i])) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Bytes file(data, size);
  LayerStoreCounters counters;
  RunLayerStore store("", kExtractorVersion, counters);
  const Measurement first = as_index_measures(file, store);
  // Whatever the input, a rejected map names at least one problem.
  if (first.kind == ContentKind::map && first.stats.status == MapStatus::rejected &&
      first.stats.problems.empty())
    std::abort();
  check_same(first, as_index_measures(file, store));
  check_same(first, measure_content(file, {}, {.thumbnail = ThumbnailMode::encoded}));
  return 0;
}
