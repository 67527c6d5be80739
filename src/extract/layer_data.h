// Layer-level content addressing: what mapindex derives from one tile
// layer's data (the tile histogram, entities, numbers, counts and the data's
// findings) depends only on the layer's stored data bytes, its kind, width,
// height, tilemap version and the data item's declared size. LayerDataKey
// names that input (SHA-256 of the stored bytes: inputs are hostile, so no
// non-cryptographic hash lets one map's layer stand for another's), LayerData
// holds the result, and a LayerDataStore (MeasureContext::layer_store) hands
// back results measured before, so that a layer met again is not inflated
// again. What depends on the map (layer index, group, name, image, whether the
// game uses the layer) stays in LayerStats and is combined at measure time.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "extract/map_stats.h"
#include "render/canvas.h"

namespace mapindex {

struct LayerDataKeyHash {
  std::size_t operator()(const LayerDataKey& k) const noexcept;
};

// What a tile layer's data gives, map-independent.
struct LayerData {
  std::vector<TileCount> tile_counts;  // non-empty tiles only, sorted by tile
  std::vector<NamedCount> entities;    // sorted by name
  std::vector<std::int32_t> numbers;   // tele/switch numbers or tune zones in use, sorted
  std::int64_t non_empty = 0;
  std::int64_t flip_x = 0, flip_y = 0, rotate = 0;
  std::vector<LayerFinding> findings;  // in the order they are reported

  bool operator==(const LayerData&) const = default;
};

// Where measure_teeworlds looks for results measured before and offers those
// it measures. Implementations used by several decode threads are
// thread-safe. A store never changes what is measured: a result it returns is
// the one measuring the key's data would give.
class LayerDataStore {
 public:
  virtual ~LayerDataStore() = default;
  // The result for `key`, or null when the store does not have it. A null
  // may leave the key claimed by the caller (RunLayerStore: other threads
  // asking for it wait for the caller's result instead of measuring it too):
  // the caller then offers a result for it or gives it up.
  virtual std::shared_ptr<const LayerData> find(const LayerDataKey& key) = 0;
  // A result just measured for `key` (the store may keep it or not).
  virtual void offer(const LayerDataKey& key, std::shared_ptr<const LayerData> data) = 0;
  // No result will be offered for `key` after find gave null (its data is
  // unreadable, or measuring it failed). Must not throw.
  virtual void give_up(const LayerDataKey& /*key*/) noexcept {}

  // Thumbnails (PNG bytes) by the key of what they were drawn from
  // (measure.cpp: the drawn layers' keys, the map's size and the render
  // version). A store without thumbnails has none and keeps none. A lookup
  // with neither a PNG nor a wait may leave the key claimed by the caller,
  // who then offers its PNG or gives it up (ThumbnailClaim).
  struct ThumbnailLookup {
    std::shared_ptr<const std::vector<std::uint8_t>> png;
    // Another thread's claim: gives the PNG it offers (null when it gives
    // the key up), waiting for it.
    std::function<std::shared_ptr<const std::vector<std::uint8_t>>()> wait;
    // Another thread's claim: the image it drew under the key and offered
    // before encoding it (offer_drawn_thumbnail), when it has and has not
    // yet offered the PNG or given the key up; null otherwise. Never waits.
    std::function<std::shared_ptr<const render::ClassImage>()> drawn;
  };
  virtual ThumbnailLookup find_thumbnail(const Sha256& /*key*/) { return {}; }
  virtual void offer_thumbnail(const Sha256& /*key*/,
                               std::shared_ptr<const std::vector<std::uint8_t>> /*png*/) {}
  // The claimant's image, drawn under `key` and not yet encoded: a thread
  // that finds the claim and may not wait for the PNG encodes this image
  // instead of drawing the map's layers again. Kept until the claim ends.
  virtual void offer_drawn_thumbnail(const Sha256& /*key*/,
                                     std::shared_ptr<const render::ClassImage> /*image*/) {}
  virtual void give_up_thumbnail(const Sha256& /*key*/) noexcept {}
};

// A thumbnail key that find_thumbnail left claimed (it gave null), held from
// the drawing to the PNG's offer (which ends the claim: released) or given up
// when destroyed before: its drawing failed, or the map was dropped.
class ThumbnailClaim {
 public:
  ThumbnailClaim() = default;
  ThumbnailClaim(LayerDataStore* store, const Sha256& key) : store_(store), key_(key) {}
  ThumbnailClaim(ThumbnailClaim&& other) noexcept
      : store_(std::exchange(other.store_, nullptr)), key_(other.key_) {}
  ThumbnailClaim& operator=(ThumbnailClaim&& other) noexcept {
    if (this != &other) {
      give_up();
      store_ = std::exchange(other.store_, nullptr);
      key_ = other.key_;
    }
    return *this;
  }
  ~ThumbnailClaim() { give_up(); }
  void released() { store_ = nullptr; }
  bool held() const { return store_ != nullptr; }

 private:
  void give_up() noexcept {
    if (store_) store_->give_up_thumbnail(key_);
    store_ = nullptr;
  }
  LayerDataStore* store_ = nullptr;
  Sha256 key_{};
};

}  // namespace mapindex
