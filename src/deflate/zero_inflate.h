// A deflate decoder (RFC 1951) that inflates onto output which is already
// zero and writes only the bytes that are not: for tile data, which is mostly
// air. Why, what it accepts and how it is tested: README.md in this folder.
#pragma once

#include <cstddef>
#include <memory>

#include "common/bytes.h"
#include "deflate/inflate.h"
#include "tiledata/zeroed_buffer.h"

namespace mapindex::deflate {

struct RawInflateOutcome {
  InflateStatus status = InflateStatus::corrupt;
  std::size_t produced = 0;  // bytes of output (ok and too_short)
  std::size_t used = 0;      // bytes of `deflate` the stream took (ok and too_short)
};

struct Tables;

// The tables of a dynamic block's codes (57 KB), which every stream of dynamic
// blocks fills: kept by their owner (deflate::InflateWorkspace) from stream to
// stream instead of allocated for each. One stream at a time.
class ZeroInflateTables {
 public:
  ZeroInflateTables();
  ~ZeroInflateTables();
  ZeroInflateTables(const ZeroInflateTables&) = delete;
  ZeroInflateTables& operator=(const ZeroInflateTables&) = delete;
  Tables& get() { return *tables_; }

 private:
  std::unique_ptr<Tables> tables_;
};

// Inflates the raw deflate stream `deflate` into `out`, as zlib's inflate
// reads it. Afterwards the output is there and every chunk of out.buffer()
// holding a byte other than zero is marked. Statuses as inflate_zlib's: ok
// (exactly out.size() bytes), too_short, too_long (the stream holds more than
// out.size() bytes; the symbols before the one that did not fit are written),
// corrupt. `tables` is the decoder's state while it runs.
RawInflateOutcome inflate_onto_zeros(Bytes deflate, tiledata::ZeroedSpan out,
                                     ZeroInflateTables& tables);

}  // namespace mapindex::deflate
