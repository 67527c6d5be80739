// IndexDb's state, internal to src/index: shared by index_db.cpp (runs
// and batches), index_open.cpp (opening and vetting an index) and
// entry_rows.cpp (an entry's files rows). Not for other layers.
#pragma once

#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "index/checkpointer.h"
#include "index/index_db.h"
#include "index/map_rows.h"

namespace mapindex::index {

// The background check's verdict: how the file was vetted, and the damage found.
struct Vetting {
  IndexCheck how = IndexCheck::none;
  std::optional<Error> damage;
};

// PRAGMA data_version: changes when another connection commits.
std::int64_t data_version(sqlite3* db);

// Throws IndexError when `entry` cannot be written as it is (a map without a
// sha256, statistics for a non-map).
void check_entry(const EntryRecord& entry, const MapStats* stats);

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
  sqlite::Connection db;
  std::string path;
  OpenMode mode = OpenMode::read_only;
  int extractor_version = kExtractorVersion;
  int schema_version = 0;
  std::unique_ptr<sqlite::StatementCache> statements;
  // The damage check running in the background (OpenOptions::
  // check_in_background), and its verdict once taken.
  std::future<Vetting> check;
  // A new index's schema and settings being made on a thread of its own
  // (OpenOptions::create_in_background; prepare_new), and what refused it.
  // Nothing else uses `db` until it is ready (await_prepared).
  std::shared_future<std::optional<Error>> prepared;
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
  // The writer's memory of shared rows (map_rows.h), cleared whenever a write
  // is rolled back.
  PartCache parts;
  // Sources this run created (their files rows are all this run's), and the
  // paths this run wrote: a path not seen is its first occurrence.
  std::unordered_set<std::int64_t> new_sources;
  std::vector<std::int64_t> sources_in_batch;  // of new_sources, created in the open batch
  SeenPaths seen_paths;
  bool entry_savepoints = true;  // OpenOptions::entry_savepoints
  // When this run drops map_layers_by_def (layer_index.h).
  LayerIndexDeferral layer_index_deferral;

  // Rolls back an open batch; stamps the file or removes its stamp.
  ~Impl();

  // The index was created, checked or found unchanged, and no damage was found.
  bool vetted() const {
    return !damage && (checked == IndexCheck::created || checked == IndexCheck::quick_check ||
                       checked == IndexCheck::unchanged);
  }

  sqlite::Statement& sql(std::string_view text) { return statements->get(text); }

  void require_writable(std::string_view what) const {
    if (mode != OpenMode::read_write)
      throw sqlite::IndexError(std::string(what) + ": index '" + path + "' is open read-only");
  }

  // Opening (index_open.cpp), on the open connection `db` whose schema is
  // at `version` (`latest`: that of options.migrations): an Error refuses
  // the index. Both may throw IndexError, which open reports.
  std::optional<Error> open_for_writing(const OpenOptions& options, int version, int latest);
  std::optional<Error> open_for_reading(int version, int latest);
  // open_for_writing's steps: the check for another live run and damage
  // (setting `checked`), WAL mode and the synchronous levels, then the
  // schema migrated and the per-connection settings.
  std::optional<Error> vet(const OpenOptions& options, int version, int latest);
  std::optional<Error> switch_to_wal();
  std::optional<Error> migrate_and_configure(const OpenOptions& options);
  // switch_to_wal and migrate_and_configure for a new file, with the Error
  // open would return when either throws.
  std::optional<Error> prepare_new(const OpenOptions& options);
  // Waits until `prepared` is done (at once when it was never started);
  // returns what refused the index.
  std::optional<Error> await_prepared() const;
  // Throws IndexError with what refused the new index, if anything did.
  void throw_if_unprepared() const;

  // Runs and batches (index_db.cpp).
  // What open left to other threads, waited for: a new index's preparation
  // (throw_if_unprepared), then the background check's verdict
  // (await_vetting). Every write asks first (begin_batch); a read that meets
  // damage asks for the better message.
  void await_check();
  // The background check's verdict (OpenOptions::check_in_background),
  // waited for: throws IndexError (index.damaged) with its findings when it
  // found damage. Alone only where the preparation itself asks (it writes
  // the tile names and problem codes).
  void await_vetting();
  void begin_batch();
  void commit();
  // The whole batch undone (OpenOptions::entry_savepoints off), with what
  // the writer remembered of it.
  void roll_back_batch();
  // After a failed statement SQLite may have rolled the whole transaction
  // back (disk full, I/O error): notice it.
  void resync_after_error();
  void write_counters(std::int64_t run_id, const RunCounters& c);

  // An entry's rows (entry_rows.cpp): IndexDb::write_entry inside its
  // savepoint or batch, once check_entry passed. Returns the file_id.
  std::int64_t write_entry(std::int64_t run_id, const EntryRecord& e, const MapStats* stats,
                           const MapPartKeys* keys);
  // The map_id an entry's files row refers to: its map stored from `stats`,
  // or the indexed map with its sha256; none for an entry that is not a map.
  std::optional<std::int64_t> entry_map_id(std::int64_t run_id, const EntryRecord& e,
                                           const MapStats* stats, const MapPartKeys* keys);
};

}  // namespace mapindex::index
