// Recognising an archive or compressed stream by its first bytes, used to
// decide whether an entry inside an archive is itself an archive to follow.
#pragma once

#include <cstddef>
#include <string_view>

#include "common/bytes.h"

namespace mapindex::read {

// One for each format and filter new_archive_reader() enables (rar covers
// rar and rar5; lzma is the bare .lzma stream).
enum class ArchiveMagic {
  none,
  zip,
  gzip,
  xz,
  zstd,
  bzip2,
  seven_zip,
  tar,
  rar,
  lz4,
  lzip,
  lzma,
  compress
};

// Bytes needed to recognise every kind (a tar header is one 512-byte block).
inline constexpr std::size_t kArchiveMagicBytes = 512;

// Looks at the first bytes of a stream (fewer than kArchiveMagicBytes only
// if the stream is shorter).
ArchiveMagic sniff_archive(Bytes prefix);

std::string_view to_string(ArchiveMagic magic);

// A zip archive ends with its end of central directory record (22 bytes and
// a comment of up to 65535): the bytes needed to find it.
inline constexpr std::size_t kZipTailBytes = 22 + 65535;

// Whether `tail`, the last bytes of a stream, holds a whole zip end of
// central directory record (its comment included). Bytes after it (zero
// padding, junk some tools append) are allowed, as unzip and libarchive
// allow them. A zip archive without one was cut short (inside or before
// its central directory).
bool has_zip_end_record(Bytes tail);

}  // namespace mapindex::read
