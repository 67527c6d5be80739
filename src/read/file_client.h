// libarchive's reader of a regular file, in place of
// archive_read_open_filename, for one difference: the read right after a
// skip is short.
//
// Why: libarchive reads a regular file in blocks of at least 64 KiB (it
// raises any smaller block size it is given). After it skips a tar member's
// data it reads the next block for the next header; for a tar of small
// members that block is mostly the next member's data, which TarMembers
// then reads again, straight into the entry's buffer. So most of such an
// archive crossed memory twice on the serial reader thread. Here the first
// read after a skip takes kFileClientAfterSkipBlock bytes, enough for a
// member's headers (a pax or GNU extension header, its data and the
// member's own header), and every other read a whole kFileClientBlock: data
// libarchive reads itself still comes in large blocks, and a header longer
// than the short block only takes one more read. Zip files gain the same
// way: ZipMembers reads the members' data, libarchive skips it.
//
// Everything else is what libarchive's own reader does for a regular file:
// read() and lseek() on one descriptor, skips and seeks (zip's central
// directory) by lseek, a skip past the end of the file refused, and its
// error messages, so the reading and its errors are libarchive's
// (tests/test_file_client.cpp and the archive fuzz target compare them with
// archive_read_open_filename's).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>

struct archive;

namespace mapindex::read {

inline constexpr std::size_t kFileClientBlock = 64 * 1024;
inline constexpr std::size_t kFileClientAfterSkipBlock = 2 * 1024;

// What the client read from the file (for tests and measurements).
struct FileClientCounts {
  std::uint64_t reads = 0;
  std::uint64_t bytes = 0;
};

// Opens `a` (a reader from new_archive_reader()) on the regular file at
// `path`, as archive_read_open_filename(a, path, kFileClientBlock) would.
// `a` owns what it opened from then on, even when this fails: freeing it
// closes the file. `counts`, if given, is added to by every read until then
// and must outlive `a`. Returns archive_read_open1's result.
int open_file_client(archive* a, const std::filesystem::path& path,
                     FileClientCounts* counts = nullptr);

}  // namespace mapindex::read
