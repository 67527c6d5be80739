// Measuring the layers of a Teeworlds/DDNet map (part of measure_teeworlds):
// every tile layer counted (one layer's data inflated at a time into a reused
// buffer, or its result taken from MeasureContext::layer_store), quads and
// sound sources read.
#pragma once

#include "decode/datafile/datafile.h"
#include "decode/teeworlds/teeworlds_map.h"
#include "extract/map_stats.h"
#include "extract/measure_workspace.h"
#include "extract/teeworlds_checks.h"
#include "extract/teeworlds_features.h"
#include "extract/teeworlds_measure.h"

namespace mapindex {

// Appends a LayerStats per layer of `map` to stats.layers (in layer order) and
// their problems to stats.problems, and the images, envelopes and sounds the
// layers use to `refs`; offers the drawn layers to sink->already_drawn first
// and the inflated tiles to sink->on_tile_layer (sink may be null). Returns
// the keys present in the layers the game uses (for ddnet_features).
teeworlds::KeysPresent measure_teeworlds_layers(const datafile::Datafile& df,
                                                const teeworlds::TeeworldsMap& map, MapStats& stats,
                                                teeworlds::References& refs,
                                                const MeasureContext& options, TileLayerSink* sink,
                                                MeasureWorkspace& workspace);

// What a TileLayerSink is given for tile layer `layer` of `map` (a tilemap),
// whose data inflated to `tiles`.
render::TileLayerView tile_layer_view(const teeworlds::TeeworldsMap& map,
                                      const teeworlds::DecodedLayer& layer,
                                      const tiledata::CheckedTiles& tiles);

}  // namespace mapindex
