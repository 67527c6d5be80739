// Thin helpers over libarchive's reader: an owning handle configured for
// every format and the library-backed filters, and stable error codes for
// libarchive's failures.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "common/problem_codes.h"

struct archive;

namespace mapindex::read {

struct ArchiveReadFree {
  void operator()(archive* a) const;
};
using ArchiveHandle = std::unique_ptr<archive, ArchiveReadFree>;

// A reader for the archive formats that hold map packs: zip, tar (ustar,
// pax, GNU, v7), 7z, rar and rar5, each bare or (tar) through the filters
// libarchive decodes in-process: gzip, bzip2, xz, lzma, lzip, zstd, lz4 and
// compress (.Z). Other formats (mtree, cpio, iso9660, ar, ...) are not
// read: their files are plain entries. Filters that libarchive runs as
// external programs (lrzip, lzop, grzip) are left out: no child processes
// from a multi-threaded indexer fed with untrusted input.
ArchiveHandle new_archive_reader();

// Sets the process's LC_CTYPE to C.UTF-8 (once; call it before any thread
// starts, as main() does). libarchive converts names between an archive's
// charset and the locale's: a zip member whose name is flagged UTF-8 is
// converted to the locale's charset, and in the C locale a program starts
// in, a name with any byte outside ASCII ("café.map") failed to convert and
// the entry had no name. Inside mapindex names are UTF-8, whatever locale
// the user runs it in.
void use_utf8_names();

// libarchive's error string for the last failure, or a placeholder.
std::string archive_reason(archive* a);
// Whether libarchive said why its last call failed (else archive_reason()
// is the placeholder).
bool has_reason(archive* a);

// libarchive's message when no format (or filter + format) matches a stream.
bool is_unrecognized_format(std::string_view reason);

// "read.truncated", "read.io" or "read.corrupt" from libarchive's errno and
// message (libarchive has no finer typed errors).
Code classify_read_error(int error_number, std::string_view reason);

}  // namespace mapindex::read
