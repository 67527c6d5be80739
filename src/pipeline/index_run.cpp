// The flow graph of `mapindex index`:
//
//   reader (input_node, serial)          src/read: next archive entry -> bytes,
//      |                                 waits for room in the memory budget first
//   hash (function_node, N threads,      src/read digest: SHA-256 and CRC32 of
//      |  at least 2)                    the entry, and (when it is to be measured)
//      |                                 of its tile data, the layers' keys
//      |                                 (digest_tile_data), while the next one is
//      |                                 read and earlier ones are measured
//   measure (function_node, N threads,   src/extract: skip known content, else
//      |  priority 1: taken first)       decode + measure, drawing the thumbnail
//      |                                 (content seen twice in the run: measured once)
//   thumbnail (function_node, N threads) the drawn thumbnail encoded as a PNG while the
//      |                                 next entry is measured; then the content's
//      |                                 result is given to the entries waiting for it
//   order (sequencer_node)               restores input order, so the index does
//      |                                 not depend on the number of threads
//   write (function_node, serial)        src/index: rows in batched transactions,
//                                        gives the entry's bytes back to the budget;
//                                        the first entry starts the run (its row), once
//                                        the index's damage check, run in the
//                                        background meanwhile, has passed
//
// The graph runs in a task arena of N + 2 threads, so the reader (which may
// block on the budget) and the other nodes' work (hashing, thumbnails, the
// writer) run beside the N decode threads. The hashing takes up to N
// threads, and 2 at --threads 1: a re-run is mostly hashing, which the
// second core then shares (measured: see the benchmark results).
#include "pipeline/index_run.h"

#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <exception>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "common/background.h"
#include "common/sha256.h"
#include "extract/digest_memo.h"
#include "extract/measure_workspace.h"
#include "index/index_db.h"
#include "pipeline/byte_budget.h"
#include "pipeline/entry_writer.h"
#include "pipeline/layer_store.h"
#include "pipeline/measure_node.h"
#include "pipeline/run_work.h"
#include "pipeline/stop_request.h"
#include "pipeline/workspace_pool.h"
#include "read/digest.h"
#include "read/source_reader.h"
#include "render/png.h"
#include "tiledata/shared_buffer.h"

namespace mapindex {
namespace {

namespace flow = oneapi::tbb::flow;
using namespace pipeline;

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Opens the index for the run. OpenSSL sets itself up meanwhile, not in the
// first entry's hashing, before anything could be measured. A failure there
// shows again where the hashing fails; without a thread to be had, the first
// digest does it.
Result<index::IndexDb> open_for_run(const IndexOptions& options) {
  std::future<void> openssl_ready = start_in_background(sha256_warm_up);
  // The damage check runs while the first entries are read and hashed; the
  // run's first write waits for it (see EntryWriter).
  index::OpenOptions open_options;
  open_options.check_in_background = true;
  open_options.checkpoint_in_background = true;
  open_options.entry_savepoints = false;  // the writer writes a rolled back batch again
  // A new index's schema (tens of milliseconds) is made while the first
  // entries are read and measured; the writer waits for it.
  open_options.create_in_background = true;
  auto db = index::IndexDb::open(options.db_path, index::OpenMode::read_write, open_options);
  if (openssl_ready.valid()) openssl_ready.wait();
  return db;
}

// While alive, a stop request wakes a reader blocked on standard input or a
// pipe.
class StopWaker {
 public:
  StopWaker(StopRequest* stop, read::SourceReader& reader) : stop_(stop) {
    if (!stop_) return;
    stop_->set_waker([](void* r) { static_cast<read::SourceReader*>(r)->stop(); }, &reader);
    if (stop_->requested()) reader.stop();  // asked before the waker was set
  }
  ~StopWaker() {
    if (stop_) stop_->set_waker(nullptr, nullptr);
  }
  StopWaker(const StopWaker&) = delete;
  StopWaker& operator=(const StopWaker&) = delete;

 private:
  StopRequest* stop_;
};

// The decode threads of a run: --threads, or every core.
unsigned decode_threads(const IndexOptions& options) {
  return options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
}

// What the graph's nodes share while the run goes on; made before the graph
// and alive until the run's end is written.
struct RunState {
  RunState(const IndexOptions& run_options, LiveCounters& run_counters, index::IndexDb& db,
           unsigned decode_threads, std::uint64_t max_in_flight)
      : options(run_options),
        counters(run_counters),
        // A new index knows nothing (and may still be getting its schema).
        known(db.created() ? KnownMaps{} : db.known_maps()),
        budget(run_options.memory_budget, run_options.max_map_size + ByteBudget::kEntryOverhead,
               max_in_flight),
        threads(decode_threads),
        measure_workspaces([this] { return std::make_unique<MeasureWorkspace>(large_tiles); }),
        png_blocks([] { return std::make_unique<render::PngBlocks>(); }) {
    // Earlier runs' layer results: read from the index unless --reindex
    // asks for everything to be measured again, or the index is new.
    if (run_options.layer_cache)
      layer_store.emplace(run_options.reindex || db.created() ? std::string() : run_options.db_path,
                          kExtractorVersion, run_counters.layers,
                          RunLayerStore::kDefaultMemoryBytes, &node_failed, decode_threads > 1);
  }
  LayerDataStore* store() { return layer_store ? &*layer_store : nullptr; }
  // Whether the reader should stop waiting and reading: a stop was asked,
  // or a node failed (see node_failed).
  bool stopping() const {
    return (options.stop && options.stop->requested()) || node_failed.load();
  }

  const IndexOptions& options;
  LiveCounters& counters;
  const KnownMaps known;
  RunContents contents;
  // The tile data this run hashed: a map's new version hashes only what it
  // changed (the rest compared with what was hashed before).
  DigestMemo tile_digest_memo;
  std::optional<RunLayerStore> layer_store;
  ByteBudget budget;
  const unsigned threads;
  // Per-task decode state, owned by the run and freed at its end: tile data
  // over kSharedBufferAbove goes into one buffer all measure tasks share in
  // turn; each measure task has a workspace of its own (at most one per
  // decode thread), each thumbnail task its PNG blocks.
  tiledata::SharedBuffer large_tiles;
  WorkspacePool<MeasureWorkspace> measure_workspaces;
  WorkspacePool<render::PngBlocks> png_blocks;
  // Set when a node's body throws (the index failed, or a bug): the graph is
  // then cancelled and the entries in flight never give their bytes back, so
  // the reader, which may be waiting for room, must stop waiting.
  std::atomic<bool> node_failed{false};
};

// The flow graph of the file's head comment over one run's state. Made and
// run inside the run's task arena: its tasks run there.
class IndexGraph {
 public:
  IndexGraph(RunState& run, read::SourceReader& reader, EntryWriter& writer)
      : run_(run),
        reader_(reader),
        writer_(writer),
        read_node_(g_, [this](oneapi::tbb::flow_control& fc) { return read_one(fc); }),
        hash_node_(g_, std::max(run.threads, 2u), [this](WorkPtr w) { return hash(std::move(w)); }),
        measure_node_(
            g_, run.threads, [this](WorkPtr w) { return measure(std::move(w)); }, kMeasurePriority),
        thumbnail_node_(g_, run.threads, [this](WorkPtr w) { return thumbnail(std::move(w)); }),
        order_node_(g_, [](const WorkPtr& w) { return w->seq; }),
        write_node_(g_, flow::serial, [this](WorkPtr w) { failing([&] { writer_.write(w); }); }) {
    flow::make_edge(read_node_, hash_node_);
    flow::make_edge(hash_node_, measure_node_);
    flow::make_edge(measure_node_, thumbnail_node_);
    flow::make_edge(thumbnail_node_, order_node_);
    flow::make_edge(order_node_, write_node_);
  }

  // Runs every entry through; what failed (empty: nothing) and its code.
  void run(std::string& failure, Code& failure_code) {
    try {
      read_node_.activate();
      g_.wait_for_all();
    } catch (const sqlite::IndexError& e) {
      failure = e.what();
      if (e.code() != Code::index_sql) failure_code = e.code();
    } catch (const std::exception& e) {
      failure = e.what();
      failure_code = Code::internal;  // not the index's fault: a bug
    }
  }

 private:
  // Only the measure node has a priority, because measuring sets the pace:
  // a thread that has measured an entry measures the next one and leaves the
  // thumbnail (its output, which oneTBB would run next on the same thread)
  // to another. An entry waiting in its measure task for another's thumbnail
  // cannot deadlock: at most N measure tasks and the reader wait at once, of
  // the arena's N + 2 threads.
  // oneTBB#1595 (a priority with a concurrency limit; unfixed in Debian 12's
  // 2021.8) counts a task in another thread's pool, which that thread's exit
  // could free under it: harmless here, the arena's threads exit only when
  // no task is alive.
  static constexpr flow::node_priority_t kMeasurePriority = 1;

  // A node's body: what it throws marks the run failed before the graph
  // cancels.
  template <class Body>
  void failing(Body&& body) {
    try {
      body();
    } catch (...) {
      run_.node_failed = true;
      throw;
    }
  }

  // The reader node: the next entry, once the budget has room for it.
  WorkPtr read_one(oneapi::tbb::flow_control& fc) {
    if (!run_.budget.wait_for_room([this] { return run_.stopping(); })) {
      reader_.stop();
      fc.stop();
      return {};
    }
    auto entry = reader_.next();
    const auto progress = reader_.progress();
    LiveCounters& counters = run_.counters;
    counters.input_bytes_total = progress.input_bytes_total;
    counters.input_bytes_done = progress.input_bytes_done;
    if (!entry) {
      fc.stop();
      return {};
    }
    auto w = std::make_shared<WorkItem>();
    w->seq = next_seq_++;
    // What the entry's buffer holds (its capacity), not only its size.
    w->charge = entry->bytes.capacity() + ByteBudget::kEntryOverhead;
    counters.bytes += entry->bytes.size();
    w->input_position = progress.input_bytes_done;
    w->entry = std::move(*entry);
    run_.budget.acquire(w->charge);
    counters.entries++;
    return w;
  }

  WorkPtr hash(WorkPtr w) {
    failing([&] {
      if (w->entry.kind != read::ReadOutcome::file) return;
      w->digest = read::digest(w->entry.bytes);
      // Its layers' keys too, beside the decode threads (at --threads 1 the
      // hashing has a thread of its own), unless it will not be measured:
      // known from an earlier run, or met before in this one. (A copy
      // hashed before the first is claimed by the measure node is hashed in
      // vain.) They only save work: should hashing them fail (memory), the
      // decode thread hashes, and the entry is measured as ever.
      if (!known_before(w->digest, run_.known, run_.options) && !run_.contents.seen(w->digest)) {
        try {
          w->tile_digests = digest_tile_data(w->entry.bytes, &run_.tile_digest_memo);
        } catch (const std::exception&) {
          w->tile_digests = {};
        }
      }
    });
    return w;
  }

  WorkPtr measure(WorkPtr w) {
    failing([&] {
      measure_entry(*w, run_.known, run_.contents, run_.counters, run_.options, run_.store(),
                    run_.measure_workspaces, run_.node_failed);
    });
    return w;
  }

  WorkPtr thumbnail(WorkPtr w) {
    failing([&] { finish_entry(*w, run_.contents, run_.store(), run_.png_blocks); });
    return w;
  }

  RunState& run_;
  read::SourceReader& reader_;
  EntryWriter& writer_;
  std::uint64_t next_seq_ = 0;
  flow::graph g_;
  flow::input_node<WorkPtr> read_node_;
  flow::function_node<WorkPtr, WorkPtr> hash_node_;
  flow::function_node<WorkPtr, WorkPtr> measure_node_;
  flow::function_node<WorkPtr, WorkPtr> thumbnail_node_;
  flow::sequencer_node<WorkPtr> order_node_;
  flow::function_node<WorkPtr> write_node_;
};

// Runs the graph in an arena of its own: N + 2 threads, so that the reader
// (which may wait for budget), the hashing, thumbnails and writer run beside
// the N decode threads instead of taking turns with them. N + 1 would not
// do: the N measure tasks and the reader can all wait at once (see the
// measure node), and what they wait for needs a thread. N + 3 only adds idle
// workers spinning beside the decode threads.
void run_graph(RunState& run, read::SourceReader& reader, EntryWriter& writer, std::string& failure,
               Code& failure_code) {
  const int graph_threads = static_cast<int>(run.threads + 2);
  oneapi::tbb::global_control parallelism(oneapi::tbb::global_control::max_allowed_parallelism,
                                          graph_threads);
  oneapi::tbb::task_arena arena(graph_threads);
  arena.execute([&] {
    IndexGraph graph(run, reader, writer);
    graph.run(failure, failure_code);
  });
}

// Writes the run's end (its status and counters, with its last rows in one
// commit); an Error when the graph failed.
Result<std::int64_t> finish_run(index::IndexDb& db, RunState& run, EntryWriter& writer,
                                bool interrupted, const std::string& failure, Code failure_code) {
  // The run could not start (damage found by the check, another run, a
  // lock): as before any entry was read, nothing was written.
  if (const auto start_error = writer.start_error()) std::rethrow_exception(start_error);
  writer.start();  // no entry was written (none read, or interrupted at once)
  const std::int64_t run_id = writer.run_id();

  // The layer results kept for the run are freed on another thread while
  // the index commits: freeing thousands of them is not free, and the commit
  // has to wait for the disk anyway.
  std::optional<RunLayerStore>& layer_store = run.layer_store;
  std::future<void> freeing = start_in_background([&layer_store] { layer_store.reset(); });
  if (!freeing.valid()) layer_store.reset();  // no thread to be had
  if (failure.empty()) writer.record_readings();
  const auto status = !failure.empty() ? index::RunStatus::failed
                      : interrupted    ? index::RunStatus::interrupted
                                       : index::RunStatus::complete;
  db.finish_run(run_id, status, run_counters(run.counters));
  if (freeing.valid()) freeing.get();
  if (failure.empty()) return run_id;
  const bool damaged = failure_code == Code::index_damaged;
  return Error{
      failure_code,
      "index run " + std::to_string(run_id) + " of '" + run.options.db_path +
          "' failed: " + failure +
          (damaged ? ": the index is damaged: " + std::string(sqlite::kRebuildAdvice) : "")};
}

}  // namespace

Result<IndexSummary> run_index(const IndexOptions& options, LiveCounters& counters,
                               const RunReadBack& read_back) {
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  auto db = open_for_run(options);
  if (!db) return db.error();

  read::ReadOptions ro;
  ro.max_entry_size = options.max_map_size;
  ro.max_nesting = options.max_nesting;
  read::SourceReader reader(options.inputs, ro);
  const StopWaker waker(options.stop, reader);

  // Each input as the reader found it (a FIFO is opened here, to be told).
  std::vector<read::Source> sources = reader.sources();
  IndexSummary summary;
  summary.decode_threads = decode_threads(options);
  summary.max_in_flight = options.max_in_flight
                              ? options.max_in_flight
                              : ByteBudget::default_max_entries(summary.decode_threads);
  RunState run(options, counters, *db, summary.decode_threads, summary.max_in_flight);
  EntryWriter writer(*db, options, std::move(sources), run.contents, run.budget, counters);
  std::string failure;
  Code failure_code = Code::index_failed;
  run_graph(run, reader, writer, failure, failure_code);
  // A new index whose schema could not be made: as open reports it (the
  // writer's first write failed on it and stopped the run).
  if (auto refused = db->await_open()) return *refused;

  summary.interrupted = options.stop && options.stop->requested();
  auto run_id = finish_run(*db, run, writer, summary.interrupted, failure, failure_code);
  if (!run_id) return run_id.error();
  summary.run_id = *run_id;
  summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  summary.cpu_seconds = cpu_seconds() - cpu_start;
  summary.peak_in_flight = run.budget.peak();
  summary.peak_in_flight_entries = run.budget.peak_entries();
  summary.peak_run_contents = run.contents.peak_slots();
  summary.writer_seconds = writer.seconds();
  summary.batches = writer.batches();
  summary.peak_batch_bytes = writer.peak_batch_bytes();
  summary.zip_members_read = reader.progress().zip_members;
  summary.tar_members_read = reader.progress().tar_members;
  summary.index_check = db->index_check();
  if (read_back) read_back(db->handle(), summary.run_id);
  return summary;
}

}  // namespace mapindex
