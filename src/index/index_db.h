// The SQLite index: opening (creating, migrating), and the writer the
// pipeline's serial writer node calls from one thread at a time.
//
//   auto db = IndexDb::open("mapindex.sqlite", OpenMode::read_write);
//   auto run = db->begin_run("mapindex index maps.zip", tool_version());
//   auto source = db->source_id(run, "maps.zip", SourceKind::archive);
//   auto known = db->known_maps();            // skip decoding these sha256s
//   db->write_entry(run, entry, &stats);      // or nullptr for a known map / non-map
//   db->commit_batch();                       // every N entries or T ms
//   db->finish_run(run, RunStatus::complete, counters);
//
// Each write_entry's rows are written together (a savepoint inside the
// batch's transaction, or the batch as a whole: OpenOptions::
// entry_savepoints), so a crash at any moment leaves whole entries only.
// Methods other than open throw IndexError on SQLite failures or misuse; an
// entry whose write throws leaves no rows and the batch stays usable (or,
// without entry savepoints, is rolled back).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/result.h"
#include "extract/map_stats.h"
#include "index/entry_record.h"
#include "index/layer_index.h"
#include "index/migrations.h"
#include "index/part_key.h"
#include "sqlite/database.h"
#include "sqlite/statement.h"

namespace mapindex::index {

enum class OpenMode { read_write, read_only };

// How a read_write open vetted the index for damage (IndexDb::index_check).
enum class IndexCheck {
  none,         // read_only, or the file's size could not be read
  created,      // a new index: nothing to check
  quick_check,  // PRAGMA quick_check ran and found nothing
  unchanged,    // the file is byte for byte what a clean run left (index_stamp.h)
  too_large,    // over OpenOptions::quick_check_max_bytes: not checked
};
std::string_view to_string(IndexCheck check);

struct KnownMap {
  std::int64_t map_id = 0;
  MapStatus status = MapStatus::ok;            // DDNet's verdict
  MapStatus teeworlds_status = MapStatus::ok;  // the verdict for Teeworlds (game_verdict.h)

  MapStatus status_for(Game game) const { return game == Game::ddnet ? status : teeworlds_status; }
};

// read_write opens run `PRAGMA quick_check` (every page of every table,
// not the index contents) on an index up to this size: a damaged index is
// refused before a run writes into it. It reads the whole file once
// (measured: see docs/guide.md, "Trusting the index"); larger indexes are checked by
// `mapindex check` only. A file still byte for byte as a run that finished
// under a passed check left it (its stamp, index_stamp.h) is not checked
// again; such a run stamps the file when it closes it.
inline constexpr std::uint64_t kQuickCheckMaxBytes = 256ull << 20;

// Whether connections that write enforce the schema's foreign keys (PRAGMA
// foreign_keys). Every id mapindex stores in a REFERENCES column is that of
// a row it inserted or found in the index during the run, of a table nothing
// deletes from (runs, sources, files, maps), or of a row inserted or found
// in the same transaction (layer_data; a map's own layer_data rows are
// deleted only with the layers that refer to them); a transaction that is
// lost stops the run. So a violation can only be a bug in mapindex, never
// something a map or an archive does: the check is an assertion, and is
// built like one. On in Debug builds (the sanitizer build runs the whole
// test suite with it); off in release builds, where SQLite's lookup of the
// parent row of every row written cost a few percent of a run's CPU (see the
// benchmark results).
// Either way the tests run PRAGMA foreign_key_check on the indexes they
// write, and `mapindex check` runs it on demand. What a bug would leave in a
// release build: a row referring to a missing one, which `mapindex check`
// reports and which stops the next migration (each checks the foreign keys
// before it commits) until the index is rebuilt.
#ifdef NDEBUG
inline constexpr bool kEnforceForeignKeys = false;
#else
inline constexpr bool kEnforceForeignKeys = true;
#endif

struct OpenOptions {
  // Schema migrations to apply (tests pass their own list).
  Migrations migrations = default_migrations();
  // What an empty file gets instead, when it is a snapshot of `migrations`
  // (null: run the migrations one by one, as tests comparing the two do).
  const SchemaSnapshot* fresh_schema = &default_schema_snapshot();
  // Maps measured by an older extractor are measured again (tests vary it).
  int extractor_version = kExtractorVersion;
  int busy_timeout_ms = sqlite::kBusyTimeoutMs;
  // read_write: run PRAGMA quick_check when the file is at most this large.
  std::uint64_t quick_check_max_bytes = kQuickCheckMaxBytes;
  // read_write, on an index in WAL mode that needs no migration: the check
  // (the stamp compared, then quick_check when it does not match) runs on a
  // connection of its own while the caller goes on (reading its inputs);
  // the first write waits for the verdict and, on damage, throws
  // IndexError (index.damaged) instead of writing, as does known_maps() when
  // it meets damage first. Otherwise open checks.
  bool check_in_background = false;
  // read_write: the log's checkpoints run on a thread of their own at idle
  // priority while the caller writes (checkpointer.h), until finish_run;
  // otherwise, and from then on, SQLite's automatic checkpoints, inside the
  // commits.
  bool checkpoint_in_background = false;
  // read_write, on a new (empty) file: its schema is made, and the file
  // switched to WAL, on a thread of its own while the caller goes on
  // (reading its inputs). Every use of the connection waits for it first
  // (the first write, known_maps(), handle(), schema_version(),
  // await_open()); a failure
  // is kept for await_open() and thrown by the first write, as IndexError
  // with the code open would have returned. Otherwise open makes it.
  bool create_in_background = false;
  // Each write_entry in a savepoint of its own: an entry whose write fails
  // leaves no rows and the batch goes on. Off: no savepoint (SQLite copies
  // every page an entry is the first in its savepoint to change), and an
  // entry whose write fails rolls the whole batch back (pending_entries()
  // is 0 then): the caller writes the batch's other entries again. The
  // batch's source_id() rows are lost with it, so the caller commits them
  // before its entries.
  bool entry_savepoints = true;
  // A run drops map_layers_by_def once it has written this many map_layers
  // rows and a quarter of what the table held (layer_index.h; tests lower it).
  std::uint64_t defer_layer_index_after_rows = LayerIndexDeferral::kDeferAfterRows;
};

// `mapindex check`: the full verdict on an index file.
struct CheckReport {
  int schema_version = 0;
  std::vector<std::string> integrity;     // PRAGMA integrity_check rows other than "ok"
  std::vector<std::string> foreign_keys;  // PRAGMA foreign_key_check rows, as text
  bool ok() const { return integrity.empty() && foreign_keys.empty(); }
};
// Opens `path` read-only and runs PRAGMA integrity_check (at most
// `max_problems` rows) and PRAGMA foreign_key_check. Errors are those of
// open_sqlite_read_only and read_schema_version (not a mapindex index, a
// newer schema), and index.damaged when the checks themselves cannot run.
Result<CheckReport> check_index(const std::string& path, int max_problems = 100);

class IndexDb {
 public:
  // read_write: creates the file if needed, refuses an index another live
  // `mapindex index` run is writing (index.locked, naming the run, its pid,
  // host and start) and, up to options.quick_check_max_bytes, a damaged one
  // (index.damaged; with options.check_in_background its first write
  // refuses it instead); then WAL mode, migrates an older schema in place,
  // refreshes tile_names and problem_codes. read_only: refuses an index that
  // is missing, older or newer than this build's schema; on read-only media
  // it is opened immutable (see open_sqlite_read_only). Errors: index.open,
  // index.not_sqlite, index.foreign, index.newer, index.older,
  // index.migration, index.damaged, index.locked, index.io.
  static Result<IndexDb> open(const std::string& path, OpenMode mode, OpenOptions options = {});

  IndexDb(IndexDb&&) noexcept;
  IndexDb& operator=(IndexDb&&) noexcept;
  ~IndexDb();  // rolls back an uncommitted batch

  // Starts a run (committed at once). Runs left 'running' by a process that
  // is gone are marked 'interrupted' first; a run of a live process makes it
  // throw IndexError with code index.locked.
  std::int64_t begin_run(std::string_view command, std::string_view tool_version);

  // The source's id (created on first use); records that `run_id` reads it.
  std::int64_t source_id(std::int64_t run_id, std::string_view path, SourceKind kind);

  // sha256 -> the maps measured by this extractor version (or a newer one):
  // content the pipeline need not decode again, with its status so a re-run
  // still counts rejected maps.
  std::unordered_map<Sha256, KnownMap, Sha256Hash> known_maps();

  // This open created the index (the file was new or empty): it held no
  // maps and no layers, so a run need not ask it for either. Does not wait
  // for OpenOptions::create_in_background.
  bool created() const;

  // Waits for what open left to a thread (OpenOptions::create_in_background):
  // the Error that open would have returned had it made the schema itself.
  std::optional<Error> await_open() const;

  // Writes one entry seen by `run_id` in the current batch: its files row,
  // content version and sighting, its entry problems, and for a map either
  // `stats` (the maps row and all child rows, replacing those of an older
  // extractor version; kept as they are when already measured by this one)
  // or, when stats is null, a reference to the already indexed map with the
  // entry's sha256 (entry.known_map_id when known_maps gave it). `keys`:
  // part_keys(*stats) computed ahead (by the thread that measured the map);
  // null: computed here. Returns the file_id.
  std::int64_t write_entry(std::int64_t run_id, const EntryRecord& entry, const MapStats* stats,
                           const MapPartKeys* keys = nullptr);

  // Commits the current batch (no-op when nothing is pending).
  void commit_batch();
  // Entries written since the last commit.
  std::size_t pending_entries() const;

  // Stores the run's counters in the current batch (progress for readers).
  void update_run(std::int64_t run_id, const RunCounters& counters);

  // Records in the current batch how completely the run read the source
  // (run_sources.reading; complete is the default), and for a partial
  // reading the last entry read (run_sources.last_entry).
  void set_source_reading(std::int64_t run_id, std::int64_t source_id, SourceReading reading,
                          const std::optional<std::string>& last_entry = std::nullopt);

  // Sets the run's status (complete, interrupted or failed: not running),
  // finished_at and counters in the batch's transaction, and commits it: the
  // run's last rows and its end are one commit. A run that finished
  // complete or interrupted on an index that was created, checked or found
  // unchanged at open has the file stamped when the IndexDb is destroyed
  // (after its connection closed); any other read_write IndexDb removes the
  // stamp then.
  void finish_run(std::int64_t run_id, RunStatus status, const RunCounters& counters);

  int schema_version() const;
  sqlite3* handle() const;  // for read queries (tests, audit)
  // How open vetted the index; waits for the background check's verdict
  // (throws IndexError, index.damaged, when it found damage).
  IndexCheck index_check();

 private:
  struct Impl;
  explicit IndexDb(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace mapindex::index
