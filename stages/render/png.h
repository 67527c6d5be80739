// PNG files of class images, written with libpng: 8-bit palette images whose
// palette is tile_class.h's (index = class), so a PNG of a map is small and
// each pixel's class can be read back from it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "stages/common/bytes.h"
#include "stages/common/result.h"
#include "stages/render/canvas.h"

namespace mapindex::render {

// Encodes `image`, each pixel as a `scale` x `scale` block (scale >= 1).
// Error "render.size" when the scaled image would be over kMaxPixels,
// "render.png" when libpng fails.
Result<std::vector<std::uint8_t>> encode_png(const ClassImage& image, std::int32_t scale = 1);

// The width and height in a PNG's header (IHDR), or nullopt when `png` does
// not start like a PNG.
std::optional<std::pair<std::uint32_t, std::uint32_t>> png_size(Bytes png);

// Writes `png` to `path` atomically (stages/common/file_write.h: replacing it
// whole). Error "render.png" naming the file
// and the reason.
Result<bool> write_file(const std::string& path, const std::vector<std::uint8_t>& png);

}  // namespace mapindex::render
