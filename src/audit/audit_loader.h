// Reads what the audit needs from an open index (read-only queries only):
// runs, the sources a run read, the entries a run saw (file_sightings), and
// the facts about the maps and entries they hold. Throws sqlite::IndexError on
// SQLite failures.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "audit/audit_input.h"
#include "audit/audit_report.h"
#include "extract/game_verdict.h"

namespace mapindex::audit {

struct SourceInfo {
  std::int64_t source_id = 0;
  std::string path;
  index::SourceKind kind = index::SourceKind::archive;
  index::SourceReading reading = index::SourceReading::complete;
  std::string last_entry;  // run_sources.last_entry: partial: the last entry read ("" unknown)
};

std::optional<RunInfo> load_run(sqlite3* db, std::int64_t run_id);
// The latest run with status 'complete'; the latest run of any status.
std::optional<std::int64_t> latest_complete_run(sqlite3* db);
std::optional<std::int64_t> latest_run(sqlite3* db);

// The sources `run_id` read, by path.
std::vector<SourceInfo> sources_of_run(sqlite3* db, std::int64_t run_id);
bool run_read_source(sqlite3* db, std::int64_t run_id, std::int64_t source_id);
// run_sources.reading of the run and source (none when the run did not read it).
std::optional<index::SourceReading> reading_of(sqlite3* db, std::int64_t run_id,
                                               std::int64_t source_id);

// The latest complete run before `run_id` that read the source completely
// (run_sources.reading 'complete'): a run whose reading of it was cut short
// is skipped.
std::optional<std::int64_t> previous_complete_run(sqlite3* db, std::int64_t source_id,
                                                  std::int64_t run_id);

// The sources the latest complete run before `run_id` (or `against`) read
// that `run_id` did not list, with that run.
std::vector<SourceNotRead> sources_not_read(sqlite3* db, std::int64_t run_id,
                                            std::optional<std::int64_t> against);

// When the run was accepted (`mapindex audit --accept`); nullopt when not,
// or when the index has no audit_acceptances table.
std::optional<Acceptance> acceptance_of(sqlite3* db, std::int64_t run_id);
// The SHA-256 of every acknowledged map content.
std::unordered_set<std::string> acknowledged_contents(sqlite3* db);

// Every entry `run_id` saw, by source_id; the entry problems of unreadable
// and oversize entries are filled in.
// A map's status is the verdict for `game` (maps.status or
// maps.teeworlds_status).
std::unordered_map<std::int64_t, std::vector<SeenEntry>> load_entries(sqlite3* db,
                                                                      std::int64_t run_id,
                                                                      Game game);

// Status, problems, images, race tiles and game layer size of every map any
// of the runs saw (not MapFacts::layer_data).
MapFactsById load_map_facts(sqlite3* db, const std::vector<std::int64_t>& run_ids, Game game);

// Fills MapFacts::layer_data of each map of `map_ids` that `facts` holds.
void load_layer_data(sqlite3* db, const std::set<std::int64_t>& map_ids, MapFactsById& facts);

// The thumbnail (view map_thumbnails; none before schema 7 or with
// --no-thumbnails) and counts of each map content of `sha256s` that the index
// has, by SHA-256.
std::map<std::string, MapPicture> load_pictures(sqlite3* db, const std::set<std::string>& sha256s);

// Whether the index has the Teeworlds verdicts (schema 4).
bool has_game_verdicts(sqlite3* db);

}  // namespace mapindex::audit
