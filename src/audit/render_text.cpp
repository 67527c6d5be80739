// The plain-text report: a header with the runs and the verdict, then per
// source a totals table and one section per non-empty list.
#include <algorithm>
#include <iomanip>
#include <sstream>

#include "audit/render.h"
#include "audit/render_util.h"

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
  const std::size_t shown =
      options.limit == 0 ? items.size() : std::min(items.size(), options.limit);
  for (std::size_t i = 0; i < shown; ++i) out << "    " << line(items[i]) << "\n";
  if (shown < items.size())
    out << "    ... and " << items.size() - shown
        << (options.only_new ? " more (without --only-new: all)\n"
                             : " more (--limit 0 lists all; --format json has everything)\n");
}

std::string entry_summary(const EntryState& e) {
  return std::string(to_string(e.status)) + ", " + human_bytes(e.size);
}

std::string health_line(char mark, const HealthChange& c) {
  std::string line = std::string(1, mark) + " " + printable(c.path) + "  " +
                     status_or_new(c.before) + " -> " + std::string(to_string(c.after));
  if (!c.codes.empty()) line += "  [" + titled_codes(c.codes) + "]";
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
  out << indent << std::left << std::setw(static_cast<int>(label_width)) << ""
      << "  " << std::right << std::setw(static_cast<int>(now_width)) << "now";
  if (before)
    out << "  " << std::setw(static_cast<int>(before_width)) << "before"
        << "  change";
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

std::string new_warning_line(const NewWarning& w) {
  return "? " + printable(w.path) + "  [" + titled_codes(w.what) + "]";
}

std::string replaced_line(const Replacement& r) {
  return "x " + printable(r.after.path) + "  " + entry_summary(r.before) + ", " +
         game_size(r.game_width_before, r.game_height_before) + " -> " + entry_summary(r.after) +
         ", " + game_size(r.game_width_after, r.game_height_after);
}

// The release checks grouped by rule (errors, warnings, then info): a line
// per rule with its title, severity and counts, then its findings (new
// first), at most the limit per rule.
void findings_text(std::ostream& out, const SourceAudit& s, const RenderOptions& options) {
  if (s.findings.empty()) return;
  out << "  release checks ("
      << count_of(static_cast<std::int64_t>(s.findings.size()), "finding", "findings") << ", "
      << findings_note(s.findings) << "), by rule:\n";
  for (const auto& g : findings_by_rule(s.findings)) {
    out << "    " << titled_code(g.rule, g.severity) << ": " << to_string(g.severity) << ", "
        << rule_counts(g) << "\n";
    const std::size_t shown =
        options.limit == 0 ? g.findings.size() : std::min(g.findings.size(), options.limit);
    for (std::size_t i = 0; i < shown; ++i) {
      const auto& f = g.findings[i];
      out << "      "
          << (f.acknowledged ? "ack "
              : f.is_new     ? "new "
                             : "    ")
          << printable(f.path) << ": " << printable(f.message) << "\n";
    }
    if (shown < g.findings.size())
      out << "          ... and " << g.findings.size() - shown
          << " more (--limit 0 lists all; --format json has everything)\n";
  }
}

std::string not_read_line(const SourceNotRead& s) {
  return "source " + printable(s.path) + " (" + std::string(to_string(s.kind)) +
         ") was not read in this run (run " + std::to_string(s.last_run) +
         " read it): not compared";
}

// What changed, first: the reading, newly broken, new warnings by entry,
// acknowledged items, then added, removed, changed, moved, fixed, not read.
void changes_text(std::ostream& out, const SourceAudit& s, const RenderOptions& options) {
  if (s.reading != index::SourceReading::complete)
    out << "  " << printable(reading_line(s)) << "\n";
  std::vector<HealthChange> broken;
  for (const auto& c : s.newly_broken)
    if (!c.acknowledged) broken.push_back(c);
  section(out, "newly broken", broken, options,
          [](const HealthChange& c) { return health_line('!', c); });
  const auto warned = new_warnings(s);
  section(out, "new warnings", warned, options, new_warning_line);
  const auto acknowledged = acknowledged_items(s);
  section(out, "acknowledged (do not fail the audit)", acknowledged, options,
          [](const NewWarning& w) {
            return "= " + printable(w.path) + "  [" + titled_codes(w.what) + "]";
          });
  section(out, "added", s.added, options,
          [](const EntryState& e) { return "+ " + printable(e.path) + "  " + entry_summary(e); });
  section(out, "removed", s.removed, options,
          [](const EntryState& e) { return "- " + printable(e.path) + "  " + entry_summary(e); });
  section(out, "changed", changed_not_replaced(s), options, [](const EntryChange& c) {
    return "~ " + printable(c.after.path) + "  " + entry_summary(c.before) + " -> " +
           entry_summary(c.after);
  });
  section(out, "replaced by another map (not a new version: never fixed)", s.replaced, options,
          replaced_line);
  section(out, "moved", s.moved, options, [](const EntryChange& c) {
    return "> " + printable(c.before.path) + " -> " + printable(c.after.path) + "  " +
           entry_summary(c.after);
  });
  section(out, "fixed", s.fixed, options,
          [](const HealthChange& c) { return health_line('*', c); });
  section(out, "not read (the reading was cut short; not counted as removed)", s.not_read, options,
          [](const EntryState& e) { return "_ " + printable(e.path) + "  " + entry_summary(e); });
}

void source_header(std::ostream& out, const SourceAudit& s) {
  out << "\n== " << printable(s.path) << " (" << to_string(s.kind) << ")";
  if (s.baseline_run)
    out << " against run " << *s.baseline_run << "\n";
  else
    out << ": no baseline run, everything counts as new\n";
}

void source_text(std::ostream& out, const SourceAudit& s, const RenderOptions& options) {
  source_header(out, s);
  changes_text(out, s, options);
  if (s.reading != index::SourceReading::unreadable)
    totals_table(out, s.now, s.before, "  ");  // all 0 otherwise

  section(out, "new problems", s.gained_problems, options,
          [](const HealthChange& c) { return health_line(c.acknowledged ? '=' : '?', c); });
  section(out, "duplicate contents", s.duplicates, options, [](const DuplicateGroup& d) {
    std::vector<std::string> paths;
    for (const auto& p : d.paths) paths.push_back(printable(p));
    return "= " + joined(paths) + "  (sha256 " + d.sha256.substr(0, 12) + ")" +
           (d.is_new ? "  new" : "");
  });

  if (!s.problem_counts.empty()) {
    std::size_t code_width = 4;
    for (const auto& c : s.problem_counts)
      code_width = std::max(code_width, titled_code(c.code, c.severity).size());
    out << "  problem codes (entries now" << (s.before ? ", before" : "")
        << "; new codes first):\n";
    const std::size_t shown = options.limit == 0 ? s.problem_counts.size()
                                                 : std::min(s.problem_counts.size(), options.limit);
    for (std::size_t i = 0; i < shown; ++i) {
      const auto& c = s.problem_counts[i];
      out << "    " << std::left << std::setw(static_cast<int>(code_width))
          << titled_code(c.code, c.severity) << "  " << std::setw(7) << to_string(c.severity)
          << std::right << std::setw(7) << c.entries;
      if (s.before) out << std::setw(7) << c.before;
      if (c.is_new) out << "  new";
      out << std::left << "\n";
    }
    if (shown < s.problem_counts.size())
      out << "    ... and " << s.problem_counts.size() - shown << " more codes\n";
  }

  findings_text(out, s, options);
  // Last: what is new and cannot break a map (never fails the audit).
  section(out, "new info (never fails the audit)", new_infos(s), options, [](const NewWarning& w) {
    return "i " + printable(w.path) + "  [" + titled_codes(w.what) + "]";
  });
  if (s.baseline_run) out << "  unchanged: " << count_of(s.unchanged, "entry", "entries") << "\n";
}

void header_text(std::ostream& out, const AuditReport& report) {
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
  if (report.run.status != index::RunStatus::complete)
    out << "note: run " << report.run.run_id << " is " << to_string(report.run.status)
        << ": entries it did not reach show as removed\n";
  if (report.accepted)
    out << "accepted: run " << report.run.run_id << " was accepted as it is ("
        << report.accepted->accepted_at
        << (report.accepted->note.empty() ? "" : ", " + printable(report.accepted->note))
        << "): its findings do not fail the audit\n";
  out << "result: " << verdict_line(count_new(report)) << "\n";
  for (const auto& s : report.sources_not_read) out << printable(not_read_line(s)) << "\n";
}

// Holds lines and prints them until the budget is spent.
class Budget {
 public:
  explicit Budget(std::size_t chars) : chars_(chars) {}
  void add(std::string text) {
    std::size_t start = 0;
    while (start < text.size()) {
      auto end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      lines_.push_back(text.substr(start, end - start));
      start = end + 1;
    }
  }
  void print(std::ostream& out) const {
    std::size_t used = 0;
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      // Room for the line and for the note about what is left out.
      if (used + lines_[i].size() + 1 + 80 > chars_ && i + 1 < lines_.size()) {
        out << "... " << lines_.size() - i
            << " more lines (`mapindex audit` without --only-new has everything)\n";
        return;
      }
      out << lines_[i] << "\n";
      used += lines_[i].size() + 1;
    }
  }

 private:
  std::size_t chars_;
  std::vector<std::string> lines_;
};

}  // namespace

void render_short(const AuditReport& report, std::ostream& out) {
  // At most 5 items a list and 120 characters a line: a night with a few
  // changes fits in a chat message; the budget guarantees it.
  RenderOptions options;
  options.limit = 5;
  options.only_new = true;
  std::ostringstream text;
  header_text(text, report);
  for (const auto& s : report.sources) {
    std::ostringstream changes;
    changes_text(changes, s, options);
    if (changes.str().empty() && s.baseline_run) continue;  // nothing changed
    source_header(text, s);
    std::istringstream lines(changes.str());
    for (std::string line; std::getline(lines, line);)
      text << (line.size() > 120 ? line.substr(0, 117) + "..." : line) << "\n";
  }
  Budget budget(kShortReportChars);
  budget.add(text.str());
  budget.print(out);
}

void render_text(const AuditReport& report, std::ostream& out, const RenderOptions& options) {
  if (options.only_new) {
    render_short(report, out);
    return;
  }
  header_text(out, report);
  if (report.sources.size() > 1) {
    out << "\ntotals over " << report.sources.size() << " sources:\n";
    totals_table(out, report.now, report.before, "  ");
  }
  if (report.sources.empty()) out << "\nthe run read no sources\n";
  for (const auto& source : report.sources) source_text(out, source, options);
}

}  // namespace mapindex::audit
