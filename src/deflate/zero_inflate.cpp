#include "deflate/zero_inflate.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>

#include "common/bytes.h"
#include "deflate/huffman_table.h"

namespace mapindex::deflate {
namespace {

// --- Copies --------------------------------------------------------------------

// The first and the last K bytes of `n` (K <= n <= 2K) copied with two loads
// and two stores, which overlap each other when n < 2K.
template <std::size_t K>
inline void copy_ends(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) {
  std::uint8_t head[K], tail[K];
  std::memcpy(head, src, K);
  std::memcpy(tail, src + n - K, K);
  std::memcpy(dst, head, K);
  std::memcpy(dst + n - K, tail, K);
}

// memcpy of `n` bytes that do not overlap; most copies are short (3 to 32
// bytes), inline instead of a call.
inline void copy_apart(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) {
  if (n >= 16 && n <= 32)
    copy_ends<16>(dst, src, n);
  else if (n >= 8 && n < 16)
    copy_ends<8>(dst, src, n);
  else if (n >= 4 && n < 8)
    copy_ends<4>(dst, src, n);
  else
    std::memcpy(dst, src, n);
}

// Whether the `n` bytes at `p` are all zero.
inline bool all_zero(const std::uint8_t* p, std::size_t n) {
  std::uint64_t any = 0;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    any |= load_host_u64(p + i);
    if (any != 0) return false;
  }
  for (; i < n; ++i) any |= p[i];
  return any == 0;
}

// Repeats of a match's bits taken at once: for a match of k bits (1 to
// kMaxRepeatBits: at least two fit in 56), kRepeatUnit[k] has a 1 at bits 0,
// k, 2k, ... for the 56 / k repeats, so that `bits * kRepeatUnit[k]` is
// those bits that many times.
constexpr unsigned kMaxRepeatBits = 28;
constexpr std::array<std::uint64_t, kMaxRepeatBits + 1> repeat_units() {
  std::array<std::uint64_t, kMaxRepeatBits + 1> u{};
  for (unsigned k = 1; k <= kMaxRepeatBits; ++k)
    for (unsigned i = 0; i < 56 / k; ++i) u[k] |= std::uint64_t{1} << (i * k);
  return u;
}
constexpr auto kRepeatUnit = repeat_units();

// --- The decoder ---------------------------------------------------------------

// The input, read a bit at a time from the low end of a 64-bit buffer.
struct BitReader {
  const std::uint8_t* begin;
  const std::uint8_t* in;
  const std::uint8_t* end;
  std::size_t overrun = 0;  // zero bytes read past `end`
  std::uint64_t bits = 0;   // the next `nbits` bits of input, from bit 0
  unsigned nbits = 0;

  // At least 56 bits in the buffer: past the end of the input they are zero
  // (counted in `overrun`). False once more than 8 such bytes were needed:
  // the buffer holds 8 bytes, so at least one of them was taken as input.
  bool refill() {
    if (end - in >= 8) {
      bits |= load_le_u64(in) << nbits;
      const unsigned bytes = (63 - nbits) >> 3;
      in += bytes;
      nbits += 8 * bytes;
      return true;
    }
    while (nbits <= 56) {
      if (in < end)
        bits |= std::uint64_t{*in++} << nbits;
      else if (++overrun > 8)
        return false;
      nbits += 8;
    }
    return true;
  }
  void consume(unsigned n) {
    bits >>= n;
    nbits -= n;
  }
  unsigned take(unsigned n) {
    const auto v = static_cast<unsigned>(bits & ((std::uint64_t{1} << n) - 1));
    consume(n);
    return v;
  }
  // Bits taken from the input so far, counting those past its end.
  std::size_t consumed_bits() const {
    return 8 * (static_cast<std::size_t>(in - begin) + overrun) - nbits;
  }
  // Whether bits past the end of the input were taken: the stream was cut
  // short.
  bool overran() const { return consumed_bits() > 8 * static_cast<std::size_t>(end - begin); }
  // Bytes read so far, counting those past the end and not those still in
  // the buffer whole.
  std::size_t position() const {
    return static_cast<std::size_t>(in - begin) + overrun - nbits / 8;
  }
  // Reading goes on at byte `at` of the input, with nothing buffered.
  void restart_at(std::size_t at) {
    in = begin + at;
    overrun = 0;
    bits = 0;
    nbits = 0;
  }
  // The entry of `table` (primary index `bits` wide) for the next code, its
  // bits consumed.
  std::uint32_t decode(const std::uint32_t* table, unsigned table_bits) {
    std::uint32_t e = table[bits & ((1u << table_bits) - 1)];
    if (kind_of(e) == kLink) {
      consume(table_bits);
      e = table[value_of(e) + (bits & ((1u << extra_of(e)) - 1))];
    }
    consume(length_of(e));
    return e;
  }
};

class Decoder {
 public:
  Decoder(Bytes in, const tiledata::ZeroedSpan& out, Tables& tables)
      : r_{in.data(), in.data(), in.data() + in.size()},
        buffer_(out.buffer()),
        out_(out.data()),
        size_(out.size()),
        dynamic_(tables) {}

  RawInflateOutcome run() {
    bool last = false;
    while (!last) {
      if (!r_.refill()) return fail(InflateStatus::corrupt);
      last = (r_.bits & 1u) != 0;
      const unsigned type = (r_.bits >> 1) & 3u;
      r_.consume(3);
      InflateStatus s = InflateStatus::ok;
      switch (type) {
        case 0: s = stored(); break;
        case 1: s = huffman(fixed_tables()); break;
        case 2: s = dynamic(); break;
        default: s = InflateStatus::corrupt; break;
      }
      if (s != InflateStatus::ok) return fail(s);
    }
    if (r_.overran()) return fail(InflateStatus::corrupt);
    RawInflateOutcome out;
    out.status = pos_ == size_ ? InflateStatus::ok : InflateStatus::too_short;
    out.produced = pos_;
    // Counting the bits of its last byte that follow its end.
    out.used = (r_.consumed_bits() + 7) / 8;
    return out;
  }

 private:
  RawInflateOutcome fail(InflateStatus s) const {
    RawInflateOutcome out;
    // Output beyond `size` decoded from bits past the end of the input is a
    // stream cut short (zlib: a buffer error), not one that is too long.
    if (s == InflateStatus::too_long && r_.overran()) s = InflateStatus::corrupt;
    out.status = s;
    out.produced = s == InflateStatus::too_long ? size_ : 0;
    return out;
  }

  InflateStatus stored() {
    r_.consume(r_.nbits & 7u);  // to the byte boundary
    if (!r_.refill()) return InflateStatus::corrupt;
    const unsigned len = r_.take(16), nlen = r_.take(16);
    if (len != (~nlen & 0xffffu)) return InflateStatus::corrupt;
    // The bytes still in the bit buffer come first: go back to them.
    const std::size_t at = r_.position();
    const auto available = static_cast<std::size_t>(r_.end - r_.begin);
    if (at > available || len > available - at) return InflateStatus::corrupt;
    if (len > size_ - pos_) return InflateStatus::too_long;
    if (len != 0) {
      std::memcpy(out_ + pos_, r_.begin + at, len);
      buffer_.mark(pos_, len);
      pos_ += len;
      zero_from_ = pos_;
    }
    r_.restart_at(at + len);
    return InflateStatus::ok;
  }

  InflateStatus dynamic() {
    if (!r_.refill()) return InflateStatus::corrupt;
    const unsigned nlit = r_.take(5) + 257, ndist = r_.take(5) + 1, nprecode = r_.take(4) + 4;
    if (nlit > 286 || ndist > 30) return InflateStatus::corrupt;
    static constexpr std::array<std::uint8_t, kNumPrecode> kOrder = {
        16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    std::array<std::uint8_t, kNumPrecode> precode_lengths{};
    PrecodeTable precode;
    for (unsigned i = 0; i < nprecode; ++i) {
      if (r_.nbits < 3 && !r_.refill()) return InflateStatus::corrupt;
      precode_lengths[kOrder[i]] = static_cast<std::uint8_t>(r_.take(3));
    }
    if (!build_precode(precode_lengths, precode)) return InflateStatus::corrupt;

    std::array<std::uint8_t, 286 + 30> lengths{};
    const unsigned total = nlit + ndist;
    for (unsigned i = 0; i < total;) {
      if (!r_.refill()) return InflateStatus::corrupt;
      const std::uint32_t e = r_.decode(precode.data(), kPrecodeBits);
      if (kind_of(e) == kInvalid) return InflateStatus::corrupt;
      const unsigned sym = value_of(e);
      if (sym < 16) {
        lengths[i++] = static_cast<std::uint8_t>(sym);
        continue;
      }
      std::uint8_t value = 0;
      unsigned repeat = 0;
      if (sym == 16) {
        if (i == 0) return InflateStatus::corrupt;  // nothing to repeat
        value = lengths[i - 1];
        repeat = 3 + r_.take(2);
      } else if (sym == 17) {
        repeat = 3 + r_.take(3);
      } else {
        repeat = 11 + r_.take(7);
      }
      if (repeat > total - i) return InflateStatus::corrupt;
      std::fill_n(lengths.begin() + i, repeat, value);
      i += repeat;
    }
    if (lengths[256] == 0) return InflateStatus::corrupt;  // no end of block
    if (!build_dynamic(lengths.data(), nlit, lengths.data() + nlit, ndist, dynamic_))
      return InflateStatus::corrupt;
    return huffman(dynamic_);
  }

  // One block's symbols up to its end of block.
  InflateStatus huffman(const Tables& t) {
    const std::uint32_t* lit = t.lit.data();
    const std::uint32_t* dist = t.dist.data();
    std::uint8_t* const out = out_;
    const std::size_t size = size_;
    std::size_t pos = pos_;
    BitReader r = r_;                    // a copy the compiler keeps in registers
    std::size_t zero_from = zero_from_;  // out[zero_from, pos) is zero
    InflateStatus status = InflateStatus::ok;
    for (;;) {
      // A symbol takes at most 15 + 5 + 15 + 13 = 48 bits of the 56.
      if (!r.refill()) {
        status = InflateStatus::corrupt;
        break;
      }
      const std::uint64_t before = r.bits;
      const unsigned available = r.nbits;
      const std::uint32_t e = r.decode(lit, kLitBits);
      const unsigned kind = kind_of(e);
      if (kind == kLiteral) {
        if (pos == size) {
          status = InflateStatus::too_long;
          break;
        }
        const auto byte = static_cast<std::uint8_t>(value_of(e));
        if (byte != 0) {
          out[pos] = byte;
          buffer_.mark(pos);
          zero_from = pos + 1;
        }
        ++pos;
        continue;
      }
      if (kind != kBase) {
        if (kind != kEndOfBlock) status = InflateStatus::corrupt;
        break;
      }
      const std::size_t len = value_of(e) + r.take(extra_of(e));
      const std::uint32_t d = r.decode(dist, kDistBits);
      if (kind_of(d) != kBase) {
        status = InflateStatus::corrupt;
        break;
      }
      const std::size_t distance = value_of(d) + r.take(extra_of(d));
      if (distance > pos) {
        status = InflateStatus::corrupt;
        break;
      }
      if (len > size - pos) {
        status = InflateStatus::too_long;
        break;
      }
      // Copies from the zeros that end the output so far need no look.
      if (pos - distance < zero_from) {
        if (copy(out, pos, distance, len)) zero_from = pos + len;
        pos += len;
        continue;
      }
      pos += len;
      // A run of air is the same match again and again (most often 258
      // bytes at distance 1): while the next bits are this match's bits
      // again, each is more zeros, without decoding it.
      const unsigned k = available - r.nbits;
      const std::uint64_t mask = (std::uint64_t{1} << k) - 1, same = before & mask;
      const auto one_more = [&] {
        if (r.nbits < k && !r.refill()) return false;
        if ((r.bits & mask) != same || len > size - pos) return false;
        r.consume(k);
        pos += len;
        return true;
      };
      // Most runs end within a repeat or two. Past two, a run goes on for
      // tens to thousands of repeats (most of the repeats are in those):
      // they are taken several at a time, as many as 56 bits hold, and what
      // is left one at a time. A refill there asks for no more than the
      // next symbol's would.
      if (!one_more() || !one_more()) continue;
      if (k <= kMaxRepeatBits) {
        const unsigned reps = 56 / k, bits = reps * k;
        const std::uint64_t many = same * kRepeatUnit[k];
        const std::uint64_t many_mask = (std::uint64_t{1} << bits) - 1;
        const std::size_t many_len = len * reps;
        for (;;) {
          if (r.nbits < bits && !r.refill()) break;
          if ((r.bits & many_mask) != many || many_len > size - pos) break;
          r.consume(bits);
          pos += many_len;
        }
      }
      while (one_more()) {
      }
    }
    pos_ = pos;
    // Field by field: as one struct, GCC builds the copy on the stack and
    // reads it back in 16-byte loads that the CPU cannot forward from the
    // 8-byte stores just before them, once per block.
    r_.in = r.in;
    r_.overrun = r.overrun;
    r_.bits = r.bits;
    r_.nbits = r.nbits;
    zero_from_ = zero_from;
    return status;
  }

  // The `len` bytes at `pos` are those `distance` bytes before, repeating
  // when distance < len. What is there is zero: a copy of zeros is skipped.
  // Whether it wrote.
  bool copy(std::uint8_t* out, std::size_t pos, std::size_t distance, std::size_t len) {
    std::uint8_t* dst = out + pos;
    const std::uint8_t* src = dst - distance;
    if (distance == 1) {
      if (*src == 0) return false;
      std::memset(dst, *src, len);
    } else if (distance >= len) {
      if (all_zero(src, len)) return false;
      copy_apart(dst, src, len);
    } else {
      if (all_zero(src, distance)) return false;
      // Periodic with period `distance`, so with any multiple of it: copy
      // from `step` bytes back, doubling the step while it is small.
      std::size_t step = distance, done = 0;
      while (done < len) {
        const std::size_t n = std::min(step, len - done);
        copy_apart(dst + done, dst + done - step, n);
        done += n;
        if (step < 256) step *= 2;
      }
    }
    buffer_.mark(pos, len);
    return true;
  }

  BitReader r_;
  tiledata::ZeroedBuffer& buffer_;
  std::uint8_t* const out_;
  const std::size_t size_;
  std::size_t pos_ = 0;
  std::size_t zero_from_ = 0;
  Tables& dynamic_;
};

}  // namespace

ZeroInflateTables::ZeroInflateTables() : tables_(std::make_unique<Tables>()) {}
ZeroInflateTables::~ZeroInflateTables() = default;

RawInflateOutcome inflate_onto_zeros(Bytes deflate, tiledata::ZeroedSpan out,
                                     ZeroInflateTables& tables) {
  Decoder decoder(deflate, out, tables.get());
  return decoder.run();
}

}  // namespace mapindex::deflate
