#include "pipeline/entry_writer.h"

#include <algorithm>
#include <cstdio>

namespace mapindex::pipeline {
namespace {

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

// The bytes an entry of the open batch holds: its record and item, and,
// when it is written with the statistics measured for it (`with_stats`),
// those and their part keys.
std::uint64_t kept_bytes(const WorkItem& w, const index::EntryRecord& rec, bool with_stats) {
  std::uint64_t bytes = sizeof(WorkItem) + sizeof(index::EntryRecord) + rec.entry_path.capacity() +
                        w.entry.path.capacity();
  if (!with_stats) return bytes;
  bytes += w.measured->stats_bytes;  // held_bytes of the statistics, taken when measured
  if (w.measured->keys)
    bytes += w.measured->keys->layers.capacity() * sizeof(w.measured->keys->layers[0]);
  return bytes;
}

}  // namespace

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

void EntryWriter::start() {
  if (run_id_) return;
  try {
    const std::int64_t run_id = db_.begin_run(options_.command_line, options_.tool_version);
    run_id_ = run_id;
    // Each input as the reader found it (a FIFO is opened by the reader, to be told).
    for (const auto& source : sources_)
      source_ids_[source.input] = db_.source_id(run_id, source.input, stored_kind(source.kind));
    // Committed before any entry: a batch the index rolls back (store)
    // must not take them along.
    db_.commit_batch();
  } catch (...) {
    if (!start_error_) start_error_ = std::current_exception();
    throw;
  }
}

void EntryWriter::write(const WorkPtr& item) {
  start();
  WorkItem& w = *item;
  const auto t0 = std::chrono::steady_clock::now();
  if (w.entry.kind == read::ReadOutcome::file) recognise_written_in_run(w);
  index::EntryRecord rec = record(w);
  note_reading(rec.source_id, w.entry);
  count(w, rec.kind, stats_of(w, rec));
  store(item, std::move(rec));
  commit_when_due();
  budget_.release(w.charge);
  counters_.bytes_finished += w.entry.size;
  counters_.input_bytes_finished = w.input_position;
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void EntryWriter::record_readings() {
  for (const auto& [source_id, reading] : readings_)
    if (reading.reading_errors > 0)
      db_.set_source_reading(
          *run_id_, source_id,
          reading.entries > 0 ? index::SourceReading::partial : index::SourceReading::unreadable,
          reading.entries > 0 ? std::optional<std::string>(reading.last_entry) : std::nullopt);
}

void EntryWriter::recognise_written_in_run(WorkItem& w) {
  if (w.known) return;
  if (auto same = written_maps_.find(w.digest.sha256); same != written_maps_.end()) {
    w.known = index::KnownMap{};
    w.known->status = w.known->teeworlds_status = same->second;
    counters_.maps_same_in_run++;
  }
}

index::EntryRecord EntryWriter::record(const WorkItem& w) const {
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
      rec.sha256 = w.digest.sha256;
      rec.crc32 = w.digest.crc32;
      // Known content is a map (entry_kind); its id is 0 when the content was
      // first written in this run (recognise_written_in_run).
      if (w.known) rec.known_map_id = w.known->map_id;
      if (!w.known && w.measured->failure) rec.problems.push_back(*w.measured->failure);
      break;
  }
  return rec;
}

void EntryWriter::note_reading(std::int64_t source_id, const read::Entry& entry) {
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

void EntryWriter::count(const WorkItem& w, index::EntryKind kind, const MapStats* stats) {
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

const MapStats* EntryWriter::stats_of(const WorkItem& w, const index::EntryRecord& rec) {
  return rec.kind == index::EntryKind::map && !w.known ? &w.measured->measurement.stats : nullptr;
}

void EntryWriter::write_entry(const WorkItem& w, const index::EntryRecord& rec) {
  const MapStats* stats = stats_of(w, rec);
  const index::MapPartKeys* keys = stats && w.measured->keys ? &*w.measured->keys : nullptr;
  db_.write_entry(*run_id_, rec, stats, keys);
}

void EntryWriter::store(const WorkPtr& item, index::EntryRecord rec) {
  const WorkItem& w = *item;
  try {
    write_entry(w, rec);
  } catch (const std::exception& e) {
    refused(w, e);
    while (db_.pending_entries() < batch_.size()) rewrite_batch();
    return;
  }
  const MapStats* stats = stats_of(w, rec);
  if (stats) written_maps_.try_emplace(*rec.sha256, status_for(*stats, options_.game));
  if (w.claimant) contents_.written(w.digest, stats != nullptr);
  counters_.written++;
  consecutive_write_failures_ = 0;
  batch_bytes_ += kept_bytes(w, rec, stats != nullptr);
  peak_batch_bytes_ = std::max(peak_batch_bytes_, batch_bytes_);
  batch_.emplace_back(item, std::move(rec));
}

void EntryWriter::rewrite_batch() {
  for (std::size_t i = 0; i < batch_.size(); ++i) {
    try {
      write_entry(*batch_[i].first, batch_[i].second);
    } catch (const std::exception& e) {
      const auto& [w, rec] = batch_[i];
      refused(*w, e);
      counters_.written--;
      const MapStats* stats = stats_of(*w, rec);
      if (stats) written_maps_.erase(*rec.sha256);
      batch_bytes_ -= kept_bytes(*w, rec, stats != nullptr);
      batch_.erase(batch_.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
  }
}

void EntryWriter::refused(const WorkItem& w, const std::exception& e) {
  counters_.not_written++;
  std::fprintf(stderr, "mapindex index: %s: %s: its rows could not be written: %s\n",
               w.entry.source.c_str(), w.entry.path.c_str(), e.what());
  // A damaged index or an I/O error (disk full) fails every entry: stop now.
  const auto* index_error = dynamic_cast<const sqlite::IndexError*>(&e);
  if (index_error &&
      (index_error->code() == Code::index_damaged || index_error->code() == Code::index_io))
    throw;
  if (++consecutive_write_failures_ >= 20) throw;
}

void EntryWriter::commit_when_due() {
  const auto now = std::chrono::steady_clock::now();
  const auto run_age = std::chrono::duration_cast<std::chrono::milliseconds>(now - made_);
  if (++uncommitted_ >= options_.batch_size || batch_bytes_ >= options_.batch_memory ||
      now - last_commit_ > commit_interval(run_age)) {
    db_.commit_batch();
    batch_.clear();
    batch_bytes_ = 0;
    ++batches_;
    uncommitted_ = 0;
    last_commit_ = now;
  }
}

}  // namespace mapindex::pipeline
