#include "decode/spritetile/lzf_stream.h"

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

// One token of the stream, read by the one token walk both the size walk and
// the prefix decoder use.
struct Token {
  enum class Kind {
    literal,         // `length` bytes from input offset `data_at`
    back_reference,  // `length` bytes from `distance` bytes back in the output
    cut_literal,     // a literal run whose bytes run past the input's end
    cut_length,      // the back reference's length byte is missing
    cut_distance,    // the back reference's distance byte is missing
  } kind;
  std::size_t length = 0;
  std::size_t distance = 0;
  std::size_t data_at = 0;
};

// Reads the token at in[ip] (ip < in.size()) and moves ip past it (to the
// end of the input for a cut token).
inline Token next_token(Bytes in, std::size_t& ip) {
  const std::size_t n = in.size();
  const unsigned ctrl = in[ip++];
  if (ctrl < 32) {
    Token t{Token::Kind::literal, ctrl + 1u, 0, ip};
    if (t.length > n - ip) {
      t.kind = Token::Kind::cut_literal;
      ip = n;
    } else {
      ip += t.length;
    }
    return t;
  }
  std::size_t length = ctrl >> 5;
  if (length == 7) {
    if (ip >= n) return {Token::Kind::cut_length};
    length += in[ip++];
  }
  if (ip >= n) return {Token::Kind::cut_distance};
  const std::size_t distance = ((std::size_t{ctrl} & 0x1f) << 8) + in[ip++] + 1;
  return {Token::Kind::back_reference, length + 2, distance, 0};
}

Error truncated(std::size_t token_at, std::size_t input_size, const std::string& what) {
  return Error{Code::st_lzf_truncated, "LZF token at input offset " + std::to_string(token_at) +
                                           ": " + what + " past the end of the " +
                                           std::to_string(input_size) + "-byte stream"};
}

}  // namespace

Result<std::size_t> lzf_decompressed_size(Bytes compressed, std::size_t cap) {
  const std::size_t n = compressed.size();
  if (n == 0) return Error{Code::st_lzf_empty, "the file is empty: expected an LZF stream"};

  std::size_t ip = 0;
  std::size_t out = 0;
  while (ip < n) {
    const std::size_t token_at = ip;
    const Token t = next_token(compressed, ip);
    switch (t.kind) {
      case Token::Kind::cut_literal:
        return truncated(token_at, n, "literal run of " + std::to_string(t.length) + " bytes runs");
      case Token::Kind::cut_length:
        return truncated(token_at, n, "the back reference length byte is");
      case Token::Kind::cut_distance:
        return truncated(token_at, n, "the back reference distance byte is");
      case Token::Kind::back_reference:
        if (t.distance > out) {
          return Error{Code::st_lzf_backref,
                       "LZF token at input offset " + std::to_string(token_at) +
                           ": back reference " + std::to_string(t.distance) +
                           " bytes back from output offset " + std::to_string(out) +
                           " points before the start of the output"};
        }
        break;
      case Token::Kind::literal: break;
    }
    out += t.length;
    if (out > cap) {
      return Error{Code::st_lzf_cap, "LZF stream decompresses to more than the limit of " +
                                         std::to_string(cap) + " bytes (" + std::to_string(n) +
                                         "-byte input)"};
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
  const unsigned got = ::lzf_decompress(compressed.data(), static_cast<unsigned>(compressed.size()),
                                        buffer.bytes.get(), static_cast<unsigned>(buffer.size));
  if (got != buffer.size) {
    return Error{Code::st_lzf_failed, "liblzf produced " + std::to_string(got) +
                                          " bytes, expected " + std::to_string(buffer.size)};
  }
  return buffer;
}

std::size_t lzf_decompress_prefix(Bytes compressed, std::span<std::uint8_t> out) {
  const std::size_t n = compressed.size();
  const std::size_t want = out.size();
  std::size_t ip = 0;
  std::size_t op = 0;
  while (ip < n && op < want) {
    const Token t = next_token(compressed, ip);
    switch (t.kind) {
      case Token::Kind::literal:
      case Token::Kind::cut_literal: {
        // A literal run cut by the end of the input still yields what is there.
        const std::size_t take = std::min({t.length, n - t.data_at, want - op});
        std::copy_n(compressed.data() + t.data_at, take, out.data() + op);
        op += take;
        if (t.kind == Token::Kind::cut_literal) return op;
        break;
      }
      case Token::Kind::back_reference:
        if (t.distance > op) return op;  // corrupt
        // Byte by byte: the source may overlap the destination.
        for (std::size_t k = 0; k < t.length && op < want; ++k, ++op)
          out[op] = out[op - t.distance];
        break;
      case Token::Kind::cut_length:
      case Token::Kind::cut_distance: return op;
    }
  }
  return op;
}

}  // namespace mapindex::spritetile
