// The plain-text report: a header with the runs and the verdict, then per
// source a totals table and one section per non-empty list.
#include <algorithm>
#include <iomanip>

#include "stages/audit/render.h"
#include "stages/audit/render_util.h"

namespace mapindex::audit {
namespace {

using namespace detail;

// Prints "  title (N):" and up to `limit` lines made by `line`, then how many
// were left out.
template <class T, class Line>
void section(std::ostream& out, const std::string& title, const std::vector<T>& items,
             const RenderOptions& options, Line line, const std::string& note = "") {
  if (items.empty()) return;
  out << "  " << title << " (" << items.size() << (note.empty() ? "" : ", " + note) << "):\n";
  const std::size_t shown = options.limit == 0 ? items.size() : std::min(items.size(), options.limit);
  for (std::size_t i = 0; i < shown; ++i) out << "    " << line(items[i]) << "\n";
  if (shown < items.size())
    out << "    ... and " << items.size() - shown
        << " more (--limit 0 lists all; --format json has everything)\n";
}

std::string entry_summary(const EntryState& e) {
  return e.status + ", " + human_bytes(e.size);
}

std::string health_line(char mark, const HealthChange& c) {
  std::string line = std::string(1, mark) + " " + printable(c.path) + "  " +
                     status_or_new(c.before) + " -> " + c.after;
  if (!c.codes.empty()) line += "  [" + joined(c.codes) + "]";
  if (!c.message.empty()) line += " " + printable(c.message);
  return line;
}

void totals_table(std::ostream& out, const Totals& now, const std::optional<Totals>& before,
                  const std::string& indent) {
  const auto rows = totals_rows(now, before ? &*before : nullptr);
  std::size_t label_width = 0, now_width = 3, before_width = 6;
  for (const auto& r : rows) {
    label_width = std::max(label_width, r.label.size());
    now_width = std::max(now_width, format_value(r, r.now).size());
    before_width = std::max(before_width, format_value(r, r.before).size());
  }
  out << indent << std::left << std::setw(static_cast<int>(label_width)) << "" << "  "
      << std::right << std::setw(static_cast<int>(now_width)) << "now";
  if (before) out << "  " << std::setw(static_cast<int>(before_width)) << "before" << "  change";
  out << "\n";
  for (const auto& r : rows) {
    out << indent << std::left << std::setw(static_cast<int>(label_width)) << r.label << "  "
        << std::right << std::setw(static_cast<int>(now_width)) << format_value(r, r.now);
    if (before) {
      out << "  " << std::setw(static_cast<int>(before_width)) << format_value(r, r.before);
      const auto change = format_change(r);
      if (!change.empty()) out << "  " << change;
    }
    out << "\n";
  }
  out << std::left;
}

void source_text(std::ostream& out, const SourceAudit& s, const RenderOptions& options) {
  out << "\n== " << printable(s.path) << " (" << s.kind << ")";
  if (s.baseline_run) out << " against run " << *s.baseline_run << "\n";
  else out << ": no baseline run, everything counts as new\n";
  totals_table(out, s.now, s.before, "  ");

  section(out, "newly broken", s.newly_broken, options,
          [](const HealthChange& c) { return health_line('!', c); });
  section(out, "new problems", s.gained_problems, options,
          [](const HealthChange& c) { return health_line('?', c); });
  section(out, "fixed", s.fixed, options,
          [](const HealthChange& c) { return health_line('*', c); });
  section(out, "added", s.added, options, [](const EntryState& e) {
    return "+ " + printable(e.path) + "  " + entry_summary(e);
  });
  section(out, "removed", s.removed, options, [](const EntryState& e) {
    return "- " + printable(e.path) + "  " + entry_summary(e);
  });
  section(out, "changed", s.changed, options, [](const EntryChange& c) {
    return "~ " + printable(c.after.path) + "  " + entry_summary(c.before) + " -> " +
           entry_summary(c.after);
  });
  section(out, "moved", s.moved, options, [](const EntryChange& c) {
    return "> " + printable(c.before.path) + " -> " + printable(c.after.path) + "  " +
           entry_summary(c.after);
  });
  section(out, "duplicate contents", s.duplicates, options, [](const DuplicateGroup& d) {
    std::vector<std::string> paths;
    for (const auto& p : d.paths) paths.push_back(printable(p));
    return "= " + joined(paths) + "  (sha256 " + d.sha256.substr(0, 12) + ")" +
           (d.is_new ? "  new" : "");
  });

  if (!s.problem_counts.empty()) {
    std::size_t code_width = 4;
    for (const auto& c : s.problem_counts) code_width = std::max(code_width, c.code.size());
    out << "  problem codes (entries now" << (s.before ? ", before" : "") << "; new codes first):\n";
    const std::size_t shown = options.limit == 0 ? s.problem_counts.size()
                                                 : std::min(s.problem_counts.size(), options.limit);
    for (std::size_t i = 0; i < shown; ++i) {
      const auto& c = s.problem_counts[i];
      out << "    " << std::left << std::setw(static_cast<int>(code_width)) << c.code << "  "
          << std::setw(7) << to_string(c.severity) << std::right << std::setw(7) << c.entries;
      if (s.before) out << std::setw(7) << c.before;
      if (c.is_new) out << "  new";
      out << std::left << "\n";
    }
    if (shown < s.problem_counts.size())
      out << "    ... and " << s.problem_counts.size() - shown << " more codes\n";
  }

  const auto new_findings = std::count_if(s.findings.begin(), s.findings.end(),
                                          [](const Finding& f) { return f.is_new; });
  if (!s.findings.empty()) {
    // New findings first, each group in path order.
    std::vector<Finding> ordered(s.findings);
    std::stable_partition(ordered.begin(), ordered.end(), [](const Finding& f) { return f.is_new; });
    section(
        out, "release checks", ordered, options,
        [](const Finding& f) {
          return std::string(f.is_new ? "new " : "    ") + std::string(to_string(f.severity)) +
                 " " + f.rule + "  " + printable(f.path) + ": " + printable(f.message);
        },
        std::to_string(new_findings) + " new");
  }
  if (s.baseline_run) out << "  unchanged: " << count_of(s.unchanged, "entry", "entries") << "\n";
}

}  // namespace

void render_text(const AuditReport& report, std::ostream& out, const RenderOptions& options) {
  out << "mapindex audit of " << run_line(report.run) << "\n";
  if (report.baselines.empty()) {
    out << "no baseline: no earlier complete run read these sources, so everything counts as new\n";
  } else if (report.baselines.size() == 1) {
    out << "against " << run_line(report.baselines.front()) << "\n";
  } else {
    out << "against, per source, runs";
    for (const auto& run : report.baselines) out << " " << run.run_id;
    out << "\n";
  }
  if (report.run.status != "complete")
    out << "note: run " << report.run.run_id << " is " << report.run.status
        << ": entries it did not reach show as removed\n";
  out << "result: " << verdict_line(count_new(report)) << "\n";
  if (report.sources.size() > 1) {
    out << "\ntotals over " << report.sources.size() << " sources:\n";
    totals_table(out, report.now, report.before, "  ");
  }
  if (report.sources.empty()) out << "\nthe run read no sources\n";
  for (const auto& source : report.sources) source_text(out, source, options);
}

}  // namespace mapindex::audit
