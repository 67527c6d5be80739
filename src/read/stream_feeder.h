// Feeds a libarchive reader from a ByteSource (standard input, or the data
// of an entry of an outer archive) without touching the disk.
//
// It first hands libarchive the bytes already taken from the source to
// recognise it (the prefix). While libarchive chooses the format it also
// keeps a copy of everything it hands over, up to a cap, so that a stream
// that turns out not to be an archive can still be delivered whole as a
// plain file: prefix + copies + the rest of the source.
#pragma once

#include <cstdint>
#include <vector>

#include "read/byte_source.h"

struct archive;

namespace mapindex::read {

class StreamFeeder {
 public:
  StreamFeeder(ByteSource& source, std::vector<std::uint8_t> prefix, std::uint64_t record_cap);

  // archive_read_open() on `a` with this feeder as its client; returns
  // libarchive's status. The feeder must outlive the archive's use.
  int open(archive* a);

  // Once the archive is open the copies are no longer needed.
  void stop_recording();

  // Whether every byte handed to libarchive so far was kept (false once
  // more than record_cap bytes were handed over).
  bool recorded_all() const { return recorded_all_; }
  std::uint64_t bytes_handed() const { return handed_; }
  // prefix + copies, in stream order (valid only if recorded_all()).
  std::vector<std::uint8_t> take_recorded();

  // Called by the libarchive read callback.
  std::int64_t feed(archive* a, const void** block);

 private:
  ByteSource& source_;
  std::vector<std::uint8_t> prefix_;
  std::size_t prefix_pos_ = 0;
  std::uint64_t record_cap_;
  bool recording_ = true;
  bool recorded_all_ = true;
  std::vector<std::uint8_t> recorded_;
  std::vector<std::uint8_t> block_;
  std::uint64_t handed_ = 0;
};

}  // namespace mapindex::read
