// The layer-result store of `mapindex index` (MeasureContext::layer_store):
// results of tile layer data (src/extract/layer_data.h) measured earlier in
// this run, kept in memory and shared by the decode threads, and results
// stored in the index by earlier runs, read through a read-only connection.
// A layer whose key either level has is not inflated again.
#pragma once

#include <atomic>
#include <cstdint>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "extract/layer_data.h"
#include "pipeline/run_counters.h"
#include "sqlite/database.h"
#include "sqlite/statement.h"

namespace mapindex {

class RunLayerStore final : public LayerDataStore {
 public:
  // In-memory entries are kept until they hold about this many bytes; then
  // new results are no longer kept (a later layer with their key is found in
  // the index once the writer has committed it, or measured again: the same
  // result either way).
  static constexpr std::uint64_t kDefaultMemoryBytes = 32ull << 20;

  // `index_path`: the index to read earlier runs' results from (empty: none);
  // they count only when measured by `extractor_version`. The first lookup
  // that needs it opens it; the others wait for that.
  RunLayerStore(const std::string& index_path, int extractor_version, LayerStoreCounters& counters,
                std::uint64_t memory_bytes = kDefaultMemoryBytes,
                const std::atomic<bool>* cancelled = nullptr, bool wait_for_claims = true);
  ~RunLayerStore() override;
  RunLayerStore(const RunLayerStore&) = delete;
  RunLayerStore& operator=(const RunLayerStore&) = delete;

  // A key no level has is claimed by the caller until it offers a result or
  // gives it up; meanwhile a find of that key on another thread waits for
  // it (versions of a map come one after the other in an archive, and a
  // new layer of one was otherwise inflated by every decode thread that
  // met it at once). Deadlock-free: the claimant's measuring of the layer
  // waits on nothing a waiter holds (a claim is given back before the
  // claimant asks for another key).
  std::shared_ptr<const LayerData> find(const LayerDataKey& key) override;
  void offer(const LayerDataKey& key, std::shared_ptr<const LayerData> data) override;
  void give_up(const LayerDataKey& key) noexcept override;

  // Thumbnails by key (measure.cpp): those drawn in this run, kept in memory
  // up to kThumbnailMemoryBytes (the first offered for a key is kept), and
  // those the index holds (thumbnails.layers_key).
  // A key neither level has is claimed as find's are. The claimant's PNG is
  // offered by the thumbnail node after its measuring: a find on another
  // thread gives a wait for it, which the caller calls once it has measured
  // its map (ThumbnailSink::finish), and which stops waiting once
  // `cancelled` (the constructor's) is set: a cancelled graph may never
  // encode it. Deadlock-free as an entry's wait for the claimant of its
  // content (RunContents) is: only a measuring thread waits, and a claimant's
  // encoding waits on nothing. Without `wait_for_claims` (the
  // constructor's), the wait gives null unless the PNG is there already: with
  // one decode thread, whose measuring is the run's longest path while the
  // encoding has a core beside it, waiting costs the run more than taking
  // the claimant's drawn image (ThumbnailLookup::drawn; encoded again only
  // should its PNG still not be there when this map's thumbnail is encoded),
  // or, without one, drawing again.
  ThumbnailLookup find_thumbnail(const Sha256& key) override;
  void offer_thumbnail(const Sha256& key,
                       std::shared_ptr<const std::vector<std::uint8_t>> png) override;
  void give_up_thumbnail(const Sha256& key) noexcept override;
  // Kept in the open claim on `key` (none: not kept), and only when the
  // store does not wait for claims: a thread that waits takes the PNG.
  void offer_drawn_thumbnail(const Sha256& key,
                             std::shared_ptr<const render::ClassImage> image) override;
  static constexpr std::uint64_t kThumbnailMemoryBytes = 8ull << 20;

  std::uint64_t memory_bytes() const;  // estimate of what the entries hold

 private:
  struct Entry {
    std::shared_ptr<const LayerData> data;
    bool from_index = false;
  };
  // The index level of find (null: not there, or no index).
  std::shared_ptr<const LayerData> find_in_index(const LayerDataKey& key);
  // Returns false when the store is full (the entry is not kept).
  bool keep(const LayerDataKey& key, Entry entry);
  // Ends the claim on `key` (if any): its waiters get `data` (null: they
  // measure it themselves).
  void settle(const LayerDataKey& key, const std::shared_ptr<const LayerData>& data) noexcept;
  template <typename T>
  struct Claim {
    std::promise<std::shared_ptr<const T>> promise;
    std::shared_future<std::shared_ptr<const T>> result = promise.get_future().share();
    // The claiming thread (layers: the claim ends before its find's caller
    // returns; a thumbnail's passes on to the thread that encodes it).
    std::thread::id owner = std::this_thread::get_id();
  };
  using Png = std::vector<std::uint8_t>;
  // A thumbnail's claim also holds the claimant's drawn image
  // (offer_drawn_thumbnail; guarded by thumbnail_mutex_): it goes with the
  // claim, and ThumbnailLookup::drawn gives it only while the claim is open.
  struct ThumbnailClaimState : Claim<Png> {
    std::shared_ptr<const render::ClassImage> drawn;
  };
  std::shared_ptr<const Png> find_thumbnail_in_index(const Sha256& key);
  void settle_thumbnail(const Sha256& key, const std::shared_ptr<const Png>& png) noexcept;
  // Opens index_path_: sets index_, statements_ and the look_up flags.
  void open_index();
  // The index opened (open_index) by the first lookup; the others wait for
  // it. index_, statements_ and the look_up flags are not to be read before
  // it has returned. A run that looks nothing up (every entry known before)
  // never pays for the connection's reading of the whole schema.
  void open_index_once();

  int extractor_version_;
  LayerStoreCounters& counters_;
  std::uint64_t memory_limit_;

  mutable std::shared_mutex mutex_;  // guards entries_, memory_ and claims_
  std::unordered_map<LayerDataKey, Entry, LayerDataKeyHash> entries_;
  std::uint64_t memory_ = 0;
  // Keys being measured (or looked up in the index) by the thread that
  // claimed them; at most one per decode thread.
  std::unordered_map<LayerDataKey, std::shared_ptr<Claim<LayerData>>, LayerDataKeyHash> claims_;

  mutable std::shared_mutex thumbnail_mutex_;  // guards the three below
  std::unordered_map<Sha256, std::shared_ptr<const std::vector<std::uint8_t>>, Sha256Hash>
      thumbnails_;
  std::uint64_t thumbnail_memory_ = 0;
  std::unordered_map<Sha256, std::shared_ptr<ThumbnailClaimState>, Sha256Hash> thumbnail_claims_;
  const std::atomic<bool>* cancelled_;
  const bool wait_for_claims_;

  std::mutex index_mutex_;  // guards the connection and its statements
  sqlite::Connection index_;
  std::optional<sqlite::StatementCache> statements_;
  // Whether a miss in memory is looked up in the index. An index that held
  // no layer results (thumbnails) when the store opened holds only what this
  // run's writer stores, which the memory kept unless it was full: the
  // lookups start once it refused one (on an empty index they took 3% of
  // the decode time with every layer distinct).
  std::atomic<bool> look_up_layers_{false};
  std::atomic<bool> look_up_thumbnails_{false};
  // The index's path (empty: none) and its opening, once. Should a run's
  // writer commit before the index is read, the look_up flags may be set by
  // this run's own rows: lookups then, the same results.
  const std::string index_path_;
  std::once_flag opening_;
};

}  // namespace mapindex
