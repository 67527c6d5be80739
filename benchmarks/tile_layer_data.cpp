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

Bytes stored_data(const datafile::Datafile& df, std::size_t index) {
  // Header: 9 int32s (magic, version, size, swaplen, num_item_types,
  // num_items, num_data, item_size, data_size), then item types (12 bytes
  // each), item offsets, data offsets, the v4 size table, items, data.
  const std::uint8_t* file = df.file().data();
  const auto item_size = static_cast<std::size_t>(load_le_u32(file + 28));
  const std::size_t offsets = 36 + df.num_item_types() * 12 + df.num_items() * 4;
  const std::size_t data_start =
      offsets + df.num_data() * 4 + (df.version() == 4 ? df.num_data() * 4 : 0) + item_size;
  const std::size_t offset = load_le_u32(file + offsets + 4 * index);
  return df.file().subspan(data_start + offset, df.data_stored_size(index));
}

}  // namespace mapindex::bench
