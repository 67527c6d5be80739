#include "stages/audit/audit_report.h"

#include <set>
#include <utility>

namespace mapindex::audit {

std::optional<FailOn> parse_fail_on(std::string_view text) {
  if (text == "error") return FailOn::error;
  if (text == "warning") return FailOn::warning;
  if (text == "never") return FailOn::never;
  return std::nullopt;
}

std::string_view to_string(FailOn fail_on) {
  switch (fail_on) {
    case FailOn::error: return "error";
    case FailOn::warning: return "warning";
    case FailOn::never: return "never";
  }
  return "error";
}

NewCounts count_new(const AuditReport& report) {
  NewCounts counts;
  for (const auto& source : report.sources) {
    std::set<std::string> broken, warned;
    for (const auto& change : source.newly_broken) broken.insert(change.path);
    for (const auto& change : source.gained_problems) warned.insert(change.path);
    for (const auto& finding : source.findings)
      if (finding.is_new && finding.severity == Severity::warning) warned.insert(finding.path);
    counts.errors += static_cast<std::int64_t>(broken.size());
    counts.warnings += static_cast<std::int64_t>(warned.size());
  }
  return counts;
}

int exit_status(const AuditReport& report, FailOn fail_on) {
  if (fail_on == FailOn::never) return 0;
  const auto counts = count_new(report);
  if (counts.errors > 0) return 1;
  if (fail_on == FailOn::warning && counts.warnings > 0) return 1;
  return 0;
}

}  // namespace mapindex::audit
