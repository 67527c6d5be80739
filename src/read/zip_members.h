// The members of a zip file, read without libarchive's inflater.
//
// Why: libarchive inflates zip members with zlib, on the reader thread, 256
// KiB at a time, a large share of a zip run's CPU; libdeflate inflates a
// whole member in less than half the time.
//
// How, without a second zip reader to trust: libarchive still reads the
// archive. Its headers give every entry's name, type, size and errors, and
// they decide what is a file. This class only reads the data of members it
// can vouch for, checking them against the central directory, and answers
// "not mine" for anything else; libarchive then reads that member's data
// itself, as before, and reports whatever is wrong with it. So the rows of
// an archive are the ones libarchive's reading would give: the twin tests
// (tests/test_zip_members.cpp) compare the two on real and damaged zips.
//
// What libarchive's seekable zip reader (3.6.2; a zip file opened with a
// seek callback, as read/file_client.h gives) does, checked against it, and
// this class relies on:
// - it looks for the end of central directory record from the end of the
//   file backwards, in the last 16 KiB only, starting 22 bytes before the
//   end and stopping before that window's first byte; it takes the first
//   "PK\5\6" it meets, and if that is not sane (disk numbers, directory
//   past it) it reads the file as a stream, by its local headers. A zip64
//   end locator ("PK\6\7") 20 bytes before it gives the directory's offset
//   instead. Offsets are corrected for data before the first member;
// - through a filter (a gzip-compressed zip) it cannot seek: it streams;
// - it gives the directory's entries in the order of their local header
//   offsets, not the directory's; of two entries at one offset it keeps the
//   first; it gives nothing that is not in the directory;
// - for each entry it reads the local header and takes from it the name,
//   the flags (encryption too), the method, and the CRC-32 and sizes where
//   they are not 0 (the directory's where they are); extra fields in it may
//   give other sizes (zip64), another name (Info-ZIP Unicode path) or
//   encryption (WinZip AES);
// - the data starts after the local header's name and extra fields, and it
//   inflates at most the compressed size; a data descriptor (bit 3) is not
//   read at all;
// - ends that are not exactly right (input left over, another size, another
//   CRC-32) are warnings or errors on the entry.
//
// Which members are taken (the rest is libarchive's):
// - libarchive reads the file itself (no filter), and the "PK\5\6" its
//   search finds, as above, is an end record whose comment reaches exactly
//   to the end of the file, on disk 0, not zip64 and with no zip64 locator
//   before it, whose directory (at most 16 MiB) ends right before it (so no
//   offsets to correct) and tiles its size with exactly the records it
//   counts, at distinct offsets;
// - members are matched to libarchive's headers in offset order; each
//   header's raw name must be the member's, else the rest of the file is
//   libarchive's; a regular file's declared size must be the member's;
// - the member is stored or deflated, not encrypted, has no zip64, AES or
//   Unicode path extra field and is no larger than the entry size limit,
//   and its compressed size is at most a quarter more than its size;
// - its local header agrees with the central directory: signature, flags,
//   method, name, extra fields as above, and CRC-32 and sizes 0 or the
//   directory's;
// - it is not itself an archive (its first bytes, sniffed as ArchiveStack
//   sniffs entries): libarchive streams that into a level of its own;
// - its data inflates from exactly the compressed size to exactly the size,
//   with the central directory's CRC-32.
//
// One difference is left: libdeflate reads a few deflate streams zlib
// refuses (more than 286 literal/length or 30 distance codes, the fixed
// codes' meaningless symbols 286, 287 and distances 30, 31; see
// docs/formats/datafile.md). No encoder writes them; a member crafted so,
// with the CRC-32 of what libdeflate makes of it, is read here where
// libarchive reports the zip corrupt.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "deflate/libdeflate_decompressor.h"
#include "read/byte_source.h"
#include "read/entry_buffers.h"

struct z_stream_s;
using z_stream = z_stream_s;

namespace mapindex::read {

// A member as the central directory records it.
struct ZipMember {
  std::string name;  // raw bytes
  std::uint16_t flags = 0;
  std::uint16_t method = 0;
  std::uint32_t crc32 = 0;
  std::uint64_t compressed_size = 0;
  std::uint64_t size = 0;
  std::uint64_t local_offset = 0;
  bool taken = false;  // read here if everything else agrees
};

class ZipMembers {
 public:
  // The members of the zip file at `path` (`size` bytes), or null when the
  // file's end is not one this class vouches for (libarchive reads it all).
  static std::unique_ptr<ZipMembers> open(const std::filesystem::path& path, std::uint64_t size);
  ~ZipMembers();
  ZipMembers(const ZipMembers&) = delete;
  ZipMembers& operator=(const ZipMembers&) = delete;

  // libarchive gave its next header: its raw name, declared size and whether
  // it is a regular file. The member to read here, if the header is the
  // next member's (by name) and a regular file of the member's size; null
  // otherwise: a folder, a link or another size is libarchive's, and a
  // header with another name puts every member from then on in its hands.
  const ZipMember* next(std::string_view raw_name, std::optional<std::uint64_t> declared,
                        bool regular);

  // The member's data, checked, in `out` (resized; taken from `pool`, and
  // given back to it on failure), or false when anything is not as the central directory says,
  // the data is larger than `max_size`, it is an archive (its first bytes
  // sniffed as ArchiveStack sniffs entries: libarchive streams it), or it
  // cannot be read: then `out` is empty and libarchive reads the member.
  bool read(const ZipMember& member, std::uint64_t max_size, EntryBuffers& pool,
            std::vector<std::uint8_t>& out);

  const std::vector<ZipMember>& members() const { return members_; }

 private:
  ZipMembers() = default;
  static std::unique_ptr<ZipMembers> read_directory(const std::filesystem::path& path,
                                                    std::uint64_t size);
  bool read_checked(const ZipMember& member, EntryBuffers& pool, std::vector<std::uint8_t>& out);
  bool starts_an_archive(const ZipMember& member, const std::uint8_t* data);

  Fd fd_;
  std::uint64_t directory_offset_ = 0;  // members' data ends before it
  std::vector<ZipMember> members_;
  std::size_t next_ = 0;
  bool in_step_ = true;
  std::unique_ptr<std::uint8_t[]> compressed_;
  std::size_t compressed_capacity_ = 0;
  std::unique_ptr<z_stream> prefix_stream_;       // inflates members' first bytes
  deflate::LibdeflateDecompressor decompressor_;  // inflates members' data
};

}  // namespace mapindex::read
