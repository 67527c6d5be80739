// Compares what two runs saw in one source: entries added, removed, changed
// (same path, new content) and moved (same content, new path); duplicate
// contents; entries replaced by another map; entries newly broken, with new
// problems, or fixed; problem counts by code; totals; and the rule findings
// with what is new among them.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "audit/audit_input.h"
#include "audit/audit_report.h"

namespace mapindex::audit {

// Everything a run saw counts up into these.
Totals totals_of(const std::vector<SeenEntry>& entries);

// The problems of an entry: its map's (from `facts`) or its own; an
// unreadable or oversize entry without stored problems gets one with the code
// "entry.unreadable" or "entry.oversize".
std::vector<ProblemRef> problems_of(const SeenEntry& entry, const MapFactsById& facts);

// Whether a changed map entry holds another map rather than a new version
// of the same map: both contents have a game layer, of different sizes; they
// do not name the same author in their info; and no tile layer of one has
// the same stored data as a tile layer of the other (MapFacts::layer_data,
// which must be loaded for both; when it is not, false). A new version keeps
// its size, its author or the data of a layer it did not edit; a map cut
// short has no game layer: neither is replaced (docs/audit.md).
bool is_replaced(const MapFacts& before, const MapFacts& after);
// The part of is_replaced that needs no layer data: true for the maps whose
// layer data decides.
bool may_be_replaced(const MapFacts& before, const MapFacts& after);
// The map ids of the changed map entries (same file, other content) whose
// layer data decides whether they were replaced (both sides of each).
std::set<std::int64_t> replacement_candidates(const std::vector<SeenEntry>& before,
                                              const std::vector<SeenEntry>& now,
                                              const MapFactsById& facts);

// Fills everything in `out` but source_id, path, kind and baseline_run (the
// caller's). `before` null: there is no baseline and everything now is new.
// Each list comes out sorted (see SourceAudit).
void compare_source(const std::vector<SeenEntry>* before, const std::vector<SeenEntry>& now,
                    const MapFactsById& facts, SourceAudit& out);

}  // namespace mapindex::audit
