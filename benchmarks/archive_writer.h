// Writes a zip or tar archive one member at a time with libarchive, so a
// multi-gigabyte benchmark input never has to fit in memory (the test
// fixtures' write_archive takes all members at once).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "common/bytes.h"

struct archive;

namespace mapindex::bench {

class ArchiveWriter {
 public:
  // The format follows the file name: ".zip" (deflate, or stored when
  // `store` is set) or ".tar" (POSIX ustar/pax). Throws std::runtime_error
  // when the file cannot be created or the extension is neither.
  explicit ArchiveWriter(const std::string& path, bool store = false);
  ~ArchiveWriter();  // closes the archive; call close() to see errors
  ArchiveWriter(const ArchiveWriter&) = delete;
  ArchiveWriter& operator=(const ArchiveWriter&) = delete;

  // Appends a regular file. Throws std::runtime_error on write errors.
  void add(const std::string& path, Bytes bytes);
  // Finishes the archive. Throws std::runtime_error on write errors.
  void close();

  std::uint64_t members() const { return members_; }
  std::uint64_t bytes() const { return bytes_; }  // sum of member sizes

 private:
  archive* a_ = nullptr;
  std::string path_;
  std::uint64_t members_ = 0;
  std::uint64_t bytes_ = 0;
};

}  // namespace mapindex::bench
