#include "tests/support/png_probe.h"

#include <png.h>

#include <unordered_set>

namespace mapindex::testing {

std::size_t DecodedPng::colours(std::size_t cap) const {
  std::unordered_set<std::uint32_t> seen;
  for (std::size_t i = 0; i + 2 < rgb.size() && seen.size() < cap; i += 3)
    seen.insert(std::uint32_t{rgb[i]} << 16 | std::uint32_t{rgb[i + 1]} << 8 | rgb[i + 2]);
  return seen.size();
}

std::optional<DecodedPng> decode_png(std::string_view png) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_memory(&image, png.data(), png.size()) == 0) return std::nullopt;
  image.format = PNG_FORMAT_RGB;
  DecodedPng d;
  d.width = image.width;
  d.height = image.height;
  d.rgb.resize(PNG_IMAGE_SIZE(image));
  if (png_image_finish_read(&image, nullptr, d.rgb.data(), 0, nullptr) == 0) {
    png_image_free(&image);
    return std::nullopt;
  }
  return d;
}

}  // namespace mapindex::testing
