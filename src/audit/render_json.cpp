// The JSON report: field by field as docs/audit-json.md documents it (format 1).
#include "audit/render.h"
#include "common/json_writer.h"

namespace mapindex::audit {
namespace {

void write_run(JsonWriter& j, const RunInfo& run) {
  j.begin_object()
      .field("run_id", run.run_id)
      .field("status", to_string(run.status))
      .field("started_at", run.started_at)
      .key("finished_at");
  if (run.finished_at.empty())
    j.null();
  else
    j.value(run.finished_at);
  j.field("command", run.command).end_object();
}

void write_totals(JsonWriter& j, const Totals& t) {
  j.begin_object()
      .field("entries", t.entries)
      .field("bytes", t.bytes)
      .field("maps", t.maps)
      .field("distinct_maps", t.distinct_maps)
      .field("ok", t.ok)
      .field("warnings", t.warnings)
      .field("rejected", t.rejected)
      .field("other", t.other)
      .field("oversize", t.oversize)
      .field("unreadable", t.unreadable)
      .end_object();
}

void write_totals_pair(JsonWriter& j, const Totals& now, const std::optional<Totals>& before) {
  j.begin_object().key("now");
  write_totals(j, now);
  j.key("before");
  if (before)
    write_totals(j, *before);
  else
    j.null();
  j.end_object();
}

// The fields of an entry object.
void entry_fields(JsonWriter& j, const EntryState& e) {
  j.field("path", e.path)
      .field("kind", to_string(e.kind))
      .field("status", to_string(e.status))
      .field("size", e.size)
      .key("sha256");
  if (e.sha256.empty())
    j.null();
  else
    j.value(e.sha256);
  j.field("map_id", e.map_id);
}

void write_entry(JsonWriter& j, const EntryState& e) {
  j.begin_object();
  entry_fields(j, e);
  j.end_object();
}

void write_entries(JsonWriter& j, std::string_view name, const std::vector<EntryState>& entries) {
  j.key(name).begin_array();
  for (const auto& e : entries) write_entry(j, e);
  j.end_array();
}

void write_changes(JsonWriter& j, std::string_view name, const std::vector<EntryChange>& changes) {
  j.key(name).begin_array();
  for (const auto& c : changes) {
    j.begin_object().key("before");
    write_entry(j, c.before);
    j.key("after");
    write_entry(j, c.after);
    j.end_object();
  }
  j.end_array();
}

void write_strings(JsonWriter& j, const std::vector<std::string>& items) {
  j.begin_array();
  for (const auto& item : items) j.value(item);
  j.end_array();
}

// The titles of codes (problem_codes.h), in their order: "" for a string
// that is no code.
void write_titles(JsonWriter& j, const std::vector<std::string>& codes) {
  j.begin_array();
  for (const auto& code : codes) j.value(code_title(code));
  j.end_array();
}

// An entry of a replacement, with its game layer's size.
void write_replaced_side(JsonWriter& j, const EntryState& e, std::int64_t width,
                         std::int64_t height) {
  j.begin_object();
  entry_fields(j, e);
  j.field("game_width", width).field("game_height", height).end_object();
}

void write_health(JsonWriter& j, std::string_view name, const std::vector<HealthChange>& changes) {
  j.key(name).begin_array();
  for (const auto& c : changes) {
    j.begin_object().field("path", c.path).key("before");
    if (!c.before)
      j.null();
    else
      j.value(to_string(*c.before));
    j.field("after", to_string(c.after)).key("codes");
    write_strings(j, c.codes);
    j.key("titles");
    write_titles(j, c.codes);
    j.field("message", c.message).key("sha256");
    if (c.sha256.empty())
      j.null();
    else
      j.value(c.sha256);
    j.field("acknowledged", c.acknowledged).end_object();
  }
  j.end_array();
}

void write_source(JsonWriter& j, const SourceAudit& s) {
  j.begin_object()
      .field("source_id", s.source_id)
      .field("path", s.path)
      .field("kind", to_string(s.kind))
      .field("baseline_run_id", s.baseline_run)
      .key("totals");
  write_totals_pair(j, s.now, s.before);
  j.field("unchanged", s.unchanged);
  write_entries(j, "added", s.added);
  write_entries(j, "removed", s.removed);
  write_changes(j, "changed", s.changed);
  write_changes(j, "moved", s.moved);
  j.key("replaced").begin_array();
  for (const auto& r : s.replaced) {
    j.begin_object().field("path", r.after.path).key("before");
    write_replaced_side(j, r.before, r.game_width_before, r.game_height_before);
    j.key("after");
    write_replaced_side(j, r.after, r.game_width_after, r.game_height_after);
    j.end_object();
  }
  j.end_array();
  j.key("duplicates").begin_array();
  for (const auto& d : s.duplicates) {
    j.begin_object().field("sha256", d.sha256).field("map_id", d.map_id).key("paths");
    write_strings(j, d.paths);
    j.field("new", d.is_new).end_object();
  }
  j.end_array();
  write_health(j, "newly_broken", s.newly_broken);
  write_health(j, "gained_problems", s.gained_problems);
  write_health(j, "fixed", s.fixed);
  write_health(j, "gained_info", s.gained_info);
  j.key("problem_counts").begin_array();
  for (const auto& c : s.problem_counts)
    j.begin_object()
        .field("code", c.code)
        .field("title", code_title(c.code, c.severity))
        .field("severity", to_string(c.severity))
        .field("entries", c.entries)
        .field("before", c.before)
        .field("new", c.is_new)
        .end_object();
  j.end_array();
  j.key("findings").begin_array();
  for (const auto& f : s.findings)
    j.begin_object()
        .field("rule", f.rule)
        .field("title", code_title(f.rule, f.severity))
        .field("severity", to_string(f.severity))
        .field("path", f.path)
        .field("map_id", f.map_id)
        .field("subject", f.subject)
        .field("message", f.message)
        .field("new", f.is_new)
        .field("acknowledged", f.acknowledged)
        .end_object();
  j.end_array();
  j.field("reading", to_string(s.reading)).key("reading_errors").begin_array();
  for (const auto& e : s.reading_errors)
    j.begin_object()
        .field("path", e.path)
        .field("code", e.code)
        .field("title", code_title(e.code))
        .field("message", e.message)
        .end_object();
  j.end_array();
  j.key("last_entry_read");
  if (s.last_entry_read.empty())
    j.null();
  else
    j.value(s.last_entry_read);
  write_entries(j, "not_read", s.not_read);
  for (const auto& [name, list] :
       {std::pair{"new_warnings", new_warnings(s)}, std::pair{"new_infos", new_infos(s)}}) {
    j.key(name).begin_array();
    for (const auto& w : list) {
      j.begin_object().field("path", w.path).key("what");
      write_strings(j, w.what);
      j.key("titles");
      write_titles(j, w.what);
      j.end_object();
    }
    j.end_array();
  }
  j.end_object();
}

}  // namespace

void render_json(const AuditReport& report, std::ostream& out) {
  JsonWriter j(out);
  const auto counts = count_new(report);
  j.begin_object()
      .field("format_version", kAuditFormatVersion)
      .field("generator", "mapindex " MAPINDEX_VERSION)
      .key("run");
  write_run(j, report.run);
  j.field("baseline_given", report.baseline_given).key("baselines").begin_array();
  for (const auto& run : report.baselines) write_run(j, run);
  j.end_array();
  j.key("accepted");
  if (report.accepted)
    j.begin_object()
        .field("accepted_at", report.accepted->accepted_at)
        .field("note", report.accepted->note)
        .end_object();
  else
    j.null();
  j.key("new")
      .begin_object()
      .field("errors", counts.errors)
      .field("warnings", counts.warnings)
      .field("infos", counts.infos)
      .field("unread_sources", counts.unread_sources)
      .end_object();
  j.key("sources_not_read").begin_array();
  for (const auto& s : report.sources_not_read)
    j.begin_object()
        .field("source_id", s.source_id)
        .field("path", s.path)
        .field("kind", to_string(s.kind))
        .field("last_run_id", s.last_run)
        .end_object();
  j.end_array();
  j.key("totals");
  write_totals_pair(j, report.now, report.before);
  j.key("sources").begin_array();
  for (const auto& s : report.sources) write_source(j, s);
  j.end_array();
  j.end_object();
}

}  // namespace mapindex::audit
