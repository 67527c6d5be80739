#include "pipeline/layer_store.h"

#include <chrono>
#include <optional>
#include <thread>
#include <utility>

#include "common/background.h"
#include "index/map_rows.h"

namespace mapindex {
namespace {

// What an entry holds, roughly: the node, the result and its vectors' heap.
std::uint64_t entry_bytes(const LayerData& d) {
  return 128 + sizeof(LayerData) + d.tile_counts.capacity() * sizeof(TileCount) +
         held_bytes(d.entities) + d.numbers.capacity() * sizeof(std::int32_t) +
         held_bytes(d.findings);
}

// Ends the claim on `key` in `claims` (guarded by `mutex`), if there is one
// (none: measured or drawn after a give-up): its waiters get `value`.
template <typename Claims, typename T>
void settle_claim(std::shared_mutex& mutex, Claims& claims, const typename Claims::key_type& key,
                  const std::shared_ptr<const T>& value) noexcept {
  typename Claims::mapped_type claim;
  {
    std::unique_lock lock(mutex);
    auto it = claims.find(key);
    if (it == claims.end()) return;
    claim = std::move(it->second);
    claims.erase(it);
  }
  claim->promise.set_value(value);
}

// What one look at a level found for a key: the value it keeps, or the claim
// on the key (another thread's, or new and the caller's own).
template <typename Kept, typename Claims>
struct Sighting {
  std::optional<typename Kept::mapped_type> kept;
  typename Claims::mapped_type claim;  // set when nothing is kept
  bool claimed = false;                // the claim is new: the caller's
};

// Looks `key` up in `kept` (guarded by `mutex`, shared); when it is not
// there, claims it in `claims` unless another thread has (the same mutex,
// exclusive, looking again first: it may have been kept meanwhile).
template <typename Kept, typename Claims>
Sighting<Kept, Claims> kept_or_claim(std::shared_mutex& mutex, const Kept& kept, Claims& claims,
                                     const typename Kept::key_type& key) {
  {
    std::shared_lock lock(mutex);
    if (auto it = kept.find(key); it != kept.end()) return {it->second, nullptr, false};
  }
  // Made before the lock: a claim in `claims` is never empty.
  auto fresh = std::make_shared<typename Claims::mapped_type::element_type>();
  std::unique_lock lock(mutex);
  if (auto it = kept.find(key); it != kept.end()) return {it->second, nullptr, false};
  auto [it, claimed] = claims.try_emplace(key, std::move(fresh));
  return {std::nullopt, it->second, claimed};
}

}  // namespace

RunLayerStore::RunLayerStore(const std::string& index_path, int extractor_version,
                             LayerStoreCounters& counters, std::uint64_t memory_bytes,
                             const std::atomic<bool>* cancelled, bool wait_for_claims)
    : extractor_version_(extractor_version),
      counters_(counters),
      memory_limit_(memory_bytes),
      cancelled_(cancelled),
      wait_for_claims_(wait_for_claims),
      index_path_(index_path) {}

RunLayerStore::~RunLayerStore() = default;

void RunLayerStore::open_index() {
  // Without the index level when the index cannot be read this way (an
  // in-memory database, a file that went away): layers are measured then.
  auto connection = sqlite::open_sqlite_read_only(index_path_);
  if (!connection) return;
  index_ = std::move(*connection);
  statements_.emplace(index_.get());
  bool layers = true, thumbnails = true;
  try {
    layers = index::any_layer_data(*statements_);
    thumbnails = index::any_keyed_thumbnail(*statements_);
  } catch (const sqlite::IndexError&) {
    // Look up then (the writer reports a damaged index).
  }
  // Only set: a full store may have set them already (keep, offer_thumbnail).
  if (layers) look_up_layers_ = true;
  if (thumbnails) look_up_thumbnails_ = true;
}

void RunLayerStore::open_index_once() {
  if (!index_path_.empty()) std::call_once(opening_, [this] { open_index(); });
}

std::shared_ptr<const LayerData> RunLayerStore::find(const LayerDataKey& key) {
  auto seen = kept_or_claim(mutex_, entries_, claims_, key);
  if (seen.kept) {
    (seen.kept->from_index ? counters_.reused_index : counters_.reused_run)++;
    return std::move(seen.kept->data);
  }
  if (!seen.claimed) {
    // A thread that asks again for a key it holds does not wait for itself.
    if (seen.claim->owner == std::this_thread::get_id()) return nullptr;
    // Null when the claimant gave the key up: measured here then (unclaimed).
    std::shared_ptr<const LayerData> data = seen.claim->result.get();
    if (data) counters_.reused_run++;
    return data;
  }
  try {
    std::shared_ptr<const LayerData> stored = find_in_index(key);
    if (stored) settle(key, stored);
    return stored;  // null: the caller measures it, then offers it or gives it up
  } catch (...) {
    settle(key, nullptr);
    throw;
  }
}

std::shared_ptr<const LayerData> RunLayerStore::find_in_index(const LayerDataKey& key) {
  open_index_once();
  if (!statements_ || !look_up_layers_) return nullptr;
  std::shared_ptr<const LayerData> stored;
  {
    std::lock_guard lock(index_mutex_);
    try {
      if (auto d = index::find_layer_data(*statements_, extractor_version_, key))
        stored = std::make_shared<const LayerData>(std::move(*d));
    } catch (const sqlite::IndexError&) {
      // Reading failed (the index busy or damaged): measure the layer; the
      // writer reports a damaged index.
      return nullptr;
    }
  }
  if (!stored) return nullptr;
  counters_.reused_index++;
  keep(key, Entry{stored, true});
  return stored;
}

void RunLayerStore::offer(const LayerDataKey& key, std::shared_ptr<const LayerData> data) {
  counters_.measured++;
  keep(key, Entry{data, false});
  settle(key, data);
}

void RunLayerStore::give_up(const LayerDataKey& key) noexcept { settle(key, nullptr); }

void RunLayerStore::settle(const LayerDataKey& key,
                           const std::shared_ptr<const LayerData>& data) noexcept {
  settle_claim(mutex_, claims_, key, data);
}

bool RunLayerStore::keep(const LayerDataKey& key, Entry entry) {
  const std::uint64_t bytes = entry_bytes(*entry.data);
  std::unique_lock lock(mutex_);
  if (memory_ + bytes > memory_limit_) {
    look_up_layers_ = true;
    return false;
  }
  // Two threads that measured the same new key: the first result is kept.
  if (entries_.emplace(key, std::move(entry)).second) memory_ += bytes;
  return true;
}

LayerDataStore::ThumbnailLookup RunLayerStore::find_thumbnail(const Sha256& key) {
  auto seen = kept_or_claim(thumbnail_mutex_, thumbnails_, thumbnail_claims_, key);
  if (seen.kept) {
    counters_.thumbnails_reused++;
    return {std::move(*seen.kept), {}};
  }
  if (!seen.claimed)
    return {nullptr,
            [this, other = seen.claim->result]() -> std::shared_ptr<const Png> {
              const bool ready = wait_for_claims_ ? wait_unless_stopped(other, cancelled_)
                                                  : other.wait_for(std::chrono::seconds(0)) ==
                                                        std::future_status::ready;
              if (!ready) return nullptr;                    // drawn by the caller
              std::shared_ptr<const Png> png = other.get();  // null: given up (drawn then)
              if (png) counters_.thumbnails_reused++;
              return png;
            },
            [this, key, claim = seen.claim]() -> std::shared_ptr<const render::ClassImage> {
              // Only while the claim is open: settling it (PNG offered, or
              // given up) takes it out of the map under this lock.
              std::shared_lock lock(thumbnail_mutex_);
              const auto it = thumbnail_claims_.find(key);
              return it != thumbnail_claims_.end() && it->second == claim ? claim->drawn : nullptr;
            }};
  try {
    return {find_thumbnail_in_index(key), {}};  // null: the caller's (ThumbnailClaim)
  } catch (...) {
    settle_thumbnail(key, nullptr);
    throw;
  }
}

std::shared_ptr<const RunLayerStore::Png> RunLayerStore::find_thumbnail_in_index(
    const Sha256& key) {
  open_index_once();
  if (!statements_ || !look_up_thumbnails_) return nullptr;
  std::shared_ptr<const Png> stored;
  {
    std::lock_guard lock(index_mutex_);
    try {
      if (auto png = index::find_thumbnail(*statements_, key))
        stored = std::make_shared<const Png>(std::move(*png));
    } catch (const sqlite::IndexError&) {
      return nullptr;  // as find: drawn then
    }
  }
  if (!stored) return nullptr;
  counters_.thumbnails_reused++;
  offer_thumbnail(key, stored);  // kept, and the claim settled
  return stored;
}

void RunLayerStore::offer_thumbnail(const Sha256& key,
                                    std::shared_ptr<const std::vector<std::uint8_t>> png) {
  const std::uint64_t bytes = 128 + png->capacity();
  {
    std::unique_lock lock(thumbnail_mutex_);
    if (thumbnail_memory_ + bytes > kThumbnailMemoryBytes) {
      look_up_thumbnails_ = true;
    } else if (thumbnails_.emplace(key, png).second) {
      // Two threads that drew the same new key: the first thumbnail is kept.
      thumbnail_memory_ += bytes;
    }
  }
  settle_thumbnail(key, png);
}

void RunLayerStore::give_up_thumbnail(const Sha256& key) noexcept {
  settle_thumbnail(key, nullptr);
}

void RunLayerStore::offer_drawn_thumbnail(const Sha256& key,
                                          std::shared_ptr<const render::ClassImage> image) {
  if (wait_for_claims_) return;
  std::unique_lock lock(thumbnail_mutex_);
  if (auto it = thumbnail_claims_.find(key); it != thumbnail_claims_.end())
    it->second->drawn = std::move(image);
}

void RunLayerStore::settle_thumbnail(const Sha256& key,
                                     const std::shared_ptr<const Png>& png) noexcept {
  settle_claim(thumbnail_mutex_, thumbnail_claims_, key, png);
}

std::uint64_t RunLayerStore::memory_bytes() const {
  std::shared_lock lock(mutex_);
  return memory_;
}

}  // namespace mapindex
