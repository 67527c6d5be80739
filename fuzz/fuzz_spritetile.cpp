// libFuzzer target: SpriteTile levels, decode + measure. The first byte picks
// the form of the rest: even, a `.bytes` file as stored (LZF stream) through
// measure_spritetile; odd, an already decompressed level through parse_level
// and spritetile_stats, so that mutations reach the tag table, layers and
// cells without having to keep an LZF stream valid.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "decode/spritetile/level.h"
#include "decode/spritetile/lzf_stream.h"
#include "extract/spritetile_stats.h"

using namespace mapindex;
using namespace mapindex::spritetile;

namespace {

void check_level(const Level& level) {
  for (std::size_t i = 0; i < level.layers.size(); ++i) {
    const auto& layer = level.layers[i];
    const CellView cells = level.cells(i);
    if (static_cast<std::int64_t>(cells.size()) != layer.num_cells()) std::abort();
    if (layer.cells_offset + cells.bytes().size() > level.data.size) std::abort();
  }
  const MapStats stats = spritetile_stats(level);
  if (stats.layers.size() != level.layers.size()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const Bytes body(data + 1, size - 1);
  if ((data[0] & 1) == 0) {
    std::uint8_t prefix[32];
    const std::size_t n = lzf_decompress_prefix(body, prefix);
    if (n > sizeof prefix) std::abort();
    const auto m = measure_spritetile(body);
    if (m.is_level && m.stats.status == MapStatus::rejected && m.stats.problems.empty())
      std::abort();
  } else {
    ByteBuffer buffer;
    buffer.size = body.size();
    buffer.bytes = std::make_unique<std::uint8_t[]>(body.size());
    if (!body.empty()) std::memcpy(buffer.bytes.get(), body.data(), body.size());
    if (auto level = parse_level(std::move(buffer))) check_level(*level);
  }
  return 0;
}
