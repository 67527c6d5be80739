// libFuzzer target: the tile data decoder (src/deflate/zero_inflate.h) on
// any raw deflate stream, against zlib and libdeflate. The first 3 bytes of
// an input are the declared output size (little-endian, so any size below
// 16 MiB), the rest is the stream. The decoder must give zlib's verdict, and
// where zlib reads the stream, zlib's bytes and input used; libdeflate, which
// reads a superset of what zlib reads, must read it alike. zlib's and
// libdeflate's outputs end at a page no one may touch, as libdeflate's own
// fuzz target has them (scripts/libFuzzer/deflate_decompress/fuzz.c); the
// decoder's is a ZeroedBuffer of its own, which ends at one too, and must be
// left zero and unmarked past the output.
#include <libdeflate.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "deflate/zero_inflate.h"
#include "tiledata/zeroed_buffer.h"

using namespace mapindex;
using deflate::InflateStatus;

namespace {

constexpr std::size_t kSizeBytes = 3;

// `size` writable bytes that end where an inaccessible page begins.
class GuardedBuffer {
 public:
  explicit GuardedBuffer(std::size_t size) : size_(size) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    pages_ = (size + page - 1) / page * page;
    void* p =
        mmap(nullptr, pages_ + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) std::abort();
    base_ = static_cast<std::uint8_t*>(p);
    if (mprotect(base_ + pages_, page, PROT_NONE) != 0) std::abort();
    total_ = pages_ + page;
  }
  ~GuardedBuffer() { munmap(base_, total_); }
  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;
  std::uint8_t* data() const { return base_ + pages_ - size_; }

 private:
  std::size_t size_, pages_ = 0, total_ = 0;
  std::uint8_t* base_ = nullptr;
};

// What one decoder said, in the decoder's terms.
struct Verdict {
  InflateStatus status = InflateStatus::corrupt;
  std::size_t produced = 0, used = 0;  // ok and too_short
};

Verdict with_zlib(const std::uint8_t* in, std::size_t n, std::uint8_t* out, std::size_t size) {
  static z_stream zs = [] {
    z_stream z{};
    if (inflateInit2(&z, -15) != Z_OK) std::abort();
    return z;
  }();
  if (inflateReset(&zs) != Z_OK) std::abort();
  zs.next_in = const_cast<Bytef*>(in);
  zs.avail_in = static_cast<uInt>(n);
  zs.next_out = out;
  zs.avail_out = static_cast<uInt>(size);
  const int r = inflate(&zs, Z_FINISH);
  if (r == Z_STREAM_END)
    return {zs.total_out == size ? InflateStatus::ok : InflateStatus::too_short, zs.total_out,
            zs.total_in};
  // Output full with the stream going on: too long (the decoder may find
  // the symbol that did not fit invalid first: corrupt).
  if (r == Z_BUF_ERROR && zs.avail_out == 0) return {InflateStatus::too_long};
  return {InflateStatus::corrupt};
}

Verdict with_libdeflate(const std::uint8_t* in, std::size_t n, std::uint8_t* out,
                        std::size_t size) {
  static libdeflate_decompressor* const d = libdeflate_alloc_decompressor();
  if (!d) std::abort();
  std::size_t used = 0, produced = 0;
  switch (libdeflate_deflate_decompress_ex(d, in, n, out, size, &used, &produced)) {
    case LIBDEFLATE_SUCCESS:
      return {produced == size ? InflateStatus::ok : InflateStatus::too_short, produced, used};
    case LIBDEFLATE_INSUFFICIENT_SPACE: return {InflateStatus::too_long};
    default: return {InflateStatus::corrupt};
  }
}

bool same(const Verdict& a, const Verdict& b, const std::uint8_t* a_bytes,
          const std::uint8_t* b_bytes) {
  return a.status == b.status && a.produced == b.produced && a.used == b.used &&
         (a.produced == 0 || std::memcmp(a_bytes, b_bytes, a.produced) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t n) {
  if (n < kSizeBytes) return 0;
  const std::size_t size =
      std::size_t{data[0]} | std::size_t{data[1]} << 8 | std::size_t{data[2]} << 16;
  const std::uint8_t* stream = data + kSizeBytes;
  const std::size_t stream_size = n - kSizeBytes;

  GuardedBuffer zlib_out(size), libdeflate_out(size);
  const Verdict zlib = with_zlib(stream, stream_size, zlib_out.data(), size);
  const Verdict lib = with_libdeflate(stream, stream_size, libdeflate_out.data(), size);

  tiledata::ZeroedBuffer buffer;  // its own: its mapping ends at a page no one may touch
  deflate::ZeroInflateTables tables;
  const deflate::RawInflateOutcome raw =
      deflate::inflate_onto_zeros(Bytes(stream, stream_size), buffer.take(size), tables);
  const Verdict zeros{raw.status, raw.produced, raw.used};

  switch (zlib.status) {
    case InflateStatus::ok:
    case InflateStatus::too_short:
      if (!same(zeros, zlib, buffer.data(), zlib_out.data())) std::abort();
      if (!same(lib, zlib, libdeflate_out.data(), zlib_out.data())) std::abort();
      break;
    case InflateStatus::too_long:
      if (zeros.status != InflateStatus::too_long && zeros.status != InflateStatus::corrupt)
        std::abort();
      break;
    case InflateStatus::corrupt:
      if (zeros.status != InflateStatus::corrupt) std::abort();
      break;
  }
  // Past the output nothing was written: the rest of its last page is zero,
  // and no chunk after its last is marked (the marks come in words of 64).
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  for (std::size_t at = size; at < (size + page - 1) / page * page; ++at)
    if (buffer.data()[at] != 0) std::abort();
  const std::size_t chunks =
      (size + tiledata::ZeroedBuffer::kChunkSize - 1) >> tiledata::ZeroedBuffer::kChunkShift;
  for (std::size_t chunk = chunks; chunk < (chunks + 63) / 64 * 64; ++chunk)
    if (!buffer.clean(chunk)) std::abort();
  return 0;
}
