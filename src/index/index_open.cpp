// Opening an index: connecting, vetting it (another live run, damage),
// WAL mode, migrations and settings; and `mapindex check`.
#include "index/index_db_internal.h"

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/background.h"
#include "index/code_table.h"
#include "index/index_stamp.h"
#include "index/running_runs.h"
#include "index/tile_names.h"

namespace mapindex::index {
namespace {

// Rows of a PRAGMA that answers with one text column (quick_check, integrity_check).
std::vector<std::string> pragma_rows(sqlite3* db, const std::string& pragma) {
  std::vector<std::string> rows;
  sqlite::Statement statement(db, pragma);
  while (statement.step()) rows.push_back(statement.column_text(0));
  return rows;
}

// The check at open looks for damage to the file (pages, cells, NOT NULL),
// not at the CHECK constraints of every row: those only a program writing
// past mapindex can break, they are over 40% of the check's time, and
// `mapindex check` still runs them.
std::optional<Error> quick_check(sqlite3* db, const std::string& path) {
  sqlite::exec_sql(db, "PRAGMA ignore_check_constraints = ON");
  std::vector<std::string> rows;
  try {
    rows = pragma_rows(db, "PRAGMA quick_check(10)");
  } catch (...) {
    sqlite::exec_sql(db, "PRAGMA ignore_check_constraints = OFF");
    throw;
  }
  sqlite::exec_sql(db, "PRAGMA ignore_check_constraints = OFF");
  if (rows.size() == 1 && rows[0] == "ok") return std::nullopt;
  std::string what = "PRAGMA quick_check: ";
  for (std::size_t i = 0; i < rows.size() && i < 3; ++i) what += (i ? "; " : "") + rows[i];
  if (rows.size() > 3) what += "; ... (`mapindex check --db " + path + "` lists all)";
  return sqlite::damaged_error(path, what);
}

// The background check, on a connection of its own: the stamp compared,
// and quick_check when it does not match.
Vetting vet_file(const std::string& path, int busy_timeout_ms) {
  // The header only: comparing the stamp needs no schema (quick_check reads
  // it when the stamp does not match).
  auto connection = sqlite::open_sqlite_read_only(path, busy_timeout_ms, sqlite::FirstRead::header);
  if (!connection) return {IndexCheck::quick_check, connection.error()};
  try {
    if (matches_stamp(connection->get(), path)) return {IndexCheck::unchanged, std::nullopt};
    return {IndexCheck::quick_check, quick_check(connection->get(), path)};
  } catch (const sqlite::IndexError& e) {
    // As open reports it when the check itself runs into damage.
    if (e.code() == Code::index_damaged)
      return {IndexCheck::quick_check, sqlite::damaged_error(path, e.what())};
    return {IndexCheck::quick_check, Error{e.code(), e.what()}};
  } catch (const std::exception& e) {
    // Out of memory, say: a verdict all the same, so that no write goes
    // ahead unchecked (await_check would otherwise find none).
    return {IndexCheck::quick_check,
            Error{Code::index_open, "cannot check index '" + path + "': " + e.what()}};
  }
}

// Whether the index is in WAL mode already (reading the mode changes nothing).
bool in_wal_mode(sqlite3* db) {
  sqlite::Statement mode(db, "PRAGMA journal_mode");
  return mode.step() && mode.column_text(0) == "wal";
}

// read_schema_version, with the advice for a damaged index.
Result<int> schema_version_of(sqlite3* db, const std::string& path) {
  auto version = read_schema_version(db, path);
  if (!version && version.error().code == Code::index_damaged)
    return sqlite::damaged_error(path, version.error().message);
  return version;
}

// What open returns when opening throws.
Error refusal(sqlite3* db, const std::string& path, const sqlite::IndexError& e) {
  if (e.code() == Code::index_locked) return busy_error(db, path, e.what());
  if (e.code() == Code::index_damaged) return sqlite::damaged_error(path, e.what());
  return Error{e.code() == Code::index_sql ? Code::index_open : e.code(),
               "cannot open index '" + path + "': " + e.what()};
}

}  // namespace

std::int64_t data_version(sqlite3* db) {
  return sqlite::Statement(db, "PRAGMA data_version").single_int().value_or(-1);
}

Result<IndexDb> IndexDb::open(const std::string& path, OpenMode mode, OpenOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  impl->mode = mode;
  impl->extractor_version = options.extractor_version;
  impl->entry_savepoints = options.entry_savepoints;
  impl->layer_index_deferral = LayerIndexDeferral(options.defer_layer_index_after_rows);

  if (mode == OpenMode::read_write) {
    if (impl->db.open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) != SQLITE_OK)
      return sqlite::open_error(impl->db.get(), path);
    sqlite3_busy_timeout(impl->db.get(), options.busy_timeout_ms);
  } else {
    auto db = sqlite::open_sqlite_read_only(path, options.busy_timeout_ms);
    if (!db) return db.error();
    impl->db = std::move(*db);
  }

  auto version = schema_version_of(impl->db.get(), path);
  if (!version) return version.error();
  const int latest = options.migrations.empty() ? 0 : options.migrations.back().version;

  // Made first: a new index's schema may be made on another thread from
  // open_for_writing on.
  impl->statements = std::make_unique<sqlite::StatementCache>(impl->db.get());
  try {
    const auto refused = mode == OpenMode::read_write
                             ? impl->open_for_writing(options, *version, latest)
                             : impl->open_for_reading(*version, latest);
    if (refused) return *refused;
  } catch (const sqlite::IndexError& e) {
    return refusal(impl->db.get(), path, e);
  }
  return IndexDb(std::move(impl));
}

std::optional<Error> IndexDb::Impl::open_for_writing(const OpenOptions& options, int version,
                                                     int latest) {
  if (version > latest) {
    auto migrated = migrate(db.get(), path, options.migrations);  // reports "newer"
    return migrated.error();
  }
  // Before the stamp is compared: a commit by another connection from
  // here on moves it, and the run leaves no stamp.
  data_version_at_open = data_version(db.get());
  stamp_max_bytes = options.quick_check_max_bytes;
  if (version > 0) {
    if (auto refused = vet(options, version, latest)) return refused;
  } else {
    checked = IndexCheck::created;
    if (options.create_in_background) {
      // `this` outlives the thread: ~Impl waits for it.
      auto preparing = start_in_background([this, options] { return prepare_new(options); });
      if (preparing.valid()) {
        prepared = preparing.share();
        return std::nullopt;
      }
    }
  }
  if (auto refused = switch_to_wal()) return refused;
  return migrate_and_configure(options);
}

std::optional<Error> IndexDb::Impl::prepare_new(const OpenOptions& options) {
  try {
    if (auto refused = switch_to_wal()) return refused;
    return migrate_and_configure(options);
  } catch (const sqlite::IndexError& e) {
    return refusal(db.get(), path, e);
  } catch (const std::exception& e) {
    return Error{Code::index_open, "cannot open index '" + path + "': " + e.what()};
  }
}

std::optional<Error> IndexDb::Impl::await_prepared() const {
  return prepared.valid() ? prepared.get() : std::nullopt;
}

std::optional<Error> IndexDb::Impl::vet(const OpenOptions& options, int version, int latest) {
  // Before anything is written: another live run, then damage.
  for (const auto& run : running_runs(db.get()))
    if (run.alive) return live_run_error(path, run);
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size <= options.quick_check_max_bytes) {
    // The stamp is compared in the background too: on the main
    // connection its read transaction, schema read and CRC delayed a
    // re-run's first entry.
    // Without a thread to be had, here, as when not in the background.
    if (options.check_in_background && version == latest && in_wal_mode(db.get())) {
      const int timeout = options.busy_timeout_ms;
      check = start_in_background([path = path, timeout] { return vet_file(path, timeout); });
    }
    if (!check.valid()) {
      if (matches_stamp(db.get(), path)) {
        checked = IndexCheck::unchanged;
      } else if (auto damaged = quick_check(db.get(), path)) {
        return damaged;
      } else {
        checked = IndexCheck::quick_check;
      }
    }
  } else if (!ec) {
    checked = IndexCheck::too_large;
  }
  return std::nullopt;
}

std::optional<Error> IndexDb::Impl::switch_to_wal() {
  // A new file (empty: nothing in it to lose) is switched to WAL without
  // waiting for the disk: the switch writes its first page through a
  // rollback journal, synced four times at the default FULL. A power cut before the disk has
  // that page leaves the file empty (the next run makes the index anew) or at worst unreadable,
  // with nothing in it lost: mapindex then says it is not a SQLite database, and it is to be
  // removed. (Until the first checkpoint syncs them, NORMAL promises nothing for the commits
  // after it either.)
  std::error_code size_ec;
  if (checked == IndexCheck::created && std::filesystem::file_size(path, size_ec) == 0 && !size_ec)
    sqlite::exec_sql(db.get(), "PRAGMA synchronous = OFF");
  sqlite::Statement wal(db.get(), "PRAGMA journal_mode = WAL");
  if (!wal.step() || wal.column_text(0) != "wal")
    return Error{Code::index_open, "cannot switch index '" + path + "' to WAL mode"};
  wal.reset();
  // In WAL mode a commit then appends to the log without syncing it: the
  // index stays whole after a power cut, though its last commits may be
  // lost. Set before migrating, so that the migrations' commits do not
  // sync either (at FULL, a new index's schema took three more syncs).
  sqlite::exec_sql(db.get(), "PRAGMA synchronous = NORMAL");
  // Switching a new file to WAL moves data_version (an index that was
  // in another mode is stamped from its next run on).
  if (checked == IndexCheck::created) data_version_at_open = data_version(db.get());
  return std::nullopt;
}

std::optional<Error> IndexDb::Impl::migrate_and_configure(const OpenOptions& options) {
  auto migrated = migrate(db.get(), path, options.migrations, options.fresh_schema);
  if (!migrated) return migrated.error();
  schema_version = *migrated;
  sqlite::exec_sql(db.get(),
                   kEnforceForeignKeys ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF");
  sqlite::exec_sql(db.get(), "PRAGMA cache_size = -16384");
  // Statement and savepoint journals in memory: on disk they halve the
  // writer's speed.
  sqlite::exec_sql(db.get(), "PRAGMA temp_store = MEMORY");
  // Not await_check: on a new index this runs as its preparation.
  sync_tile_names(db.get(), builtin_tile_names(), [this] { await_vetting(); });
  sync_problem_codes(db.get(), [this] { await_vetting(); });
  if (options.checkpoint_in_background) checkpointer = Checkpointer::start(db.get(), path);
  return std::nullopt;
}

std::optional<Error> IndexDb::Impl::open_for_reading(int version, int latest) {
  if (version == 0)
    return Error{Code::index_open, "'" + path + "' is not a mapindex index (no schema)"};
  if (version > latest)
    return Error{Code::index_newer, "index '" + path + "' has schema version " +
                                        std::to_string(version) +
                                        ", newer than this mapindex understands (" +
                                        std::to_string(latest) + "): use a newer mapindex"};
  if (version < latest)
    return Error{Code::index_older, "index '" + path + "' has schema version " +
                                        std::to_string(version) + ", older than this mapindex's " +
                                        std::to_string(latest) + ": run `mapindex index --db " +
                                        path + " ...` once to migrate it in place"};
  schema_version = version;
  sqlite::exec_sql(db.get(), "PRAGMA query_only = ON");
  return std::nullopt;
}

Result<CheckReport> check_index(const std::string& path, int max_problems) {
  // Declared first, closed last: as the last connection it removes the WAL
  // files SQLite made for the check.
  sqlite::Connection writable;
  auto connection = sqlite::open_sqlite_read_only(path);
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
  if (sqlite::writable_here(path) && writable.open(path, SQLITE_OPEN_READWRITE) == SQLITE_OK &&
      sqlite3_exec(writable.get(), "PRAGMA query_only = ON", nullptr, nullptr, nullptr) ==
          SQLITE_OK) {
    sqlite3_busy_timeout(writable.get(), sqlite::kBusyTimeoutMs);
    checked = writable.get();
  }
  try {
    for (auto& row :
         pragma_rows(checked, "PRAGMA integrity_check(" + std::to_string(max_problems) + ")"))
      if (row != "ok") report.integrity.push_back(std::move(row));
    sqlite::Statement fk(checked, "PRAGMA foreign_key_check");
    while (fk.step() && static_cast<int>(report.foreign_keys.size()) < max_problems)
      report.foreign_keys.push_back("row " + fk.column_text(1) + " of " + fk.column_text(0) +
                                    " refers to a missing row of " + fk.column_text(2));
  } catch (const sqlite::IndexError& e) {
    if (e.code() != Code::index_damaged)
      return Error{e.code(), "cannot check index '" + path + "': " + e.what()};
    report.integrity.push_back(e.what());  // the check itself ran into damage
  }
  return report;
}

}  // namespace mapindex::index
