#include "render/png.h"

#include <png.h>
#include <zlib.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/file_write.h"

namespace mapindex::render {
namespace {

struct Sink {
  std::vector<std::uint8_t>* out;
};

png_voidp take_block(png_structp png, png_alloc_size_t n) {
  return static_cast<PngBlocks*>(png_get_mem_ptr(png))->take(n);
}
void give_block(png_structp png, png_voidp p) {
  static_cast<PngBlocks*>(png_get_mem_ptr(png))->give(p);
}

void write_bytes(png_structp png, png_bytep data, png_size_t length) {
  auto* sink = static_cast<Sink*>(png_get_io_ptr(png));
  sink->out->insert(sink->out->end(), data, data + length);
}
void flush_nothing(png_structp) {}

// libpng reports errors through longjmp: this frame holds only plain data
// and buffers made before setjmp, so nothing is skipped that needs a
// destructor.
bool encode(const ClassImage& image, std::uint32_t scale, std::vector<std::uint8_t>& row,
            std::vector<std::uint8_t>& out, PngBlocks& blocks, char* error_text,
            std::size_t error_size) {
  png_structp png = png_create_write_struct_2(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr,
                                              &blocks, take_block, give_block);
  if (!png) {
    std::snprintf(error_text, error_size, "libpng cannot start a PNG");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    std::snprintf(error_text, error_size, "libpng failed to encode the image");
    return false;
  }
  Sink sink{&out};
  png_set_write_fn(png, &sink, write_bytes, flush_nothing);
  // Run-length deflate: classes come in long runs, and it is several times
  // faster than the default strategy for about the same size.
  png_set_compression_strategy(png, Z_RLE);
  // Every pixel is a TileClass, so below kNumTileClasses (the palette's
  // size): libpng's check of each row's indexes, another pass over every
  // byte, finds nothing.
  png_set_check_for_invalid_index(png, 0);
  const std::uint32_t w = static_cast<std::uint32_t>(image.width) * scale;
  const std::uint32_t h = static_cast<std::uint32_t>(image.height) * scale;
  png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_color colors[kNumTileClasses];
  for (std::size_t i = 0; i < kNumTileClasses; ++i)
    colors[i] = png_color{palette()[i].rgb.r, palette()[i].rgb.g, palette()[i].rgb.b};
  png_set_PLTE(png, info, colors, static_cast<int>(kNumTileClasses));
  png_write_info(png, info);
  for (std::int32_t y = 0; y < image.height; ++y) {
    const std::uint8_t* src = image.pixels.data() + static_cast<std::size_t>(y) * image.width;
    if (scale == 1) {
      png_write_row(png, src);
      continue;
    }
    for (std::int32_t x = 0; x < image.width; ++x)
      std::memset(row.data() + static_cast<std::size_t>(x) * scale, src[x], scale);
    for (std::uint32_t r = 0; r < scale; ++r) png_write_row(png, row.data());
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

}  // namespace

PngBlocks::~PngBlocks() {
  for (std::size_t i = 0; i < count_; ++i) std::free(kept_[i].start);
}

void* PngBlocks::take(std::size_t n) {
  std::size_t best = count_;
  for (std::size_t i = 0; i < count_; ++i)
    if (kept_[i].size >= n && (best == count_ || kept_[i].size < kept_[best].size)) best = i;
  if (best < count_) {
    void* start = kept_[best].start;
    remove(best);
    return payload(start);
  }
  if (n > SIZE_MAX - kHeader) return nullptr;
  void* start = std::malloc(kHeader + n);
  if (!start) return nullptr;
  std::memcpy(start, &n, sizeof n);
  return payload(start);
}
void PngBlocks::give(void* p) {
  if (!p) return;
  void* start = static_cast<unsigned char*>(p) - kHeader;
  std::size_t n = 0;
  std::memcpy(&n, start, sizeof n);
  // Room made by freeing the smallest kept blocks, if they are smaller.
  while (count_ > 0 && (count_ == kMaxKept || kept_bytes_ + n > kMaxKeptBytes)) {
    std::size_t smallest = 0;
    for (std::size_t i = 1; i < count_; ++i)
      if (kept_[i].size < kept_[smallest].size) smallest = i;
    if (kept_[smallest].size >= n) break;
    std::free(kept_[smallest].start);
    remove(smallest);
  }
  if (count_ < kMaxKept && kept_bytes_ + n <= kMaxKeptBytes) {
    kept_[count_++] = Block{n, start};
    kept_bytes_ += n;
    return;
  }
  std::free(start);
}
void PngBlocks::remove(std::size_t i) {
  kept_bytes_ -= kept_[i].size;
  kept_[i] = kept_[--count_];
}

Result<std::vector<std::uint8_t>> encode_png(const ClassImage& image, std::int32_t scale) {
  PngBlocks blocks;
  return encode_png(image, scale, blocks);
}

Result<std::vector<std::uint8_t>> encode_png(const ClassImage& image, std::int32_t scale,
                                             PngBlocks& blocks) {
  if (scale < 1) scale = 1;
  const std::uint64_t w = static_cast<std::uint64_t>(image.width) * scale;
  const std::uint64_t h = static_cast<std::uint64_t>(image.height) * scale;
  if (image.width <= 0 || image.height <= 0)
    return Error{Code::render_size, "an empty image cannot be a PNG"};
  if (w * h > kMaxPixels)
    return Error{Code::render_size, "the image of " + std::to_string(image.width) + "x" +
                                        std::to_string(image.height) + " pixels at scale " +
                                        std::to_string(scale) + " is " + std::to_string(w) + "x" +
                                        std::to_string(h) + " pixels, over the limit of " +
                                        std::to_string(kMaxPixels) + " (2^26)"};
  std::vector<std::uint8_t> row(static_cast<std::size_t>(w));
  std::vector<std::uint8_t> out;
  out.reserve(4096);
  char error_text[128] = {};
  if (!encode(image, static_cast<std::uint32_t>(scale), row, out, blocks, error_text,
              sizeof error_text))
    return Error{Code::render_png, error_text};
  return out;
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> png_size(Bytes png) {
  static constexpr std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (png.size() < 24 || std::memcmp(png.data(), kSignature, 8) != 0 ||
      std::memcmp(png.data() + 12, "IHDR", 4) != 0)
    return std::nullopt;
  return std::make_pair(load_be_u32(png.data() + 16), load_be_u32(png.data() + 20));
}

Result<bool> write_file(const std::string& path, const std::vector<std::uint8_t>& png) {
  return write_file_atomically(
      path, std::string_view(reinterpret_cast<const char*>(png.data()), png.size()),
      Code::render_png);
}

}  // namespace mapindex::render
