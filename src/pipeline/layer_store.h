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
  // they count only when measured by `extractor_version`. It is opened on
  // another thread; the first lookup that needs it waits for it (and the
  // destructor, for the opening to end).
  RunLayerStore(const std::string& index_path, int extractor_version, LayerStoreCounters& counters,
                std::uint64_t memory_bytes = kDefaultMemoryBytes);
  ~RunLayerStore() override;
  RunLayerStore(const RunLayerStore&) = delete;
  RunLayerStore& operator=(const RunLayerStore&) = delete;

  std::shared_ptr<const LayerData> find(const LayerDataKey& key) override;
  void offer(const LayerDataKey& key, std::shared_ptr<const LayerData> data) override;

  // Thumbnails by key (measure.cpp): those drawn in this run, kept in memory
  // up to kThumbnailMemoryBytes (the first offered for a key is kept), and
  // those the index holds (thumbnails.layers_key).
  std::shared_ptr<const std::vector<std::uint8_t>> find_thumbnail(const Sha256& key) override;
  void offer_thumbnail(const Sha256& key,
                       std::shared_ptr<const std::vector<std::uint8_t>> png) override;
  static constexpr std::uint64_t kThumbnailMemoryBytes = 8ull << 20;

  std::uint64_t memory_bytes() const;  // estimate of what the entries hold

 private:
  struct Entry {
    std::shared_ptr<const LayerData> data;
    bool from_index = false;
  };
  // Returns false when the store is full (the entry is not kept).
  bool keep(const LayerDataKey& key, Entry entry);
  // Sets index_, statements_ and the look_up flags (on opening_'s thread).
  void open_index(const std::string& index_path);
  // Until it returns, open_index may still be running: index_,
  // statements_ and the look_up flags are not to be read before.
  void wait_for_index() const;

  int extractor_version_;
  LayerStoreCounters& counters_;
  std::uint64_t memory_limit_;

  mutable std::shared_mutex mutex_;  // guards entries_ and memory_
  std::unordered_map<LayerDataKey, Entry, LayerDataKeyHash> entries_;
  std::uint64_t memory_ = 0;

  mutable std::shared_mutex thumbnail_mutex_;  // guards thumbnails_ and thumbnail_memory_
  std::unordered_map<Sha256, std::shared_ptr<const std::vector<std::uint8_t>>, Sha256Hash>
      thumbnails_;
  std::uint64_t thumbnail_memory_ = 0;

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
  // open_index, running (invalid: done in the constructor, or no index).
  // Should a run's writer commit before it reads the index, the look_up
  // flags may be set by this run's own rows: lookups then, the same results.
  std::shared_future<void> opening_;
};

}  // namespace mapindex
