// Small formatting helpers shared by the text and markdown renderers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "audit/audit_report.h"
#include "common/utf8.h"

namespace mapindex::audit::detail {

// "512 B", "1.5 KiB", "12.0 MiB", "3.25 GiB".
std::string human_bytes(std::int64_t bytes);
// "+3", "-1", "" for 0.
std::string signed_change(std::int64_t change);
// Control characters escaped (src/common/utf8.h), so a hostile entry
// path cannot break the report's lines.
using mapindex::printable;
// "a, b, c".
std::string joined(const std::vector<std::string>& items, std::string_view separator = ", ");
// "H5 file cut short or too long": a code with its title, from the one code
// table (src/common/problem_codes.h); a string that is no code as it is.
using mapindex::code_title;
using mapindex::titled_code;
// The codes, each with its title, joined: "H5 file cut short or too long,
// M10 no game layer".
std::string titled_codes(const std::vector<std::string>& codes);
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
// The findings of one release-check rule.
struct RuleGroup {
  std::string rule;
  Severity severity = Severity::warning;
  std::vector<Finding> findings;  // new ones first, then by path and subject
  std::int64_t entries = 0;       // distinct entries with a finding
  std::int64_t new_entries = 0;   // entries with a new finding (acknowledged ones not counted)
};
// The findings grouped by rule: errors, then warnings, then info; within a
// severity, rules with new findings first, then by entries (most first), then
// by name.
std::vector<RuleGroup> findings_by_rule(const std::vector<Finding>& findings);
// "3 entries, 1 new" (the new part left out when 0), and "(5 findings)" when
// there are more findings than entries.
std::string rule_counts(const RuleGroup& group);
// The changed entries that were not replaced by another map (the human
// formats list those under their own heading).
std::vector<EntryChange> changed_not_replaced(const SourceAudit& source);
// "game 90x95" of a game layer's size ("no game layer" for 0 x 0).
std::string game_size(std::int64_t width, std::int64_t height);
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
