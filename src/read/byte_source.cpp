#include "read/byte_source.h"

#include <archive.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "read/libarchive_reader.h"

namespace mapindex::read {

void ByteSource::keep_tail(std::size_t size, Bytes already) {
  tail_size_ = size;
  tail_.clear();
  std::atomic<std::uint64_t>* counter = std::exchange(counter_, nullptr);  // counted when read
  note(already.data(), already.size());
  counter_ = counter;
}

void ByteSource::note(const std::uint8_t* data, std::size_t size) {
  if (counter_) counter_->fetch_add(size, std::memory_order_relaxed);
  if (tail_size_ == 0 || size == 0) return;
  if (size >= tail_size_) {
    tail_.assign(data + (size - tail_size_), data + size);
    return;
  }
  tail_.insert(tail_.end(), data, data + size);
  if (tail_.size() > tail_size_)
    tail_.erase(tail_.begin(),
                tail_.begin() + static_cast<std::ptrdiff_t>(tail_.size() - tail_size_));
}

FdSource::~FdSource() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

std::int64_t FdSource::read(std::uint8_t* out, std::size_t size) {
  if (failed_) return -1;
  for (;;) {
    ssize_t n = ::read(fd_, out, size);
    if (n >= 0) {
      bytes_read_ += static_cast<std::uint64_t>(n);
      note(out, static_cast<std::size_t>(n));
      if (n == 0 && size > 0) at_end_ = true;
      return n;
    }
    if (errno == EINTR && !(stop_ && stop_->load())) continue;
    failed_ = true;
    error_number_ = errno;
    error_message_ = std::string("read failed: ") + std::strerror(errno);
    return -1;
  }
}

std::int64_t EntryDataSource::read(std::uint8_t* out, std::size_t size) {
  if (failed_) return -1;
  la_ssize_t n = archive_read_data(outer_, out, size);
  if (n >= 0) {
    bytes_read_ += static_cast<std::uint64_t>(n);
    note(out, static_cast<std::size_t>(n));
    if (n == 0 && size > 0) at_end_ = true;
    return n;
  }
  // Any failure (even ARCHIVE_WARN, e.g. a CRC mismatch) means the bytes of
  // the inner archive cannot be trusted.
  failed_ = true;
  outer_fatal_ = n == ARCHIVE_FATAL;
  error_number_ = archive_errno(outer_);
  error_message_ = archive_reason(outer_);
  return -1;
}

bool read_into(ByteSource& source, std::vector<std::uint8_t>& out, std::uint64_t limit,
               std::size_t expected) {
  const std::size_t reserved = expected > 0 ? expected : out.capacity();
  while (out.size() < limit) {
    std::size_t old = out.size();
    // Fill what was reserved (the declared size) before growing.
    const std::size_t room =
        reserved > old ? reserved - old : std::max<std::size_t>(kReadChunk, old);
    std::uint64_t want = std::min<std::uint64_t>(limit - old, room);
    out.resize(old + static_cast<std::size_t>(want));
    std::int64_t n = source.read(out.data() + old, static_cast<std::size_t>(want));
    if (n < 0) {
      out.resize(old);
      return false;
    }
    out.resize(old + static_cast<std::size_t>(n));
    if (n == 0) break;
  }
  return true;
}

bool pread_all(int fd, std::uint8_t* out, std::size_t n, std::uint64_t at) {
  while (n > 0) {
    const ssize_t got = ::pread(fd, out, n, static_cast<off_t>(at));
    if (got <= 0) return false;
    out += got;
    n -= static_cast<std::size_t>(got);
    at += static_cast<std::uint64_t>(got);
  }
  return true;
}

bool count_rest(ByteSource& source, std::uint64_t& count, const std::atomic<bool>& stop) {
  std::vector<std::uint8_t> scratch(kReadChunk);
  while (!stop.load(std::memory_order_relaxed)) {
    std::int64_t n = source.read(scratch.data(), scratch.size());
    if (n < 0) return false;
    if (n == 0) break;
    count += static_cast<std::uint64_t>(n);
  }
  return true;
}

Fd::~Fd() {
  if (fd >= 0) ::close(fd);
}

}  // namespace mapindex::read
