// mapindex-bench-inflate: the CPU the tile data decoder
// (src/deflate/zero_inflate.h) takes per input byte on the streams that
// cost a decoder the most per byte, streams of empty or one-byte blocks
// (tests/support/deflate_writer.h; libdeflate's test_slow_decompression.c
// has the same), against zlib and libdeflate on the same streams:
//
//   mapindex-bench-inflate [--blocks N] [--repeat R]
//
// For each kind of block, a stream of N blocks (default 200000) is inflated
// R times (default 5) by each decoder, each checked to read it whole; the
// best CPU time counts. Prints per kind the stream's size, each decoder's
// nanoseconds per input byte, and zero_inflate's time over zlib's and over
// libdeflate's. The bound, checked (exit 1 when missed): on every kind,
// zero_inflate takes at most kBound times the time of the slower of the two.
#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "deflate/zero_inflate.h"
#include "tests/support/deflate_writer.h"
#include "tiledata/zeroed_buffer.h"

namespace {

using namespace mapindex;
using testing::TinyBlocks;

constexpr double kBound = 2.0;

// This thread's CPU time: on a loaded machine wall time counts the others.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

template <class F>
double best_seconds(int repeat, F&& f) {
  double best = 1e9;
  for (int r = 0; r < repeat; ++r) {
    const double start = cpu_seconds();
    if (!f()) {
      std::fprintf(stderr, "mapindex-bench-inflate: a decoder did not read a stream whole\n");
      std::exit(2);
    }
    best = std::min(best, cpu_seconds() - start);
  }
  return best;
}

int usage() {
  std::fprintf(stderr, "usage: mapindex-bench-inflate [--blocks N] [--repeat R]\n");
  return 2;
}

bool number_arg(const char* text, long min, long max, long& out) {
  char* end = nullptr;
  out = std::strtol(text, &end, 10);
  return *end == '\0' && out >= min && out <= max;
}

}  // namespace

int main(int argc, char** argv) {
  long blocks = 200000, repeat = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--blocks" && i + 1 < argc) {
      if (!number_arg(argv[++i], 1, 100000000, blocks)) return usage();
    } else if (arg == "--repeat" && i + 1 < argc) {
      if (!number_arg(argv[++i], 1, 1000, repeat)) return usage();
    } else {
      return usage();
    }
  }
  libdeflate_decompressor* const lib = libdeflate_alloc_decompressor();
  z_stream zs{};
  if (!lib || inflateInit2(&zs, -15) != Z_OK) return 2;
  tiledata::ZeroedBuffer buffer;
  deflate::ZeroInflateTables tables;
  bool within = true;
  std::printf("%-28s %10s %10s %10s %10s %8s %8s\n", "stream", "bytes", "zeros ns/B", "zlib ns/B",
              "libdefl ns/B", "/zlib", "/libdefl");
  for (const TinyBlocks kind : testing::kAllTinyBlocks) {
    const auto stream = testing::tiny_blocks(kind, static_cast<std::size_t>(blocks));
    const std::size_t size = testing::tiny_blocks_size(kind, static_cast<std::size_t>(blocks));
    std::vector<std::uint8_t> out(size + 1);
    const double zeros = best_seconds(static_cast<int>(repeat), [&] {
      const auto r = deflate::inflate_onto_zeros(Bytes(stream), buffer.take(size), tables);
      return r.status == deflate::InflateStatus::ok && r.used == stream.size();
    });
    const double zlib = best_seconds(static_cast<int>(repeat), [&] {
      inflateReset(&zs);
      zs.next_in = const_cast<Bytef*>(stream.data());
      zs.avail_in = static_cast<uInt>(stream.size());
      zs.next_out = out.data();
      zs.avail_out = static_cast<uInt>(size);
      return inflate(&zs, Z_FINISH) == Z_STREAM_END && zs.total_out == size;
    });
    const double libdeflate = best_seconds(static_cast<int>(repeat), [&] {
      std::size_t produced = 0;
      return libdeflate_deflate_decompress(lib, stream.data(), stream.size(), out.data(), size,
                                           &produced) == LIBDEFLATE_SUCCESS &&
             produced == size;
    });
    const double per_byte = 1e9 / static_cast<double>(stream.size());
    std::printf("%-28s %10zu %10.2f %10.2f %10.2f %8.2f %8.2f\n", testing::to_string(kind),
                stream.size(), zeros * per_byte, zlib * per_byte, libdeflate * per_byte,
                zeros / zlib, zeros / libdeflate);
    within &= zeros <= kBound * std::max(zlib, libdeflate);
  }
  inflateEnd(&zs);
  libdeflate_free_decompressor(lib);
  std::printf(
      "bound: zero_inflate <= %.1fx the slower of zlib and libdeflate on every stream: %s\n",
      kBound, within ? "PASS" : "MISS");
  return within ? 0 : 1;
}
