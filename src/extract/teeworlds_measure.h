// Measuring a Teeworlds/DDNet map: decode the datafile and its map items,
// count every tile layer (one layer's data inflated at a time into a reused
// buffer; image and sound data never inflated) and run every check.
#pragma once

#include <cstdint>
#include <vector>

#include "common/bytes.h"
#include "common/sha256.h"
#include "deflate/inflate.h"
#include "extract/digest_memo.h"
#include "extract/layer_data.h"
#include "extract/map_stats.h"
#include "extract/measure_workspace.h"
#include "render/canvas.h"

namespace mapindex {

// The physics layers a TileLayerSink would be given before a map's layers are
// measured: the game's layer of each kind in its kinds_always_inflated that
// render::is_drawn_physics, with readable tiles (whether the data then reads shows in
// LayerStats::data_key).
struct DrawnLayers {
  std::vector<std::int32_t> layer_indices;  // in layer order
  // Their keys, in the same order; incomplete (all_keyed false) when one of
  // them has none (datafile version 3, data that does not read).
  std::vector<LayerDataKey> keys;
  bool all_keyed = true;
  std::int32_t map_width = 0, map_height = 0;  // the game layer's size (0: no game layer)
};

// The SHA-256 of a tile data item's stored (compressed) bytes: the first
// part of a layer's LayerDataKey.
struct TileDataDigest {
  std::size_t index = 0;
  Sha256 sha256{};
};
// Those of one file: measuring takes them only for these very bytes (the
// same address and size), so digests can never stand for another file's.
struct TileDataDigests {
  Bytes file;
  std::vector<TileDataDigest> items;  // sorted by data index, each index once
};

// The digests measure_teeworlds would compute for the keys of `file`'s tile
// layers (teeworlds::tile_data_indices; version 4 datafiles only, as keys
// are): computed ahead, on another thread, for MeasureContext::digests.
// Empty for anything else, or a datafile that does not open. (What is
// hashed is stored bytes: MeasureContext::max_data_item_size, a limit on
// inflating, changes nothing here.) `memo`: data met before is compared
// with what it remembers instead of hashed (null: every item hashed).
TileDataDigests digest_tile_data(Bytes file, DigestMemo* memo = nullptr);

// What measuring needs besides the file: its limits and the caller's state.
struct MeasureContext {
  // The largest data item (declared uncompressed size) that is inflated.
  std::uint64_t max_data_item_size = 256ull << 20;
  // What inflates tile data (datafile::Options::tile_inflater).
  deflate::Inflater tile_inflater = deflate::Inflater::zeros;
  // Results of tile layer data measured before (layer_data.h): a layer whose
  // key the store has is not inflated, its result is taken from the store.
  // Null: every layer is measured (the key is still computed and stored).
  LayerDataStore* layer_store = nullptr;
  // Digests of the file's tile data computed ahead (digest_tile_data of the
  // same bytes): a layer's key takes its data's digest from here instead of
  // hashing the data on the measuring thread. Null, computed from other
  // bytes, or an index not there: hashed here.
  const TileDataDigests* digests = nullptr;
  // The buffers and inflaters' state measuring uses, the caller's (one
  // measure at a time): a decode thread keeps one across maps. Null: one is
  // made for the call and freed at its end.
  MeasureWorkspace* workspace = nullptr;
};

// A caller drawing from a map's tile layers as measuring inflates them
// (thumbnails, `mapindex render`). Called on the measuring thread.
class TileLayerSink {
 public:
  virtual ~TileLayerSink() = default;
  // Bit index_of(kind) set: layers of that kind are inflated for the sink
  // even when the layer store has their result (the counts still come from
  // the store).
  virtual std::uint32_t kinds_always_inflated() const { return 0; }
  // Called once the map is decoded, before its layers are measured, with the
  // drawn layers (DrawnLayers). True: the sink has what it would draw from
  // them already, and they are inflated only when the store lacks their result.
  virtual bool already_drawn(const DrawnLayers& /*drawn*/) { return false; }
  // Each tilemap layer's tiles (every kind: physics and design) where they
  // are inflated for counting; the view lives only during the call.
  virtual void on_tile_layer(const render::TileLayerView& layer) = 0;
};

// Decodes and measures a Teeworlds/DDNet datafile map. Never throws for bad
// input: a container that does not open gives MapStats with status rejected
// and the container rule (H*/V*) as a problem; otherwise everything that could
// be read is measured and every problem recorded. finalize_status() applied.
// `sink` (may be null) is given the tile layers as they are inflated.
MapStats measure_teeworlds(Bytes file, const MeasureContext& context = {},
                           TileLayerSink* sink = nullptr);

// Gives `sink` the tiles of the tile layers of `file` listed in
// `layer_indices`, in layer order, as measure_teeworlds would, without
// measuring anything else: for a sink that needs again layers a measuring
// read. Layers whose data does not read (or fails its checksum) are left out.
// Neither the store nor kinds_always_inflated/already_drawn is asked.
void redraw_tile_layers(Bytes file, const MeasureContext& context,
                        const std::vector<std::int32_t>& layer_indices, TileLayerSink& sink);

// "DATA" or "ATAD" magic.
bool looks_like_datafile(Bytes file);

}  // namespace mapindex
