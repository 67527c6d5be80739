#include "decode/teeworlds/teeworlds_map.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mapindex::teeworlds {
namespace {

using datafile::Datafile;
using datafile::Item;

void add(Problems& out, Code code, std::string message, Location location) {
  out.push_back(Problem{code, std::move(message), location});
}

void add(Problems& out, const Error& e, Location location) {
  add(out, e.code, e.message, location);
}

std::string uuid_type_name(const datafile::Uuid& uuid) {
  if (auto known = datafile::known_uuid_name(uuid); !known.empty()) return std::string(known);
  return uuid.to_string();
}

template <class T, class F>
std::vector<std::optional<T>> decode_all(const Datafile& df, std::uint16_t type, Place what,
                                         F decode, Problems& problems) {
  const auto range = df.items_of_type(type);
  std::vector<std::optional<T>> out;
  out.reserve(range.num);
  for (std::uint32_t i = 0; i < range.num; ++i) {
    auto r = decode(df.item(range.start + i).data);
    if (r) {
      out.emplace_back(std::move(r.value()));
    } else {
      add(problems, r.error(), Location::at(what, i));
      out.emplace_back(std::nullopt);
    }
  }
  return out;
}

void decode_layer(const Item& item, DecodedLayer& layer, Problems& problems) {
  const Location where = Location::layer(static_cast<std::size_t>(layer.index));
  layer.item_ints = item.data.size();
  auto header = decode_layer_header(item.data);
  if (!header) {
    add(problems, header.error(), where);
    return;
  }
  layer.header = *header;
  switch (header->type) {
    case kLayerTilemap: {
      auto t = decode_tilemap(item.data);
      if (!t) {
        layer.type = LayerKind::tiles;
        add(problems, t.error(), where);
        return;
      }
      layer.type = t->kind;
      const std::vector<Error> findings = validate_tilemap(*t, item.data.size());
      for (const auto& e : findings) add(problems, e, where);
      layer.tiles_readable = tiles_readable(findings);
      layer.tilemap = std::move(t.value());
      return;
    }
    case kLayerQuads: {
      layer.type = LayerKind::quads;
      auto q = decode_quads_layer(item.data);
      if (q)
        layer.quads = std::move(q.value());
      else
        add(problems, q.error(), where);
      return;
    }
    case kLayerSounds:
    case kLayerSoundsDeprecated: {
      const bool deprecated = header->type == kLayerSoundsDeprecated;
      layer.type = deprecated ? LayerKind::sounds_deprecated : LayerKind::sounds;
      auto s = decode_sounds_layer(item.data, deprecated);
      if (s)
        layer.sounds = std::move(s.value());
      else
        add(problems, s.error(), where);
      return;
    }
    default:
      layer.type = LayerKind::unknown;
      add(problems, Code::layer_type,
          "layer type " + std::to_string(header->type) +
              " is unknown (expected 2 tilemap, 3 quads, 9 or 10 sounds)",
          where);
  }
}

}  // namespace

namespace {

// M1: the version item (type 0, id 0).
void decode_version_item(const Datafile& df, TeeworldsMap& map) {
  Problems& problems = map.problems;
  if (auto v = df.find_item(kVersionType, 0)) {
    auto r = decode_version(v->data);
    if (r)
      map.version = *r;
    else
      add(problems, r.error(), Location::file());
  } else {
    add(problems, Code::M1, "no version item (type 0, id 0)", Location::file());
  }
}

// The first info item.
void decode_info_item(const Datafile& df, TeeworldsMap& map) {
  Problems& problems = map.problems;
  if (auto range = df.items_of_type(kInfoType); range.num > 0) {
    auto r = decode_info(df.item(range.start).data);
    if (r)
      map.info = *r;
    else
      add(problems, r.error(), Location::info());
  }
}

// Envelope points: 22 ints each when any envelope has version 3 (0.7
// bezier), else 6, with DDNet's optional bezier item beside them.
void decode_envelope_points(const Datafile& df, TeeworldsMap& map) {
  Problems& problems = map.problems;
  bool v3 = false;
  for (const auto& e : map.envelopes)
    v3 = v3 || (e && e->version >= layout::envelope::kBezierPointsSince);
  const std::size_t point_ints = v3 ? kEnvPointV3Ints : kEnvPointInts;
  datafile::Int32View points, bezier;
  if (auto range = df.items_of_type(kEnvPointsType); range.num > 0)
    points = df.item(range.start).data;
  if (auto range = df.items_of_uuid(datafile::known_uuid(datafile::KnownUuid::env_points_bezier));
      range.num > 0) {
    bezier = df.item(range.start).data;
    map.has_bezier_item = true;
  }
  map.points = EnvelopePoints(points, point_ints, bezier);
  if (map.points.trailing_ints() != 0) {
    add(problems, Code::envpoints_size,
        "envelope points item holds " + std::to_string(points.size()) +
            " ints, not a multiple of the point size " + std::to_string(point_ints),
        Location::envelope_points());
  }
  if (map.has_bezier_item && !v3 && !map.points.bezier_item_used() &&
      bezier.size() / kEnvPointBezierInts != map.points.size()) {
    add(problems, Code::envpoints_bezier_count,
        "bezier item holds " + std::to_string(bezier.size()) + " ints (" +
            std::to_string(bezier.size() / kEnvPointBezierInts) + " points of 16 ints), but " +
            std::to_string(map.points.size()) + " envelope points exist; it is ignored",
        Location::envelope_points());
  }
}

// Groups (M2: item size) and their DDNet extension.
void decode_groups(const Datafile& df, TeeworldsMap& map) {
  Problems& problems = map.problems;
  const auto range = df.items_of_type(kGroupType);
  map.groups.reserve(range.num);
  for (std::uint32_t i = 0; i < range.num; ++i) {
    auto r = decode_group(df.item(range.start + i).data);
    if (r) {
      map.groups.emplace_back(std::move(r.value()));
    } else {
      add(problems, r.error(), Location::group(i));
      map.groups.emplace_back(std::nullopt);
    }
  }
  map.group_ex.resize(map.groups.size());
  const auto ex = df.items_of_uuid(datafile::known_uuid(datafile::KnownUuid::group_ex));
  for (std::uint32_t i = 0; i < ex.num; ++i) {
    const Item item = df.item(ex.start + i);
    if (item.id >= map.group_ex.size()) continue;
    if (auto r = decode_group_ex(item.data)) map.group_ex[item.id] = *r;
  }
}

// Layers (M4..M8).
void decode_layers(const Datafile& df, TeeworldsMap& map) {
  Problems& problems = map.problems;
  const auto range = df.items_of_type(kLayerType);
  map.layers.resize(range.num);
  for (std::uint32_t i = 0; i < range.num; ++i) {
    map.layers[i].index = static_cast<std::int32_t>(i);
    decode_layer(df.item(range.start + i), map.layers[i], problems);
  }
}

// Group ranges (M2) and overlaps (M3). A layer belongs to the first group
// whose range holds it; a layer that another group's range holds too is
// reported once, with the first two groups. Linear in groups + layers even
// when every group's range spans every layer: `next_free` skips layers
// already claimed, `next_unreported` layers already reported. Returns the
// layers each group claimed, ascending.
std::vector<std::vector<std::int32_t>> assign_layers_to_groups(TeeworldsMap& map) {
  Problems& problems = map.problems;
  const auto num_layers = static_cast<std::int64_t>(map.layers.size());
  std::vector<std::int32_t> next_free(map.layers.size() + 1),
      next_unreported(map.layers.size() + 1);
  for (std::size_t i = 0; i <= map.layers.size(); ++i)
    next_free[i] = next_unreported[i] = static_cast<std::int32_t>(i);
  auto skip = [](std::vector<std::int32_t>& next, std::int32_t i) {
    std::int32_t root = i;
    while (next[static_cast<std::size_t>(root)] != root)
      root = next[static_cast<std::size_t>(root)];
    while (next[static_cast<std::size_t>(i)] != root) {
      const std::int32_t up = next[static_cast<std::size_t>(i)];
      next[static_cast<std::size_t>(i)] = root;
      i = up;
    }
    return root;
  };
  std::vector<std::vector<std::int32_t>> claimed(map.groups.size());  // ascending layer indices
  for (std::size_t g = 0; g < map.groups.size(); ++g) {
    if (!map.groups[g]) continue;
    const GroupItem& group = *map.groups[g];
    const Location where = Location::group(g);
    if (group.start_layer < 0 || group.num_layers < 0 ||
        std::int64_t{group.start_layer} + group.num_layers > num_layers) {
      add(problems, Code::M2,
          "group layers " + std::to_string(group.start_layer) + " + " +
              std::to_string(group.num_layers) + " are outside the " + std::to_string(num_layers) +
              " layers",
          where);
      continue;
    }
    const std::int32_t end = group.start_layer + group.num_layers;
    for (std::int32_t l = skip(next_free, group.start_layer); l < end; l = skip(next_free, l + 1)) {
      map.layers[static_cast<std::size_t>(l)].group = static_cast<std::int32_t>(g);
      claimed[g].push_back(l);
      next_free[static_cast<std::size_t>(l)] = l + 1;
    }
    // Every layer in the range is claimed now: by this group (skipped here,
    // at most once per layer over all groups) or by an earlier one (M3).
    for (std::int32_t l = skip(next_unreported, group.start_layer); l < end;
         l = skip(next_unreported, l + 1)) {
      const DecodedLayer& layer = map.layers[static_cast<std::size_t>(l)];
      if (layer.group == static_cast<std::int32_t>(g)) continue;
      add(problems, Code::M3,
          "layer " + std::to_string(l) + " belongs to group " + std::to_string(layer.group) +
              " and group " + std::to_string(g),
          Location::layer(static_cast<std::size_t>(l)));
      next_unreported[static_cast<std::size_t>(l)] = l + 1;
    }
  }
  return claimed;
}

// Physics layers in group order: the last of each kind wins (M10, and
// duplicates are reported). `claimed`: from assign_layers_to_groups.
void find_physics_layers(TeeworldsMap& map, const std::vector<std::vector<std::int32_t>>& claimed) {
  Problems& problems = map.problems;
  bool ungrouped_game = false;
  for (const auto& layer : map.layers)
    if (layer.group < 0 && layer.type == LayerKind::game) ungrouped_game = true;
  for (std::size_t g = 0; g < map.groups.size(); ++g) {
    // The layers this group claimed (counted in their first group; groups
    // outside the layers, M2, hold none).
    for (const std::int32_t l : claimed[g]) {
      const DecodedLayer& layer = map.layers[static_cast<std::size_t>(l)];
      if (!layer.tilemap || !is_physics(layer.type)) continue;
      auto& last = map.last_of_kind[index_of(layer.type)];
      if (last >= 0) {
        add(problems, Code::layer_duplicate_physics,
            std::string("more than one ") + layer_type_name(layer.type) + " layer: layer " +
                std::to_string(last) + " is replaced by layer " + std::to_string(l) +
                " (the game uses the last)",
            Location::layer(static_cast<std::size_t>(last)));
      }
      last = static_cast<std::int32_t>(l);
    }
  }
  if (map.game_layer() < 0) {
    add(problems, Code::M10,
        ungrouped_game ? "no game layer in any group (a game layer exists outside the groups)"
                       : "no game layer",
        Location::file());
  }
}

// M11: each tile layer's data index is in range and its own.
void check_tile_data_indices(const Datafile& df, TeeworldsMap& map) {
  Problems& problems = map.problems;
  std::vector<std::int32_t> owner(df.num_data(), -1);
  for (auto& layer : map.layers) {
    if (!layer.tilemap) continue;
    const int slot = ddnet_data_slot(layer.type);
    if (slot >= 0 && layer.tilemap->num_ddnet_data <= slot) continue;  // M6 already
    const std::int32_t d = layer.tilemap->tile_data();
    const Location where = Location::layer(static_cast<std::size_t>(layer.index));
    if (d < 0 || static_cast<std::size_t>(d) >= df.num_data()) {
      add(problems, Code::M11,
          std::string(layer_type_name(layer.type)) + " layer data index " + std::to_string(d) +
              " is outside the " + std::to_string(df.num_data()) + " data items",
          where);
      layer.tiles_readable = false;
      continue;
    }
    auto& o = owner[static_cast<std::size_t>(d)];
    if (o >= 0) {
      add(problems, Code::M11,
          "data item " + std::to_string(d) + " holds the tiles of layer " + std::to_string(o) +
              " and of layer " + std::to_string(layer.index),
          where);
    } else {
      o = layer.index;
    }
  }
}

// M13: physics layers hold at least as many tiles as the game layer and
// should have its size.
void check_physics_layer_sizes(TeeworldsMap& map) {
  Problems& problems = map.problems;
  if (const std::int32_t game = map.game_layer(); game >= 0) {
    const TilemapLayer& g = *map.layers[static_cast<std::size_t>(game)].tilemap;
    const std::int64_t game_tiles = std::int64_t{g.width} * g.height;
    for (const auto& layer : map.layers) {
      if (!layer.tilemap || !is_physics(layer.type) || layer.type == LayerKind::game) continue;
      const TilemapLayer& t = *layer.tilemap;
      const Location where = Location::layer(static_cast<std::size_t>(layer.index));
      const std::int64_t tiles = std::int64_t{t.width} * t.height;
      const std::string sizes = std::string(layer_type_name(layer.type)) + " layer is " +
                                std::to_string(t.width) + "x" + std::to_string(t.height) +
                                ", game layer " + std::to_string(game) + " is " +
                                std::to_string(g.width) + "x" + std::to_string(g.height);
      if (tiles < game_tiles) {
        add(problems, Code::M13, sizes + ": fewer tiles than the game layer", where);
      } else if (t.width != g.width || t.height != g.height) {
        add(problems, Code::layer_size_mismatch, sizes, where);
      }
    }
  }
}

// Automappers (DDNet).
void decode_automappers(const Datafile& df, TeeworldsMap& map) {
  Problems& problems = map.problems;
  if (auto range = df.items_of_uuid(datafile::known_uuid(datafile::KnownUuid::automapper_config));
      range.num > 0) {
    for (std::uint32_t i = 0; i < range.num; ++i) {
      auto r = decode_automapper(df.item(range.start + i).data);
      if (r)
        map.automappers.push_back(*r);
      else
        add(problems, r.error(), Location::automapper(i));
    }
  }
}

// UUID item types present, with what Datafile::uuid_of gives (the first
// index item naming the type), found in one pass over the index items:
// uuid_of per type would take types x index items.
void find_uuid_types(const Datafile& df, TeeworldsMap& map) {
  std::vector<std::pair<std::uint16_t, std::optional<datafile::Uuid>>> present;  // file order
  for (std::size_t i = 0; i < df.num_item_types(); ++i) {
    const auto t = df.item_type(i);
    if (t.type_id < datafile::kFirstUuidTypeId || t.type_id == datafile::kUuidIndexType) continue;
    present.emplace_back(t.type_id, std::nullopt);
  }
  if (!present.empty()) {
    std::vector<std::size_t> by_id(present.size());  // indices into present, sorted by type id
    for (std::size_t k = 0; k < by_id.size(); ++k) by_id[k] = k;
    std::sort(by_id.begin(), by_id.end(),
              [&](std::size_t a, std::size_t b) { return present[a].first < present[b].first; });
    const auto range = df.items_of_type(datafile::kUuidIndexType);
    for (std::uint32_t i = range.start; i < range.start + range.num; ++i) {
      const auto item = df.item(i);
      auto it =
          std::lower_bound(by_id.begin(), by_id.end(), item.id,
                           [&](std::size_t k, std::uint16_t id) { return present[k].first < id; });
      for (; it != by_id.end() && present[*it].first == item.id; ++it)
        if (!present[*it].second) present[*it].second = datafile::uuid_of_index_item(item);
    }
  }
  for (const auto& [type_id, uuid] : present)
    if (uuid) map.uuid_types.push_back(uuid_type_name(*uuid));
}

}  // namespace

TeeworldsMap decode_map(const Datafile& df) {
  TeeworldsMap map;
  Problems& problems = map.problems;
  decode_version_item(df, map);  // M1
  decode_info_item(df, map);
  map.images = decode_all<ImageItem>(df, kImageType, Place::image, decode_image, problems);
  map.envelopes =
      decode_all<EnvelopeItem>(df, kEnvelopeType, Place::envelope, decode_envelope, problems);
  map.sounds = decode_all<SoundItem>(df, kSoundType, Place::sound, decode_sound, problems);

  decode_envelope_points(df, map);
  decode_groups(df, map);                             // M2 (item size)
  decode_layers(df, map);                             // M4..M8
  const auto claimed = assign_layers_to_groups(map);  // M2 (layer range), M3
  find_physics_layers(map, claimed);                  // M10
  check_tile_data_indices(df, map);                   // M11
  check_physics_layer_sizes(map);                     // M13
  decode_automappers(df, map);
  find_uuid_types(df, map);
  return map;
}

}  // namespace mapindex::teeworlds
