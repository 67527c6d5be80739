// `mapindex index` as a function: streams every entry of the inputs through
// the oneTBB flow graph (pipeline/index_run.cpp) into the SQLite index.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/result.h"
#include "deflate/inflate.h"
#include "extract/game_verdict.h"
#include "index/index_db.h"
#include "pipeline/run_counters.h"
#include "pipeline/stop_request.h"

namespace mapindex {

// A batch's transaction also ends at the first entry written once it is
// older than commit_interval(the run's age so far) (`--batch` sets the other
// bound, a count of entries).
//
// Why it grows: a commit writes every page its batch changed to the log, and
// on a large index each entry changes pages of its own in every index keyed
// by a hash (maps.sha256, files_by_sha256, file_versions_by_sha256), so the
// log written per entry, and the checkpoints that copy it, grow with the
// index unless batches grow too. Why it starts short: a short run's log is
// then copied by the checkpoint thread (src/index/checkpointer.h) while the
// run goes on, not all of it after the last entry. A run killed loses at
// most its open batch.
inline constexpr std::chrono::milliseconds kCommitIntervalMin{200};
inline constexpr std::chrono::milliseconds kCommitIntervalMax{1000};
// A fifth of `run_age`, within [kCommitIntervalMin, kCommitIntervalMax].
constexpr std::chrono::milliseconds commit_interval(std::chrono::milliseconds run_age) {
  return std::clamp(run_age / 5, kCommitIntervalMin, kCommitIntervalMax);
}
// A batch also ends once the entries the writer keeps for it (to write them
// again should the index roll it back: their statistics, held_bytes) reach
// this many bytes, whatever the maps hold.
inline constexpr std::uint64_t kBatchMemory = 64ull << 20;

struct IndexOptions {
  std::string db_path = "mapindex.sqlite";
  std::vector<std::string> inputs;
  unsigned threads = 0;                        // 0: all cores
  std::uint64_t memory_budget = 128ull << 20;  // bytes of entries in flight (--memory)
  // Entries in flight (--max-in-flight); 0: ByteBudget::default_max_entries
  // of the decode threads (64 each, at most 1024).
  std::uint64_t max_in_flight = 0;
  std::uint64_t max_map_size = 64ull << 20;  // larger entries are skipped with a problem
  std::uint64_t max_data_item_size = 256ull << 20;
  int max_nesting = 4;
  std::uint32_t batch_size = 2000;  // entries per transaction (also ends: commit_interval)
  std::uint64_t batch_memory = kBatchMemory;  // and once its kept entries hold this many bytes
  bool reindex = false;                       // decode even content already indexed
  // Layer-level content addressing (pipeline/layer_store.h): a tile layer
  // whose data was measured before in this run or (unless reindex) in the
  // index is not inflated again. Off: --no-layer-cache (hidden; for the
  // differential test). The index is the same either way.
  bool layer_cache = true;
  bool thumbnails = true;  // draw a thumbnail of each map measured (--no-thumbnails)
  // What inflates tile data: --inflate (hidden; a fallback should zero_inflate
  // be found wrong, src/deflate/README.md). The index is the same either
  // way for every stream zlib reads.
  deflate::Inflater tile_inflater = deflate::Inflater::zeros;
  Game game = Game::ddnet;   // whose verdict the counters give
  std::string command_line;  // stored in runs.command
  std::string tool_version;  // stored in runs.tool_version (the caller's release)
  // Polled by the run: once requested, the reader stops, the entries in
  // flight are written and the run ends interrupted. Owned by the caller.
  StopRequest* stop = nullptr;
};

struct IndexSummary {
  std::int64_t run_id = 0;
  bool interrupted = false;
  double seconds = 0;
  double cpu_seconds = 0;
  std::uint64_t peak_in_flight = 0;          // most bytes held between reader and writer
  std::uint64_t peak_in_flight_entries = 0;  // most entries held (at most max_in_flight)
  unsigned decode_threads = 0;               // the decode threads the run used
  std::uint64_t max_in_flight = 0;           // the cap on entries in flight it used
  std::uint64_t peak_run_contents = 0;       // most contents tracked at once for in-run dedup
  double writer_seconds = 0;                 // time spent inside the writer node
  std::uint64_t batches = 0;                 // the writer's transactions of entries
  std::uint64_t peak_batch_bytes = 0;        // most bytes it kept for an open batch
  std::uint64_t zip_members_read = 0;  // zip members mapindex inflated itself (not libarchive)
  std::uint64_t tar_members_read = 0;  // tar members whose data mapindex read itself (pread)
  index::IndexCheck index_check = index::IndexCheck::none;  // how open vetted the index
};

// Reads what a run wrote, through the index's own connection (read queries
// only), once the run's end is written and before the index is closed: a
// caller's report then does not open the index again, which costs a new
// connection's reading of the whole schema (a few milliseconds of every run).
using RunReadBack = std::function<void(sqlite3* index, std::int64_t run_id)>;

// Runs the whole index job. Errors opening the index (newer schema, not a
// database, ...) come back as Error; problems with inputs and maps are rows in
// the index and counts in `counters`. `read_back`, when set, is called once
// the run's end is written (not when the run fails).
Result<IndexSummary> run_index(const IndexOptions& options, LiveCounters& counters,
                               const RunReadBack& read_back = {});

}  // namespace mapindex
