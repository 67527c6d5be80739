// Sequential byte streams that a libarchive reader can be fed from: a file
// descriptor (standard input, a pipe) or the data of an entry of an outer
// archive (an archive inside an archive).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/bytes.h"

struct archive;

namespace mapindex::read {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Reads up to `size` bytes; returns the count, 0 at the end, -1 on failure
  // (then error_number()/error_message() say why).
  virtual std::int64_t read(std::uint8_t* out, std::size_t size) = 0;

  bool failed() const { return failed_; }
  int error_number() const { return error_number_; }
  const std::string& error_message() const { return error_message_; }
  std::uint64_t bytes_read() const { return bytes_read_; }
  // Whether a read returned 0: the stream ended.
  bool at_end() const { return at_end_; }

  // From now on keep the last `size` bytes read (after `already`, bytes
  // read before this call): the end of a zip archive is checked there.
  void keep_tail(std::size_t size, Bytes already);
  Bytes tail() const { return tail_; }

  // From now on also add the count of bytes read to `counter` (the reader's
  // progress, for an input that is a stream).
  void count_into(std::atomic<std::uint64_t>* counter) { counter_ = counter; }

 protected:
  // Called by read() with the bytes it returns.
  void note(const std::uint8_t* data, std::size_t size);

  bool at_end_ = false;
  bool failed_ = false;
  int error_number_ = 0;
  std::string error_message_;
  std::uint64_t bytes_read_ = 0;

 private:
  std::size_t tail_size_ = 0;
  std::vector<std::uint8_t> tail_;
  std::atomic<std::uint64_t>* counter_ = nullptr;
};

// Reads a file descriptor it does not own (fd 0 for "-") or owns (a FIFO).
// A read interrupted by a signal (EINTR) fails if `stop` is set by then, so
// that Ctrl-C ends a wait on a silent pipe.
class FdSource final : public ByteSource {
 public:
  FdSource(int fd, bool owned, const std::atomic<bool>* stop = nullptr)
      : fd_(fd), owned_(owned), stop_(stop) {}
  ~FdSource() override;
  FdSource(const FdSource&) = delete;
  FdSource& operator=(const FdSource&) = delete;

  std::int64_t read(std::uint8_t* out, std::size_t size) override;

 private:
  int fd_;
  bool owned_;
  const std::atomic<bool>* stop_;
};

// The data of the current entry of an outer archive, via archive_read_data.
class EntryDataSource final : public ByteSource {
 public:
  explicit EntryDataSource(archive* outer) : outer_(outer) {}
  std::int64_t read(std::uint8_t* out, std::size_t size) override;

  // After a failure: whether the outer archive itself is unusable
  // (ARCHIVE_FATAL) or only this entry's data was bad.
  bool outer_fatal() const { return outer_fatal_; }

 private:
  archive* outer_;
  bool outer_fatal_ = false;
};

// Bytes asked of a source at a time when its length is not known.
inline constexpr std::size_t kReadChunk = 64 * 1024;
// Never reserve more for an entry on the word of its header (or a stat()).
inline constexpr std::uint64_t kMaxReserve = 1 << 20;

// Appends bytes from `source` to `out` until the end or `out` holds `limit`
// bytes. Returns false if the source failed. The first read asks for up to
// `expected` bytes in all (the size the caller reserved, e.g. the declared
// size + 1, so that one read finds the end), or up to `out`'s capacity when 0;
// then `out` grows. A reused buffer may have far more capacity than the entry
// needs: every byte asked for is zeroed first (resize), so pass `expected`.
bool read_into(ByteSource& source, std::vector<std::uint8_t>& out, std::uint64_t limit,
               std::size_t expected = 0);

// Reads and drops the rest of `source`, adding its length to `count`.
// Returns false if the source failed; stops early if `stop` is set.
bool count_rest(ByteSource& source, std::uint64_t& count, const std::atomic<bool>& stop);

// Reads exactly `n` bytes at offset `at` of `fd` (retrying short reads);
// false on an error or the end of the file first.
bool pread_all(int fd, std::uint8_t* out, std::size_t n, std::uint64_t at);

// A file descriptor closed on scope exit.
struct Fd {
  int fd = -1;
  ~Fd();
};

}  // namespace mapindex::read
