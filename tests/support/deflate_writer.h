// Deflate streams (RFC 1951) for tests, benchmarks and fuzz seeds: as zlib
// writes them, and written bit by bit, with blocks a compressor would never
// write (each of zlib's rules broken on purpose, streams of empty or one-byte
// blocks).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace mapindex::testing {

// `data` as zlib's deflate writes it, raw (no zlib header or trailer).
std::vector<std::uint8_t> zlib_deflate_raw(const std::vector<std::uint8_t>& data, int level,
                                           int strategy, int mem_level = 8);

// Deflate's bit order: values from their lowest bit, Huffman codes from
// their highest.
class BitWriter {
 public:
  void bits(unsigned value, unsigned n) {
    for (unsigned i = 0; i < n; ++i) put((value >> i) & 1u);
  }
  void code(unsigned code, unsigned length) {
    for (unsigned i = length; i-- > 0;) put((code >> i) & 1u);
  }
  void align() {
    while (used_ % 8 != 0) put(0);
  }
  void byte(std::uint8_t b) {
    align();
    bits(b, 8);
  }
  // A block's first 3 bits: last block or not, its type.
  void block(bool last, unsigned type) {
    bits(last ? 1 : 0, 1);
    bits(type, 2);
  }
  // A stored block's header, up to its bytes (`nlen` should be ~len).
  void stored(bool last, unsigned len, unsigned nlen) {
    block(last, 0);
    align();
    bits(len, 16);
    bits(nlen & 0xffffu, 16);
  }
  std::vector<std::uint8_t> done() {
    align();
    return bytes_;
  }
  std::size_t bits_written() const { return used_; }

 private:
  void put(unsigned bit) {
    if (used_ % 8 == 0) bytes_.push_back(0);
    bytes_.back() |= static_cast<std::uint8_t>(bit << (used_ % 8));
    ++used_;
  }
  std::vector<std::uint8_t> bytes_;
  std::size_t used_ = 0;
};

// Canonical codes for `lengths` (RFC 1951 3.2.2), whatever they are
// (over-subscribed or incomplete sets get codes too: what is tested is that
// they are refused).
std::vector<unsigned> canonical_codes(const std::vector<unsigned>& lengths);

// A literal/length symbol with the fixed codes (RFC 1951 3.2.6).
void fixed_litlen(BitWriter& w, unsigned sym);

// A match (length 3-258, distance 1-32768) in a block with the fixed codes.
void fixed_match(BitWriter& w, unsigned length, unsigned distance);

// A dynamic block header for `lit` (HLIT = lit.size() - 257) and `dist`
// lengths, sent one code length per symbol (`runs`: symbols of the code
// length code, with their extra bits, sent instead when given).
struct CodeLength {
  unsigned symbol, extra = 0, extra_bits = 0;
};
void dynamic_header(BitWriter& w, bool final, const std::vector<unsigned>& lit,
                    const std::vector<unsigned>& dist, std::vector<CodeLength> runs = {});

// A dynamic block header as short as one can be: a code length code of two
// 1-bit codes (length 1, and 11-138 zeros), for literal/length and distance
// lengths that are each 0 or 1 with every run of zeros at least 11 long.
void short_dynamic_header(BitWriter& w, bool final, const std::vector<unsigned>& lit,
                          const std::vector<unsigned>& dist);

struct HuffmanCode {
  std::vector<unsigned> lengths, codes;
  explicit HuffmanCode(std::vector<unsigned> l)
      : lengths(std::move(l)), codes(canonical_codes(lengths)) {}
  void put(BitWriter& w, unsigned sym) const { w.code(codes[sym], lengths[sym]); }
};

// Streams of `blocks` blocks that each hold nothing or one byte (the last
// block final), the slowest to inflate per input byte: each block costs its
// header, and a dynamic one the building of its codes. Valid: they inflate to
// tiny_blocks_size(kind, blocks) bytes.
enum class TinyBlocks { empty_stored, empty_fixed, empty_dynamic, byte_fixed, byte_dynamic };
inline constexpr TinyBlocks kAllTinyBlocks[] = {TinyBlocks::empty_stored, TinyBlocks::empty_fixed,
                                                TinyBlocks::empty_dynamic, TinyBlocks::byte_fixed,
                                                TinyBlocks::byte_dynamic};
const char* to_string(TinyBlocks kind);
std::vector<std::uint8_t> tiny_blocks(TinyBlocks kind, std::size_t blocks);
std::size_t tiny_blocks_size(TinyBlocks kind, std::size_t blocks);
// The byte each block of the byte_* kinds holds.
inline constexpr std::uint8_t kTinyBlockByte = 'A';

}  // namespace mapindex::testing
