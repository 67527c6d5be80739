// The SQLite index: opening (creating, migrating), and the writer the
// pipeline's serial writer node calls from one thread at a time.
//
//   auto db = IndexDb::open("mapindex.sqlite", OpenMode::read_write);
//   auto run = db->begin_run("mapindex index maps.zip", tool_version());
//   auto source = db->source_id(run, "maps.zip", "archive");
//   auto known = db->known_maps();            // skip decoding these sha256s
//   db->write_entry(run, entry, &stats);      // or nullptr for a known map / non-map
//   db->commit_batch();                       // every N entries or T ms
//   db->finish_run(run, "complete", counters);
//
// Each write_entry's rows are written together (a savepoint inside the
// batch's transaction), so a crash at any moment leaves whole entries only.
// Methods other than open throw IndexError on SQLite failures or misuse; an
// entry whose write throws leaves no rows and the batch stays usable.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "stages/common/result.h"
#include "stages/extract/map_stats.h"
#include "stages/write/entry_record.h"
#include "stages/write/migrations.h"
#include "stages/write/sqlite_statement.h"

namespace mapindex::index {

enum class OpenMode { read_write, read_only };

struct KnownMap {
  std::int64_t map_id = 0;
  MapStatus status = MapStatus::ok;
};

struct OpenOptions {
  // Schema migrations to apply (tests pass their own list).
  Migrations migrations = default_migrations();
  // Maps measured by an older extractor are measured again (tests vary it).
  int extractor_version = kExtractorVersion;
  int busy_timeout_ms = 10000;
};

class IndexDb {
 public:
  // read_write: creates the file if needed, WAL mode, migrates an older
  // schema in place, refreshes tile_names. read_only: refuses an index that
  // is missing, older or newer than this build's schema. Errors:
  // index.open, index.not_sqlite, index.foreign, index.newer, index.older,
  // index.migration.
  static Result<IndexDb> open(const std::string& path, OpenMode mode, OpenOptions options = {});

  IndexDb(IndexDb&&) noexcept;
  IndexDb& operator=(IndexDb&&) noexcept;
  ~IndexDb();  // rolls back an uncommitted batch

  // Starts a run (committed at once). Runs left 'running' by a process that
  // is gone are marked 'interrupted' first.
  std::int64_t begin_run(std::string_view command, std::string_view tool_version);

  // The source's id (created on first use); records that `run_id` reads it.
  // kind: "archive", "folder", "file" or "stdin".
  std::int64_t source_id(std::int64_t run_id, std::string_view path, std::string_view kind);

  // sha256 -> the maps measured by this extractor version (or a newer one):
  // content the pipeline need not decode again, with its status so a re-run
  // still counts rejected maps.
  std::unordered_map<std::string, KnownMap> known_maps();

  // Writes one entry seen by `run_id` in the current batch: its files row,
  // content version and sighting, its entry problems, and for a map either
  // `stats` (the maps row and all child rows, replacing those of an older
  // extractor version; kept as they are when already measured by this one)
  // or, when stats is null, a reference to the already indexed map with the
  // entry's sha256. Returns the file_id.
  std::int64_t write_entry(std::int64_t run_id, const EntryRecord& entry, const MapStats* stats);

  // Commits the current batch (no-op when nothing is pending).
  void commit_batch();
  // Entries written since the last commit.
  std::size_t pending_entries() const;

  // Stores the run's counters in the current batch (progress for readers).
  void update_run(std::int64_t run_id, const RunCounters& counters);

  // Records in the current batch how completely the run read the source:
  // "complete" (the default), "partial" or "unreadable" (run_sources.reading),
  // and for a partial reading the last entry read (run_sources.last_entry).
  void set_source_reading(std::int64_t run_id, std::int64_t source_id, std::string_view reading,
                          const std::optional<std::string>& last_entry = std::nullopt);

  // Commits the batch, then sets the run's status ("complete",
  // "interrupted" or "failed"), finished_at and counters.
  void finish_run(std::int64_t run_id, std::string_view status, const RunCounters& counters);

  int schema_version() const;
  sqlite3* handle() const;  // for read queries (tests, audit)

 private:
  struct Impl;
  explicit IndexDb(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace mapindex::index
