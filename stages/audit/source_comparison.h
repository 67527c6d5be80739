// Compares what two runs saw in one source: entries added, removed, changed
// (same path, new content) and moved (same content, new path); duplicate
// contents; entries newly broken, with new problems, or fixed; problem counts
// by code; totals; and the rule findings with what is new among them.
#pragma once

#include <vector>

#include "stages/audit/audit_input.h"
#include "stages/audit/audit_report.h"

namespace mapindex::audit {

// Everything a run saw counts up into these.
Totals totals_of(const std::vector<SeenEntry>& entries);

// The problems of an entry: its map's (from `facts`) or its own; an
// unreadable or oversize entry without stored problems gets one with the code
// "entry.unreadable" or "entry.oversize".
std::vector<ProblemRef> problems_of(const SeenEntry& entry, const MapFactsById& facts);

// Fills everything in `out` but source_id, path, kind and baseline_run (the
// caller's). `before` null: there is no baseline and everything now is new.
// Each list comes out sorted (see SourceAudit).
void compare_source(const std::vector<SeenEntry>* before, const std::vector<SeenEntry>& now,
                    const MapFactsById& facts, SourceAudit& out);

}  // namespace mapindex::audit
