#include "extract/layer_data.h"

namespace mapindex {

std::size_t LayerDataKeyHash::operator()(const LayerDataKey& k) const noexcept {
  // The key's SHA-256 is already uniformly distributed: its first bytes serve
  // as the bucket hash, mixed with the other fields.
  std::size_t h = Sha256Hash{}(k.sha256);
  const auto mix = [&h](std::uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
  mix(static_cast<std::uint64_t>(k.kind));
  mix(static_cast<std::uint64_t>(k.version));
  mix(static_cast<std::uint64_t>(k.width));
  mix(static_cast<std::uint64_t>(k.height));
  mix(static_cast<std::uint64_t>(k.data_size));
  return h;
}

}  // namespace mapindex
