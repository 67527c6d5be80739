// A deflate decoder (RFC 1951) that inflates onto a buffer which is already
// zero and writes only the bytes that are not: for tile data, which is mostly
// air.
//
// Why not libdeflate here: libdeflate writes every output byte. Tile layers
// compress to runs of zero bytes that deflate codes as copies of the byte
// before (distance 1, 258 bytes each, one after another with the same bits),
// and writing those runs was most of the time libdeflate spent on them. This
// decoder decodes the same symbols but writes nothing for a literal zero or a
// copy of zeros, and after a copy of zeros takes the same bits again as more
// zeros without decoding them (past two repeats, as many repeats at once as
// 56 bits hold); every chunk it writes is marked in the
// ZeroedBuffer. On the corpus's tile data it is about 2.5 times as fast as
// libdeflate. Everything else (images, sounds, strings) is still inflated by
// libdeflate.
//
// What it accepts is what zlib accepts (docs/formats/datafile.md, "Deflate,
// as zlib reads it"): the same block types, the same limits on code lengths
// (no over-subscribed code, no incomplete code but a single code of length 1
// for lengths and distances, no missing end of block), the same invalid
// symbols (literal/length 286-287, distance 30-31) and no distance before the
// start of the output. tests/test_zero_inflate.cpp compares it with zlib
// (streams zlib writes, blocks written bit by bit for each rule, damaged
// streams) and with libdeflate on every data item of the corpus; the datafile
// fuzz target compares it with zlib's uncompress().
#pragma once

#include <cstddef>

#include "stages/common/bytes.h"
#include "stages/common/zeroed_buffer.h"
#include "stages/decode/datafile/inflate.h"

namespace mapindex::datafile {

struct RawInflateOutcome {
  InflateStatus status = InflateStatus::corrupt;
  std::size_t produced = 0;  // bytes of output (ok and too_short)
  std::size_t used = 0;      // bytes of `deflate` the stream took (ok and too_short)
};

// Inflates the raw deflate stream `deflate` into the first `size` bytes of
// `buffer`, which must be as take(size) left them (all zero, no chunk marked).
// Afterwards the output is there and every chunk holding a byte other than
// zero is marked. Statuses as inflate_zlib's: ok (exactly `size` bytes),
// too_short, too_long (the stream holds more than `size` bytes; the symbols
// before the one that did not fit are written), corrupt.
RawInflateOutcome inflate_onto_zeros(Bytes deflate, ZeroedBuffer& buffer, std::size_t size);

}  // namespace mapindex::datafile
