#include "benchmarks/tile_layer_data.h"

#include "stages/decode/teeworlds/item_decoders.h"
#include "stages/decode/teeworlds/map_items.h"

namespace mapindex::bench {

std::vector<std::size_t> tile_data_indices(const datafile::Datafile& df) {
  using namespace teeworlds;
  std::vector<std::size_t> out;
  const datafile::ItemRange layers = df.items_of_type(kLayerType);
  for (std::uint32_t i = layers.start; i < layers.start + layers.num; ++i) {
    const datafile::Item item = df.item(i);
    auto header = decode_layer_header(item.data);
    if (!header || header->type != kLayerTilemap) continue;
    auto tilemap = decode_tilemap(item.data);
    if (!tilemap) continue;
    bool readable = true;
    for (const auto& e : validate_tilemap(*tilemap, item.data.size()))
      if (e.code != Code::M8) readable = false;
    const std::int32_t d = tilemap->tile_data();
    if (!readable || d < 0 || static_cast<std::size_t>(d) >= df.num_data()) continue;
    out.push_back(static_cast<std::size_t>(d));
  }
  return out;
}

}  // namespace mapindex::bench
