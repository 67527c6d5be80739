#include "deflate/libdeflate_decompressor.h"

#include <libdeflate.h>

#include <new>

namespace mapindex::deflate {

void LibdeflateDecompressor::Free::operator()(libdeflate_decompressor* d) const {
  libdeflate_free_decompressor(d);
}

LibdeflateDecompressor::LibdeflateDecompressor() : decompressor_(libdeflate_alloc_decompressor()) {
  if (!decompressor_) throw std::bad_alloc();
}

}  // namespace mapindex::deflate
