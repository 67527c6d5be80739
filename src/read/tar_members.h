// The data of a plain tar file's members, read with pread straight into the
// entry's buffer instead of through libarchive: the header block and the
// data's first bytes in one read (to check the one and sniff the other),
// the rest in a second.
//
// Why: libarchive reads a tar file 64 KiB at a time into a buffer of its
// own, and archive_read_data copies each entry's data from there into ours:
// every byte crosses memory twice on the reader thread, which is serial.
// Here the kernel copies it once, into the entry's buffer, and the file
// client (read/file_client.h) keeps libarchive from reading it as well, in
// the block it reads after each skip for the next header.
//
// How, without a second tar reader to trust: libarchive still reads every
// header (names, types, sizes, pax and GNU extensions, errors) and decides
// what is a file; its tar reader has consumed exactly the member's headers
// when it returns one, so its position in the file (archive_filter_bytes(a,
// 0) of an archive read with no filter) is where the data starts. This
// class only reads data it can vouch for and answers "not mine" otherwise;
// libarchive then reads that member as before and reports whatever is wrong
// with it. So the rows are the ones libarchive's reading gives: the twin
// tests (tests/test_tar_members.cpp) compare the two.
//
// A member's data is read here only if (the caller checks the first three):
// - libarchive reads the file itself as tar (no filter such as gzip before
//   it), and the header is a regular file with no sparse map, of a declared
//   size no larger than the entry size limit;
// - the data starts on a 512-byte block and the file holds all of it and
//   the padding to its last block (a tar cut inside them is libarchive's to
//   report: its messages name what it missed);
// - the block right before the data is the member's own tar header: its
//   checksum holds (as an unsigned or a signed sum, as libarchive accepts),
//   its type is a regular file ('0', NUL or '7') and its size field, in
//   octal, is the declared size. Extension headers (pax, GNU long names)
//   come before that block, so they change nothing; a header whose size
//   another header overrides (pax "size") is libarchive's;
// - it is not itself an archive (its first bytes, sniffed as ArchiveStack
//   sniffs entries): libarchive streams that into a level of its own.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "read/byte_source.h"
#include "read/entry_buffers.h"

namespace mapindex::read {

class TarMembers {
 public:
  static constexpr std::uint64_t kBlock = 512;

  // The tar file at `path` (`size` bytes) opened for reading; null when it
  // cannot be opened (libarchive reads it all).
  static std::unique_ptr<TarMembers> open(const std::filesystem::path& path, std::uint64_t size);

  // The data of the member whose header libarchive has just given: `size`
  // bytes at `offset`, in `out` (taken from `pool`, given back to it on
  // failure), or false when any rule above does not hold or the file
  // cannot be read there: then `out` is empty and libarchive reads it.
  bool read(std::uint64_t offset, std::uint64_t size, EntryBuffers& pool,
            std::vector<std::uint8_t>& out) const;

 private:
  TarMembers() = default;
  Fd fd_;
  std::uint64_t size_ = 0;
};

// Whether `block` (kBlock bytes) is the tar header of a regular file of
// `size` bytes, by the rules above.
bool is_regular_file_header(const std::uint8_t* block, std::uint64_t size);

}  // namespace mapindex::read
