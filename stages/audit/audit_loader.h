// Reads what the audit needs from an open index (read-only queries only):
// runs, the sources a run read, the entries a run saw (file_sightings), and
// the facts about the maps and entries they hold. Throws index::IndexError on
// SQLite failures.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "stages/audit/audit_input.h"
#include "stages/audit/audit_report.h"

namespace mapindex::audit {

struct SourceInfo {
  std::int64_t source_id = 0;
  std::string path;
  std::string kind;
};

std::optional<RunInfo> load_run(sqlite3* db, std::int64_t run_id);
// The latest run with status 'complete'; the latest run of any status.
std::optional<std::int64_t> latest_complete_run(sqlite3* db);
std::optional<std::int64_t> latest_run(sqlite3* db);

// The sources `run_id` read, by path.
std::vector<SourceInfo> sources_of_run(sqlite3* db, std::int64_t run_id);
bool run_read_source(sqlite3* db, std::int64_t run_id, std::int64_t source_id);

// The latest complete run before `run_id` that read the source.
std::optional<std::int64_t> previous_complete_run(sqlite3* db, std::int64_t source_id,
                                                  std::int64_t run_id);

// Every entry `run_id` saw, by source_id; the entry problems of unreadable
// and oversize entries are filled in.
std::unordered_map<std::int64_t, std::vector<SeenEntry>> load_entries(sqlite3* db,
                                                                      std::int64_t run_id);

// Status, problems, images and race tiles of every map any of the runs saw.
MapFactsById load_map_facts(sqlite3* db, const std::vector<std::int64_t>& run_ids);

}  // namespace mapindex::audit
