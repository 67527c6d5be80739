// A human-readable report of one measured file, for `mapindex inspect`.
#pragma once

#include <ostream>
#include <string>

#include "stages/common/json_writer.h"
#include "stages/extract/measure.h"
#include "stages/read/digest.h"

namespace mapindex {

void print_map_report(std::ostream& out, const std::string& name, const read::FileDigest& digest,
                      const Measurement& m);

// The same, as one JSON object's fields (the caller opened the object and
// wrote "input"): what the index would store for the file. Keys: sha256,
// crc32, size, kind ("map" or "not_a_map"), then for maps format,
// format_version, status, container, info, game_width, game_height,
// tiles_per_set, groups, layers (with tile_counts, entities, numbers),
// images, envelopes, sounds, ddnet_features, problems (severity, code, title, location,
// message).
void write_map_json(JsonWriter& json, const read::FileDigest& digest, const Measurement& m);

}  // namespace mapindex
