// PNG files of class images, written with libpng: 8-bit palette images whose
// palette is tile_class.h's (index = class), so a PNG of a map is small and
// each pixel's class can be read back from it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "render/canvas.h"

namespace mapindex::render {

// The blocks libpng and zlib allocate for an image, kept by their owner for
// the next image: most are the same from image to image (zlib's window and
// hash tables), and given back to glibc after each image they were faulted in
// again for the next. One image at a time.
//
// A request takes the smallest kept block that is large enough; when the
// cache is full, the smallest blocks make way for larger ones, which serve
// any request. At most kMaxKept blocks and kMaxKeptBytes. libpng calls
// these from C: nothing here throws.
class PngBlocks {
 public:
  PngBlocks() = default;
  PngBlocks(const PngBlocks&) = delete;
  PngBlocks& operator=(const PngBlocks&) = delete;
  ~PngBlocks();

  void* take(std::size_t n);  // null when malloc fails
  void give(void* p);         // a block take() gave (or null)

 private:
  // The block's size in front of it, keeping malloc's alignment.
  static constexpr std::size_t kHeader = alignof(std::max_align_t);
  static constexpr std::size_t kMaxKept = 16;
  static constexpr std::size_t kMaxKeptBytes = std::size_t{1} << 20;
  static void* payload(void* start) { return static_cast<unsigned char*>(start) + kHeader; }
  void remove(std::size_t i);

  struct Block {
    std::size_t size;
    void* start;
  };
  std::array<Block, kMaxKept> kept_{};
  std::size_t count_ = 0;
  std::size_t kept_bytes_ = 0;
};

// Encodes `image`, each pixel as a `scale` x `scale` block (scale >= 1),
// with `blocks` for libpng's and zlib's memory (one image at a time). Its
// pixels must be TileClass values, as a Canvas draws them: not checked.
// Error "render.size" when the scaled image would be over kMaxPixels,
// "render.png" when libpng fails.
Result<std::vector<std::uint8_t>> encode_png(const ClassImage& image, std::int32_t scale,
                                             PngBlocks& blocks);
// The same with blocks of its own, freed on return: for a caller encoding
// one image now and then.
Result<std::vector<std::uint8_t>> encode_png(const ClassImage& image, std::int32_t scale = 1);

// The width and height in a PNG's header (IHDR), or nullopt when `png` does
// not start like a PNG.
std::optional<std::pair<std::uint32_t, std::uint32_t>> png_size(Bytes png);

// Writes `png` to `path` atomically (src/common/file_write.h: replacing it
// whole). Error "render.png" naming the file
// and the reason.
Result<bool> write_file(const std::string& path, const std::vector<std::uint8_t>& png);

}  // namespace mapindex::render
