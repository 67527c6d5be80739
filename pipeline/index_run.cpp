// The flow graph of `mapindex index`:
//
//   reader (input_node, serial)          stages/read: next archive entry -> bytes,
//      |                                 waits for room in the memory budget first
//   measure (function_node, N threads)   stages/read digest, then stages/extract:
//      |                                 skip known content, else decode + measure
//      |                                 (content seen twice in the run: measured once)
//   order (sequencer_node)               restores input order, so the index does
//      |                                 not depend on the number of threads
//   write (function_node, serial)        stages/write: rows in batched transactions,
//                                        gives the entry's bytes back to the budget
#include "pipeline/index_run.h"

#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "pipeline/byte_budget.h"
#include "pipeline/interrupt.h"
#include "pipeline/version.h"
#include "stages/extract/measure.h"
#include "stages/read/archive_magic.h"
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
    bool first = false;                       // this entry measures and must fulfil()
    std::shared_future<MeasuredPtr> result;   // otherwise: wait on this
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
  using Sha256 = decltype(read::FileDigest::sha256);
  struct Hash {
    std::size_t operator()(const Sha256& s) const {
      std::size_t h;  // SHA-256 bytes are uniform: the first word is a fine hash
      std::memcpy(&h, s.data(), sizeof h);
      return h;
    }
  };
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
  std::unordered_map<Sha256, Slot, Hash> slots_;
  std::unordered_set<Sha256, Hash> written_maps_;
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
  std::optional<index::KnownMap> known;
  MeasuredPtr measured;
  bool claimant = false;  // this entry measured its content for the run (RunContents)
};
using WorkPtr = std::shared_ptr<WorkItem>;

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// "stdin", "folder", "archive" or "file" (a single map), as stored in sources.kind.
std::string source_kind(const std::string& input) {
  if (input == "-") return "stdin";
  std::error_code ec;
  if (std::filesystem::is_directory(input, ec)) return "folder";
  std::vector<std::uint8_t> prefix(read::kArchiveMagicBytes);
  std::ifstream in(input, std::ios::binary);
  in.read(reinterpret_cast<char*>(prefix.data()), static_cast<std::streamsize>(prefix.size()));
  prefix.resize(static_cast<std::size_t>(in.gcount()));
  return read::sniff_archive(prefix) == read::ArchiveMagic::none ? "file" : "archive";
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

// What the measure node does with one entry (runs on any worker thread).
void measure_entry(WorkItem& w, const std::unordered_map<std::string, index::KnownMap>& known,
                   RunContents& contents, LiveCounters& counters, const IndexOptions& options) {
  if (w.entry.kind != read::EntryKind::file) return;
  w.digest = read::digest(w.entry.bytes);
  if (!options.reindex) {
    if (auto it = known.find(w.digest.sha256_hex()); it != known.end()) {
      w.known = it->second;
      w.entry.bytes = {};
      return;
    }
  }
  auto m = std::make_shared<Measured>();  // before the claim: nothing below throws
  auto claim = contents.claim(w.digest);
  if (!claim.first) {
    w.entry.bytes = {};
    w.measured = claim.result.get();
    return;
  }
  try {
    MeasureOptions mo;
    mo.max_data_item_size = options.max_data_item_size;
    m->measurement = measure_content(w.entry.bytes, mo);
    if (m->measurement.kind == ContentKind::map) counters.maps_measured++;
  } catch (const std::exception& e) {
    m->failure = Problem{Code::internal,
                         std::string("measuring failed: ") + e.what(), Location::file()};
  } catch (...) {
    m->failure = Problem{Code::internal, "measuring failed", Location::file()};
  }
  w.entry.bytes = {};  // free the bytes now; the budget is given back by the writer
  w.measured = m;
  w.claimant = true;
  contents.fulfil(w.digest, std::move(m));
}

}  // namespace

Result<IndexSummary> run_index(const IndexOptions& options, LiveCounters& counters) {
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();

  auto db = index::IndexDb::open(options.db_path, index::OpenMode::read_write);
  if (!db) return db.error();

  IndexSummary summary;
  summary.run_id = db->begin_run(options.command_line, tool_version());
  std::unordered_map<std::string, std::int64_t> source_ids;
  for (const auto& input : options.inputs)
    source_ids[input] = db->source_id(summary.run_id, input, source_kind(input));
  const auto known = db->known_maps();
  RunContents contents;
  // Maps written earlier in this run, by SHA-256 (the writer's own record, in
  // input order, so the index does not depend on which thread measured first).
  std::unordered_map<std::string, MapStatus> written_maps;
  // Per source: entries written, and errors that cut its reading short (the
  // source itself unreadable, or an entry cut short): run_sources.reading.
  struct SourceReading {
    std::uint64_t entries = 0, reading_errors = 0;
    std::string last_entry;  // the last entry read that was not a reading error
  };
  std::unordered_map<std::int64_t, SourceReading> readings;
  const auto note_entry = [](SourceReading& r, const std::string& path) {
    r.entries++;
    r.last_entry = path;
  };

  read::ReadOptions ro;
  ro.max_entry_size = options.max_map_size;
  ro.max_nesting = options.max_nesting;
  read::SourceReader reader(options.inputs, ro);
  // Ctrl-C wakes a reader blocked on standard input or a pipe.
  set_interrupt_hook([](void* r) { static_cast<read::SourceReader*>(r)->stop(); }, &reader);
  set_interrupt_counters(&counters);
  struct ClearHook {
    ~ClearHook() {
      set_interrupt_hook(nullptr, nullptr);
      set_interrupt_counters(nullptr);
    }
  } clear_hook;

  const unsigned threads =
      options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  // One more thread than decode threads: the reader may wait for budget
  // without taking a decode thread away.
  oneapi::tbb::global_control parallelism(oneapi::tbb::global_control::max_allowed_parallelism,
                                          threads + 1);
  ByteBudget budget(options.memory_budget, options.max_map_size + ByteBudget::kEntryOverhead);
  const auto stop = [] { return interrupt_requested(); };

  std::uint64_t next_seq = 0;
  std::uint32_t uncommitted = 0;
  auto last_commit = std::chrono::steady_clock::now();
  double writer_seconds = 0;
  int consecutive_write_failures = 0;

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

  flow::function_node<WorkPtr, WorkPtr> measure_node(g, threads, [&](WorkPtr w) {
    measure_entry(*w, known, contents, counters, options);
    return w;
  });

  flow::sequencer_node<WorkPtr> order_node(g, [](const WorkPtr& w) { return w->seq; });

  flow::function_node<WorkPtr> write_node(g, flow::serial, [&](WorkPtr w) {
    const auto t0 = std::chrono::steady_clock::now();
    index::EntryRecord rec;
    rec.source_id = source_ids.at(w->entry.source);
    rec.entry_path = w->entry.path;
    rec.size = w->entry.size;
    const MapStats* stats = nullptr;
    switch (w->entry.kind) {
      case read::EntryKind::error:
        if (w->entry.path.empty() || w->entry.error.code == Code::read_truncated)
          readings[rec.source_id].reading_errors++;
        else
          note_entry(readings[rec.source_id], w->entry.path);
        rec.kind = index::EntryKind::unreadable;
        rec.problems.push_back({w->entry.error.code, w->entry.error.message, Location::file()});
        counters.unreadable++;
        break;
      case read::EntryKind::not_read:  // a link, a special file, an empty inner archive
        rec.kind = index::EntryKind::other;
        rec.problems.push_back({w->entry.error.code, w->entry.error.message, Location::file()});
        counters.not_maps++;
        break;
      case read::EntryKind::oversize:
        note_entry(readings[rec.source_id], w->entry.path);
        rec.kind = index::EntryKind::oversize;
        rec.problems.push_back(
            {Code::entry_oversize,
             "entry is " + std::to_string(w->entry.size) + " bytes, over --max-map-size " +
                 std::to_string(options.max_map_size) + "; not read",
             Location::file()});
        counters.oversize++;
        break;
      case read::EntryKind::file:
        note_entry(readings[rec.source_id], w->entry.path);
        rec.sha256 = w->digest.sha256_hex();
        rec.crc32 = w->digest.crc32;
        if (auto same = written_maps.find(rec.sha256); !w->known && same != written_maps.end()) {
          // The same content earlier in this run: written as a known map.
          w->known = index::KnownMap{};
          w->known->status = same->second;
          counters.maps_same_in_run++;
        }
        if (w->known) {
          rec.kind = index::EntryKind::map;
          counters.maps_known++;
          if (w->known->status == MapStatus::rejected) counters.rejected++;
          if (w->known->status == MapStatus::warnings) counters.with_warnings++;
        } else if (w->measured->failure) {
          rec.kind = index::EntryKind::unreadable;
          rec.problems.push_back(*w->measured->failure);
          counters.unreadable++;
        } else if (w->measured->measurement.kind == ContentKind::not_a_map) {
          rec.kind = index::EntryKind::other;
          counters.not_maps++;
        } else {
          rec.kind = index::EntryKind::map;
          stats = &w->measured->measurement.stats;
          counters.maps_indexed++;
          if (stats->status == MapStatus::rejected) counters.rejected++;
          if (stats->status == MapStatus::warnings) counters.with_warnings++;
        }
        break;
    }
    // One entry the index refuses (its rows roll back to the entry's savepoint)
    // is reported and skipped; the run stops only when writes keep failing.
    try {
      db->write_entry(summary.run_id, rec, stats);
      if (stats) written_maps.try_emplace(rec.sha256, stats->status);
      if (w->claimant) contents.written(w->digest, stats != nullptr);
      counters.written++;
      consecutive_write_failures = 0;
    } catch (const std::exception& e) {
      counters.not_written++;
      std::fprintf(stderr, "mapindex index: %s: %s: its rows could not be written: %s\n",
                   w->entry.source.c_str(), w->entry.path.c_str(), e.what());
      // A damaged index or an I/O error (disk full) fails every entry: stop now.
      const auto* index_error = dynamic_cast<const index::IndexError*>(&e);
      if (index_error && (index_error->code() == Code::index_damaged || index_error->code() == Code::index_io))
        throw;
      if (++consecutive_write_failures >= 20) throw;
    }
    const auto now = std::chrono::steady_clock::now();
    if (++uncommitted >= options.batch_size || now - last_commit > std::chrono::seconds(1)) {
      db->commit_batch();
      uncommitted = 0;
      last_commit = now;
    }
    budget.release(w->charge);
    counters.bytes_finished += w->entry.size;
    counters.input_bytes_finished = w->input_position;
    writer_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  });

  flow::make_edge(read_node, measure_node);
  flow::make_edge(measure_node, order_node);
  flow::make_edge(order_node, write_node);

  std::string failure;
  Code failure_code = Code::index_failed;
  try {
    read_node.activate();
    g.wait_for_all();
  } catch (const index::IndexError& e) {
    failure = e.what();
    if (e.code() != Code::index_sql) failure_code = e.code();
  } catch (const std::exception& e) {
    failure = e.what();
  }

  summary.interrupted = interrupt_requested();
  for (const auto& [source_id, reading] : readings)
    if (failure.empty() && reading.reading_errors > 0)
      db->set_source_reading(summary.run_id, source_id, reading.entries > 0 ? "partial" : "unreadable",
                             reading.entries > 0 ? std::optional<std::string>(reading.last_entry)
                                                 : std::nullopt);
  db->commit_batch();
  const char* status = !failure.empty() ? "failed" : summary.interrupted ? "interrupted" : "complete";
  db->finish_run(summary.run_id, status, run_counters(counters));
  if (!failure.empty()) {
    const bool damaged = failure_code == Code::index_damaged;
    return Error{failure_code, "index run " + std::to_string(summary.run_id) + " failed: " + failure +
                                   (damaged ? ": the index is damaged: " +
                                                  std::string(index::kRebuildAdvice)
                                            : "")};
  }

  summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  summary.cpu_seconds = cpu_seconds() - cpu_start;
  summary.peak_in_flight = budget.peak();
  summary.peak_in_flight_entries = budget.peak_entries();
  summary.peak_run_contents = contents.peak_slots();
  summary.writer_seconds = writer_seconds;
  return summary;
}

}  // namespace mapindex
