#include "stages/decode/datafile/inflate.h"

#include <libdeflate.h>

#include <memory>
#include <new>

#include "stages/decode/datafile/datafile.h"

namespace mapindex::datafile {
namespace {

struct DecompressorDeleter {
  void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};

// One decompressor per thread: allocating one costs more than inflating a
// small data item.
libdeflate_decompressor* thread_decompressor() {
  thread_local std::unique_ptr<libdeflate_decompressor, DecompressorDeleter> decompressor(
      libdeflate_alloc_decompressor());
  if (!decompressor) throw std::bad_alloc();
  return decompressor.get();
}

}  // namespace

InflateOutcome inflate_zlib(Bytes compressed, std::span<std::uint8_t> out) {
  std::size_t actual = 0;
  const libdeflate_result r = libdeflate_zlib_decompress(
      thread_decompressor(), compressed.data(), compressed.size(), out.data(), out.size(), &actual);
  switch (r) {
    case LIBDEFLATE_SUCCESS:
      if (actual == out.size()) return {InflateStatus::ok, actual};
      return {InflateStatus::too_short, actual};
    case LIBDEFLATE_INSUFFICIENT_SPACE: return {InflateStatus::too_long, out.size()};
    case LIBDEFLATE_SHORT_OUTPUT:  // only reported when actual is not asked for
    case LIBDEFLATE_BAD_DATA:
    default: return {InflateStatus::corrupt, 0};
  }
}

bool inflate_exact(Bytes compressed, std::span<std::uint8_t> out) {
  return inflate_zlib(compressed, out).status == InflateStatus::ok;
}

}  // namespace mapindex::datafile
