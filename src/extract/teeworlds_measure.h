// Measuring a Teeworlds/DDNet map: decode the datafile and its map items,
// count every tile layer (one layer's data inflated at a time into a reused
// buffer; image and sound data never inflated) and run every check.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "common/bytes.h"
#include "common/digest_memo.h"
#include "common/sha256.h"
#include "deflate/inflate.h"
#include "extract/layer_data.h"
#include "extract/map_stats.h"
#include "extract/measure_workspace.h"
#include "render/canvas.h"

namespace mapindex {

// The physics layers a caller drawing from MeasureOptions::on_tile_layer would
// be given before a map's layers are measured: the game's layer of each kind
// in MeasureOptions::inflate_always that render::is_drawn_physics, with
// readable tiles (whether the data then reads shows in LayerStats::data_key).
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
// are): computed ahead, on another thread, for MeasureOptions::digests.
// Empty for anything else, or a datafile that does not open. (What is
// hashed is stored bytes: MeasureOptions::max_data_item_size, a limit on
// inflating, changes nothing here.) `memo`: data met before is compared
// with what it remembers instead of hashed (null: every item hashed).
TileDataDigests digest_tile_data(Bytes file, DigestMemo* memo = nullptr);

struct MeasureOptions {
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
  // Bit index_of(kind) set: layers of that kind are inflated even when the
  // store has their result (for a caller that needs their tiles); the
  // counts still come from the store.
  std::uint32_t inflate_always = 0;
  // Called with each tilemap layer's tiles (every kind: physics and design)
  // right where they are inflated for counting, on the measuring thread; the
  // view lives only during the call. Empty: not called.
  std::function<void(const render::TileLayerView&)> on_tile_layer;
  // Called once the map is decoded, before its layers are measured. Returns
  // true when the caller has what it would draw from those layers already:
  // they are then not inflated for on_tile_layer (only when the store lacks
  // their result). Empty: not called.
  std::function<bool(const DrawnLayers&)> before_layers;
  // measure_content: draw a thumbnail of each map or level while measuring
  // (MapStats::thumbnail_png), through on_tile_layer.
  bool thumbnails = false;
  // With thumbnails: measure_content only draws the thumbnail and leaves it
  // in Measurement::thumbnail for finish_thumbnail (measure.h), so that a
  // caller can encode it beside the next map's measuring (the index run:
  // encoding a PNG took 7% of its CPU time with every layer distinct).
  bool defer_thumbnail_png = false;
  // The buffers and inflaters' state measuring uses, the caller's (one
  // measure at a time): a decode thread keeps one across maps. Null: one is
  // made for the call and freed at its end.
  MeasureWorkspace* workspace = nullptr;
};

// Decodes and measures a Teeworlds/DDNet datafile map. Never throws for bad
// input: a container that does not open gives MapStats with status rejected
// and the container rule (H*/V*) as a problem; otherwise everything that could
// be read is measured and every problem recorded. finalize_status() applied.
MapStats measure_teeworlds(Bytes file, const MeasureOptions& options = {});

// "DATA" or "ATAD" magic.
bool looks_like_datafile(Bytes file);

}  // namespace mapindex
