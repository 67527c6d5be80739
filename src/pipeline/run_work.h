// What the nodes of the index graph (pipeline/index_run.cpp) pass along and
// share: one entry on its way (WorkItem), what measuring a content gave
// (Measured), and the contents met in the run (RunContents).
#pragma once

#include <algorithm>
#include <cstdint>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "common/problem.h"
#include "common/sha256.h"
#include "extract/measure.h"
#include "index/index_db.h"
#include "pipeline/index_run.h"
#include "read/digest.h"
#include "read/entry.h"

namespace mapindex::pipeline {

// What measuring one content gave; shared by every entry with that content.
struct Measured {
  Measurement measurement;
  std::optional<Problem> failure;  // an unexpected failure while measuring
  // A map's part keys (src/index/part_key.h), taken on the thread that
  // measured it: the writer only looks them up (none: it takes them itself).
  std::optional<index::MapPartKeys> keys;
  // held_bytes of measurement.stats, taken with the keys: for the writer's
  // bound on what its open batch keeps (IndexOptions::batch_memory).
  std::uint64_t stats_bytes = 0;
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

using KnownMaps = std::unordered_map<Sha256, index::KnownMap, Sha256Hash>;

// What an earlier run recorded of this content, which is then not measured
// again; null when it is new, or --reindex measures everything.
inline const index::KnownMap* known_before(const read::FileDigest& digest, const KnownMaps& known,
                                           const IndexOptions& options) {
  if (options.reindex) return nullptr;
  const auto it = known.find(digest.sha256);
  return it == known.end() ? nullptr : &it->second;
}

}  // namespace mapindex::pipeline
