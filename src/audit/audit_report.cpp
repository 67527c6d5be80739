#include "audit/audit_report.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace mapindex::audit {

std::string_view to_string(Health health) {
  switch (health) {
    case Health::ok: return "ok";
    case Health::warnings: return "warnings";
    case Health::rejected: return "rejected";
    case Health::other: return "other";
    case Health::oversize: return "oversize";
    case Health::unreadable: return "unreadable";
  }
  return "other";
}

Health health_of(index::EntryKind kind, MapStatus map_status) {
  switch (kind) {
    case index::EntryKind::map:
      return map_status == MapStatus::rejected   ? Health::rejected
             : map_status == MapStatus::warnings ? Health::warnings
                                                 : Health::ok;
    case index::EntryKind::oversize: return Health::oversize;
    case index::EntryKind::unreadable: return Health::unreadable;
    case index::EntryKind::other: break;
  }
  return Health::other;
}

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

namespace {

void add_what(std::map<std::string, std::vector<std::string>>& by_path, const std::string& path,
              const std::string& what) {
  auto& list = by_path[path];
  if (std::find(list.begin(), list.end(), what) == list.end()) list.push_back(what);
}

std::vector<NewWarning> listed(const std::map<std::string, std::vector<std::string>>& by_path) {
  std::vector<NewWarning> out;
  for (const auto& [path, what] : by_path) out.push_back({path, what});
  return out;
}

}  // namespace

std::vector<NewWarning> new_warnings(const SourceAudit& source) {
  std::set<std::string> broken;
  for (const auto& change : source.newly_broken)
    if (!change.acknowledged) broken.insert(change.path);
  std::map<std::string, std::vector<std::string>> by_path;
  for (const auto& change : source.gained_problems)
    if (!change.acknowledged && !broken.count(change.path))
      for (const auto& code : change.codes) add_what(by_path, change.path, code);
  for (const auto& f : source.findings)
    if (f.is_new && !f.acknowledged && f.severity == Severity::warning && !broken.count(f.path))
      add_what(by_path, f.path, f.rule);
  return listed(by_path);
}

std::vector<NewWarning> new_infos(const SourceAudit& source) {
  std::map<std::string, std::vector<std::string>> by_path;
  for (const auto& change : source.gained_info)
    if (!change.acknowledged)
      for (const auto& code : change.codes) add_what(by_path, change.path, code);
  for (const auto& f : source.findings)
    if (f.is_new && !f.acknowledged && f.severity == Severity::info)
      add_what(by_path, f.path, f.rule);
  return listed(by_path);
}

std::vector<NewWarning> acknowledged_items(const SourceAudit& source) {
  std::map<std::string, std::vector<std::string>> by_path;
  for (const auto* list : {&source.newly_broken, &source.gained_problems, &source.gained_info})
    for (const auto& change : *list)
      if (change.acknowledged)
        for (const auto& code : change.codes) add_what(by_path, change.path, code);
  for (const auto& f : source.findings)
    if (f.acknowledged && f.is_new) add_what(by_path, f.path, f.rule);
  return listed(by_path);
}

NewCounts count_new(const AuditReport& report) {
  NewCounts counts;
  for (const auto& source : report.sources) {
    std::set<std::string> broken;
    for (const auto& change : source.newly_broken)
      if (!change.acknowledged) broken.insert(change.path);
    counts.errors += static_cast<std::int64_t>(broken.size());
    counts.warnings += static_cast<std::int64_t>(new_warnings(source).size());
    counts.infos += static_cast<std::int64_t>(new_infos(source).size());
    if (source.reading != index::SourceReading::complete) ++counts.unread_sources;
  }
  return counts;
}

int exit_status(const AuditReport& report, FailOn fail_on) {
  if (fail_on == FailOn::never || report.accepted) return 0;
  const auto counts = count_new(report);
  if (counts.errors > 0 || counts.unread_sources > 0) return 1;
  if (fail_on == FailOn::warning && counts.warnings > 0) return 1;
  return 0;
}

}  // namespace mapindex::audit
