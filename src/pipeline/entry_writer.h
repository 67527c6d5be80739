// The index graph's writer node (pipeline/index_run.cpp): each entry's rows
// in input order, in batched transactions, and the run's row and counters.
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "index/index_db.h"
#include "pipeline/byte_budget.h"
#include "pipeline/index_run.h"
#include "pipeline/run_counters.h"
#include "pipeline/run_work.h"
#include "read/source_reader.h"

namespace mapindex::pipeline {

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
  void start();
  std::exception_ptr start_error() const { return start_error_; }
  std::int64_t run_id() const { return run_id_.value_or(0); }

  void write(const WorkPtr& item);

  // run_sources.reading of the sources whose reading was cut short: partial
  // (with the last entry read before the cut) or unreadable.
  void record_readings();

  double seconds() const { return seconds_; }
  // Batches of entries, the open one included (the run's end commits it),
  // and the most bytes kept for one at once.
  std::uint64_t batches() const { return batches_ + (uncommitted_ > 0 ? 1 : 0); }
  std::uint64_t peak_batch_bytes() const { return peak_batch_bytes_; }

 private:
  // The same content as a map written earlier in this run: written as a
  // known map (the writer's own record, in input order, so the index does
  // not depend on which thread measured first).
  void recognise_written_in_run(WorkItem& w);

  index::EntryRecord record(const WorkItem& w) const;

  // Per source: entries written, and errors that cut its reading short (the
  // source itself unreadable, or an entry cut short).
  void note_reading(std::int64_t source_id, const read::Entry& entry);

  void count(const WorkItem& w, index::EntryKind kind, const MapStats* stats);

  // The statistics written with the entry: a map measured here (not known).
  static const MapStats* stats_of(const WorkItem& w, const index::EntryRecord& rec);

  void write_entry(const WorkItem& w, const index::EntryRecord& rec);

  // One entry the index refuses is reported and skipped; the run stops only
  // when writes keep failing. The index writes a batch without a savepoint
  // per entry (OpenOptions::entry_savepoints), so a refused entry rolls the
  // whole batch back: the batch's entries written before it are written
  // again (they are kept until their batch commits).
  void store(const WorkPtr& item, index::EntryRecord rec);

  // Writes the batch's entries again after the index rolled it back; one
  // refused again leaves the batch (and is reported), and the rest are
  // written again once more.
  void rewrite_batch();

  void refused(const WorkItem& w, const std::exception& e);

  void commit_when_due();

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
  std::unordered_map<Sha256, MapStatus, Sha256Hash> written_maps_;
  std::unordered_map<std::int64_t, SourceReading> readings_;
  std::uint32_t uncommitted_ = 0;
  // The entries written since the last commit, as written (see store).
  std::vector<std::pair<WorkPtr, index::EntryRecord>> batch_;
  // What batch_ holds (kept_bytes), for IndexOptions::batch_memory.
  std::uint64_t batch_bytes_ = 0, peak_batch_bytes_ = 0;
  std::uint64_t batches_ = 0;
  // When the run began, for commit_interval.
  const std::chrono::steady_clock::time_point made_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_commit_ = made_;
  int consecutive_write_failures_ = 0;
  double seconds_ = 0;
};

// The counters stored in the run's row.
index::RunCounters run_counters(const LiveCounters& c);

}  // namespace mapindex::pipeline
