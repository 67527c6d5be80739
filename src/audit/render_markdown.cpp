// The markdown report (GitHub-flavoured): a heading, the verdict in bold, then
// per source a totals table, bullet lists and tables of codes and checks.
#include <algorithm>
#include <sstream>

#include "audit/render.h"
#include "audit/render_util.h"

namespace mapindex::audit {
namespace {

using namespace detail;

// Text with markdown's special characters escaped (and control characters
// made visible), safe in a paragraph, list item or table cell.
std::string md(std::string_view text) {
  std::string out;
  for (const char c : printable(text)) {
    if (std::string_view("\\`*_[]<>|#~!").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

// A code span holding `text` as is (longer backtick fences when it has
// backticks); table pipes still need escaping inside it.
std::string code(std::string_view raw) {
  std::string text = printable(raw);
  std::size_t longest = 0, run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string escaped;
  for (const char c : text) {
    if (c == '|') escaped += '\\';
    escaped += c;
  }
  const std::string fence(longest + 1, '`');
  const bool pad = longest > 0 || escaped.empty();
  return fence + (pad ? " " : "") + escaped + (pad ? " " : "") + fence;
}

template <class T, class Line>
void list(std::ostream& out, const std::string& title, const std::vector<T>& items,
          const RenderOptions& options, Line line) {
  if (items.empty()) return;
  out << "\n**" << title << " (" << items.size() << ")**\n\n";
  const std::size_t shown =
      options.limit == 0 ? items.size() : std::min(items.size(), options.limit);
  for (std::size_t i = 0; i < shown; ++i) out << "- " << line(items[i]) << "\n";
  if (shown < items.size())
    out << "- ... and " << items.size() - shown << " more (see the JSON report)\n";
}

// `H5` file cut short or too long: a code span with the code's title.
std::string titled(std::string_view raw, std::optional<Severity> severity = std::nullopt) {
  const auto title = code_title(raw, severity);
  return code(raw) + (title.empty() ? "" : " " + md(title));
}

std::string titled_list(const std::vector<std::string>& codes) {
  std::vector<std::string> items;
  for (const auto& k : codes) items.push_back(titled(k));
  return joined(items);
}

std::string health_item(const HealthChange& c) {
  std::string line =
      code(c.path) + ": " + status_or_new(c.before) + " → " + std::string(to_string(c.after));
  if (!c.codes.empty()) line += " (" + titled_list(c.codes) + ")";
  if (!c.message.empty()) line += ": " + md(c.message);
  return line;
}

std::string entry_item(const EntryState& e) {
  return code(e.path) + " (" + std::string(to_string(e.status)) + ", " + human_bytes(e.size) + ")";
}

void totals_table(std::ostream& out, const Totals& now, const std::optional<Totals>& before) {
  const auto rows = totals_rows(now, before ? &*before : nullptr);
  out << "\n| | now |" << (before ? " before | change |" : "") << "\n";
  out << "|---|---:|" << (before ? "---:|---:|" : "") << "\n";
  for (const auto& r : rows) {
    out << "| " << r.label << " | " << format_value(r, r.now) << " |";
    if (before) out << " " << format_value(r, r.before) << " | " << format_change(r) << " |";
    out << "\n";
  }
}

void source_markdown(std::ostream& out, const SourceAudit& s, const RenderOptions& options) {
  out << "\n### " << md(s.path) << " (" << to_string(s.kind) << ")\n\n";
  if (s.baseline_run)
    out << "Compared with run " << *s.baseline_run << ".\n";
  else
    out << "No baseline run: everything counts as new.\n";
  if (s.reading != index::SourceReading::complete) out << "\n**" << md(reading_line(s)) << "**\n";

  // What changed first.
  std::vector<HealthChange> broken;
  for (const auto& c : s.newly_broken)
    if (!c.acknowledged) broken.push_back(c);
  const auto what_item = [](const NewWarning& w) {
    return code(w.path) + ": " + titled_list(w.what);
  };
  list(out, "Newly broken", broken, options, health_item);
  list(out, "New warnings", new_warnings(s), options, what_item);
  list(out, "Acknowledged (do not fail the audit)", acknowledged_items(s), options, what_item);
  list(out, "Added", s.added, options, entry_item);
  list(out, "Removed", s.removed, options, entry_item);
  list(out, "Changed", changed_not_replaced(s), options, [](const EntryChange& c) {
    return code(c.after.path) + " (" + std::string(to_string(c.before.status)) + ", " +
           human_bytes(c.before.size) + " → " + std::string(to_string(c.after.status)) + ", " +
           human_bytes(c.after.size) + ")";
  });
  list(out, "Replaced by another map (not a new version: never fixed)", s.replaced, options,
       [](const Replacement& r) {
         return code(r.after.path) + " (" + std::string(to_string(r.before.status)) + ", " +
                human_bytes(r.before.size) + ", " +
                game_size(r.game_width_before, r.game_height_before) + " → " +
                std::string(to_string(r.after.status)) + ", " + human_bytes(r.after.size) + ", " +
                game_size(r.game_width_after, r.game_height_after) + ")";
       });
  list(out, "Moved", s.moved, options,
       [](const EntryChange& c) { return code(c.before.path) + " → " + code(c.after.path); });
  list(out, "Fixed", s.fixed, options, health_item);
  list(out, "Not read (the reading was cut short; not counted as removed)", s.not_read, options,
       entry_item);
  if (s.reading != index::SourceReading::unreadable) totals_table(out, s.now, s.before);
  list(out, "New problems", s.gained_problems, options, health_item);
  list(out, "Duplicate contents", s.duplicates, options, [](const DuplicateGroup& d) {
    std::vector<std::string> paths;
    for (const auto& p : d.paths) paths.push_back(code(p));
    return joined(paths) + (d.is_new ? " (new)" : "");
  });

  if (!s.problem_counts.empty()) {
    out << "\n**Problem codes** (new codes first)\n\n";
    out << "| code | meaning | severity | entries |" << (s.before ? " before |" : "") << " |\n";
    out << "|---|---|---|---:|" << (s.before ? "---:|" : "") << "---|\n";
    const std::size_t shown = options.limit == 0 ? s.problem_counts.size()
                                                 : std::min(s.problem_counts.size(), options.limit);
    for (std::size_t i = 0; i < shown; ++i) {
      const auto& c = s.problem_counts[i];
      out << "| " << code(c.code) << " | " << md(code_title(c.code, c.severity)) << " | "
          << to_string(c.severity) << " | " << c.entries << " |";
      if (s.before) out << " " << c.before << " |";
      out << (c.is_new ? " **new** |" : " |") << "\n";
    }
    if (shown < s.problem_counts.size())
      out << "\n... and " << s.problem_counts.size() - shown << " more codes.\n";
  }

  if (!s.findings.empty()) {
    // A table of the rules with their counts, then each rule's findings.
    const auto groups = findings_by_rule(s.findings);
    out << "\n**Release checks** (" << s.findings.size() << ", " << findings_note(s.findings)
        << ")\n\n";
    out << "| rule | meaning | severity | entries | new |\n|---|---|---|---:|---:|\n";
    for (const auto& g : groups)
      out << "| " << code(g.rule) << " | " << md(code_title(g.rule, g.severity)) << " | "
          << to_string(g.severity) << " | " << g.entries << " | " << g.new_entries << " |\n";
    for (const auto& g : groups) {
      out << "\n**" << titled(g.rule, g.severity) << "** (" << to_string(g.severity) << ", "
          << rule_counts(g) << ")\n\n";
      const std::size_t shown =
          options.limit == 0 ? g.findings.size() : std::min(g.findings.size(), options.limit);
      for (std::size_t i = 0; i < shown; ++i) {
        const auto& f = g.findings[i];
        out << "- "
            << (f.acknowledged ? "acknowledged "
                : f.is_new     ? "**new** "
                               : "")
            << code(f.path) << ": " << md(f.message) << "\n";
      }
      if (shown < g.findings.size())
        out << "- ... and " << g.findings.size() - shown << " more (see the JSON report)\n";
    }
  }
  // Last: what is new and cannot break a map.
  list(out, "New info (never fails the audit)", new_infos(s), options, what_item);
  if (s.baseline_run) out << "\nUnchanged: " << count_of(s.unchanged, "entry", "entries") << ".\n";
}

}  // namespace

void render_markdown(const AuditReport& report, std::ostream& out, const RenderOptions& options) {
  if (options.only_new) {
    // The short text report in a code block: it keeps its layout in a chat.
    std::ostringstream text;
    render_short(report, text);
    out << "```\n" << text.str() << "```\n";
    return;
  }
  out << "## mapindex audit: run " << report.run.run_id << "\n\n";
  out << "Audited " << md(run_line(report.run));
  if (report.baselines.empty()) {
    out << "; no baseline (no earlier complete run read these sources), so everything counts as "
           "new.\n";
  } else if (report.baselines.size() == 1) {
    out << " against " << md(run_line(report.baselines.front())) << ".\n";
  } else {
    out << " against, per source, runs";
    for (const auto& run : report.baselines) out << " " << run.run_id;
    out << ".\n";
  }
  if (report.run.status != index::RunStatus::complete)
    out << "\nNote: run " << report.run.run_id << " is " << to_string(report.run.status)
        << ": entries it did not reach show as removed.\n";
  const auto counts = count_new(report);
  out << "\n**" << (counts.errors || counts.warnings || counts.unread_sources ? "" : "OK: ")
      << verdict_line(counts) << ".**\n";
  if (report.accepted)
    out << "\nRun " << report.run.run_id << " was accepted as it is ("
        << md(report.accepted->accepted_at) << "): its findings do not fail the audit.\n";
  for (const auto& s : report.sources_not_read)
    out << "\nSource " << code(s.path) << " (" << to_string(s.kind)
        << ") was not read in this run (run " << s.last_run << " read it): not compared.\n";
  if (report.sources.size() > 1) {
    out << "\nTotals over " << report.sources.size() << " sources:\n";
    totals_table(out, report.now, report.before);
  }
  for (const auto& source : report.sources) source_markdown(out, source, options);
}

}  // namespace mapindex::audit
