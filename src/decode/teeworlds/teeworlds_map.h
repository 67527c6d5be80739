// A whole Teeworlds/DDNet map decoded from an open datafile: every item typed
// (map_items.h), layers assigned to groups, and the structural "Map level"
// rules (src/extract/README.md) that need no tile data (M1..M8,
// M10, M11) checked. Tile, quad and sound-source data is not read here: the
// extract stage inflates one layer at a time.
//
// The result views the datafile's bytes (envelope points): the Datafile's
// input must outlive it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/problem.h"
#include "decode/datafile/datafile.h"
#include "decode/teeworlds/item_decoders.h"
#include "decode/teeworlds/map_items.h"

namespace mapindex::teeworlds {

struct DecodedLayer {
  std::int32_t index = 0;   // position among the layer items
  std::int32_t group = -1;  // the group holding it (the first, when groups overlap)
  std::size_t item_ints = 0;
  std::optional<LayerHeader> header;  // absent: M4
  LayerKind type = LayerKind::unknown;
  std::optional<TilemapLayer> tilemap;
  std::optional<QuadsLayer> quads;
  std::optional<SoundsLayer> sounds;
  // A tilemap whose M5/M6/M7 rules hold: its tile data can be read.
  bool tiles_readable = false;
};

struct TeeworldsMap {
  std::optional<VersionItem> version;
  std::optional<InfoItem> info;
  // Indexed by position within their item type (how items reference them);
  // an entry is empty when its item could not be decoded.
  std::vector<std::optional<ImageItem>> images;
  std::vector<std::optional<EnvelopeItem>> envelopes;
  std::vector<std::optional<GroupItem>> groups;
  std::vector<std::optional<GroupExItem>> group_ex;  // by group index (DDNet)
  std::vector<DecodedLayer> layers;
  std::vector<std::optional<SoundItem>> sounds;
  std::vector<AutomapperItem> automappers;
  EnvelopePoints points;
  bool has_bezier_item = false;  // DDNet's bezier UUID item is present

  // Known names of the UUID item types present (e.g.
  // "mapitemtype-automapper-config@ddnet.tw"), or the UUID text when unknown.
  std::vector<std::string> uuid_types;

  // The layer the game uses for each physics kind: the last of its kind in
  // group order (-1 when none). Indexed by LayerKind (tilemap kinds).
  std::array<std::int32_t, kNumTilemapKinds> last_of_kind = [] {
    std::array<std::int32_t, kNumTilemapKinds> none;
    none.fill(-1);
    return none;
  }();
  std::int32_t physics_layer(LayerKind t) const {
    return is_tilemap(t) ? last_of_kind[index_of(t)] : -1;
  }
  std::int32_t game_layer() const { return physics_layer(LayerKind::game); }

  Problems problems;
};

TeeworldsMap decode_map(const datafile::Datafile& df);

}  // namespace mapindex::teeworlds
