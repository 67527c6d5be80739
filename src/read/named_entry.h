// One map named the way a user names it on the command line: a file, "-"
// for standard input, or an entry of an archive as ARCHIVE::path/in/archive
// (nested archives as "outer.zip::inner.zip/maps/a.map", the reader's entry
// paths). The archive is streamed through SourceReader until the entry comes;
// nothing is extracted. `mapindex render` and the site read maps this way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"

namespace mapindex::read {

// The entry's bytes, or Code::render_input with a message naming `name` and
// what is wrong: no such file, an archive or folder given without an entry,
// no such entry, over `max_size` bytes, or the reader's own error.
Result<std::vector<std::uint8_t>> read_named_entry(const std::string& name, std::uint64_t max_size);

}  // namespace mapindex::read
