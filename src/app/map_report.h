// A human-readable report of one measured file, for `mapindex inspect`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "audit/audit_report.h"
#include "common/bytes.h"
#include "common/json_writer.h"
#include "extract/measure.h"
#include "read/digest.h"

namespace mapindex {

// `file` is what `m` measured: a map whose container does not open is shown
// with its header's values as read (and "cut short: N of M bytes" when the
// file is shorter than the header describes). `release_checks`: the audit's
// per-map release checks of the map (print_release_checks), printed after
// its problems.
void print_map_report(std::ostream& out, const std::string& name, const read::FileDigest& digest,
                      const Measurement& m, Bytes file,
                      const std::vector<audit::Finding>& release_checks = {});

// The same, as one JSON object's fields (the caller opened the object and
// wrote "input"): what the index would store for the file. Keys: sha256,
// crc32, size, kind ("map" or "not_a_map"), then for maps format,
// format_version, status, container, info, game_width, game_height,
// tiles_per_set, groups, layers (with tile_counts, entities, numbers),
// images, envelopes, sounds, ddnet_features, problems (severity, code, title,
// location, message). For a container
// that does not open, format_version, container.items and data_items are the
// header's (null when there is none), container.opened is false and
// container.cut_short is {size, described_size} when the file is shorter
// than its header describes (else null).
void write_map_json(JsonWriter& json, const read::FileDigest& digest, const Measurement& m,
                    Bytes file);

// The audit's per-map release checks of a map (audit::map_findings, the
// code `mapindex audit` runs), as `mapindex inspect` shows them: a heading
// line, then one line per finding with its severity and titled rule; and as
// the JSON field "release_checks", an array of objects (rule, title,
// severity, subject, message).
void print_release_checks(std::ostream& out, const std::vector<audit::Finding>& findings);
void write_release_checks_json(JsonWriter& json, const std::vector<audit::Finding>& findings);

}  // namespace mapindex
