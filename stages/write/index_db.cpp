#include "stages/write/index_db.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <filesystem>
#include <functional>
#include <future>
#include <optional>
#include <unordered_set>
#include <utility>
#include <vector>

#include "stages/common/background.h"
#include "stages/common/hex.h"
#include "stages/common/utf8.h"
#include "stages/write/checkpointer.h"
#include "stages/write/code_table.h"
#include "stages/write/index_stamp.h"
#include "stages/write/map_rows.h"
#include "stages/write/tile_names.h"

namespace mapindex::index {
namespace {

constexpr std::string_view kNow = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

std::string host_name() {
  char buffer[256] = {};
  if (gethostname(buffer, sizeof buffer - 1) != 0) return {};
  return buffer;
}

// A run left 'running' belongs to a live process only if that process (on
// this host, other than us) still exists.
bool run_is_alive(const std::string& host, std::int64_t pid) {
  if (host != host_name() || pid <= 0 || pid == getpid()) return false;
  return kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

bool is_lower_hex_sha256(std::string_view s) {
  if (s.size() != 64) return false;
  for (const char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

// A run the runs table says is 'running'.
struct RunningRun {
  std::int64_t run_id = 0;
  std::string host;
  std::int64_t pid = 0;
  std::string started_at;
  bool alive = false;  // its process exists (on this host)
};

// The runs marked 'running'; none when there is no runs table yet (a new
// index) or it cannot be read (the caller's next statement says why).
std::vector<RunningRun> running_runs(sqlite3* db) {
  std::vector<RunningRun> runs;
  try {
    Statement select(db,
                     "SELECT run_id, ifnull(host, ''), ifnull(pid, 0), started_at FROM runs "
                     "WHERE status = 'running' ORDER BY run_id");
    while (select.step()) {
      RunningRun run{select.column_int(0), select.column_text(1), select.column_int(2),
                     select.column_text(3)};
      run.alive = run_is_alive(run.host, run.pid);
      runs.push_back(std::move(run));
    }
  } catch (const IndexError&) {
  }
  return runs;
}

// "run 7 (pid 4242 on host h, started 2026-11-23 05:01:02 UTC)".
std::string describe(const RunningRun& run) {
  std::string started = run.started_at.substr(0, run.started_at.find('.'));
  if (auto t = started.find('T'); t != std::string::npos) started[t] = ' ';
  return "run " + std::to_string(run.run_id) + " (pid " + std::to_string(run.pid) + " on host " +
         (run.host.empty() ? "?" : run.host) + ", started " + started + " UTC)";
}

Error live_run_error(const std::string& path, const RunningRun& run) {
  return Error{Code::index_locked, "index '" + path + "' is being written by " + describe(run) +
                                       ": wait for it to finish, or stop it (kill " +
                                       std::to_string(run.pid) +
                                       ") and run again; a stopped run's work is kept"};
}

// The write lock stayed taken for the whole busy timeout.
Error busy_error(sqlite3* db, const std::string& path, const std::string& what) {
  const auto runs = running_runs(db);
  for (const auto& run : runs)
    if (run.alive) return live_run_error(path, run);
  std::string message = "index '" + path + "' is locked by another process (" + what + ")";
  for (const auto& run : runs)
    if (run.host == host_name())
      message += "; " + describe(run) + " is marked running but its process no longer exists";
  return Error{Code::index_locked, message +
                                       ": wait for the process holding it to finish or stop it "
                                       "(`fuser -v " +
                                       path + "` names it), then run again"};
}

// Rows of a PRAGMA that answers with one text column (quick_check, integrity_check).
std::vector<std::string> pragma_rows(sqlite3* db, const std::string& pragma) {
  std::vector<std::string> rows;
  Statement statement(db, pragma);
  while (statement.step()) rows.push_back(statement.column_text(0));
  return rows;
}

// The check at open looks for damage to the file (pages, cells, NOT NULL),
// not at the CHECK constraints of every row: those only a program writing
// past mapindex can break, they are over 40% of the check's time, and
// `mapindex check` still runs them.
std::optional<Error> quick_check(sqlite3* db, const std::string& path) {
  exec_sql(db, "PRAGMA ignore_check_constraints = ON");
  std::vector<std::string> rows;
  try {
    rows = pragma_rows(db, "PRAGMA quick_check(10)");
  } catch (...) {
    exec_sql(db, "PRAGMA ignore_check_constraints = OFF");
    throw;
  }
  exec_sql(db, "PRAGMA ignore_check_constraints = OFF");
  if (rows.size() == 1 && rows[0] == "ok") return std::nullopt;
  std::string what = "PRAGMA quick_check: ";
  for (std::size_t i = 0; i < rows.size() && i < 3; ++i) what += (i ? "; " : "") + rows[i];
  if (rows.size() > 3) what += "; ... (`mapindex check --db " + path + "` lists all)";
  return damaged_error(path, what);
}

// The background check's verdict: how the file was vetted, and the damage found.
struct Vetting {
  IndexCheck how = IndexCheck::none;
  std::optional<Error> damage;
};

// The background check, on a connection of its own: the stamp compared,
// and quick_check when it does not match.
Vetting vet_file(const std::string& path, int busy_timeout_ms) {
  auto connection = open_sqlite_read_only(path, busy_timeout_ms);
  if (!connection) return {IndexCheck::quick_check, connection.error()};
  try {
    if (matches_stamp(connection->get(), path)) return {IndexCheck::unchanged, std::nullopt};
    return {IndexCheck::quick_check, quick_check(connection->get(), path)};
  } catch (const IndexError& e) {
    // As open reports it when the check itself runs into damage.
    if (e.code() == Code::index_damaged)
      return {IndexCheck::quick_check, damaged_error(path, e.what())};
    return {IndexCheck::quick_check, Error{e.code(), e.what()}};
  } catch (const std::exception& e) {
    // Out of memory, say: a verdict all the same, so that no write goes
    // ahead unchecked (await_check would otherwise find none).
    return {IndexCheck::quick_check,
            Error{Code::index_open, "cannot check index '" + path + "': " + e.what()}};
  }
}

// PRAGMA data_version: changes when another connection commits.
std::int64_t data_version(sqlite3* db) {
  return Statement(db, "PRAGMA data_version").single_int().value_or(-1);
}

// Whether the index is in WAL mode already (reading the mode changes nothing).
bool in_wal_mode(sqlite3* db) {
  Statement mode(db, "PRAGMA journal_mode");
  return mode.step() && mode.column_text(0) == "wal";
}

// read_schema_version, with the advice for a damaged index.
Result<int> schema_version_of(sqlite3* db, const std::string& path) {
  auto version = read_schema_version(db, path);
  if (!version && version.error().code == Code::index_damaged)
    return damaged_error(path, version.error().message);
  return version;
}

}  // namespace

std::string entry_name(std::string_view entry_path) {
  const auto slash = entry_path.find_last_of("/\\");
  std::string_view base =
      slash == std::string_view::npos ? entry_path : entry_path.substr(slash + 1);
  if (base.empty()) return std::string(entry_path);
  const auto dot = base.rfind('.');
  if (dot != std::string_view::npos && dot > 0) base = base.substr(0, dot);
  return std::string(base);
}

// Paths a run wrote, per source, as a Bloom filter (1 MiB): "not seen" is
// certain, "seen" may be wrong (about 1 in 2,000 after 100,000 paths, 1 in
// 25 after a million), and then the index is asked.
class SeenPaths {
 public:
  // Whether (source, path) may have been added before; adds it.
  bool check_and_add(std::int64_t source_id, std::string_view path) {
    if (bits_.empty()) bits_.resize(kWords);
    const std::uint64_t h =
        std::hash<std::string_view>{}(path) ^ (static_cast<std::uint64_t>(source_id) * kOdd);
    const std::uint64_t a = h % kBits, b = (h * kOdd >> 20) % kBits;
    const bool seen = test(a) && test(b);
    set(a);
    set(b);
    return seen;
  }
  void clear() { std::fill(bits_.begin(), bits_.end(), 0); }

 private:
  static constexpr std::uint64_t kWords = 1u << 17, kBits = kWords * 64;
  static constexpr std::uint64_t kOdd = 0x9e3779b97f4a7c15ull;
  bool test(std::uint64_t bit) const { return (bits_[bit / 64] >> (bit % 64)) & 1; }
  void set(std::uint64_t bit) { bits_[bit / 64] |= std::uint64_t{1} << (bit % 64); }
  std::vector<std::uint64_t> bits_;
};

struct IndexDb::Impl {
  Connection db;
  std::string path;
  OpenMode mode = OpenMode::read_only;
  int extractor_version = kExtractorVersion;
  int schema_version = 0;
  std::unique_ptr<StatementCache> statements;
  // The damage check running in the background (OpenOptions::
  // check_in_background), and its verdict once taken.
  std::future<Vetting> check;
  std::optional<Error> damage;
  IndexCheck checked = IndexCheck::none;
  // A run finished (complete or interrupted) on a vetted index, and nothing
  // was written since: the file is stamped before it is closed
  // (index_stamp.h), up to stamp_max_bytes, unless another connection
  // committed meanwhile (data_version moved from data_version_at_open).
  bool stamp_on_close = false;
  std::uint64_t stamp_max_bytes = 0;
  std::int64_t data_version_at_open = -1;
  bool in_batch = false;
  std::size_t pending = 0;
  // OpenOptions::checkpoint_in_background (stopped before the stamp, whose
  // checkpoint must be the only one).
  std::unique_ptr<Checkpointer> checkpointer;

  ~Impl() {
    if (db && in_batch) sqlite3_exec(db.get(), "ROLLBACK", nullptr, nullptr, nullptr);
    checkpointer.reset();
    statements.reset();  // finalize before closing
    if (mode != OpenMode::read_write || path.empty()) return;
    if (check.valid()) check.wait();  // its connection closed too
    try {
      if (db && stamp_on_close && data_version(db.get()) == data_version_at_open) {
        // Not waiting for another connection: then no stamp.
        sqlite3_busy_timeout(db.get(), 0);
        stamp_file(db.get(), path, stamp_max_bytes);
      } else {
        remove_stamp(path);
      }
    } catch (...) {
      remove_stamp(path);
    }
  }

  // The index was created, checked or found unchanged, and no damage was found.
  bool vetted() const {
    return !damage && (checked == IndexCheck::created || checked == IndexCheck::quick_check ||
                       checked == IndexCheck::unchanged);
  }

  Statement& sql(std::string_view text) { return statements->get(text); }

  void require_writable(std::string_view what) const {
    if (mode != OpenMode::read_write)
      throw IndexError(std::string(what) + ": index '" + path + "' is open read-only");
  }

  // The background check's verdict (OpenOptions::check_in_background),
  // waited for: throws IndexError (index.damaged) with its findings when it
  // found damage. Every write asks first (begin_batch); a read that meets
  // damage asks for the better message.
  void await_check() {
    if (check.valid()) {
      auto verdict = check.get();
      checked = verdict.how;
      damage = std::move(verdict.damage);
    }
    if (damage) throw IndexError(damage->message, damage->code, path);
  }

  void begin_batch() {
    if (in_batch) return;
    await_check();
    stamp_on_close = false;  // until a run finishes again
    sql("BEGIN IMMEDIATE").run();
    in_batch = true;
  }

  void commit() {
    if (!in_batch) return;
    sql("COMMIT").run();
    in_batch = false;
    pending = 0;
    sources_in_batch.clear();
  }

  // The whole batch undone (OpenOptions::entry_savepoints off), with what
  // the writer remembered of it.
  void roll_back_batch() {
    sqlite3_exec(db.get(), "ROLLBACK", nullptr, nullptr, nullptr);
    in_batch = false;
    pending = 0;
    parts.clear();
    for (const auto id : sources_in_batch) new_sources.erase(id);
    sources_in_batch.clear();
  }

  // After a failed statement SQLite may have rolled the whole transaction
  // back (disk full, I/O error): notice it.
  void resync_after_error() {
    parts.clear();
    if (in_batch && sqlite3_get_autocommit(db.get())) {
      for (const auto id : sources_in_batch) new_sources.erase(id);
      sources_in_batch.clear();
      in_batch = false;
      pending = 0;
    }
  }

  void write_counters(std::int64_t run_id, const RunCounters& c) {
    sql("UPDATE runs SET entries = ?, maps_indexed = ?, maps_known = ?, rejected = ?, "
        "with_warnings = ?, not_maps = ?, unreadable = ?, oversize = ?, bytes = ? "
        "WHERE run_id = ?")
        .bind_all(c.entries, c.maps_indexed, c.maps_known, c.rejected, c.with_warnings, c.not_maps,
                  c.unreadable, c.oversize, c.bytes, run_id)
        .run();
  }

  std::int64_t write_entry(std::int64_t run_id, const EntryRecord& e, const MapStats* stats,
                           const MapPartKeys* keys);

  // The writer's memory of shared rows (map_rows.h), cleared whenever a write
  // is rolled back.
  PartCache parts;
  // Sources this run created (their files rows are all this run's), and the
  // paths this run wrote: a path not seen is its first occurrence.
  std::unordered_set<std::int64_t> new_sources;
  std::vector<std::int64_t> sources_in_batch;  // of new_sources, created in the open batch
  SeenPaths seen_paths;
  bool entry_savepoints = true;  // OpenOptions::entry_savepoints
};

Result<IndexDb> IndexDb::open(const std::string& path, OpenMode mode, OpenOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  impl->mode = mode;
  impl->extractor_version = options.extractor_version;
  impl->entry_savepoints = options.entry_savepoints;

  if (mode == OpenMode::read_write) {
    if (impl->db.open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) != SQLITE_OK)
      return open_error(impl->db.get(), path);
    sqlite3_busy_timeout(impl->db.get(), options.busy_timeout_ms);
  } else {
    auto db = open_sqlite_read_only(path, options.busy_timeout_ms);
    if (!db) return db.error();
    impl->db = std::move(*db);
  }

  auto version = schema_version_of(impl->db.get(), path);
  if (!version) return version.error();
  const int latest = options.migrations.empty() ? 0 : options.migrations.back().version;

  try {
    if (mode == OpenMode::read_write) {
      if (*version > latest) {
        auto migrated = migrate(impl->db.get(), path, options.migrations);  // reports "newer"
        return migrated.error();
      }
      // Before the stamp is compared: a commit by another connection from
      // here on moves it, and the run leaves no stamp.
      impl->data_version_at_open = data_version(impl->db.get());
      impl->stamp_max_bytes = options.quick_check_max_bytes;
      if (*version > 0) {
        // Before anything is written: another live run, then damage.
        for (const auto& run : running_runs(impl->db.get()))
          if (run.alive) return live_run_error(path, run);
        std::error_code ec;
        const auto size = std::filesystem::file_size(path, ec);
        if (!ec && size <= options.quick_check_max_bytes) {
          // The stamp is compared in the background too: on the main
          // connection its read transaction, schema read and CRC delayed a
          // re-run's first entry.
          // Without a thread to be had, here, as when not in the background.
          if (options.check_in_background && *version == latest && in_wal_mode(impl->db.get())) {
            const int timeout = options.busy_timeout_ms;
            impl->check = start_in_background([path, timeout] { return vet_file(path, timeout); });
          }
          if (!impl->check.valid()) {
            if (matches_stamp(impl->db.get(), path)) {
              impl->checked = IndexCheck::unchanged;
            } else if (auto damaged = quick_check(impl->db.get(), path)) {
              return *damaged;
            } else {
              impl->checked = IndexCheck::quick_check;
            }
          }
        } else if (!ec) {
          impl->checked = IndexCheck::too_large;
        }
      } else {
        impl->checked = IndexCheck::created;
      }
      // A new file (empty: nothing in it to lose) is switched to WAL without
      // waiting for the disk: the switch writes its first page through a
      // rollback journal, synced four times at the default FULL. A power cut before the disk has
      // that page leaves the file empty (the next run makes the index anew) or at worst unreadable,
      // with nothing in it lost: mapindex then says it is not a SQLite database, and it is to be
      // removed. (Until the first checkpoint syncs them, NORMAL promises nothing for the commits
      // after it either.)
      std::error_code size_ec;
      if (impl->checked == IndexCheck::created && std::filesystem::file_size(path, size_ec) == 0 &&
          !size_ec)
        exec_sql(impl->db.get(), "PRAGMA synchronous = OFF");
      Statement wal(impl->db.get(), "PRAGMA journal_mode = WAL");
      if (!wal.step() || wal.column_text(0) != "wal")
        return Error{Code::index_open, "cannot switch index '" + path + "' to WAL mode"};
      wal.reset();
      // In WAL mode a commit then appends to the log without syncing it: the
      // index stays whole after a power cut, though its last commits may be
      // lost. Set before migrating, so that the migrations' commits do not
      // sync either (at FULL, a new index's schema took three more syncs).
      exec_sql(impl->db.get(), "PRAGMA synchronous = NORMAL");
      // Switching a new file to WAL moves data_version (an index that was
      // in another mode is stamped from its next run on).
      if (impl->checked == IndexCheck::created)
        impl->data_version_at_open = data_version(impl->db.get());
      auto migrated = migrate(impl->db.get(), path, options.migrations, options.fresh_schema);
      if (!migrated) return migrated.error();
      impl->schema_version = *migrated;
      exec_sql(impl->db.get(),
               kEnforceForeignKeys ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF");
      exec_sql(impl->db.get(), "PRAGMA cache_size = -16384");
      // Statement and savepoint journals in memory: on disk they halve the
      // writer's speed.
      exec_sql(impl->db.get(), "PRAGMA temp_store = MEMORY");
      sync_tile_names(impl->db.get(), builtin_tile_names(), [&impl] { impl->await_check(); });
      sync_problem_codes(impl->db.get(), [&impl] { impl->await_check(); });
      if (options.checkpoint_in_background)
        impl->checkpointer = Checkpointer::start(impl->db.get(), path);
    } else {
      if (*version == 0)
        return Error{Code::index_open, "'" + path + "' is not a mapindex index (no schema)"};
      if (*version > latest)
        return Error{Code::index_newer, "index '" + path + "' has schema version " +
                                            std::to_string(*version) +
                                            ", newer than this mapindex understands (" +
                                            std::to_string(latest) + "): use a newer mapindex"};
      if (*version < latest)
        return Error{Code::index_older, "index '" + path + "' has schema version " +
                                            std::to_string(*version) +
                                            ", older than this mapindex's " +
                                            std::to_string(latest) + ": run `mapindex index --db " +
                                            path + " ...` once to migrate it in place"};
      impl->schema_version = *version;
      exec_sql(impl->db.get(), "PRAGMA query_only = ON");
    }
  } catch (const IndexError& e) {
    if (e.code() == Code::index_locked) return busy_error(impl->db.get(), path, e.what());
    if (e.code() == Code::index_damaged) return damaged_error(path, e.what());
    return Error{e.code() == Code::index_sql ? Code::index_open : e.code(),
                 "cannot open index '" + path + "': " + e.what()};
  }
  impl->statements = std::make_unique<StatementCache>(impl->db.get());
  return IndexDb(std::move(impl));
}

Result<CheckReport> check_index(const std::string& path, int max_problems) {
  // Declared first, closed last: as the last connection it removes the WAL
  // files SQLite made for the check.
  Connection writable;
  auto connection = open_sqlite_read_only(path);
  if (!connection) return connection.error();
  sqlite3* db = connection->get();
  auto version = schema_version_of(db, path);
  if (!version) return version.error();
  if (*version == 0)
    return Error{Code::index_foreign, "'" + path + "' is not a mapindex index (no schema)"};
  const auto& migrations = default_migrations();
  const int latest = migrations.empty() ? 0 : migrations.back().version;
  if (*version > latest)
    return Error{Code::index_newer,
                 "index '" + path + "' has schema version " + std::to_string(*version) +
                     ", newer than this mapindex understands (" + std::to_string(latest) +
                     "): check it with a newer mapindex"};
  CheckReport report;
  report.schema_version = *version;
  // SQLite verifies the CHECK constraints of every row only on a connection
  // that could write: where the file is writable, the checks run on one with
  // query_only on (it cannot write either); on read-only media without them.
  sqlite3* checked = db;
  if (writable_here(path) && writable.open(path, SQLITE_OPEN_READWRITE) == SQLITE_OK &&
      sqlite3_exec(writable.get(), "PRAGMA query_only = ON", nullptr, nullptr, nullptr) ==
          SQLITE_OK) {
    sqlite3_busy_timeout(writable.get(), kBusyTimeoutMs);
    checked = writable.get();
  }
  try {
    for (auto& row :
         pragma_rows(checked, "PRAGMA integrity_check(" + std::to_string(max_problems) + ")"))
      if (row != "ok") report.integrity.push_back(std::move(row));
    Statement fk(checked, "PRAGMA foreign_key_check");
    while (fk.step() && static_cast<int>(report.foreign_keys.size()) < max_problems)
      report.foreign_keys.push_back("row " + fk.column_text(1) + " of " + fk.column_text(0) +
                                    " refers to a missing row of " + fk.column_text(2));
  } catch (const IndexError& e) {
    if (e.code() != Code::index_damaged)
      return Error{e.code(), "cannot check index '" + path + "': " + e.what()};
    report.integrity.push_back(e.what());  // the check itself ran into damage
  }
  return report;
}

IndexDb::IndexDb(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
IndexDb::IndexDb(IndexDb&&) noexcept = default;
IndexDb& IndexDb::operator=(IndexDb&&) noexcept = default;
IndexDb::~IndexDb() = default;

int IndexDb::schema_version() const { return impl_->schema_version; }
sqlite3* IndexDb::handle() const { return impl_->db.get(); }
std::size_t IndexDb::pending_entries() const { return impl_->pending; }

std::int64_t IndexDb::begin_run(std::string_view command, std::string_view tool_version) {
  auto& d = *impl_;
  d.require_writable("begin_run");
  d.commit();
  const auto rollback = [&d] {
    sqlite3_exec(d.db.get(), "ROLLBACK", nullptr, nullptr, nullptr);
    d.in_batch = false;
  };
  std::optional<Error> refused;
  try {
    d.begin_batch();
    // In the write transaction: two runs starting at once cannot both pass.
    for (const auto& run : running_runs(d.db.get())) {
      if (run.alive) {
        refused = live_run_error(d.path, run);
        break;
      }
      d.sql("UPDATE runs SET status = 'interrupted' WHERE run_id = ?").bind_all(run.run_id).run();
    }
    if (!refused) {
      auto& insert = d.sql(
          "INSERT INTO runs (started_at, status, tool_version, extractor_version, "
          "command, host, pid) VALUES (" +
          std::string(kNow) + ", 'running', ?, ?, ?, ?, ?) RETURNING run_id");
      insert.bind_all(tool_version, d.extractor_version, command, host_name(), getpid());
      insert.step();
      const std::int64_t run_id = insert.column_int(0);
      insert.reset();
      d.commit();
      d.new_sources.clear();
      d.seen_paths.clear();
      return run_id;
    }
  } catch (const IndexError& e) {
    rollback();
    if (e.code() != Code::index_locked) throw;
    refused = busy_error(d.db.get(), d.path, e.what());
  } catch (...) {
    rollback();
    throw;
  }
  rollback();
  throw IndexError(refused->message, refused->code);
}

std::int64_t IndexDb::source_id(std::int64_t run_id, std::string_view path, SourceKind kind) {
  auto& d = *impl_;
  d.require_writable("source_id");
  d.begin_batch();
  try {
    auto& upsert = d.sql(
        "INSERT INTO sources (path, kind, first_run_id, last_run_id, path_raw) "
        "VALUES (?1, ?2, ?3, ?3, ?4) "
        "ON CONFLICT (path, kind) DO UPDATE SET last_run_id = excluded.last_run_id, "
        "path_raw = excluded.path_raw "
        "RETURNING source_id, first_run_id");
    upsert.bind_all(path, to_string(kind), run_id, bytes_if_not_utf8(path));
    upsert.step();
    const std::int64_t id = upsert.column_int(0);
    const bool created = upsert.column_int(1) == run_id;
    upsert.reset();
    if (created && d.new_sources.insert(id).second) d.sources_in_batch.push_back(id);
    d.sql("INSERT OR IGNORE INTO run_sources (run_id, source_id) VALUES (?, ?)")
        .bind_all(run_id, id)
        .run();
    return id;
  } catch (...) {
    d.resync_after_error();
    throw;
  }
}

std::unordered_map<std::string, KnownMap> IndexDb::known_maps() {
  auto& d = *impl_;
  std::unordered_map<std::string, KnownMap> known;
  auto& select = d.sql(
      "SELECT sha256, map_id, status, coalesce(teeworlds_status, status) FROM maps "
      "WHERE extractor_version >= ?");
  select.bind_all(d.extractor_version);
  try {
    while (select.step())
      known.emplace(
          select.column_text(0),
          KnownMap{select.column_int(1), select.column_enum(2, parse_map_status, "maps.status"),
                   select.column_enum(3, parse_map_status, "maps.teeworlds_status")});
  } catch (const IndexError& e) {
    // Damage met while the background check runs: reported as the check
    // reports it (with its advice).
    if (e.code() == Code::index_damaged) d.await_check();
    throw;
  }
  select.reset();
  return known;
}

std::int64_t IndexDb::write_entry(std::int64_t run_id, const EntryRecord& entry,
                                  const MapStats* stats, const MapPartKeys* keys) {
  auto& d = *impl_;
  d.require_writable("write_entry");
  const auto where = [&entry] { return "entry '" + entry.entry_path + "'"; };
  if (!entry.sha256.empty() && !is_lower_hex_sha256(entry.sha256))
    throw IndexError(where() + ": sha256 '" + entry.sha256 + "' is not 64 lowercase hex digits");
  if (entry.kind == EntryKind::map && entry.sha256.empty())
    throw IndexError(where() + ": a map needs its sha256");
  if (stats && entry.kind != EntryKind::map)
    throw IndexError(where() + ": statistics given for an entry of kind " +
                     std::string(to_string(entry.kind)));

  d.begin_batch();
  if (!d.entry_savepoints) {
    try {
      const std::int64_t file_id = d.write_entry(run_id, entry, stats, keys);
      ++d.pending;
      return file_id;
    } catch (...) {
      d.roll_back_batch();
      throw;
    }
  }
  d.sql("SAVEPOINT entry").run();
  try {
    const std::int64_t file_id = d.write_entry(run_id, entry, stats, keys);
    d.sql("RELEASE entry").run();
    ++d.pending;
    return file_id;
  } catch (...) {
    sqlite3_exec(d.db.get(), "ROLLBACK TO entry; RELEASE entry", nullptr, nullptr, nullptr);
    d.parts.clear();  // it may name rows rolled back
    d.resync_after_error();
    throw;
  }
}

std::int64_t IndexDb::Impl::write_entry(std::int64_t run_id, const EntryRecord& e,
                                        const MapStats* stats, const MapPartKeys* keys) {
  std::optional<std::int64_t> map_id;
  if (e.kind == EntryKind::map) {
    if (stats) {
      std::optional<MapPartKeys> computed;
      if (!keys) keys = &computed.emplace(part_keys(*stats, extractor_version));
      map_id = store_map(*statements, parts, run_id, extractor_version,
                         MapIdentity{e.sha256, e.crc32, e.size}, *stats, *keys);
    } else if (const auto stored = find_map(*statements, e.sha256)) {
      map_id = stored->map_id;
    } else {
      throw IndexError("entry '" + e.entry_path + "': map " + e.sha256 +
                       " is not in the index, so its statistics are needed");
    }
  }

  std::optional<std::string_view> sha256;
  std::optional<std::uint32_t> crc32;
  if (!e.sha256.empty()) {
    sha256 = e.sha256;
    crc32 = e.crc32;
  }
  const std::string_view kind = to_string(e.kind);

  // The same path may occur more than once in a source (an archive holding
  // two entries of one name): each occurrence has its own row, numbered in
  // the order this run writes them (archive order), so that the next run maps
  // them to the same rows. Counted from this run's sightings when the path
  // may have been written before in this run (seen_paths), else the first.
  // Paths that differ only in bytes that are not UTF-8 are stored alike
  // (U+FFFD), so they count as occurrences of one path.
  const bool valid_path = is_valid_utf8(e.entry_path);
  const bool seen = seen_paths.check_and_add(
      e.source_id, valid_path ? e.entry_path : to_valid_utf8(e.entry_path));
  std::int64_t occurrence = 1;
  if (seen) {
    auto& earlier =
        sql("SELECT count(*) FROM files f JOIN file_sightings h ON h.file_id = f.file_id "
            "WHERE f.source_id = ? AND f.entry_path = ? AND h.run_id = ?");
    earlier.bind_all(e.source_id, e.entry_path, run_id);
    occurrence = earlier.single_int().value_or(0) + 1;
  }

  Problems problems = e.problems;
  if (!valid_path)
    problems.push_back(
        Problem{Code::text_not_utf8,
                "entry path is not valid UTF-8 (bytes: " + hex_bytes(e.entry_path) +
                    "); stored as '" + to_valid_utf8(e.entry_path) +
                    "' with U+FFFD for the invalid bytes, the bytes in files.entry_path_raw",
                Location::file()});
  if (occurrence > 1)
    problems.push_back(Problem{Code::read_duplicate_name,
                               "entry '" + e.entry_path +
                                   "' occurs more than once in its archive; this is occurrence " +
                                   std::to_string(occurrence),
                               Location::file()});

  const std::optional<Blob> raw_path = bytes_if_not_utf8(e.entry_path);
  auto& problem_insert =
      sql("INSERT INTO problems (run_id, map_id, file_id, position, severity, code, message, "
          "location) VALUES (?, NULL, ?, ?, ?, ?, ?, ?)");
  const auto insert_problems = [&](std::int64_t file_id) {
    for (std::size_t i = 0; i < problems.size(); ++i) {
      const auto& p = problems[i];
      problem_insert
          .bind_all(run_id, file_id, i, to_string(p.severity()), to_string(p.code), p.message,
                    to_string(p.location))
          .run();
    }
  };

  // The first entry of a path in a source this run started to read (a new
  // archive or folder, the usual case of a new index): no row of the path
  // can exist yet, so its rows are inserted as they are.
  if (!seen && new_sources.contains(e.source_id)) {
    const std::int64_t file_id =
        sql("INSERT INTO files (source_id, entry_path, occurrence, entry_path_raw, name, kind, "
            "size, sha256, crc32, map_id, first_run_id, last_run_id, changed_run_id) "
            "VALUES (?1, ?2, 1, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?10)")
            .bind_all(e.source_id, e.entry_path, raw_path, entry_name(e.entry_path), kind, e.size,
                      sha256, crc32, map_id, run_id)
            .insert();
    const std::int64_t version_id =
        sql("INSERT INTO file_versions (file_id, kind, size, sha256, crc32, map_id, "
            "first_run_id) VALUES (?, ?, ?, ?, ?, ?, ?)")
            .bind_all(file_id, kind, e.size, sha256, crc32, map_id, run_id)
            .insert();
    sql("INSERT INTO file_sightings (run_id, file_id, version_id) VALUES (?, ?, ?)")
        .bind_all(run_id, file_id, version_id)
        .run();
    insert_problems(file_id);
    return file_id;
  }

  // A file seen before as it is (the usual case of a run over unchanged
  // inputs) only gets its last_run_id: one row rewritten, no index entry.
  // Anything else goes through the upsert, which rewrites every column and
  // the entries of the files_by_* indexes (four times the cost).
  auto& file_seen =
      sql("UPDATE files SET last_run_id = ?1 WHERE source_id = ?2 AND entry_path = ?3 "
          "AND occurrence = ?4 AND entry_path_raw IS ?5 AND kind = ?6 AND size = ?7 "
          "AND sha256 IS ?8 AND crc32 IS ?9 AND map_id IS ?10 RETURNING file_id");
  file_seen.bind_all(run_id, e.source_id, e.entry_path, occurrence, raw_path, kind, e.size, sha256,
                     crc32, map_id);
  std::optional<std::int64_t> seen_id = file_seen.single_int();
  if (!seen_id) {
    auto& file_upsert = sql(
        "INSERT INTO files (source_id, entry_path, occurrence, entry_path_raw, name, kind, size, "
        "sha256, crc32, map_id, first_run_id, last_run_id, changed_run_id) "
        "VALUES (?1, ?2, ?10, ?11, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?9) "
        "ON CONFLICT (source_id, entry_path, occurrence) DO UPDATE SET "
        "changed_run_id = CASE WHEN files.kind IS NOT excluded.kind "
        "OR files.size IS NOT excluded.size OR files.sha256 IS NOT excluded.sha256 "
        "THEN excluded.changed_run_id ELSE files.changed_run_id END, "
        "name = excluded.name, kind = excluded.kind, size = excluded.size, "
        "sha256 = excluded.sha256, crc32 = excluded.crc32, map_id = excluded.map_id, "
        "last_run_id = excluded.last_run_id, entry_path_raw = excluded.entry_path_raw "
        "RETURNING file_id");
    file_upsert.bind_all(e.source_id, e.entry_path, entry_name(e.entry_path), kind, e.size, sha256,
                         crc32, map_id, run_id, occurrence, raw_path);
    seen_id = file_upsert.single_int();
  }
  const std::int64_t file_id = *seen_id;

  auto& version_select =
      sql("SELECT version_id FROM file_versions "
          "WHERE file_id = ? AND kind = ? AND size = ? AND ifnull(sha256, '') = ?");
  version_select.bind_all(file_id, kind, e.size, e.sha256);
  auto version_id = version_select.single_int();
  if (!version_id) {
    auto& version_insert =
        sql("INSERT INTO file_versions (file_id, kind, size, sha256, crc32, map_id, first_run_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)");
    version_id =
        version_insert.bind_all(file_id, kind, e.size, sha256, crc32, map_id, run_id).insert();
  }

  sql("INSERT INTO file_sightings (run_id, file_id, version_id) VALUES (?, ?, ?) "
      "ON CONFLICT (run_id, file_id) DO UPDATE SET version_id = excluded.version_id")
      .bind_all(run_id, file_id, *version_id)
      .run();

  sql("DELETE FROM problems WHERE file_id = ?").bind_all(file_id).run();
  insert_problems(file_id);
  return file_id;
}

void IndexDb::commit_batch() {
  auto& d = *impl_;
  try {
    d.commit();
  } catch (...) {
    d.resync_after_error();
    throw;
  }
}

void IndexDb::update_run(std::int64_t run_id, const RunCounters& counters) {
  auto& d = *impl_;
  d.require_writable("update_run");
  d.begin_batch();
  try {
    d.write_counters(run_id, counters);
  } catch (...) {
    d.resync_after_error();
    throw;
  }
}

void IndexDb::set_source_reading(std::int64_t run_id, std::int64_t source_id, SourceReading reading,
                                 const std::optional<std::string>& last_entry) {
  auto& d = *impl_;
  d.require_writable("set_source_reading");
  d.begin_batch();
  try {
    d.sql("UPDATE run_sources SET reading = ?, last_entry = ? WHERE run_id = ? AND source_id = ?")
        .bind_all(to_string(reading), last_entry, run_id, source_id)
        .run();
  } catch (...) {
    d.resync_after_error();
    throw;
  }
}

void IndexDb::finish_run(std::int64_t run_id, RunStatus status, const RunCounters& counters) {
  auto& d = *impl_;
  d.require_writable("finish_run");
  if (status == RunStatus::running)
    throw IndexError("run " + std::to_string(run_id) +
                     ": a run finishes complete, interrupted or failed, not running");
  d.begin_batch();
  try {
    d.write_counters(run_id, counters);
    d.sql("UPDATE runs SET status = ?, finished_at = " + std::string(kNow) + " WHERE run_id = ?")
        .bind_all(to_string(status), run_id)
        .run();
    d.commit();
  } catch (...) {
    d.resync_after_error();
    throw;
  }
  // Keep the planner's statistics fresh; bounded work.
  sqlite3_exec(d.db.get(), "PRAGMA analysis_limit = 400; PRAGMA optimize;", nullptr, nullptr,
               nullptr);
  d.stamp_on_close = status != RunStatus::failed && d.vetted();
}

IndexCheck IndexDb::index_check() {
  impl_->await_check();
  return impl_->checked;
}

std::string_view to_string(IndexCheck check) {
  switch (check) {
    case IndexCheck::none: return "none";
    case IndexCheck::created: return "created";
    case IndexCheck::quick_check: return "quick_check";
    case IndexCheck::unchanged: return "unchanged";
    case IndexCheck::too_large: return "too_large";
  }
  return "none";
}

}  // namespace mapindex::index
