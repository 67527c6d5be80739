// Printing an audit report: plain text (for a terminal or a cron mail), JSON
// (a stable, documented format for bots and web pages: docs/audit-json.md),
// markdown (to paste into an issue or a chat) and HTML (one self-contained page
// with the maps' thumbnails, for a browser or a CI artifact).
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>
#include <string_view>

#include "audit/audit_report.h"

namespace mapindex::audit {

struct RenderOptions {
  // Text, markdown and HTML list at most this many items per list and say how
  // many more there are; 0 lists everything. JSON always holds everything.
  std::size_t limit = 50;
  // Text and markdown: only what changed since the baseline (the reading,
  // newly broken, new warnings by entry, acknowledged, added, removed,
  // changed, moved, fixed, not read; 5 items a list), at most
  // kShortReportChars characters. JSON always holds everything.
  bool only_new = false;
};

// The short report's bound (`--only-new`): fits a chat message.
inline constexpr std::size_t kShortReportChars = 2000;

enum class ReportFormat { text, json, markdown, html };

std::optional<ReportFormat> parse_report_format(
    std::string_view name);  // "text", "json", "markdown", "html"
std::string_view to_string(ReportFormat format);

// Renders in the given format (render_text, render_json, render_markdown or
// render_html).
void render(const AuditReport& report, ReportFormat format, std::ostream& out,
            const RenderOptions& options = {});

void render_text(const AuditReport& report, std::ostream& out, const RenderOptions& options = {});
void render_json(const AuditReport& report, std::ostream& out);
// The short text report (--only-new), at most kShortReportChars characters.
void render_short(const AuditReport& report, std::ostream& out);
void render_markdown(const AuditReport& report, std::ostream& out,
                     const RenderOptions& options = {});
// The HTML page: the thumbnails come from report.pictures (build the report
// with AuditOptions::pictures); a map without one shows "no thumbnail".
// only_new does not apply (the page always has every section).
void render_html(const AuditReport& report, std::ostream& out, const RenderOptions& options = {});

}  // namespace mapindex::audit
