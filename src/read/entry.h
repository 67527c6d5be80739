// What the read stage hands to the rest of the pipeline: one entry of an
// input (a file in an archive, a folder or a single file), its bytes or why
// it has none.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "read/archive_magic.h"
#include "read/entry_bytes.h"

namespace mapindex::read {

struct ReadOptions {
  std::uint64_t max_entry_size = 64ull << 20;  // larger entries are not read: ReadOutcome::oversize
  int max_nesting = 4;  // archives inside archives followed by content (0: none followed)
  // Zip files' members read and inflated by ZipMembers where it vouches for
  // them (zip_members.h); false: libarchive reads every member (tests
  // compare the two).
  bool zip_members = true;
  // Plain tar files' members read with pread by TarMembers where it vouches
  // for them (tar_members.h); false: libarchive reads every member.
  bool tar_members = true;
};

// What reading an entry gave (the index's kind of an entry, map or not,
// comes later: index::EntryKind). file: bytes read. oversize: larger than
// max_entry_size, not read. error: the entry or input could not be read (or
// gave nothing: read.empty). not_read: an entry with no content to read,
// recorded so that every entry is accounted for; `error` says what it is (a
// warning): "read.not_regular" (a symbolic or hard link, a device, a FIFO, a
// socket, a folder loop) or "read.empty" (an archive inside an archive with
// no entries).
enum class ReadOutcome { file, oversize, error, not_read };

// What an input is, as the reader found when it opened it. archive: a file
// or a stream (a FIFO) that libarchive opens as an archive, or that starts
// like one and is damaged; file: one that is read as a single plain file
// (also an empty one); folder; standard_input: "-", an archive or a plain
// file streamed on fd 0; unreadable: an input that cannot be opened at all
// (missing, no permission).
enum class SourceKind { archive, file, folder, standard_input, unreadable };

struct Source {
  std::string input;  // as given
  SourceKind kind = SourceKind::file;
  ArchiveMagic format = ArchiveMagic::none;  // for archives: by their first bytes
};

struct Entry {
  std::string source;  // the input as given: archive path, folder, file, or "-"
  // Path inside the source. Nested archives join with "/" after the inner
  // archive's path ("packs/inner.zip/maps/a.map"); files in a folder are
  // relative to it ("sub/a.map"); a single file input is its file name; a
  // plain (non-archive) standard input is "-". For errors reading an
  // archive's next header: the archive's own path ("" for the input itself).
  std::string path;
  std::uint64_t size = 0;  // bytes; for oversize the declared or counted size
  ReadOutcome kind = ReadOutcome::file;
  EntryBytes bytes;  // only for ReadOutcome::file
  // For ReadOutcome::error and not_read. Codes: "read.io" (cannot open or read
  // the input), "read.truncated", "read.corrupt", "read.encrypted",
  // "read.empty" (an input that gives no entries: 0 bytes, an archive with
  // no entries, a folder with no files; as not_read: such an inner archive),
  // "read.not_regular" (not_read only),
  // "read.nesting" (archive nested deeper than max_nesting, not followed),
  // "read.oversize_archive" (a 7-Zip archive that must be held in memory to
  // be read, larger than max_entry_size). The message names source, entry
  // and libarchive's reason.
  Error error;

  bool operator==(const Entry&) const = default;
};

struct ReadProgress {
  std::uint64_t input_bytes_total = 0;  // sum of input file sizes; 0 if unknown (stdin, pipes)
  std::uint64_t input_bytes_done = 0;   // bytes of the inputs consumed so far
  std::uint64_t entries = 0;            // entries returned by next() so far
  std::uint64_t zip_members = 0;        // of them, zip members read by ZipMembers (zip_members.h)
  std::uint64_t tar_members = 0;        // and tar members read by TarMembers (tar_members.h)
};

}  // namespace mapindex::read
