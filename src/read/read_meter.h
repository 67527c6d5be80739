// The reader's progress, kept in one place: input bytes done, entries
// delivered. Bytes of an input that is a stream (standard input, a FIFO) are
// counted as they are read (ByteSource::count_into); a file (an input or a
// file in a folder) counts as a whole once the reader has moved past it, and
// while libarchive reads it, up to where libarchive got.
//
// Written by the reading thread; snapshot() may be called from any thread.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>

#include "read/entry.h"

namespace mapindex::read {

class ReadMeter {
 public:
  void set_total(std::uint64_t bytes) { total_.store(bytes); }

  // Given to the ByteSource of an input that is a stream.
  std::atomic<std::uint64_t>* stream_counter() { return &stream_bytes_; }

  // The reader starts on a file of `size` bytes: the file before it is done.
  void begin_file(std::uint64_t size) {
    files_done_ += file_size_;
    file_size_ = size;
  }

  // After each step of the reader: `position` is how far libarchive got in
  // the current file while it is reading it (nullopt: the file is done, or
  // there is none).
  void update(std::optional<std::uint64_t> position) {
    const std::uint64_t in_file = position ? std::min(*position, file_size_) : file_size_;
    done_.store(stream_bytes_.load() + files_done_ + in_file);
  }

  void count_entry() { entries_.fetch_add(1); }
  // A zip member whose data ZipMembers read (not libarchive).
  void count_zip_member() { zip_members_.fetch_add(1); }
  // A tar member whose data TarMembers read (not libarchive).
  void count_tar_member() { tar_members_.fetch_add(1); }
  std::uint64_t entries() const { return entries_.load(); }

  ReadProgress snapshot() const {
    return ReadProgress{total_.load(), done_.load(), entries_.load(), zip_members_.load(),
                        tar_members_.load()};
  }

 private:
  std::atomic<std::uint64_t> total_{0};
  std::atomic<std::uint64_t> done_{0};
  std::atomic<std::uint64_t> entries_{0};
  std::atomic<std::uint64_t> stream_bytes_{0};
  std::atomic<std::uint64_t> zip_members_{0};
  std::atomic<std::uint64_t> tar_members_{0};
  std::uint64_t files_done_ = 0;  // bytes of the files the reader has moved past
  std::uint64_t file_size_ = 0;   // the file it is on
};

}  // namespace mapindex::read
