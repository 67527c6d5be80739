// libFuzzer target: a Teeworlds/DDNet map through decode + measure + every
// check (measure_teeworlds), with the defaults the pipeline uses.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "stages/extract/teeworlds_measure.h"

using namespace mapindex;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const MapStats stats = measure_teeworlds(Bytes(data, size));
  // Whatever the input, a rejected map names at least one problem.
  if (stats.status == MapStatus::rejected && stats.problems.empty()) std::abort();
  return 0;
}
