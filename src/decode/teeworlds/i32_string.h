// I32String: a NUL-terminated string stored in consecutive int32s (names of
// groups, layers, envelopes). Each int is taken as 4 big-endian bytes, 128 is
// subtracted from each byte (wrapping); the last byte is a NUL terminator.
#pragma once

#include <string>

#include "decode/datafile/datafile.h"

namespace mapindex::teeworlds {

// Decodes the string stored in `ints` up to its first NUL (the last byte is
// always treated as the terminator). Bytes are kept as stored; invalid UTF-8
// is not repaired here.
std::string decode_i32_string(datafile::Int32View ints);

// The int32s that store `text` in `num_ints` ints (truncated to fit), the
// inverse of decode_i32_string.
void encode_i32_string(const std::string& text, std::int32_t* out, std::size_t num_ints);

}  // namespace mapindex::teeworlds
