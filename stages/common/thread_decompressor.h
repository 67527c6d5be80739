// One libdeflate decompressor per thread: allocating one costs more than
// inflating a small data item. Shared by the reader (zip members) and the
// decoder (datafile items).
#pragma once

struct libdeflate_decompressor;

namespace mapindex {

// This thread's decompressor; throws std::bad_alloc if none can be made.
libdeflate_decompressor* thread_decompressor();

}  // namespace mapindex
