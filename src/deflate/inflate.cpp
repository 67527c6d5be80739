#include "deflate/inflate.h"

#include <libdeflate.h>

#include <utility>

#include "common/bytes.h"
#include "common/enum_text.h"
#include "deflate/inflate_workspace.h"
#include "deflate/zero_inflate.h"
#include "tiledata/adler32.h"

namespace mapindex::deflate {

// RFC 1950: CMF (compression method 8 = deflate, CINFO = log2(window) - 8 at
// most 7), FLG (FCHECK makes CMF * 256 + FLG a multiple of 31; FDICT, a preset
// dictionary, is not allowed), the deflate data, then the Adler-32 of the
// output, big-endian.
constexpr std::size_t kZlibHeader = 2, kZlibTrailer = 4;

namespace {

bool zlib_framing_ok(Bytes compressed) {
  if (compressed.size() < kZlibHeader + kZlibTrailer) return false;
  const unsigned header = unsigned{compressed[0]} << 8 | compressed[1];
  return header % 31 == 0 && ((header >> 8) & 0xfu) == 8 && (header >> 12) <= 7 &&
         ((header >> 5) & 1u) == 0;
}

// The deflate data between the zlib header and trailer.
Bytes deflate_data(Bytes compressed) {
  return compressed.subspan(kZlibHeader, compressed.size() - kZlibHeader - kZlibTrailer);
}

// A stream whose deflate data took `used` bytes and gave `out`, ending as
// it should: ok with the Adler-32 that follows it (to check against `out`),
// or, short of `wanted`, too_short once that checksum holds.
InflateOutcome ended(Bytes compressed, std::size_t used, Bytes out, std::size_t wanted) {
  const std::uint32_t checksum = load_be_u32(compressed.data() + kZlibHeader + used);
  if (out.size() == wanted) return {InflateStatus::ok, out.size(), checksum};
  if (tiledata::adler32(out) != checksum) return {InflateStatus::corrupt, 0};
  return {InflateStatus::too_short, out.size()};
}

}  // namespace

InflateOutcome inflate_zlib_unchecked(Bytes compressed, std::span<std::uint8_t> out,
                                      LibdeflateDecompressor& decompressor) {
  if (!zlib_framing_ok(compressed)) return {InflateStatus::corrupt, 0};
  const Bytes deflate = deflate_data(compressed);
  std::size_t used = 0, actual = 0;
  const libdeflate_result r = libdeflate_deflate_decompress_ex(
      decompressor.get(), deflate.data(), deflate.size(), out.data(), out.size(), &used, &actual);
  switch (r) {
    case LIBDEFLATE_SUCCESS: return ended(compressed, used, Bytes(out.data(), actual), out.size());
    case LIBDEFLATE_INSUFFICIENT_SPACE: return {InflateStatus::too_long, out.size()};
    case LIBDEFLATE_SHORT_OUTPUT:  // only reported when actual is not asked for
    case LIBDEFLATE_BAD_DATA:
    default: return {InflateStatus::corrupt, 0};
  }
}

std::string_view to_string(Inflater inflater) {
  switch (inflater) {
    case Inflater::zeros: return "zeros";
    case Inflater::libdeflate: return "libdeflate";
  }
  return "?";
}

std::optional<Inflater> parse_inflater(std::string_view text) {
  static constexpr Inflater kAll[] = {Inflater::zeros, Inflater::libdeflate};
  return parse_enum(text, kAll);
}

InflateOutcome inflate_zlib_onto_zeros(Bytes compressed, tiledata::ZeroedSpan out,
                                       InflateWorkspace& workspace, Inflater inflater) {
  if (inflater == Inflater::libdeflate) {
    // libdeflate may write anywhere in `out` before it fails.
    if (out.size() > 0) out.buffer().mark(0, out.size());
    return inflate_zlib_unchecked(compressed, out, workspace.libdeflate);
  }
  if (!zlib_framing_ok(compressed)) return {InflateStatus::corrupt, 0};
  const std::uint8_t* const bytes = out.data();
  const std::size_t size = out.size();
  const RawInflateOutcome r =
      inflate_onto_zeros(deflate_data(compressed), std::move(out), workspace.zero_tables);
  if (r.status == InflateStatus::ok || r.status == InflateStatus::too_short)
    return ended(compressed, r.used, Bytes(bytes, r.produced), size);
  return {r.status, r.produced};
}

InflateOutcome inflate_zlib(Bytes compressed, std::span<std::uint8_t> out,
                            LibdeflateDecompressor& decompressor) {
  InflateOutcome outcome = inflate_zlib_unchecked(compressed, out, decompressor);
  if (outcome.status == InflateStatus::ok &&
      tiledata::adler32(Bytes(out.data(), outcome.produced)) != outcome.checksum)
    return {InflateStatus::corrupt, 0};
  return outcome;
}

}  // namespace mapindex::deflate
