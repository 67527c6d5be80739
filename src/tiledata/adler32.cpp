#include "tiledata/adler32.h"

#include <libdeflate.h>

namespace mapindex::tiledata {
namespace {

constexpr std::uint64_t kBase = 65521;  // the largest prime below 2^16

}  // namespace

std::uint32_t adler32(Bytes data, std::uint32_t adler) {
  return libdeflate_adler32(adler, data.data(), data.size());
}

void Adler32Scan::skip_zeros(const std::uint8_t* at, std::size_t n) {
  if (at < begin_) {  // overlaps what is summed already: only the rest counts
    const auto summed = static_cast<std::size_t>(begin_ - at);
    if (summed >= n) return;
    at = begin_;
    n -= summed;
  }
  if (at > begin_) adler_ = adler32(Bytes(begin_, static_cast<std::size_t>(at - begin_)), adler_);
  const std::uint64_t a = adler_ & 0xffffu, b = adler_ >> 16;
  adler_ = static_cast<std::uint32_t>(((b + (n % kBase) * a) % kBase) << 16 | a);
  begin_ = at + n;
}

std::uint32_t Adler32Scan::finish() {
  if (end_ > begin_)
    adler_ = adler32(Bytes(begin_, static_cast<std::size_t>(end_ - begin_)), adler_);
  begin_ = end_;
  return adler_;
}

}  // namespace mapindex::tiledata
