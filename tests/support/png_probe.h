// Reading PNGs back in tests with libpng's simplified API, independently of
// how the product writes them (src/render/png.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "render/tile_class.h"

namespace mapindex::testing {

// A PNG decoded to 8-bit RGB.
struct DecodedPng {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> rgb;  // 3 bytes a pixel, row-major
  render::Rgb at(std::uint32_t x, std::uint32_t y) const {
    const std::size_t i = (static_cast<std::size_t>(y) * width + x) * 3;
    return render::Rgb{rgb[i], rgb[i + 1], rgb[i + 2]};
  }
  // How many distinct colours it has (at most `cap`: counting stops there).
  std::size_t colours(std::size_t cap = 1000) const;
};

// nullopt when libpng cannot read `png` (not a PNG, damaged).
std::optional<DecodedPng> decode_png(std::string_view png);
inline std::optional<DecodedPng> decode_png(const std::vector<std::uint8_t>& png) {
  return decode_png(std::string_view(reinterpret_cast<const char*>(png.data()), png.size()));
}

}  // namespace mapindex::testing
