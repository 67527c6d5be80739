// The HTML report: one self-contained page (no JavaScript, no external file:
// thumbnails inlined as data: URIs, the style in the page) that reads on a
// phone and in a CI artifact viewer. Per source: newly broken (with the
// problems), new warnings, added, changed (old and new thumbnail side by
// side, with the counts that changed), removed, moved, fixed, not read, the
// totals, the problem codes, the release checks, and last the info findings
// with their count. Every text from the index (paths, names, messages, codes,
// notes) is HTML-escaped.
#include <algorithm>
#include <sstream>

#include "audit/render.h"
#include "audit/render_util.h"
#include "common/base64.h"
#include "common/html.h"

namespace mapindex::audit {
namespace {

using namespace detail;

// Text safe in an element or a quoted attribute (src/common/html.h).
std::string h(std::string_view text) { return html_escape(text); }

std::string code(std::string_view text) { return "<code>" + h(text) + "</code>"; }

constexpr std::string_view kStyle = R"(
:root{color-scheme:light}
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;
max-width:64rem;padding:.5rem .9rem 2rem;color:#1d1d1f;background:#fff}
h1{font-size:1.35rem;margin:.6rem 0}
h2{font-size:1.15rem;margin:1.6rem 0 .4rem;padding-bottom:.2rem;border-bottom:2px solid #d0d4da}
h3{font-size:1rem;margin:1.1rem 0 .4rem}
h4{font-size:.95rem;margin:0 0 .4rem;font-weight:600}
code{font:.88em/1.3 ui-monospace,Menlo,Consolas,monospace;overflow-wrap:break-word}
td code,summary code{white-space:nowrap}
p{margin:.3rem 0}
.verdict{padding:.5rem .7rem;border-radius:.4rem;font-weight:600}
.verdict.ok{background:#e4f4e4;border-left:5px solid #2e8b3a}
.verdict.bad{background:#fde4e2;border-left:5px solid #c62828}
.note{color:#555}
.none{color:#777;font-style:italic}
.cards{display:flex;flex-wrap:wrap;gap:.7rem;margin:.3rem 0}
.card{flex:1 1 15rem;max-width:100%;border:1px solid #dde1e6;border-radius:.4rem;padding:.5rem;
background:#fafbfc}
.card.wide{flex-basis:100%}
.pair{display:flex;flex-wrap:wrap;gap:.5rem}
figure{margin:0;flex:1 1 9rem;min-width:0}
figcaption{font-size:.85rem;color:#444}
img.map{display:block;width:100%;max-width:256px;height:auto;image-rendering:pixelated;
background:#e9ecef;border:1px solid #c9ced4}
.noimg{display:flex;align-items:center;justify-content:center;width:100%;max-width:256px;
aspect-ratio:2/1;background:#f1f3f5;border:1px dashed #c9ced4;color:#777;font-size:.85rem}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.3rem 0;font-size:.9rem}
th,td{border:1px solid #dde1e6;padding:.2rem .45rem;text-align:left;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.new{color:#b71c1c;font-weight:700}
.sev-error{color:#b71c1c}.sev-warning{color:#a05a00}.sev-info{color:#52616b}
ul{padding-left:1.2rem;margin:.3rem 0}
li{margin:.15rem 0}
.more{color:#555}
details.rule{margin:.35rem 0;border:1px solid #dde1e6;border-radius:.4rem;padding:.3rem .5rem}
details.rule summary{cursor:pointer}
table.findings{width:100%}
td.meaning{min-width:14rem}
)";

std::string picture_html(const AuditReport& report, const std::string& sha256,
                         std::string_view alt) {
  const auto found = report.pictures.find(sha256);
  if (found == report.pictures.end() || found->second.png.empty())
    return "<div class=\"noimg\">no thumbnail</div>";
  const auto& p = found->second;
  return "<img class=\"map\" src=\"data:image/png;base64," + base64_encode(p.png) + "\" width=\"" +
         std::to_string(p.width) + "\" height=\"" + std::to_string(p.height) + "\" alt=\"" +
         h(alt) + "\">";
}

std::string entry_caption(const EntryState& e) {
  return h(std::string(to_string(e.status))) + ", " + h(human_bytes(e.size));
}

// A section: its heading with the count, the items (at most the limit), how
// many were left out, or "none".
template <class T, class Item>
void section(std::ostream& out, std::string_view cls, std::string_view title,
             const std::vector<T>& items, const RenderOptions& options, bool cards, Item item) {
  out << "<section class=\"" << cls << "\">\n<h3>" << title << " (<span class=\"count\">"
      << items.size() << "</span>)</h3>\n";
  if (items.empty()) {
    out << "<p class=\"none\">None.</p>\n</section>\n";
    return;
  }
  const std::size_t shown =
      options.limit == 0 ? items.size() : std::min(items.size(), options.limit);
  out << (cards ? "<div class=\"cards\">\n" : "<ul>\n");
  for (std::size_t i = 0; i < shown; ++i) out << item(items[i]) << "\n";
  out << (cards ? "</div>\n" : "</ul>\n");
  if (shown < items.size())
    out << "<p class=\"more\">... and " << items.size() - shown
        << " more (--limit 0 lists all; --format json has everything).</p>\n";
  out << "</section>\n";
}

// A list that is shown only when it has items (the minor ones).
template <class T, class Item>
void optional_section(std::ostream& out, std::string_view cls, std::string_view title,
                      const std::vector<T>& items, const RenderOptions& options, Item item) {
  if (!items.empty()) section(out, cls, title, items, options, false, item);
}

// <code>H5</code> file cut short or too long: a code with its title.
std::string titled_html(std::string_view text, std::optional<Severity> severity = std::nullopt) {
  const auto title = code_title(text, severity);
  return code(text) + (title.empty() ? "" : " " + h(title));
}

std::string codes_html(const std::vector<std::string>& codes) {
  std::vector<std::string> out;
  for (const auto& c : codes) out.push_back(titled_html(c));
  return joined(out);
}

std::string health_text(const HealthChange& c) {
  std::string text = h(status_or_new(c.before)) + " → " + h(std::string(to_string(c.after)));
  if (!c.codes.empty()) text += " (" + codes_html(c.codes) + ")";
  if (!c.message.empty()) text += ": " + h(c.message);
  return text;
}

// The counts of two map contents that differ, as table rows.
std::string changed_counts(const MapCounts& a, const MapCounts& b) {
  struct Row {
    const char* label;
    std::int64_t MapCounts::*field;
  };
  static constexpr Row kRows[] = {
      {"game width", &MapCounts::game_width}, {"game height", &MapCounts::game_height},
      {"groups", &MapCounts::groups},         {"layers", &MapCounts::layers},
      {"images", &MapCounts::images},         {"envelopes", &MapCounts::envelopes},
      {"sounds", &MapCounts::sounds},         {"quads", &MapCounts::quads},
      {"errors", &MapCounts::errors},         {"warnings", &MapCounts::warnings},
  };
  std::string rows;
  if (a.size != b.size)
    rows += "<tr><td>size</td><td class=\"n\">" + h(human_bytes(a.size)) + "</td><td class=\"n\">" +
            h(human_bytes(b.size)) + "</td><td class=\"n\">" +
            h((b.size > a.size ? "+" : "") + human_bytes(b.size - a.size)) + "</td></tr>";
  for (const auto& r : kRows)
    if (a.*r.field != b.*r.field)
      rows += std::string("<tr><td>") + r.label + "</td><td class=\"n\">" +
              std::to_string(a.*r.field) + "</td><td class=\"n\">" + std::to_string(b.*r.field) +
              "</td><td class=\"n\">" + signed_change(b.*r.field - a.*r.field) + "</td></tr>";
  if (rows.empty()) return "<p class=\"note\">The same counts (the content differs).</p>";
  return "<div class=\"scroll\"><table class=\"counts\"><tr><th></th><th class=\"n\">before</th>"
         "<th class=\"n\">after</th><th class=\"n\">change</th></tr>" +
         rows + "</table></div>";
}

std::string changed_card(const AuditReport& report, const EntryChange& c,
                         std::string_view note = "") {
  std::string card =
      "<div class=\"card wide change\"><h4>" + code(c.after.path) + "</h4>\n" +
      (note.empty() ? std::string() : "<p class=\"note\">" + h(note) + "</p>") +
      "<div class=\"pair\"><figure class=\"before\">" +
      (c.before.map_id ? picture_html(report, c.before.sha256, "before: " + c.before.path)
                       : std::string()) +
      "<figcaption>before: " + entry_caption(c.before) +
      "</figcaption></figure><figure class=\"after\">" +
      (c.after.map_id ? picture_html(report, c.after.sha256, "after: " + c.after.path)
                      : std::string()) +
      "<figcaption>after: " + entry_caption(c.after) + "</figcaption></figure></div>\n";
  const auto before = report.pictures.find(c.before.sha256);
  const auto after = report.pictures.find(c.after.sha256);
  if (before != report.pictures.end() && after != report.pictures.end())
    card += changed_counts(before->second.counts, after->second.counts);
  return card + "</div>";
}

std::string entry_card(const AuditReport& report, const EntryState& e) {
  return "<div class=\"card\"><h4>" + code(e.path) + "</h4><figure>" +
         (e.map_id ? picture_html(report, e.sha256, e.path) : std::string()) + "<figcaption>" +
         entry_caption(e) + "</figcaption></figure></div>";
}

std::string broken_card(const AuditReport& report, const HealthChange& c) {
  return "<div class=\"card\"><h4>" + code(c.path) + "</h4><figure>" +
         (report.pictures.count(c.sha256) ? picture_html(report, c.sha256, c.path)
                                          : std::string()) +
         "<figcaption>" + health_text(c) + "</figcaption></figure></div>";
}

void totals_table(std::ostream& out, const Totals& now, const std::optional<Totals>& before) {
  out << "<div class=\"scroll\"><table class=\"totals\"><tr><th></th><th class=\"n\">now</th>"
      << (before ? "<th class=\"n\">before</th><th class=\"n\">change</th>" : "") << "</tr>\n";
  for (const auto& r : totals_rows(now, before ? &*before : nullptr)) {
    out << "<tr><td>" << h(r.label) << "</td><td class=\"n\">" << h(format_value(r, r.now))
        << "</td>";
    if (before)
      out << "<td class=\"n\">" << h(format_value(r, r.before)) << "</td><td class=\"n\">"
          << h(format_change(r)) << "</td>";
    out << "</tr>\n";
  }
  out << "</table></div>\n";
}

// The findings of one rule, in a <details> element: its summary names the
// rule, its title, severity and counts; opened when the rule has new
// findings that are not info. At most the limit of findings each.
void rule_details(std::ostream& out, const RuleGroup& g, const RenderOptions& options) {
  const std::string severity(to_string(g.severity));
  out << "<details class=\"rule\""
      << (g.new_entries > 0 && g.severity != Severity::info ? " open" : "") << "><summary>"
      << titled_html(g.rule, g.severity) << " &middot; <span class=\"sev-" << severity << "\">"
      << severity << "</span> &middot; " << h(rule_counts(g))
      << "</summary>\n<div class=\"scroll\"><table class=\"findings\"><tr><th></th><th>entry</th>"
         "<th>what</th></tr>\n";
  const std::size_t shown =
      options.limit == 0 ? g.findings.size() : std::min(g.findings.size(), options.limit);
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& f = g.findings[i];
    out << "<tr><td>"
        << (f.acknowledged ? "ack"
            : f.is_new     ? "<span class=\"new\">new</span>"
                           : "")
        << "</td><td>" << code(f.path) << "</td><td>" << h(f.message) << "</td></tr>\n";
  }
  out << "</table></div>\n";
  if (shown < g.findings.size())
    out << "<p class=\"more\">... and " << g.findings.size() - shown
        << " more (--limit 0 lists all; --format json has everything).</p>\n";
  out << "</details>\n";
}

std::string what_item(const NewWarning& w) {
  return "<li>" + code(w.path) + ": " + codes_html(w.what) + "</li>";
}

// The lists of a source's entries: newly broken, new warnings, ...,
// duplicates.
void source_lists_html(std::ostream& out, const AuditReport& report, const SourceAudit& s,
                       const RenderOptions& options) {
  std::vector<HealthChange> broken;
  for (const auto& c : s.newly_broken)
    if (!c.acknowledged) broken.push_back(c);
  const auto entry_item = [](const EntryState& e) {
    return "<li>" + code(e.path) + " (" + entry_caption(e) + ")</li>";
  };
  const auto health_item = [](const HealthChange& c) {
    return "<li>" + code(c.path) + ": " + health_text(c) + "</li>";
  };
  section(out, "newly-broken", "Newly broken", broken, options, true,
          [&](const HealthChange& c) { return broken_card(report, c); });
  optional_section(out, "new-warnings", "New warnings", new_warnings(s), options, what_item);
  optional_section(out, "acknowledged", "Acknowledged (do not fail the audit)",
                   acknowledged_items(s), options, what_item);
  section(out, "added", "Added", s.added, options, true,
          [&](const EntryState& e) { return entry_card(report, e); });
  section(out, "changed", "Changed", changed_not_replaced(s), options, true,
          [&](const EntryChange& c) { return changed_card(report, c); });
  optional_section(out, "replaced", "Replaced by another map (not a new version: never fixed)",
                   s.replaced, options, [&](const Replacement& r) {
                     return changed_card(report, {r.before, r.after},
                                         game_size(r.game_width_before, r.game_height_before) +
                                             " → " +
                                             game_size(r.game_width_after, r.game_height_after) +
                                             ": another map under the same name");
                   });
  section(out, "removed", "Removed", s.removed, options, true,
          [&](const EntryState& e) { return entry_card(report, e); });
  optional_section(out, "moved", "Moved", s.moved, options, [](const EntryChange& c) {
    return "<li>" + code(c.before.path) + " → " + code(c.after.path) + "</li>";
  });
  optional_section(out, "fixed", "Fixed", s.fixed, options, health_item);
  optional_section(out, "not-read", "Not read (the reading was cut short; not counted as removed)",
                   s.not_read, options, entry_item);
  optional_section(out, "new-problems", "New problems", s.gained_problems, options, health_item);
  optional_section(out, "duplicates", "Duplicate contents", s.duplicates, options,
                   [](const DuplicateGroup& d) {
                     std::vector<std::string> paths;
                     for (const auto& p : d.paths) paths.push_back(code(p));
                     return "<li>" + joined(paths) +
                            (d.is_new ? " <span class=\"new\">new</span>" : "") + "</li>";
                   });
}

// The problem codes of a source with their counts, new codes first.
void problem_codes_html(std::ostream& out, const SourceAudit& s, const RenderOptions& options) {
  if (s.problem_counts.empty()) return;
  out << "<section class=\"problem-codes\">\n<h3>Problem codes (new codes first)</h3>\n"
      << "<div class=\"scroll\"><table class=\"codes\"><tr><th>code</th><th>meaning</th>"
      << "<th>severity</th><th class=\"n\">entries</th>"
      << (s.before ? "<th class=\"n\">before</th>" : "") << "<th></th></tr>\n";
  const std::size_t shown = options.limit == 0 ? s.problem_counts.size()
                                               : std::min(s.problem_counts.size(), options.limit);
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& c = s.problem_counts[i];
    const std::string severity(to_string(c.severity));
    const CodeInfo* known = find_code(c.code, c.severity);
    out << "<tr><td>" << code(c.code) << "</td><td class=\"meaning\">"
        << (known ? "<b>" + h(known->title) + "</b>: " + h(known->meaning) : std::string())
        << "</td><td class=\"sev-" << severity << "\">" << severity << "</td><td class=\"n\">"
        << c.entries << "</td>";
    if (s.before) out << "<td class=\"n\">" << c.before << "</td>";
    out << "<td>" << (c.is_new ? "<span class=\"new\">new</span>" : "") << "</td></tr>\n";
  }
  out << "</table></div>\n";
  if (shown < s.problem_counts.size())
    out << "<p class=\"more\">... and " << s.problem_counts.size() - shown << " more codes.</p>\n";
  out << "</section>\n";
}

// The release checks (error and warning findings) by rule, then the info
// findings last, by rule, with their count.
void findings_html(std::ostream& out, const SourceAudit& s, const RenderOptions& options) {
  std::vector<Finding> checks, infos;
  for (const auto& f : s.findings) (f.severity == Severity::info ? infos : checks).push_back(f);
  const auto fresh = [](const std::vector<Finding>& fs) {
    return std::count_if(fs.begin(), fs.end(), [](const Finding& f) { return f.is_new; });
  };
  out << "<section class=\"release-checks\">\n<h3>Release checks (<span class=\"count\">"
      << checks.size() << "</span>, " << fresh(checks) << " new)</h3>\n";
  if (checks.empty())
    out << "<p class=\"none\">None.</p>\n";
  else
    for (const auto& g : findings_by_rule(checks)) rule_details(out, g, options);
  out << "</section>\n";

  const auto info_entries = new_infos(s);
  out << "<section class=\"info\">\n<h3>Info (<span class=\"count\">" << infos.size()
      << "</span> findings, " << fresh(infos) << " new; never fails the audit)</h3>\n";
  if (infos.empty())
    out << "<p class=\"none\">No info findings.</p>\n";
  else
    for (const auto& g : findings_by_rule(infos)) rule_details(out, g, options);
  if (!info_entries.empty()) {
    out << "<p>Entries with new info (" << info_entries.size() << "):</p>\n<ul>\n";
    const std::size_t shown =
        options.limit == 0 ? info_entries.size() : std::min(info_entries.size(), options.limit);
    for (std::size_t i = 0; i < shown; ++i) out << what_item(info_entries[i]) << "\n";
    out << "</ul>\n";
    if (shown < info_entries.size())
      out << "<p class=\"more\">... and " << info_entries.size() - shown << " more.</p>\n";
  }
  out << "</section>\n";
}

void source_html(std::ostream& out, const AuditReport& report, const SourceAudit& s,
                 const RenderOptions& options) {
  out << "<section class=\"source\">\n<h2>" << code(s.path) << " ("
      << h(std::string(to_string(s.kind))) << ")</h2>\n";
  if (s.baseline_run)
    out << "<p>Compared with run " << *s.baseline_run << ".</p>\n";
  else
    out << "<p>No baseline run: everything counts as new.</p>\n";
  if (s.reading != index::SourceReading::complete)
    out << "<p class=\"verdict bad\">" << h(reading_line(s)) << "</p>\n";

  source_lists_html(out, report, s, options);
  if (s.reading != index::SourceReading::unreadable) {
    out << "<section class=\"totals\">\n<h3>Totals</h3>\n";
    totals_table(out, s.now, s.before);
    if (s.baseline_run)
      out << "<p>Unchanged: " << count_of(s.unchanged, "entry", "entries") << ".</p>\n";
    out << "</section>\n";
  }

  problem_codes_html(out, s, options);
  findings_html(out, s, options);
  out << "</section>\n";
}

}  // namespace

void render_html(const AuditReport& report, std::ostream& out, const RenderOptions& options) {
  const std::string title = "mapindex audit: run " + std::to_string(report.run.run_id);
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<title>" << h(title) << "</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n"
      << "<header>\n<h1>" << h(title) << "</h1>\n<p>Audited " << h(run_line(report.run));
  if (report.baselines.empty()) {
    out << "; no baseline (no earlier complete run read these sources), so everything counts as "
           "new.";
  } else if (report.baselines.size() == 1) {
    out << " against " << h(run_line(report.baselines.front())) << ".";
  } else {
    out << " against, per source, runs";
    for (const auto& run : report.baselines) out << " " << run.run_id;
    out << ".";
  }
  out << "</p>\n";
  if (report.run.status != index::RunStatus::complete)
    out << "<p class=\"note\">Run " << report.run.run_id << " is "
        << h(std::string(to_string(report.run.status)))
        << ": entries it did not reach show as removed.</p>\n";
  const auto counts = count_new(report);
  const bool bad = counts.errors || counts.warnings || counts.unread_sources;
  out << "<p class=\"verdict " << (bad ? "bad" : "ok") << "\">" << (bad ? "" : "OK: ")
      << h(verdict_line(counts)) << ".</p>\n";
  if (report.accepted)
    out << "<p>Run " << report.run.run_id << " was accepted as it is ("
        << h(report.accepted->accepted_at)
        << (report.accepted->note.empty() ? "" : ", " + h(report.accepted->note))
        << "): its findings do not fail the audit.</p>\n";
  for (const auto& s : report.sources_not_read)
    out << "<p>Source " << code(s.path) << " (" << h(std::string(to_string(s.kind)))
        << ") was not read in this run (run " << s.last_run << " read it): not compared.</p>\n";
  out << "</header>\n<main>\n";
  if (report.sources.size() > 1) {
    out << "<section class=\"all-totals\">\n<h2>Totals over " << report.sources.size()
        << " sources</h2>\n";
    totals_table(out, report.now, report.before);
    out << "</section>\n";
  }
  if (report.sources.empty()) out << "<p class=\"none\">The run read no sources.</p>\n";
  for (const auto& source : report.sources) source_html(out, report, source, options);
  out << "</main>\n</body>\n</html>\n";
}

}  // namespace mapindex::audit
