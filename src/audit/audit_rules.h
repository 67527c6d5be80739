// The map-release checks of the audit, as rules over the entries a
// run saw in one source: maps DDNet would refuse, race maps without time
// checkpoints, duplicate and unused images, embedded standard images,
// external non-standard images, and map names that differ only by case or
// punctuation. Pure functions; the findings' is_new is left false. The
// per-map part (map_findings) is also what `mapindex inspect` runs.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "audit/audit_input.h"
#include "audit/audit_report.h"
#include "extract/game_verdict.h"
#include "extract/map_stats.h"

namespace mapindex::audit {

// The key two map names are compared by: ASCII letters lowercased, other
// ASCII characters that are not letters or digits dropped, bytes of UTF-8
// sequences (>= 0x80) kept as they are. "Kobra_4" and "kobra 4" give "kobra4".
std::string normalised_name(std::string_view name);

// Every finding of the rules over the map entries of one source, sorted by
// path, rule and subject. Entries whose map has no facts are skipped.
std::vector<Finding> evaluate_rules(const std::vector<SeenEntry>& entries,
                                    const MapFactsById& facts);

// The per-map release checks of one map (every rule but name.similar, which
// compares the names of a source's maps), sorted by rule and subject: what
// evaluate_rules finds for the map, and what `mapindex inspect` prints.
std::vector<Finding> map_findings(const MapFacts& map, const std::string& path,
                                  std::optional<std::int64_t> map_id = std::nullopt);

// The facts the release checks read, taken from a measured map: what
// load_map_facts reads back once the map is in the index (without
// MapFacts::layer_data).
MapFacts facts_of(const MapStats& stats, Game game);

}  // namespace mapindex::audit
