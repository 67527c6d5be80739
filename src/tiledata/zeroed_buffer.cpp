#include "tiledata/zeroed_buffer.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>

#include <sys/mman.h>
#include <unistd.h>

namespace mapindex::tiledata {

ZeroedSpan ZeroedBuffer::take(std::size_t n) {
  if (size_ < n) {
    // New memory rather than a copy; the old needs no zeroing first. The
    // pages for n bytes, then a page no one may touch: a write past the
    // buffer faults rather than landing in other memory.
    unmap();
    static const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t mapped = (n + page - 1) / page * page + page;
    void* p = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    if (::mprotect(static_cast<std::uint8_t*>(p) + mapped - page, page, PROT_NONE) != 0) {
      ::munmap(p, mapped);
      throw std::bad_alloc();
    }
    bytes_ = static_cast<std::uint8_t*>(p);
    size_ = n;
    mapped_ = mapped;
    const std::size_t chunks = (n + kChunkSize - 1) >> kChunkShift;
    marks_.assign((chunks + 63) / 64, 0);
    return ZeroedSpan(*this, {bytes_, n});
  }
  // Each run of marked chunks is zeroed with one memset: a layer's data
  // marks long runs, and a memset per 512-byte chunk (a `rep stos` each)
  // took twice as long.
  constexpr std::size_t kNone = ~std::size_t{0};
  std::size_t run = kNone;  // the first chunk of the run being followed
  const auto zero = [this](std::size_t first, std::size_t end) {
    const std::size_t at = first << kChunkShift;
    std::memset(bytes_ + at, 0, std::min(end << kChunkShift, size_) - at);
  };
  for (std::size_t w = 0; w < marks_.size(); ++w) {
    const std::uint64_t bits = marks_[w];
    marks_[w] = 0;
    const std::size_t base = w * 64;
    if (bits == ~std::uint64_t{0}) {
      if (run == kNone) run = base;
      continue;
    }
    for (unsigned b = 0; b < 64;) {
      if (run == kNone) {
        const std::uint64_t set = bits >> b;
        if (set == 0) break;
        b += static_cast<unsigned>(std::countr_zero(set));
        run = base + b;
      } else {
        const std::uint64_t clear = ~bits >> b;  // the bits above 63 - b are 0: not clear
        if (clear == 0) break;
        b += static_cast<unsigned>(std::countr_zero(clear));
        zero(run, base + b);
        run = kNone;
      }
    }
  }
  if (run != kNone) zero(run, marks_.size() * 64);
  return ZeroedSpan(*this, {bytes_, n});
}

void ZeroedBuffer::unmap() {
  if (bytes_) ::munmap(bytes_, mapped_);
  bytes_ = nullptr;
  size_ = mapped_ = 0;
}

void ZeroedBuffer::release() {
  unmap();
  std::vector<std::uint64_t>().swap(marks_);
}

}  // namespace mapindex::tiledata
