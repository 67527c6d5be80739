#include "stages/common/zeroed_buffer.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>

#include <sys/mman.h>

namespace mapindex {

std::span<std::uint8_t> ZeroedBuffer::take(std::size_t n) {
  if (size_ < n) {
    // New memory rather than a copy; the old needs no zeroing first.
    unmap();
    void* p = ::mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    bytes_ = static_cast<std::uint8_t*>(p);
    size_ = n;
    const std::size_t chunks = (n + kChunkSize - 1) >> kChunkShift;
    marks_.assign((chunks + 63) / 64, 0);
    return {bytes_, n};
  }
  for (std::size_t w = 0; w < marks_.size(); ++w) {
    for (std::uint64_t bits = marks_[w]; bits != 0; bits &= bits - 1) {
      const std::size_t at = (w * 64 + static_cast<std::size_t>(std::countr_zero(bits)))
                             << kChunkShift;
      std::memset(bytes_ + at, 0, std::min(kChunkSize, size_ - at));
    }
    marks_[w] = 0;
  }
  return {bytes_, n};
}

std::size_t ZeroedBuffer::clean_end(std::size_t at) const {
  std::size_t chunk = at >> kChunkShift;
  if (!clean(chunk)) return at;
  // The next marked chunk: the rest of this word, then whole words.
  std::size_t w = chunk >> 6;
  std::uint64_t marked = marks_[w] & (~std::uint64_t{0} << (chunk & 63));
  while (marked == 0 && ++w < marks_.size()) marked = marks_[w];
  if (marked == 0) return size_;
  chunk = w * 64 + static_cast<std::size_t>(std::countr_zero(marked));
  return std::min(chunk << kChunkShift, size_);
}

void ZeroedBuffer::unmap() {
  if (bytes_) ::munmap(bytes_, size_);
  bytes_ = nullptr;
  size_ = 0;
}

void ZeroedBuffer::release() {
  unmap();
  std::vector<std::uint64_t>().swap(marks_);
}

}  // namespace mapindex
