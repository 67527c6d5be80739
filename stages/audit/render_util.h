// Small formatting helpers shared by the text and markdown renderers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "stages/audit/audit_report.h"
#include "stages/common/utf8.h"

namespace mapindex::audit::detail {

// "512 B", "1.5 KiB", "12.0 MiB", "3.25 GiB".
std::string human_bytes(std::int64_t bytes);
// "+3", "-1", "" for 0.
std::string signed_change(std::int64_t change);
// Control characters escaped (stages/common/utf8.h), so a hostile entry
// path cannot break the report's lines.
using mapindex::printable;
// "a, b, c".
std::string joined(const std::vector<std::string>& items, std::string_view separator = ", ");
// "1 entry" / "2 entries".
std::string count_of(std::int64_t n, std::string_view one, std::string_view many);
// "run 12 (complete, started 2026-01-31T02:00:00.000Z)".
std::string run_line(const RunInfo& run);
// "2 entries newly broken, 1 entry with new warnings" or "nothing newly broken
// and no new warnings".
std::string verdict_line(const NewCounts& counts);
// The findings to list: error and warning ones first, info ones last, each
// group with the new ones first (stable: otherwise in report order).
std::vector<Finding> findings_in_order(const std::vector<Finding>& findings);
// "3 new, 2 info": how many findings are new, how many of severity info (left
// out when none).
std::string findings_note(const std::vector<Finding>& findings);
// "the archive was cut short: 162 entries not read (read.truncated: ...)" or
// "the source could not be read: ..." for a source read partially or not at all.
std::string reading_line(const SourceAudit& source);
// "ok" ... or "(new)" for no before status.
std::string status_or_new(const std::optional<Health>& status);

// One row of the totals table: label, now, before (when there is a baseline).
struct TotalsRow {
  std::string label;
  std::int64_t now = 0;
  std::int64_t before = 0;
  bool bytes = false;
};
std::vector<TotalsRow> totals_rows(const Totals& now, const Totals* before);
std::string format_value(const TotalsRow& row, std::int64_t value);
std::string format_change(const TotalsRow& row);

}  // namespace mapindex::audit::detail
