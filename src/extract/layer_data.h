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
#include <memory>
#include <string>
#include <vector>

#include "extract/map_stats.h"

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
  // The result for `key`, or null when the store does not have it.
  virtual std::shared_ptr<const LayerData> find(const LayerDataKey& key) = 0;
  // A result just measured for `key` (the store may keep it or not).
  virtual void offer(const LayerDataKey& key, std::shared_ptr<const LayerData> data) = 0;

  // Thumbnails (PNG bytes) by the key of what they were drawn from
  // (measure.cpp: the drawn layers' keys, the map's size and the render
  // version). A store without thumbnails has none and keeps none.
  virtual std::shared_ptr<const std::vector<std::uint8_t>> find_thumbnail(const Sha256& /*key*/) {
    return nullptr;
  }
  virtual void offer_thumbnail(const Sha256& /*key*/,
                               std::shared_ptr<const std::vector<std::uint8_t>> /*png*/) {}
};

}  // namespace mapindex
