#include "app/index_report.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "app/cli_parse.h"
#include "common/json_writer.h"
#include "common/problem_codes.h"
#include "sqlite/database.h"
#include "sqlite/statement.h"

namespace mapindex {
namespace {

// An entry as a user finds it: a file of a folder by its path, an archive's
// entry as ARCHIVE::PATH (as mapindex render takes it), an input by its path.
std::string entry_location(std::string_view source_kind, const std::string& source,
                           const std::string& entry_path) {
  if (entry_path.empty()) return source;
  if (source_kind == "folder") return (std::filesystem::path(source) / entry_path).string();
  if (source_kind == "file") return source;
  return source + "::" + entry_path;
}

}  // namespace

std::optional<RunFindings> read_run_findings(sqlite3* index, std::int64_t run_id, Game game) {
  RunFindings found;
  try {
    sqlite::Statement rejected(
        index,
        std::string("SELECT s.kind, e.source, e.entry_path, e.codes FROM run_entries e "
                    "JOIN sources s ON s.source_id = e.source_id WHERE e.run_id = ? AND e.") +
            (game == Game::ddnet ? "status" : "teeworlds_status") +
            " = 'rejected' ORDER BY e.source, e.entry_path, e.occurrence");
    rejected.bind_all(run_id);
    while (rejected.step()) {
      if (found.rejected_total++ >= kListedRejected) continue;
      const std::string codes = rejected.column_text(3);
      found.rejected.push_back({entry_location(rejected.column_text(0), rejected.column_text(1),
                                               rejected.column_text(2)),
                                codes.substr(0, codes.find(','))});
    }
    sqlite::Statement inputs(
        index,
        "SELECT s.kind, s.path, f.entry_path, p.code, p.severity, p.message "
        "FROM file_sightings h JOIN files f ON f.file_id = h.file_id "
        "JOIN sources s ON s.source_id = f.source_id JOIN problems p ON p.file_id = f.file_id "
        "WHERE h.run_id = ? AND (f.entry_path = '' OR p.code = 'read.truncated') "
        "AND p.severity <> 'info' ORDER BY s.path, f.entry_path, f.occurrence, p.position");
    inputs.bind_all(run_id);
    while (inputs.step()) {
      const std::string severity = inputs.column_text(4);
      found.input_errors.push_back(
          {entry_location(inputs.column_text(0), inputs.column_text(1), inputs.column_text(2)),
           inputs.column_text(3), severity == "error" ? Severity::error : Severity::warning,
           inputs.column_text(5)});
    }
  } catch (const sqlite::IndexError&) {
    return std::nullopt;
  }
  return found;
}

void print_input_errors(const IndexOptions& o, const LiveCounters& c, const IndexSummary& s,
                        const std::optional<RunFindings>& found) {
  if (found)
    for (const auto& e : found->input_errors) {
      std::cerr << "mapindex index: " << e.where << ": " << code_title(e.code, e.severity) << " ("
                << e.code << "): " << e.message << "\n";
    }
  if (s.interrupted || c.maps_indexed.load() + c.maps_known.load() > 0) return;
  std::string inputs;
  for (std::size_t i = 0; i < o.inputs.size(); ++i)
    inputs += (i == 0 ? "" : i + 1 == o.inputs.size() ? " and " : ", ") + o.inputs[i];
  std::cerr << "mapindex index: found no map in " << inputs << " (" << c.entries.load()
            << (c.entries.load() == 1 ? " entry" : " entries") << " read: " << c.not_maps.load()
            << " not maps, " << c.unreadable.load() << " unreadable, " << c.oversize.load()
            << " oversize)\n";
}

void print_summary(const IndexOptions& o, const LiveCounters& c, const IndexSummary& s,
                   const std::optional<RunFindings>& found) {
  const double mb = static_cast<double>(c.bytes.load()) / (1024.0 * 1024.0);
  const auto maps = c.maps_indexed.load() + c.maps_known.load();
  std::printf("mapindex: %s run %lld into %s\n", s.interrupted ? "interrupted" : "finished",
              static_cast<long long>(s.run_id), o.db_path.c_str());
  std::printf("  entries read      %10llu  (%.1f MB)\n",
              static_cast<unsigned long long>(c.entries.load()), mb);
  std::printf("  maps indexed      %10llu  (decoded and measured)\n",
              static_cast<unsigned long long>(c.maps_indexed.load()));
  std::printf("  already known     %10llu  (same content indexed before: not decoded)\n",
              static_cast<unsigned long long>(c.maps_known.load() - c.maps_same_in_run.load()));
  if (c.maps_same_in_run.load())
    std::printf(
        "  same content      %10llu  (as an entry earlier in this run: not decoded again)\n",
        static_cast<unsigned long long>(c.maps_same_in_run.load()));
  std::printf("  rejected          %10llu  (%s)\n",
              static_cast<unsigned long long>(c.rejected.load()),
              o.game == Game::ddnet ? "DDNet would refuse them"
                                    : "neither Teeworlds 0.6 nor 0.7 would load them");
  // The rejected entries by name, with the first error's code and title.
  if (found && !found->rejected.empty()) {
    // Aligned unless a path is too long for it to help.
    std::size_t width = 0;
    for (const auto& r : found->rejected) width = std::max(width, r.where.size());
    if (width > 72) width = 0;
    for (const auto& r : found->rejected)
      std::printf("      %-*s  %s\n", static_cast<int>(width), r.where.c_str(),
                  titled_code(r.code, Severity::error).c_str());
    if (found->rejected_total > found->rejected.size())
      std::printf("      and %zu more\n", found->rejected_total - found->rejected.size());
  }
  std::printf("  with warnings     %10llu\n",
              static_cast<unsigned long long>(c.with_warnings.load()));
  std::printf("  not maps          %10llu\n", static_cast<unsigned long long>(c.not_maps.load()));
  std::printf("  oversize          %10llu  (over --max-map-size, not read)\n",
              static_cast<unsigned long long>(c.oversize.load()));
  std::printf("  unreadable        %10llu\n", static_cast<unsigned long long>(c.unreadable.load()));
  if (c.not_written.load())
    std::printf(
        "  not written       %10llu  (the index refused their rows: see the messages above)\n",
        static_cast<unsigned long long>(c.not_written.load()));
  std::printf("  time              %10.2f s  (%.1f maps/s, %.1f MB/s, CPU %.2f s)\n", s.seconds,
              s.seconds > 0 ? static_cast<double>(maps) / s.seconds : 0.0,
              s.seconds > 0 ? mb / s.seconds : 0.0, s.cpu_seconds);
  // The follow-up: exactly the entries this run counted above as not fine,
  // by the run's id (run_entries lists what each run saw, so a re-run that
  // decodes nothing lists them too).
  std::string statuses;
  for (const auto& [count, status] :
       {std::pair{c.rejected.load(), "rejected"}, std::pair{c.with_warnings.load(), "warnings"},
        std::pair{c.unreadable.load(), "unreadable"}, std::pair{c.oversize.load(), "oversize"}})
    if (count) statuses += std::string(statuses.empty() ? "" : ", ") + "'" + status + "'";
  if (!statuses.empty()) {
    const std::string column = o.game == Game::ddnet ? "status" : "teeworlds_status";
    const std::string sql =
        "SELECT source, entry_path, " + column +
        ", codes, first_problem FROM run_entries WHERE run_id = " + std::to_string(s.run_id) +
        " AND " + column + " IN (" + statuses + ")";
    std::printf("  entries:  mapindex query --db %s %s\n", shell_word(o.db_path, true).c_str(),
                shell_word(sql, true).c_str());
    std::printf("  a code:   mapindex explain CODE\n");
  }
}

bool write_stats_json(const std::string& path, const IndexOptions& o, const LiveCounters& c,
                      const IndexSummary& s) {
  std::ofstream out(path);
  JsonWriter json(out, JsonLayout::compact());
  json.begin_object()
      .field("run_id", s.run_id)
      .field("interrupted", s.interrupted)
      .field("seconds", s.seconds)
      .field("cpu_seconds", s.cpu_seconds)
      .field("writer_seconds", s.writer_seconds)
      .field("batches", s.batches)
      .field("peak_batch_bytes", s.peak_batch_bytes)
      .field("peak_in_flight_bytes", s.peak_in_flight)
      .field("peak_in_flight_entries", s.peak_in_flight_entries)
      .field("max_in_flight_entries", s.max_in_flight)
      .field("decode_threads", s.decode_threads)
      .field("peak_run_contents", s.peak_run_contents)
      .field("index_check", index::to_string(s.index_check))
      .field("memory_budget_bytes", o.memory_budget)
      .field("entries", c.entries.load())
      .field("bytes", c.bytes.load())
      .field("maps_indexed", c.maps_indexed.load())
      .field("maps_known", c.maps_known.load())
      .field("maps_same_in_run", c.maps_same_in_run.load())
      .field("maps_measured", c.maps_measured.load())
      .field("layers_measured", c.layers.measured.load())
      .field("layers_reused_run", c.layers.reused_run.load())
      .field("layers_reused_index", c.layers.reused_index.load())
      .field("thumbnails_reused", c.layers.thumbnails_reused.load())
      .field("rejected", c.rejected.load())
      .field("not_maps", c.not_maps.load())
      .field("unreadable", c.unreadable.load())
      .field("zip_members_read", s.zip_members_read)
      .field("tar_members_read", s.tar_members_read)
      .end_object();
  return static_cast<bool>(out.flush());
}

}  // namespace mapindex
