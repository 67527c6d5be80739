// Bare LZF streams (liblzf's format: no header, no length, no checksum), as
// SpriteTile writes its `.bytes` files. The uncompressed size is stored
// nowhere, so it is found by walking the tokens once (with a cap) before
// liblzf decompresses into a buffer of exactly that size.
//
// Token format: a control byte c. c < 32: a literal run of c + 1 bytes
// follows. Otherwise a back reference of length (c >> 5) + 2 (when c >> 5 is
// 7, one more byte is added to the length) at distance
// ((c & 31) << 8) + next byte + 1 before the current output position.
//
// Error codes: "st.lzf.empty" (no input), "st.lzf.truncated" (a token runs
// past the end of the input), "st.lzf.backref" (a back reference before the
// start of the output), "st.lzf.cap" (output larger than the cap),
// "st.lzf.failed" (liblzf disagreed with the walk; should not happen).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "common/bytes.h"
#include "common/result.h"

namespace mapindex::spritetile {

// One LZF token of 3 bytes expands to at most 264 bytes.
inline constexpr std::size_t kLzfMaxExpansion = 88;
// The default ceiling on a decompressed level.
inline constexpr std::size_t kDefaultMaxDecompressedSize = std::size_t{256} << 20;

// min(88 * input_size, max_size): no valid stream of input_size bytes can be
// larger than 88 * input_size.
std::size_t lzf_size_cap(std::size_t input_size,
                         std::size_t max_size = kDefaultMaxDecompressedSize);

// The exact decompressed size of `compressed`, found by walking its tokens
// once. Fails when the stream is empty or corrupt or its output exceeds `cap`.
Result<std::size_t> lzf_decompressed_size(Bytes compressed, std::size_t cap);

// A heap buffer that is not zeroed before being written (decompression output
// can be hundreds of MiB).
struct ByteBuffer {
  std::unique_ptr<std::uint8_t[]> bytes;
  std::size_t size = 0;

  Bytes view() const { return {bytes.get(), size}; }
  std::span<std::uint8_t> span() { return {bytes.get(), size}; }
};

// Walks the stream (lzf_decompressed_size), then decompresses it with liblzf
// into a buffer of exactly that size.
Result<ByteBuffer> lzf_decompress(Bytes compressed, std::size_t cap);

// Decodes at most out.size() bytes from the start of the stream into `out`
// and returns how many were produced: fewer when the stream ends or is
// corrupt before that (the bytes of a literal run cut by the end of the input
// are still produced). Cheap content sniffing; never reads past either span.
std::size_t lzf_decompress_prefix(Bytes compressed, std::span<std::uint8_t> out);

}  // namespace mapindex::spritetile
