#include "read/stream_feeder.h"

#include <archive.h>

#include <cerrno>
#include <utility>

namespace mapindex::read {
namespace {

constexpr std::size_t kBlockSize = 64 * 1024;

la_ssize_t read_callback(archive* a, void* client, const void** block) {
  return static_cast<la_ssize_t>(static_cast<StreamFeeder*>(client)->feed(a, block));
}

}  // namespace

StreamFeeder::StreamFeeder(ByteSource& source, std::vector<std::uint8_t> prefix,
                           std::uint64_t record_cap)
    : source_(source), prefix_(std::move(prefix)), record_cap_(record_cap) {
  if (prefix_.size() > record_cap_) recorded_all_ = false;
}

int StreamFeeder::open(archive* a) {
  return archive_read_open(a, this, nullptr, read_callback, nullptr);
}

void StreamFeeder::stop_recording() {
  recording_ = false;
  recorded_.clear();
  recorded_.shrink_to_fit();
}

std::vector<std::uint8_t> StreamFeeder::take_recorded() {
  std::vector<std::uint8_t> all = std::move(prefix_);
  all.insert(all.end(), recorded_.begin(), recorded_.end());
  prefix_.clear();
  prefix_pos_ = 0;
  stop_recording();
  return all;
}

std::int64_t StreamFeeder::feed(archive* a, const void** block) {
  // libarchive has consumed the previous block when it calls again.
  if (prefix_pos_ < prefix_.size()) {
    *block = prefix_.data() + prefix_pos_;
    std::size_t n = prefix_.size() - prefix_pos_;
    prefix_pos_ = prefix_.size();
    handed_ += n;
    return static_cast<std::int64_t>(n);
  }
  if (!recording_ && !prefix_.empty()) {
    prefix_.clear();
    prefix_.shrink_to_fit();
    prefix_pos_ = 0;
  }
  if (block_.empty()) block_.resize(kBlockSize);
  std::int64_t n = source_.read(block_.data(), block_.size());
  if (n < 0) {
    archive_set_error(a, source_.error_number() ? source_.error_number() : EIO, "%s",
                      source_.error_message().c_str());
    return ARCHIVE_FATAL;
  }
  if (recording_ && recorded_all_ && n > 0) {
    if (prefix_.size() + recorded_.size() + static_cast<std::uint64_t>(n) > record_cap_) {
      recorded_all_ = false;
      recorded_.clear();
      recorded_.shrink_to_fit();
    } else {
      recorded_.insert(recorded_.end(), block_.begin(), block_.begin() + n);
    }
  }
  handed_ += static_cast<std::uint64_t>(n);
  *block = block_.data();
  return n;
}

}  // namespace mapindex::read
