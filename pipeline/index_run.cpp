// The flow graph of `mapindex index`:
//
//   reader (input_node, serial)          stages/read: next archive entry -> bytes,
//      |                                 waits for room in the memory budget first
//   hash (function_node, N threads,      stages/read digest: SHA-256 and CRC32 of
//      |  at least 2)                    the entry, and (when it is to be measured)
//      |                                 of its tile data, the layers' keys
//      |                                 (digest_tile_data), while the next one is
//      |                                 read and earlier ones are measured
//   measure (function_node, N threads,   stages/extract: skip known content, else
//      |  priority 1: taken first)       decode + measure, drawing the thumbnail
//      |                                 (content seen twice in the run: measured once)
//   thumbnail (function_node, N threads) the drawn thumbnail encoded as a PNG while the
//      |                                 next entry is measured; then the content's
//      |                                 result is given to the entries waiting for it
//   order (sequencer_node)               restores input order, so the index does
//      |                                 not depend on the number of threads
//   write (function_node, serial)        stages/write: rows in batched transactions,
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
#include <cstdio>
#include <ctime>
#include <exception>
#include <filesystem>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "pipeline/byte_budget.h"
#include "pipeline/layer_store.h"
#include "pipeline/stop_request.h"
#include "stages/common/background.h"
#include "stages/common/sha256.h"
#include "stages/extract/measure.h"
#include "stages/read/digest.h"
#include "stages/read/source_reader.h"
#include "stages/write/index_db.h"

namespace mapindex {
namespace {

namespace flow = oneapi::tbb::flow;

// What measuring one content gave; shared by every entry with that content.
struct Measured {
  Measurement measurement;
  std::optional<Problem> failure;  // an unexpected failure while measuring
};
using MeasuredPtr = std::shared_ptr<const Measured>;

// Content seen in this run, by SHA-256: the first entry with a digest (the
// claimant) measures it, the others (on any thread) wait for that result
// instead of decoding again. Memory stays small however many entries a run
// has: a slot lives only until the writer has written its claimant; then a map
// leaves its 32-byte digest behind (later copies are not decoded again: the
// writer knows them as written in this run) and anything else leaves nothing
// (looking at a non-map again costs little).
class RunContents {
 public:
  struct Claim {
    bool first = false;                      // this entry measures and must fulfil()
    std::shared_future<MeasuredPtr> result;  // otherwise: wait on this
  };
  Claim claim(const read::FileDigest& digest) {
    std::lock_guard lock(mutex_);
    if (written_maps_.contains(digest.sha256)) return {false, written_map_};
    auto [it, inserted] = slots_.try_emplace(digest.sha256);
    if (!inserted) return {false, it->second.result};
    peak_slots_ = std::max(peak_slots_, slots_.size());
    it->second.result = it->second.promise.get_future().share();
    return {true, it->second.result};
  }
  // Whether an entry with this content was claimed (and is not yet written),
  // or written as a map, in this run so far.
  bool seen(const read::FileDigest& digest) {
    std::lock_guard lock(mutex_);
    return slots_.contains(digest.sha256) || written_maps_.contains(digest.sha256);
  }
  void fulfil(const read::FileDigest& digest, MeasuredPtr m) {
    std::lock_guard lock(mutex_);
    slots_.at(digest.sha256).promise.set_value(std::move(m));
  }
  // The writer wrote the claimant of this content.
  void written(const read::FileDigest& digest, bool map) {
    std::lock_guard lock(mutex_);
    slots_.erase(digest.sha256);
    if (map) written_maps_.insert(digest.sha256);
  }
  // Most slots alive at once: at most the entries in flight.
  std::size_t peak_slots() {
    std::lock_guard lock(mutex_);
    return peak_slots_;
  }

 private:
  struct Slot {
    std::promise<MeasuredPtr> promise;
    std::shared_future<MeasuredPtr> result;
  };
  static std::shared_future<MeasuredPtr> ready(MeasuredPtr m) {
    std::promise<MeasuredPtr> p;
    p.set_value(std::move(m));
    return p.get_future().share();
  }
  std::mutex mutex_;
  std::unordered_map<Sha256, Slot, Sha256Hash> slots_;
  std::unordered_set<Sha256, Sha256Hash> written_maps_;
  std::size_t peak_slots_ = 0;
  // What a copy of a written map gets: the writer takes it as known content.
  const std::shared_future<MeasuredPtr> written_map_ = ready(std::make_shared<const Measured>());
};

// One entry on its way through the graph.
struct WorkItem {
  std::uint64_t seq = 0;
  std::uint64_t charge = 0;  // bytes held in the budget until written (with the entry's overhead)
  std::uint64_t input_position = 0;  // input bytes read up to this entry (for the progress)
  read::Entry entry;
  read::FileDigest digest;
  // The SHA-256 of its tile data (the layers' keys), taken by the hash node
  // when the entry is not known already: the measure node then needs not.
  TileDataDigests tile_digests;
  std::optional<index::KnownMap> known;
  MeasuredPtr measured;
  bool claimant = false;  // this entry measured its content for the run (RunContents)
  // The claimant's result while its thumbnail is not yet encoded: the
  // thumbnail node finishes it, then fulfils the claim.
  std::shared_ptr<Measured> unfinished;
};
using WorkPtr = std::shared_ptr<WorkItem>;

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// sources.kind of an input, from what the reader found it to be.
index::SourceKind stored_kind(read::SourceKind kind) {
  switch (kind) {
    case read::SourceKind::archive: return index::SourceKind::archive;
    case read::SourceKind::folder: return index::SourceKind::folder;
    case read::SourceKind::standard_input: return index::SourceKind::standard_input;
    case read::SourceKind::file: return index::SourceKind::file;
    // The schema has no kind for an input that cannot be opened: stored as
    // a file (its row says why it was not read).
    case read::SourceKind::unreadable: return index::SourceKind::file;
  }
  return index::SourceKind::file;
}

// files.kind of an entry: from what reading it gave and, for content that
// was read, what it is (known, or as measured).
index::EntryKind entry_kind(const WorkItem& w) {
  switch (w.entry.kind) {
    case read::ReadOutcome::error: return index::EntryKind::unreadable;
    case read::ReadOutcome::not_read:
      return index::EntryKind::other;  // a link, a special file, an empty inner archive
    case read::ReadOutcome::oversize: return index::EntryKind::oversize;
    case read::ReadOutcome::file:
      if (w.known) return index::EntryKind::map;
      if (w.measured->failure) return index::EntryKind::unreadable;
      if (w.measured->measurement.kind == ContentKind::not_a_map) return index::EntryKind::other;
      return index::EntryKind::map;
  }
  return index::EntryKind::unreadable;
}

// The counters stored in the run's row.
index::RunCounters run_counters(const LiveCounters& c) {
  index::RunCounters rc;
  rc.entries = c.entries;
  rc.bytes = c.bytes;
  rc.maps_indexed = c.maps_indexed;
  rc.maps_known = c.maps_known;
  rc.rejected = c.rejected;
  rc.with_warnings = c.with_warnings;
  rc.not_maps = c.not_maps;
  rc.oversize = c.oversize;
  rc.unreadable = c.unreadable;
  return rc;
}

using KnownMaps = std::unordered_map<std::string, index::KnownMap>;

// What an earlier run recorded of this content, which is then not measured
// again; null when it is new, or --reindex measures everything.
const index::KnownMap* known_before(const read::FileDigest& digest, const KnownMaps& known,
                                    const IndexOptions& options) {
  if (options.reindex) return nullptr;
  const auto it = known.find(digest.sha256_hex());
  return it == known.end() ? nullptr : &it->second;
}

// What the measure node does with one entry (runs on any worker thread).
// `failed`: a node failed, so the graph is cancelled (see run_index).
void measure_entry(WorkItem& w, const KnownMaps& known, RunContents& contents,
                   LiveCounters& counters, const IndexOptions& options, LayerDataStore* layer_store,
                   const std::atomic<bool>& failed) {
  if (w.entry.kind != read::ReadOutcome::file) return;
  if (const index::KnownMap* before = known_before(w.digest, known, options)) {
    w.known = *before;
    w.entry.bytes.reset();
    return;
  }
  auto m = std::make_shared<Measured>();  // before the claim: nothing below throws
  auto claim = contents.claim(w.digest);
  if (!claim.first) {
    w.entry.bytes.reset();
    // The claimant fulfils its claim in the thumbnail node, which a failed
    // (cancelled) graph may never run for it: then stop waiting.
    while (claim.result.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready) {
      if (failed.load()) {
        auto stopped = std::make_shared<Measured>();
        stopped->failure =
            Problem{Code::internal, "not measured: the run failed first", Location::file()};
        w.measured = std::move(stopped);
        return;
      }
    }
    w.measured = claim.result.get();
    return;
  }
  try {
    MeasureOptions mo;
    mo.max_data_item_size = options.max_data_item_size;
    mo.tile_inflater = options.tile_inflater;
    mo.layer_store = layer_store;
    mo.digests = &w.tile_digests;
    mo.thumbnails = options.thumbnails;
    mo.defer_thumbnail_png = true;
    m->measurement = measure_content(w.entry.bytes, mo);
    w.tile_digests = {};
    if (m->measurement.kind == ContentKind::map) counters.maps_measured++;
  } catch (const std::exception& e) {
    m->failure =
        Problem{Code::internal, std::string("measuring failed: ") + e.what(), Location::file()};
  } catch (...) {
    m->failure = Problem{Code::internal, "measuring failed", Location::file()};
  }
  // The bytes are no longer needed: their buffer goes back to the reader's
  // pool now; the budget is given back by the writer.
  w.entry.bytes.reset();
  w.measured = m;
  w.claimant = true;
  if (m->measurement.thumbnail)
    w.unfinished = std::move(m);  // fulfilled by finish_entry
  else
    contents.fulfil(w.digest, std::move(m));
}

// What the thumbnail node does with one entry: a claimant's drawn thumbnail
// encoded (and offered to the layer store), then its claim fulfilled.
void finish_entry(WorkItem& w, RunContents& contents, LayerDataStore* layer_store) {
  if (!w.unfinished) return;
  std::shared_ptr<Measured> m = std::move(w.unfinished);
  try {
    finish_thumbnail(m->measurement, layer_store);
  } catch (const std::exception& e) {
    m->failure = Problem{Code::internal, std::string("encoding the thumbnail failed: ") + e.what(),
                         Location::file()};
  } catch (...) {
    m->failure = Problem{Code::internal, "encoding the thumbnail failed", Location::file()};
  }
  contents.fulfil(w.digest, std::move(m));
}

// The writer node's work, one entry at a time in input order: the entry's
// row (content written earlier in this run is written as known), the run's
// counters, how completely each source was read (for the audit), batched
// transactions, and the entry's bytes given back to the budget.
//
// The run itself (its row in runs, its sources) starts with the first entry
// written, not before: until then the index's damage check runs in the
// background (OpenOptions::check_in_background) while the first entries are
// read and hashed, and nothing is written until it has passed.
class EntryWriter {
 public:
  EntryWriter(index::IndexDb& db, const IndexOptions& options, std::vector<read::Source> sources,
              RunContents& contents, ByteBudget& budget, LiveCounters& counters)
      : db_(db),
        options_(options),
        sources_(std::move(sources)),
        contents_(contents),
        budget_(budget),
        counters_(counters) {}

  // Starts the run (once): begin_run, then each input's source row. What it
  // throws is kept for start_error() too.
  void start() {
    if (run_id_) return;
    try {
      const std::int64_t run_id = db_.begin_run(options_.command_line, options_.tool_version);
      run_id_ = run_id;
      // Each input as the reader found it (a FIFO is opened by the reader, to be told).
      for (const auto& source : sources_)
        source_ids_[source.input] = db_.source_id(run_id, source.input, stored_kind(source.kind));
    } catch (...) {
      if (!start_error_) start_error_ = std::current_exception();
      throw;
    }
  }
  std::exception_ptr start_error() const { return start_error_; }
  std::int64_t run_id() const { return run_id_.value_or(0); }

  void write(WorkItem& w) {
    start();
    const auto t0 = std::chrono::steady_clock::now();
    if (w.entry.kind == read::ReadOutcome::file) recognise_written_in_run(w);
    const index::EntryRecord rec = record(w);
    note_reading(rec.source_id, w.entry);
    const MapStats* stats =
        rec.kind == index::EntryKind::map && !w.known ? &w.measured->measurement.stats : nullptr;
    count(w, rec.kind, stats);
    store(w, rec, stats);
    commit_when_due();
    budget_.release(w.charge);
    counters_.bytes_finished += w.entry.size;
    counters_.input_bytes_finished = w.input_position;
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  // run_sources.reading of the sources whose reading was cut short: partial
  // (with the last entry read before the cut) or unreadable.
  void record_readings() {
    for (const auto& [source_id, reading] : readings_)
      if (reading.reading_errors > 0)
        db_.set_source_reading(
            *run_id_, source_id,
            reading.entries > 0 ? index::SourceReading::partial : index::SourceReading::unreadable,
            reading.entries > 0 ? std::optional<std::string>(reading.last_entry) : std::nullopt);
  }

  double seconds() const { return seconds_; }

 private:
  // The same content as a map written earlier in this run: written as a
  // known map (the writer's own record, in input order, so the index does
  // not depend on which thread measured first).
  void recognise_written_in_run(WorkItem& w) {
    if (w.known) return;
    if (auto same = written_maps_.find(w.digest.sha256_hex()); same != written_maps_.end()) {
      w.known = index::KnownMap{};
      w.known->status = w.known->teeworlds_status = same->second;
      counters_.maps_same_in_run++;
    }
  }

  index::EntryRecord record(const WorkItem& w) const {
    index::EntryRecord rec;
    rec.source_id = source_ids_.at(w.entry.source);
    rec.entry_path = w.entry.path;
    rec.size = w.entry.size;
    rec.kind = entry_kind(w);
    switch (w.entry.kind) {
      case read::ReadOutcome::error:
        rec.problems.push_back({w.entry.error.code, w.entry.error.message, Location::file()});
        break;
      case read::ReadOutcome::not_read:
        rec.problems.push_back({w.entry.error.code, w.entry.error.message, Location::file()});
        break;
      case read::ReadOutcome::oversize:
        rec.problems.push_back({Code::entry_oversize,
                                "entry is " + std::to_string(w.entry.size) +
                                    " bytes, over --max-map-size " +
                                    std::to_string(options_.max_map_size) + "; not read",
                                Location::file()});
        break;
      case read::ReadOutcome::file:
        rec.sha256 = w.digest.sha256_hex();
        rec.crc32 = w.digest.crc32;
        if (!w.known && w.measured->failure) rec.problems.push_back(*w.measured->failure);
        break;
    }
    return rec;
  }

  // Per source: entries written, and errors that cut its reading short (the
  // source itself unreadable, or an entry cut short).
  void note_reading(std::int64_t source_id, const read::Entry& entry) {
    if (entry.kind == read::ReadOutcome::not_read) return;
    SourceReading& r = readings_[source_id];
    if (entry.kind == read::ReadOutcome::error &&
        (entry.path.empty() || entry.error.code == Code::read_truncated)) {
      r.reading_errors++;
      return;
    }
    r.entries++;
    r.last_entry = entry.path;
  }

  void count(const WorkItem& w, index::EntryKind kind, const MapStats* stats) {
    switch (kind) {
      case index::EntryKind::unreadable: counters_.unreadable++; return;
      case index::EntryKind::other: counters_.not_maps++; return;
      case index::EntryKind::oversize: counters_.oversize++; return;
      case index::EntryKind::map: break;
    }
    // The verdict of the game the archive is for (--game).
    const MapStatus status =
        stats ? status_for(*stats, options_.game) : w.known->status_for(options_.game);
    if (stats)
      counters_.maps_indexed++;
    else
      counters_.maps_known++;
    if (status == MapStatus::rejected) counters_.rejected++;
    if (status == MapStatus::warnings) counters_.with_warnings++;
  }

  // One entry the index refuses (its rows roll back to the entry's savepoint)
  // is reported and skipped; the run stops only when writes keep failing.
  void store(const WorkItem& w, const index::EntryRecord& rec, const MapStats* stats) {
    try {
      db_.write_entry(*run_id_, rec, stats);
      if (stats) written_maps_.try_emplace(rec.sha256, status_for(*stats, options_.game));
      if (w.claimant) contents_.written(w.digest, stats != nullptr);
      counters_.written++;
      consecutive_write_failures_ = 0;
    } catch (const std::exception& e) {
      counters_.not_written++;
      std::fprintf(stderr, "mapindex index: %s: %s: its rows could not be written: %s\n",
                   w.entry.source.c_str(), w.entry.path.c_str(), e.what());
      // A damaged index or an I/O error (disk full) fails every entry: stop now.
      const auto* index_error = dynamic_cast<const index::IndexError*>(&e);
      if (index_error &&
          (index_error->code() == Code::index_damaged || index_error->code() == Code::index_io))
        throw;
      if (++consecutive_write_failures_ >= 20) throw;
    }
  }

  void commit_when_due() {
    const auto now = std::chrono::steady_clock::now();
    if (++uncommitted_ >= options_.batch_size || now - last_commit_ > kCommitInterval) {
      db_.commit_batch();
      uncommitted_ = 0;
      last_commit_ = now;
    }
  }

  struct SourceReading {
    std::uint64_t entries = 0, reading_errors = 0;
    std::string last_entry;  // the last entry read that was not a reading error
  };

  index::IndexDb& db_;
  const IndexOptions& options_;
  const std::vector<read::Source> sources_;
  std::optional<std::int64_t> run_id_;  // once started
  std::exception_ptr start_error_;
  std::unordered_map<std::string, std::int64_t> source_ids_;
  RunContents& contents_;
  ByteBudget& budget_;
  LiveCounters& counters_;
  // Maps written earlier in this run, by SHA-256.
  std::unordered_map<std::string, MapStatus> written_maps_;
  std::unordered_map<std::int64_t, SourceReading> readings_;
  std::uint32_t uncommitted_ = 0;
  std::chrono::steady_clock::time_point last_commit_ = std::chrono::steady_clock::now();
  int consecutive_write_failures_ = 0;
  double seconds_ = 0;
};

}  // namespace

Result<IndexSummary> run_index(const IndexOptions& options, LiveCounters& counters) {
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();

  // OpenSSL sets itself up while the index opens, not in the first entry's
  // hashing, before anything could be measured. A failure there shows again
  // where the hashing fails; without a thread to be had, the first digest
  // does it.
  std::future<void> openssl_ready = start_in_background(sha256_warm_up);
  // The damage check runs while the first entries are read and hashed; the
  // run's first write waits for it (see EntryWriter).
  index::OpenOptions open_options;
  open_options.check_in_background = true;
  open_options.checkpoint_in_background = true;
  auto db = index::IndexDb::open(options.db_path, index::OpenMode::read_write, open_options);
  if (!db) return db.error();
  if (openssl_ready.valid()) openssl_ready.wait();

  IndexSummary summary;

  read::ReadOptions ro;
  ro.max_entry_size = options.max_map_size;
  ro.max_nesting = options.max_nesting;
  read::SourceReader reader(options.inputs, ro);
  // A stop request wakes a reader blocked on standard input or a pipe.
  struct ClearWaker {
    StopRequest* stop;
    ~ClearWaker() {
      if (stop) stop->set_waker(nullptr, nullptr);
    }
  } clear_waker{options.stop};
  if (options.stop) {
    options.stop->set_waker([](void* r) { static_cast<read::SourceReader*>(r)->stop(); }, &reader);
    if (options.stop->requested()) reader.stop();  // asked before the waker was set
  }

  // Each input as the reader found it (a FIFO is opened here, to be told).
  std::vector<read::Source> sources = reader.sources();
  const auto known = db->known_maps();
  RunContents contents;
  // Earlier runs' layer results: read from the index unless --reindex asks
  // for everything to be measured again.
  std::optional<RunLayerStore> layer_store;
  if (options.layer_cache)
    layer_store.emplace(options.reindex ? std::string() : options.db_path, kExtractorVersion,
                        counters.layers);

  const unsigned threads =
      options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  // Two more threads than decode threads, in an arena of its own, so that the
  // reader (which may wait for budget), the hashing, thumbnails and writer
  // run beside the N decode threads instead of taking turns with them. N + 1
  // would not do: the N measure tasks and the reader can all wait at once
  // (see the measure node), and what they wait for needs a thread. N + 3
  // only adds idle workers spinning beside the decode threads.
  const int graph_threads = static_cast<int>(threads + 2);
  oneapi::tbb::global_control parallelism(oneapi::tbb::global_control::max_allowed_parallelism,
                                          graph_threads);
  oneapi::tbb::task_arena arena(graph_threads);
  summary.decode_threads = threads;
  summary.max_in_flight =
      options.max_in_flight ? options.max_in_flight : ByteBudget::default_max_entries(threads);
  ByteBudget budget(options.memory_budget, options.max_map_size + ByteBudget::kEntryOverhead,
                    summary.max_in_flight);
  // Set when a node's body throws (the index failed, or a bug): the graph is
  // then cancelled and the entries in flight never give their bytes back, so
  // the reader, which may be waiting for room, must stop waiting.
  std::atomic<bool> node_failed{false};
  const auto stop = [&node_failed, &options] {
    return (options.stop && options.stop->requested()) || node_failed.load();
  };
  const auto failing = [&node_failed](auto&& body) {
    try {
      body();
    } catch (...) {
      node_failed = true;
      throw;
    }
  };
  EntryWriter writer(*db, options, std::move(sources), contents, budget, counters);

  std::uint64_t next_seq = 0;
  std::string failure;
  Code failure_code = Code::index_failed;

  // The graph is made inside the arena: its tasks run there.
  arena.execute([&] {
    flow::graph g;
    flow::input_node<WorkPtr> read_node(g, [&](oneapi::tbb::flow_control& fc) -> WorkPtr {
      if (!budget.wait_for_room(stop)) {
        reader.stop();
        fc.stop();
        return {};
      }
      auto entry = reader.next();
      const auto progress = reader.progress();
      counters.input_bytes_total = progress.input_bytes_total;
      counters.input_bytes_done = progress.input_bytes_done;
      if (!entry) {
        fc.stop();
        return {};
      }
      auto w = std::make_shared<WorkItem>();
      w->seq = next_seq++;
      // What the entry's buffer holds (its capacity), not only its size.
      w->charge = entry->bytes.capacity() + ByteBudget::kEntryOverhead;
      counters.bytes += entry->bytes.size();
      w->input_position = progress.input_bytes_done;
      w->entry = std::move(*entry);
      budget.acquire(w->charge);
      counters.entries++;
      return w;
    });

    flow::function_node<WorkPtr, WorkPtr> hash_node(g, std::max(threads, 2u), [&](WorkPtr w) {
      failing([&] {
        if (w->entry.kind != read::ReadOutcome::file) return;
        w->digest = read::digest(w->entry.bytes);
        // Its layers' keys too, beside the decode threads (at --threads 1 the
        // hashing has a thread of its own), unless it will not be measured:
        // known from an earlier run, or met before in this one. (A copy
        // hashed before the first is claimed by the measure node is hashed in
        // vain.) They only save work: should hashing them fail (memory), the
        // decode thread hashes, and the entry is measured as ever.
        if (!known_before(w->digest, known, options) && !contents.seen(w->digest)) {
          try {
            w->tile_digests = digest_tile_data(w->entry.bytes);
          } catch (const std::exception&) {
            w->tile_digests = {};
          }
        }
      });
      return w;
    });

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
    constexpr flow::node_priority_t kMeasurePriority = 1;
    flow::function_node<WorkPtr, WorkPtr> measure_node(
        g, threads,
        [&](WorkPtr w) {
          failing([&] {
            measure_entry(*w, known, contents, counters, options,
                          layer_store ? &*layer_store : nullptr, node_failed);
          });
          return w;
        },
        kMeasurePriority);

    flow::function_node<WorkPtr, WorkPtr> thumbnail_node(g, threads, [&](WorkPtr w) {
      failing([&] { finish_entry(*w, contents, layer_store ? &*layer_store : nullptr); });
      return w;
    });

    flow::sequencer_node<WorkPtr> order_node(g, [](const WorkPtr& w) { return w->seq; });

    flow::function_node<WorkPtr> write_node(g, flow::serial,
                                            [&](WorkPtr w) { failing([&] { writer.write(*w); }); });

    flow::make_edge(read_node, hash_node);
    flow::make_edge(hash_node, measure_node);
    flow::make_edge(measure_node, thumbnail_node);
    flow::make_edge(thumbnail_node, order_node);
    flow::make_edge(order_node, write_node);

    try {
      read_node.activate();
      g.wait_for_all();
    } catch (const index::IndexError& e) {
      failure = e.what();
      if (e.code() != Code::index_sql) failure_code = e.code();
    } catch (const std::exception& e) {
      failure = e.what();
      failure_code = Code::internal;  // not the index's fault: a bug
    }
  });

  // The run could not start (damage found by the check, another run, a
  // lock): as before any entry was read, nothing was written.
  if (const auto start_error = writer.start_error()) std::rethrow_exception(start_error);
  writer.start();  // no entry was written (none read, or interrupted at once)
  summary.run_id = writer.run_id();

  // The layer results kept for the run are freed on another thread while
  // the index commits: freeing thousands of them is not free, and the commit
  // has to wait for the disk anyway.
  std::future<void> freeing = start_in_background([&layer_store] { layer_store.reset(); });
  if (!freeing.valid()) layer_store.reset();  // no thread to be had
  summary.interrupted = options.stop && options.stop->requested();
  if (failure.empty()) writer.record_readings();
  const auto status = !failure.empty()      ? index::RunStatus::failed
                      : summary.interrupted ? index::RunStatus::interrupted
                                            : index::RunStatus::complete;
  // The run's end goes in the transaction of its last rows: one commit.
  db->finish_run(summary.run_id, status, run_counters(counters));
  if (freeing.valid()) freeing.get();
  if (!failure.empty()) {
    const bool damaged = failure_code == Code::index_damaged;
    return Error{
        failure_code,
        "index run " + std::to_string(summary.run_id) + " of '" + options.db_path +
            "' failed: " + failure +
            (damaged ? ": the index is damaged: " + std::string(index::kRebuildAdvice) : "")};
  }

  summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  summary.cpu_seconds = cpu_seconds() - cpu_start;
  summary.peak_in_flight = budget.peak();
  summary.peak_in_flight_entries = budget.peak_entries();
  summary.peak_run_contents = contents.peak_slots();
  summary.writer_seconds = writer.seconds();
  summary.zip_members_read = reader.progress().zip_members;
  summary.index_check = db->index_check();
  return summary;
}

}  // namespace mapindex
