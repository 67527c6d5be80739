#include "stages/decode/spritetile/lzf_stream.h"

#include <lzf.h>

#include <algorithm>
#include <climits>
#include <string>

namespace mapindex::spritetile {

std::size_t lzf_size_cap(std::size_t input_size, std::size_t max_size) {
  if (input_size > max_size / kLzfMaxExpansion) return max_size;
  return std::min(input_size * kLzfMaxExpansion, max_size);
}

namespace {

Error truncated(std::size_t token_at, std::size_t input_size, const std::string& what) {
  return Error{Code::st_lzf_truncated, "LZF token at input offset " + std::to_string(token_at) +
                                       ": " + what + " past the end of the " +
                                       std::to_string(input_size) + "-byte stream"};
}

}  // namespace

Result<std::size_t> lzf_decompressed_size(Bytes compressed, std::size_t cap) {
  const std::uint8_t* in = compressed.data();
  const std::size_t n = compressed.size();
  if (n == 0) return Error{Code::st_lzf_empty, "the file is empty: expected an LZF stream"};

  std::size_t ip = 0;
  std::size_t out = 0;
  while (ip < n) {
    const std::size_t token_at = ip;
    const unsigned ctrl = in[ip++];
    std::size_t produced;
    if (ctrl < 32) {
      produced = ctrl + 1u;
      if (produced > n - ip) return truncated(token_at, n, "literal run of " + std::to_string(produced) + " bytes runs");
      ip += produced;
    } else {
      std::size_t len = ctrl >> 5;
      if (len == 7) {
        if (ip >= n) return truncated(token_at, n, "the back reference length byte is");
        len += in[ip++];
      }
      if (ip >= n) return truncated(token_at, n, "the back reference distance byte is");
      const std::size_t distance = ((std::size_t{ctrl} & 0x1f) << 8) + in[ip++] + 1;
      if (distance > out) {
        return Error{Code::st_lzf_backref,
                     "LZF token at input offset " + std::to_string(token_at) +
                         ": back reference " + std::to_string(distance) +
                         " bytes back from output offset " + std::to_string(out) +
                         " points before the start of the output"};
      }
      produced = len + 2;
    }
    out += produced;
    if (out > cap) {
      return Error{Code::st_lzf_cap, "LZF stream decompresses to more than the limit of " +
                                     std::to_string(cap) + " bytes (" +
                                     std::to_string(n) + "-byte input)"};
    }
  }
  return out;
}

Result<ByteBuffer> lzf_decompress(Bytes compressed, std::size_t cap) {
  // liblzf takes unsigned int sizes.
  cap = std::min<std::size_t>(cap, UINT_MAX);
  if (compressed.size() > UINT_MAX) {
    return Error{Code::st_lzf_cap, "LZF input of " + std::to_string(compressed.size()) +
                                   " bytes is larger than liblzf accepts"};
  }
  auto size = lzf_decompressed_size(compressed, cap);
  if (!size) return size.error();

  ByteBuffer buffer;
  buffer.size = *size;
  buffer.bytes = std::make_unique_for_overwrite<std::uint8_t[]>(buffer.size);
  const unsigned got =
      ::lzf_decompress(compressed.data(), static_cast<unsigned>(compressed.size()),
                       buffer.bytes.get(), static_cast<unsigned>(buffer.size));
  if (got != buffer.size) {
    return Error{Code::st_lzf_failed, "liblzf produced " + std::to_string(got) + " bytes, expected " +
                                      std::to_string(buffer.size)};
  }
  return buffer;
}

std::size_t lzf_decompress_prefix(Bytes compressed, std::span<std::uint8_t> out) {
  const std::uint8_t* in = compressed.data();
  const std::size_t n = compressed.size();
  const std::size_t want = out.size();
  std::size_t ip = 0;
  std::size_t op = 0;
  while (ip < n && op < want) {
    const unsigned ctrl = in[ip++];
    if (ctrl < 32) {
      const std::size_t len = ctrl + 1u;
      // A literal run cut by the end of the input still yields what is there.
      const std::size_t take = std::min({len, n - ip, want - op});
      std::copy_n(in + ip, take, out.data() + op);
      op += take;
      if (len > n - ip) return op;
      ip += len;
    } else {
      std::size_t len = ctrl >> 5;
      if (len == 7) {
        if (ip >= n) return op;
        len += in[ip++];
      }
      if (ip >= n) return op;
      const std::size_t distance = ((std::size_t{ctrl} & 0x1f) << 8) + in[ip++] + 1;
      if (distance > op) return op;  // corrupt
      len += 2;
      // Byte by byte: the source may overlap the destination.
      for (std::size_t k = 0; k < len && op < want; ++k, ++op) out[op] = out[op - distance];
    }
  }
  return op;
}

}  // namespace mapindex::spritetile
