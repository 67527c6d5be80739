// Measuring a Teeworlds/DDNet map: decode the datafile and its map items,
// count every tile layer (one layer's data inflated at a time into a reused
// buffer; image and sound data never inflated) and run every check.
#pragma once

#include <cstdint>

#include "stages/common/bytes.h"
#include "stages/extract/map_stats.h"

namespace mapindex {

struct MeasureOptions {
  // The largest data item (declared uncompressed size) that is inflated.
  std::uint64_t max_data_item_size = 256ull << 20;
};

// Decodes and measures a Teeworlds/DDNet datafile map. Never throws for bad
// input: a container that does not open gives MapStats with status rejected
// and the container rule (H*/V*) as a problem; otherwise everything that could
// be read is measured and every problem recorded. finalize_status() applied.
MapStats measure_teeworlds(Bytes file, const MeasureOptions& options = {});

// "DATA" or "ATAD" magic.
bool looks_like_datafile(Bytes file);

}  // namespace mapindex
