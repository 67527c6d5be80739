// The map-release checks of the audit, as rules over the entries a
// run saw in one source: maps DDNet would refuse, race maps without time
// checkpoints, duplicate and unused images, embedded standard images,
// external non-standard images, and map names that differ only by case or
// punctuation. Pure functions; the findings' is_new is left false.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "stages/audit/audit_input.h"
#include "stages/audit/audit_report.h"

namespace mapindex::audit {

// The key two map names are compared by: ASCII letters lowercased, other
// ASCII characters that are not letters or digits dropped, bytes of UTF-8
// sequences (>= 0x80) kept as they are. "Kobra_4" and "kobra 4" give "kobra4".
std::string normalised_name(std::string_view name);

// Every finding of the rules over the map entries of one source, sorted by
// path, rule and subject. Entries whose map has no facts are skipped.
std::vector<Finding> evaluate_rules(const std::vector<SeenEntry>& entries,
                                    const MapFactsById& facts);

}  // namespace mapindex::audit
