// Streams the entries of the inputs given on the command line: archives (any
// format and filter libarchive reads), folders (recursively, sorted), single
// files, and "-" for an archive on standard input. Archives inside archives
// are recognised by content and followed, streamed from the outer archive.
// Nothing is extracted to disk; memory holds one entry's bytes at a time plus
// libarchive's buffers (an inner 7-Zip archive, which needs random access, is
// held in memory up to max_entry_size).
//
// Pull-based and single-threaded: one thread calls next(). progress() and
// stop() may be called from any thread (stop() also from a signal handler).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "read/entry.h"

namespace mapindex::read {

class SourceReader {
 public:
  SourceReader(std::vector<std::string> inputs, ReadOptions options = {});
  ~SourceReader();
  SourceReader(SourceReader&&) noexcept;
  SourceReader& operator=(SourceReader&&) noexcept;

  // The next entry; nullopt at the end of all inputs or after stop(). Bad
  // input becomes an error Entry and reading goes on with what follows;
  // never throws (except std::bad_alloc).
  std::optional<Entry> next();

  // What each input is, in the order given, as the reader reads it (see
  // SourceKind). A stream input (a FIFO) can be told only by reading it:
  // the first call of sources() or next() opens the stream inputs and reads
  // their start (it may wait for a writer, as next() would; stop() ends that).
  const std::vector<Source>& sources();

  ReadProgress progress() const;

  // Makes next() return nullopt soon (Ctrl-C). Async-signal-safe.
  void stop();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mapindex::read
