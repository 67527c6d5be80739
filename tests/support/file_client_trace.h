// What libarchive says while reading a file to its end, through its own file
// reader or through mapindex's (read/file_client.h): for the tests and the
// archive fuzz target that compare the two.
#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "read/file_client.h"

namespace mapindex::testing {

// What a reader does with each entry's data: reads it all, skips it, or
// reads its first 100 bytes and skips the rest.
enum class TraceData { read, skip, part };

// Everything libarchive says while reading `path` to its end (at most 10,000
// headers): each call's result and error, each header's fields and its
// position in the file, and the bytes it gives (up to `max_bytes` an entry,
// then the rest is skipped). Through open_file_client when `client` (adding
// to `counts`, if given), else archive_read_open_filename.
std::vector<std::string> file_client_trace(
    const std::filesystem::path& path, bool client, TraceData data,
    read::FileClientCounts* counts = nullptr,
    std::uint64_t max_bytes = std::numeric_limits<std::uint64_t>::max());

// The first difference between the two readers' traces of `path`, read
// each of the three ways, or "". With `client_read`, also the client's trace
// of reading every entry whole (TraceData::read), which it made on the way.
std::string file_client_difference(
    const std::filesystem::path& path,
    std::uint64_t max_bytes = std::numeric_limits<std::uint64_t>::max(),
    std::vector<std::string>* client_read = nullptr);

}  // namespace mapindex::testing
