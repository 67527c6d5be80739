// libFuzzer target: a Teeworlds/DDNet map through decode + measure + every
// check (measure_teeworlds), with the defaults the pipeline uses; and again
// with its tile data's digests computed ahead (digest_tile_data), as the
// index run's hash node does: the layers' keys and problems must not change.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "extract/teeworlds_measure.h"

using namespace mapindex;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const MapStats stats = measure_teeworlds(Bytes(data, size));
  // Whatever the input, a rejected map names at least one problem.
  if (stats.status == MapStatus::rejected && stats.problems.empty()) std::abort();
  MeasureContext ahead;
  const TileDataDigests digests = digest_tile_data(Bytes(data, size));
  ahead.digests = &digests;
  const MapStats again = measure_teeworlds(Bytes(data, size), ahead);
  if (again.layers.size() != stats.layers.size() || again.problems.size() != stats.problems.size())
    std::abort();
  for (std::size_t i = 0; i < stats.layers.size(); ++i)
    if (again.layers[i].data_key != stats.layers[i].data_key) std::abort();
  for (std::size_t i = 0; i < stats.problems.size(); ++i)
    if (again.problems[i].code != stats.problems[i].code ||
        again.problems[i].message != stats.problems[i].message)
      std::abort();
  return 0;
}
