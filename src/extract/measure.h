// Recognises a file by content and measures it: a Teeworlds/DDNet datafile
// (`DATA`/`ATAD` magic) or a SpriteTile level (LZF stream starting with
// "SpriteTileLevel"). Anything else, and SpriteTile files that are not levels
// (groups files, other Unity assets), is "not a map".
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "common/bytes.h"
#include "common/sha256.h"
#include "extract/layer_data.h"
#include "extract/map_stats.h"
#include "extract/teeworlds_measure.h"
#include "render/png.h"

namespace mapindex {

enum class ContentKind : unsigned char { map, not_a_map };

// What measure_content does about a map's thumbnail.
enum class ThumbnailMode : unsigned char {
  none,
  // Drawn while measuring and encoded: MapStats::thumbnail_png.
  encoded,
  // Drawn while measuring, left in Measurement::thumbnail for
  // finish_thumbnail: the caller encodes it where it costs the measuring
  // thread nothing (the index run: beside the next map's measuring).
  drawn_only,
};

struct ContentOptions {
  ThumbnailMode thumbnail = ThumbnailMode::none;
  // Also given each tile layer's tiles as measuring inflates them (see
  // TileLayerSink::on_tile_layer): what was inflated. Empty: not called.
  std::function<void(const render::TileLayerView&)> on_tile_layer;
};

// A thumbnail drawn but not yet encoded (ThumbnailMode::drawn_only).
struct DrawnThumbnail {
  // Shared with the layer store while the key is claimed (another map with
  // the same drawn layers may encode it rather than draw it again).
  std::shared_ptr<const render::ClassImage> image;
  // What it was drawn from (MapStats::thumbnail_key), when every layer it
  // shows was read: the PNG is then offered to the layer store under it.
  std::optional<Sha256> key;
  // The key as claimed in the layer store, until the PNG is offered.
  ThumbnailClaim claim;
  // The image of another map's claim on the key (LayerDataStore::
  // ThumbnailLookup::drawn): its PNG is taken if it has come by the encoding.
  bool borrowed = false;
};

struct Measurement {
  ContentKind kind = ContentKind::not_a_map;
  std::string not_map_reason;  // when kind == not_a_map
  MapStats stats;              // when kind == map
  // With ThumbnailMode::drawn_only: the thumbnail for
  // finish_thumbnail to encode (none when there is nothing to draw or the
  // store had its PNG already).
  std::optional<DrawnThumbnail> thumbnail;
};

// A Teeworlds map is measured once (measure_teeworlds), its thumbnail drawn
// on the way or taken from context.layer_store.
Measurement measure_content(Bytes file, const MeasureContext& context = {},
                            const ContentOptions& options = {});

// Encodes m.thumbnail into m.stats.thumbnail_png (a thumbnail that does not
// encode is left out, as measure_content leaves it out), sets
// m.stats.thumbnail_key and offers the PNG to `store` (may be null) under it;
// then m.thumbnail is empty. Nothing to do without m.thumbnail. `blocks`:
// the memory libpng uses, the caller's (one image at a time); without them,
// blocks of its own for the call.
void finish_thumbnail(Measurement& m, LayerDataStore* store, render::PngBlocks& blocks);
void finish_thumbnail(Measurement& m, LayerDataStore* store);

}  // namespace mapindex
