#include "tiledata/zero_blocks.h"

#include <algorithm>

#include "common/bytes.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace mapindex::tiledata {
namespace {

#if defined(__x86_64__)
// 128 bytes per step; then the block that ended the stretch is found one by
// one. Built for AVX2 whatever the build's -march: chosen at run time.
__attribute__((target("avx2"))) std::size_t zero_blocks_avx2(const std::uint8_t* p, std::size_t n) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const auto* q = reinterpret_cast<const __m256i*>(p + 32 * i);
    const __m256i x =
        _mm256_or_si256(_mm256_or_si256(_mm256_loadu_si256(q), _mm256_loadu_si256(q + 1)),
                        _mm256_or_si256(_mm256_loadu_si256(q + 2), _mm256_loadu_si256(q + 3)));
    if (!_mm256_testz_si256(x, x)) break;
  }
  for (; i < n; ++i) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32 * i));
    if (!_mm256_testz_si256(x, x)) break;
  }
  return i;
}

bool cpu_has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}
#endif

}  // namespace

std::size_t zero_blocks_portable(const std::uint8_t* p, std::size_t n) {
  std::size_t i = 0;
  for (; i < n; ++i, p += 32)
    if ((load_host_u64(p) | load_host_u64(p + 8) | load_host_u64(p + 16) | load_host_u64(p + 24)) !=
        0)
      break;
  return i;
}

std::size_t zero_blocks(const std::uint8_t* p, std::size_t n) {
#if defined(__x86_64__)
  static const bool avx2 = cpu_has_avx2();
  if (avx2) return zero_blocks_avx2(p, n);
#endif
  return zero_blocks_portable(p, n);
}

std::size_t zero_blocks(const std::uint8_t* p, std::size_t n, const KnownZeros& known) {
  if (!known.covers(p)) return zero_blocks(p, n);
  constexpr std::size_t kBlock = 32;
  std::size_t i = 0;
  while (i < n) {
    const std::uint8_t* q = p + kBlock * i;
    // Most stretches of air end within the written chunk they start in:
    // the blocks that start in q's chunk are read first when it is written,
    // before the marks after it are looked at.
    if (const std::size_t in_chunk = known.written_bytes_left_in_chunk(q); in_chunk > 0) {
      const std::size_t m = std::min((in_chunk + kBlock - 1) / kBlock, n - i);
      const std::size_t zero = zero_blocks(q, m);
      i += zero;
      if (zero < m) break;
      continue;
    }
    // q's chunk was never written: the blocks the marks say are zero are
    // skipped unread; when that is less than a block (the block ends in a
    // written chunk), the block is read.
    if (const std::size_t clean = known.chunk_run_at(q, kBlock * (n - i)).bytes / kBlock;
        clean > 0) {
      i += clean;
      continue;
    }
    if (zero_blocks(q, 1) == 0) break;
    ++i;
  }
  return i;
}

}  // namespace mapindex::tiledata
