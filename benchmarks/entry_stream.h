// Streams the regular-file entries of an archive (any format and filter
// libarchive reads) one at a time into a reused buffer: what every indexer
// must do at the least. No nesting, no folders: the benchmark inputs are
// plain archives.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"

namespace mapindex::bench {

struct StreamTotals {
  std::uint64_t entries = 0;  // regular files read
  std::uint64_t bytes = 0;    // their uncompressed bytes
};

// Calls `on_entry(path, bytes)` for every regular file of the archive at
// `archive_path`, in archive order. The bytes are only valid during the call.
// Errors: the archive cannot be opened or an entry cannot be read.
Result<StreamTotals> for_each_entry(const std::string& archive_path,
                                    const std::function<void(const std::string&, Bytes)>& on_entry);

}  // namespace mapindex::bench
