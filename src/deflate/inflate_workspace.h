// What inflating needs besides its input and output: libdeflate's
// decompressor and zero_inflate's tables, made once by their owner and kept
// from stream to stream (a data item's inflating costs less than making
// them). The owner decides how long: an index run keeps one per decode slot
// (in extract's MeasureWorkspace), a Datafile given none makes its own. One
// thread at a time.
#pragma once

#include "deflate/libdeflate_decompressor.h"
#include "deflate/zero_inflate.h"

namespace mapindex::deflate {

struct InflateWorkspace {
  LibdeflateDecompressor libdeflate;
  ZeroInflateTables zero_tables;
};

}  // namespace mapindex::deflate
