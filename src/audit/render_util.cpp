#include "audit/render_util.h"

#include "audit/render.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace mapindex::audit::detail {

std::string human_bytes(std::int64_t bytes) {
  const bool negative = bytes < 0;
  const double magnitude = negative ? -static_cast<double>(bytes) : static_cast<double>(bytes);
  char buffer[48];
  if (magnitude < 1024.0) {
    std::snprintf(buffer, sizeof buffer, "%s%.0f B", negative ? "-" : "", magnitude);
    return buffer;
  }
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  double value = magnitude / 1024.0;
  std::size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(kUnits)) {
    value /= 1024.0;
    ++unit;
  }
  std::snprintf(buffer, sizeof buffer, "%s%.*f %s", negative ? "-" : "", value < 10 ? 2 : 1, value,
                kUnits[unit]);
  return buffer;
}

std::string signed_change(std::int64_t change) {
  if (change == 0) return "";
  return (change > 0 ? "+" : "") + std::to_string(change);
}

std::string joined(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += separator;
    out += items[i];
  }
  return out;
}

std::string titled_codes(const std::vector<std::string>& codes) {
  std::vector<std::string> titled;
  for (const auto& code : codes) titled.push_back(titled_code(code));
  return joined(titled);
}

std::vector<RuleGroup> findings_by_rule(const std::vector<Finding>& findings) {
  std::map<std::string, RuleGroup> by_rule;
  for (const auto& f : findings) {
    auto& g = by_rule[f.rule];
    g.rule = f.rule;
    g.severity = f.severity;
    g.findings.push_back(f);
  }
  std::vector<RuleGroup> groups;
  for (auto& [rule, g] : by_rule) {
    std::stable_sort(g.findings.begin(), g.findings.end(), [](const Finding& a, const Finding& b) {
      using Key = std::tuple<bool, const std::string&, const std::string&>;
      return Key(!a.is_new, a.path, a.subject) < Key(!b.is_new, b.path, b.subject);
    });
    std::set<std::string> entries, fresh;
    for (const auto& f : g.findings) {
      entries.insert(f.path);
      if (f.is_new && !f.acknowledged) fresh.insert(f.path);
    }
    g.entries = static_cast<std::int64_t>(entries.size());
    g.new_entries = static_cast<std::int64_t>(fresh.size());
    groups.push_back(std::move(g));
  }
  std::sort(groups.begin(), groups.end(), [](const RuleGroup& a, const RuleGroup& b) {
    return std::make_tuple(a.severity, a.new_entries == 0, -a.entries, a.rule) <
           std::make_tuple(b.severity, b.new_entries == 0, -b.entries, b.rule);
  });
  return groups;
}

std::string rule_counts(const RuleGroup& group) {
  std::string text = count_of(group.entries, "entry", "entries");
  if (group.new_entries > 0) text += ", " + std::to_string(group.new_entries) + " new";
  if (static_cast<std::int64_t>(group.findings.size()) > group.entries)
    text += " (" +
            count_of(static_cast<std::int64_t>(group.findings.size()), "finding", "findings") + ")";
  return text;
}

std::vector<EntryChange> changed_not_replaced(const SourceAudit& source) {
  std::set<std::string> replaced;
  for (const auto& r : source.replaced) replaced.insert(r.after.path);
  std::vector<EntryChange> out;
  for (const auto& c : source.changed)
    if (!replaced.count(c.after.path)) out.push_back(c);
  return out;
}

std::string game_size(std::int64_t width, std::int64_t height) {
  if (width <= 0 || height <= 0) return "no game layer";
  return "game " + std::to_string(width) + "x" + std::to_string(height);
}

std::string count_of(std::int64_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

std::string run_line(const RunInfo& run) {
  std::string line =
      "run " + std::to_string(run.run_id) + " (" + std::string(to_string(run.status));
  if (!run.started_at.empty()) line += ", started " + run.started_at;
  return line + ")";
}

std::string verdict_line(const NewCounts& counts) {
  const std::string unread =
      counts.unread_sources == 0
          ? ""
          : "; " + count_of(counts.unread_sources, "source was", "sources were") +
                " not read to the end";
  const std::string info = counts.infos == 0 ? ""
                                             : "; " + count_of(counts.infos, "entry", "entries") +
                                                   " with new info (never fails)";
  if (counts.errors == 0 && counts.warnings == 0)
    return "nothing newly broken and no new warnings" + unread + info;
  return count_of(counts.errors, "entry", "entries") + " newly broken, " +
         count_of(counts.warnings, "entry", "entries") + " with new warnings" + unread + info;
}

std::vector<Finding> findings_in_order(const std::vector<Finding>& findings) {
  std::vector<Finding> ordered(findings);
  std::stable_sort(ordered.begin(), ordered.end(), [](const Finding& a, const Finding& b) {
    return std::make_pair(a.severity == Severity::info, !a.is_new) <
           std::make_pair(b.severity == Severity::info, !b.is_new);
  });
  return ordered;
}

std::string findings_note(const std::vector<Finding>& findings) {
  const auto fresh =
      std::count_if(findings.begin(), findings.end(), [](const Finding& f) { return f.is_new; });
  const auto info = std::count_if(findings.begin(), findings.end(),
                                  [](const Finding& f) { return f.severity == Severity::info; });
  return std::to_string(fresh) + " new" + (info ? ", " + std::to_string(info) + " info" : "");
}

std::string reading_line(const SourceAudit& source) {
  std::string what = "the " + std::string(to_string(source.kind));
  std::string why;
  for (const auto& e : source.reading_errors) {
    if (!why.empty()) why += "; ";
    why += (e.code.empty() ? std::string("error") : titled_code(e.code)) + ": " + e.message;
  }
  std::string line;
  if (source.reading == index::SourceReading::unreadable)
    line = what + " could not be read";
  else
    line = what + " was cut short";
  if (source.baseline_run)
    line += ": " + count_of(static_cast<std::int64_t>(source.not_read.size()), "entry", "entries") +
            " of run " + std::to_string(*source.baseline_run) + " not read";
  if (source.reading == index::SourceReading::partial) {
    line += ", " + count_of(source.now.entries, "entry", "entries") + " read";
    if (!source.last_entry_read.empty()) line += " (the last: " + source.last_entry_read + ")";
  }
  return line + " (" + why + ")";
}

std::string status_or_new(const std::optional<Health>& status) {
  return status ? std::string(to_string(*status)) : "(new)";
}

std::vector<TotalsRow> totals_rows(const Totals& now, const Totals* before) {
  const Totals none;
  const Totals& b = before ? *before : none;
  return {
      {"entries", now.entries, b.entries, false},
      {"bytes", now.bytes, b.bytes, true},
      {"maps", now.maps, b.maps, false},
      {"distinct maps", now.distinct_maps, b.distinct_maps, false},
      {"ok", now.ok, b.ok, false},
      {"warnings", now.warnings, b.warnings, false},
      {"rejected", now.rejected, b.rejected, false},
      {"not maps", now.other, b.other, false},
      {"oversize", now.oversize, b.oversize, false},
      {"unreadable", now.unreadable, b.unreadable, false},
  };
}

std::string format_value(const TotalsRow& row, std::int64_t value) {
  return row.bytes ? human_bytes(value) : std::to_string(value);
}

std::string format_change(const TotalsRow& row) {
  const auto change = row.now - row.before;
  if (change == 0) return "";
  if (!row.bytes) return signed_change(change);
  return (change > 0 ? "+" : "") + human_bytes(change);
}

}  // namespace mapindex::audit::detail

namespace mapindex::audit {

std::optional<ReportFormat> parse_report_format(std::string_view name) {
  if (name == "text") return ReportFormat::text;
  if (name == "json") return ReportFormat::json;
  if (name == "markdown") return ReportFormat::markdown;
  if (name == "html") return ReportFormat::html;
  return std::nullopt;
}

std::string_view to_string(ReportFormat format) {
  switch (format) {
    case ReportFormat::text: return "text";
    case ReportFormat::json: return "json";
    case ReportFormat::markdown: return "markdown";
    case ReportFormat::html: return "html";
  }
  return "text";
}

void render(const AuditReport& report, ReportFormat format, std::ostream& out,
            const RenderOptions& options) {
  switch (format) {
    case ReportFormat::text: render_text(report, out, options); break;
    case ReportFormat::json: render_json(report, out); break;
    case ReportFormat::markdown: render_markdown(report, out, options); break;
    case ReportFormat::html: render_html(report, out, options); break;
  }
}

}  // namespace mapindex::audit
