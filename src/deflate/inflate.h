// Whole-buffer zlib inflate (RFC 1950) into a buffer of an exactly known
// size: with libdeflate (the caller's decompressor), or onto a ZeroedSpan
// with the decoder of zero_inflate.h (the caller's InflateWorkspace). Which decoder serves what:
// README.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "common/bytes.h"
#include "deflate/libdeflate_decompressor.h"
#include "tiledata/zeroed_buffer.h"

namespace mapindex::deflate {

enum class InflateStatus : unsigned char {
  ok,         // exactly out.size() bytes
  corrupt,    // not a valid zlib stream (bad header, data or checksum)
  too_short,  // valid stream, but fewer bytes than out.size() (see produced)
  too_long,   // valid so far, but it holds more than out.size() bytes
};

struct InflateOutcome {
  InflateStatus status = InflateStatus::corrupt;
  std::size_t produced = 0;  // bytes written (meaningful for ok and too_short)
  // inflate_zlib_unchecked, status ok: the Adler-32 the stream ends with,
  // which `out` must have for the stream to be valid.
  std::uint32_t checksum = 0;
};

// Inflates the zlib stream `compressed` into `out`. Bytes after the end of the
// zlib stream are ignored, as zlib's uncompress() does.
InflateOutcome inflate_zlib(Bytes compressed, std::span<std::uint8_t> out,
                            LibdeflateDecompressor& decompressor);

// inflate_zlib, except that an output of exactly out.size() bytes is not
// checked against the stream's Adler-32: `ok` here means ok once
// adler32(out) == checksum, corrupt otherwise (every other status is final,
// as inflate_zlib gives it). For a caller that reads every output byte anyway
// and checks the sum on the way (Adler32Scan). The zlib header is checked as
// libdeflate_zlib_decompress checks it.
InflateOutcome inflate_zlib_unchecked(Bytes compressed, std::span<std::uint8_t> out,
                                      LibdeflateDecompressor& decompressor);

// The decoder that writes onto a ZeroedSpan. zeros: inflate_onto_zeros
// (zero_inflate.h), which writes only the bytes other than zero and reads
// what zlib reads. libdeflate: writes every byte (the whole span is then
// marked) and also reads the few streams zlib refuses that libdeflate takes;
// a fallback for the day zero_inflate is found wrong.
enum class Inflater : unsigned char { zeros, libdeflate };
std::string_view to_string(Inflater inflater);  // "zeros", "libdeflate"
std::optional<Inflater> parse_inflater(std::string_view text);

struct InflateWorkspace;  // inflate_workspace.h

// inflate_zlib_unchecked into `out` with `inflater`, using `workspace`'s
// state. Afterwards every chunk of out.buffer() that may hold a byte other
// than zero is marked, whatever the status.
InflateOutcome inflate_zlib_onto_zeros(Bytes compressed, tiledata::ZeroedSpan out,
                                       InflateWorkspace& workspace,
                                       Inflater inflater = Inflater::zeros);

// The most bytes any deflate stream of `compressed_size` bytes can expand to:
// a length-258 match costs at least 2 bits, so 1032 bytes per input byte.
inline constexpr std::uint64_t kMaxDeflateRatio = 1032;
inline std::uint64_t max_inflated_size(std::uint64_t compressed_size) {
  return compressed_size * kMaxDeflateRatio;
}

}  // namespace mapindex::deflate
