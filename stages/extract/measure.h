// Recognises a file by content and measures it: a Teeworlds/DDNet datafile
// (`DATA`/`ATAD` magic) or a SpriteTile level (LZF stream starting with
// "SpriteTileLevel"). Anything else, and SpriteTile files that are not levels
// (groups files, other Unity assets), is "not a map".
#pragma once

#include <string>

#include "stages/common/bytes.h"
#include "stages/extract/map_stats.h"
#include "stages/extract/teeworlds_measure.h"

namespace mapindex {

enum class ContentKind : unsigned char { map, not_a_map };

struct Measurement {
  ContentKind kind = ContentKind::not_a_map;
  std::string not_map_reason;  // when kind == not_a_map
  MapStats stats;              // when kind == map
};

Measurement measure_content(Bytes file, const MeasureOptions& options = {});

}  // namespace mapindex
