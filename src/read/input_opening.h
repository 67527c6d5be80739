// Opening and telling apart the inputs of the reader: what a regular file is
// read as (decided once, by libarchive), and what an input is before it is
// read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "read/archive_magic.h"
#include "read/entry.h"
#include "read/libarchive_reader.h"

namespace mapindex::read {

// How the reader reads a regular file: as an archive libarchive opened, as
// one plain file (libarchive does not know its format, or it is empty), or
// not at all: it cannot be read (unreadable), or it starts like an archive
// that libarchive could not begin to read (damaged_archive, e.g. cut short).
struct FileOpening {
  enum class How { archive, plain, unreadable, damaged_archive };
  How how = How::plain;
  ArchiveHandle archive;      // How::archive: opened on the file
  Code code = Code::read_io;  // unreadable, damaged_archive: the read.* code
  std::string reason;         // and libarchive's reason
};
FileOpening open_regular_file(const std::filesystem::path& path, std::uint64_t size);

// The archive format a file's first bytes say (none if it cannot be read).
ArchiveMagic sniff_file(const std::filesystem::path& path);

// An input as found before it is read. A stream (a FIFO, a device) can be
// told only by reading it: `stream` is set and its kind is known once the
// reader has opened it.
struct InputSurvey {
  Source source;
  bool stream = false;
  std::optional<std::uint64_t> bytes;  // what it holds, for the progress; nullopt if unknown
};
InputSurvey survey_input(const std::string& input);

}  // namespace mapindex::read
