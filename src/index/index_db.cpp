// Runs and batches: an IndexDb's writes other than an entry's rows
// (entry_rows.cpp) and opening (index_open.cpp).
#include "index/index_db.h"

#include <unistd.h>

#include <optional>
#include <string>
#include <utility>

#include "index/index_db_internal.h"
#include "index/index_stamp.h"
#include "index/running_runs.h"

namespace mapindex::index {
namespace {

constexpr std::string_view kNow = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

}  // namespace

IndexDb::Impl::~Impl() {
  if (prepared.valid()) prepared.wait();  // it uses `db`
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

void IndexDb::Impl::await_check() {
  throw_if_unprepared();
  await_vetting();
}

void IndexDb::Impl::throw_if_unprepared() const {
  if (const auto refused = await_prepared())
    throw sqlite::IndexError(refused->message, refused->code, path);
}

void IndexDb::Impl::await_vetting() {
  if (check.valid()) {
    auto verdict = check.get();
    checked = verdict.how;
    damage = std::move(verdict.damage);
  }
  if (damage) throw sqlite::IndexError(damage->message, damage->code, path);
}

void IndexDb::Impl::begin_batch() {
  if (in_batch) return;
  await_check();
  stamp_on_close = false;  // until a run finishes again
  sql("BEGIN IMMEDIATE").run();
  in_batch = true;
}

void IndexDb::Impl::commit() {
  if (!in_batch) return;
  sql("COMMIT").run();
  in_batch = false;
  pending = 0;
  sources_in_batch.clear();
}

void IndexDb::Impl::roll_back_batch() {
  sqlite3_exec(db.get(), "ROLLBACK", nullptr, nullptr, nullptr);
  in_batch = false;
  pending = 0;
  parts.clear();
  for (const auto id : sources_in_batch) new_sources.erase(id);
  sources_in_batch.clear();
}

void IndexDb::Impl::resync_after_error() {
  parts.clear();
  if (in_batch && sqlite3_get_autocommit(db.get())) {
    for (const auto id : sources_in_batch) new_sources.erase(id);
    sources_in_batch.clear();
    in_batch = false;
    pending = 0;
  }
}

void IndexDb::Impl::write_counters(std::int64_t run_id, const RunCounters& c) {
  sql("UPDATE runs SET entries = ?, maps_indexed = ?, maps_known = ?, rejected = ?, "
      "with_warnings = ?, not_maps = ?, unreadable = ?, oversize = ?, bytes = ? "
      "WHERE run_id = ?")
      .bind_all(c.entries, c.maps_indexed, c.maps_known, c.rejected, c.with_warnings, c.not_maps,
                c.unreadable, c.oversize, c.bytes, run_id)
      .run();
}

IndexDb::IndexDb(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
IndexDb::IndexDb(IndexDb&&) noexcept = default;
IndexDb& IndexDb::operator=(IndexDb&&) noexcept = default;
IndexDb::~IndexDb() = default;

int IndexDb::schema_version() const {
  impl_->await_prepared();
  return impl_->schema_version;
}
sqlite3* IndexDb::handle() const {
  impl_->await_prepared();
  return impl_->db.get();
}
bool IndexDb::created() const { return impl_->checked == IndexCheck::created; }
std::optional<Error> IndexDb::await_open() const { return impl_->await_prepared(); }
std::size_t IndexDb::pending_entries() const { return impl_->pending; }

std::int64_t IndexDb::begin_run(std::string_view command, std::string_view tool_version) {
  auto& d = *impl_;
  d.require_writable("begin_run");
  d.commit();
  d.throw_if_unprepared();  // as it is: not as a lock met by this run
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
    // A run killed while map_layers_by_def was away left the index without it.
    if (!refused && d.schema_version >= kLayerIndexSince) {
      if (restore_layer_index(*d.statements)) d.parts.clear();
      d.layer_index_deferral.run_began();
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
  } catch (const sqlite::IndexError& e) {
    rollback();
    if (e.code() != Code::index_locked) throw;
    refused = busy_error(d.db.get(), d.path, e.what());
  } catch (...) {
    rollback();
    throw;
  }
  rollback();
  throw sqlite::IndexError(refused->message, refused->code);
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
    upsert.bind_all(path, to_string(kind), run_id, sqlite::bytes_if_not_utf8(path));
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

std::unordered_map<Sha256, KnownMap, Sha256Hash> IndexDb::known_maps() {
  auto& d = *impl_;
  std::unordered_map<Sha256, KnownMap, Sha256Hash> known;
  d.throw_if_unprepared();
  auto& select = d.sql(
      "SELECT sha256, map_id, status, coalesce(teeworlds_status, status) FROM maps "
      "WHERE extractor_version >= ?");
  select.bind_all(d.extractor_version);
  try {
    while (select.step()) {
      const auto sha256 = sha256_from_hex(select.column_text(0));
      if (!sha256)  // the column's CHECK holds it to 64 lowercase hex digits
        throw sqlite::IndexError("maps.sha256 '" + select.column_text(0) + "' is not a SHA-256",
                                 Code::index_damaged);
      known.emplace(
          *sha256,
          KnownMap{select.column_int(1), select.column_enum(2, parse_map_status, "maps.status"),
                   select.column_enum(3, parse_map_status, "maps.teeworlds_status")});
    }
  } catch (const sqlite::IndexError& e) {
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
  check_entry(entry, stats);
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

void IndexDb::commit_batch() {
  auto& d = *impl_;
  try {
    if (d.in_batch && d.schema_version >= kLayerIndexSince)
      drop_layer_index_when_due(*d.statements, d.layer_index_deferral);
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
    throw sqlite::IndexError("run " + std::to_string(run_id) +
                             ": a run finishes complete, interrupted or failed, not running");
  // The run's last commits: the checkpoint when the index closes (the
  // stamp's, or SQLite's) copies the log next. The thread's, woken by them,
  // would be cut short by it, its syncs wasted, and the close would first
  // wait for the thread to notice.
  d.checkpointer.reset();
  d.begin_batch();
  try {
    if (d.schema_version >= kLayerIndexSince && restore_layer_index(*d.statements)) d.parts.clear();
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
