#include "pipeline/byte_budget.h"

#include <algorithm>
#include <chrono>

namespace mapindex {

ByteBudget::ByteBudget(std::uint64_t limit, std::uint64_t largest_item, std::uint64_t max_entries)
    : limit_(limit),
      largest_item_(std::min(largest_item, limit)),
      max_entries_(std::max<std::uint64_t>(max_entries, 1)) {}

std::uint64_t ByteBudget::default_max_entries(unsigned decode_threads) {
  return std::clamp<std::uint64_t>(kDefaultEntriesPerThread * decode_threads, 1,
                                   kDefaultMaxEntries);
}

bool ByteBudget::wait_for_room(const std::function<bool()>& stop) {
  std::unique_lock lock(mutex_);
  if (entries_ == 0 || (in_flight_ + largest_item_ <= limit_ && entries_ < max_entries_))
    return !stop();
  waiting_ = true;
  while (!half_free()) {
    if (stop()) {
      waiting_ = false;
      return false;
    }
    room_.wait_for(lock, std::chrono::milliseconds(20));
  }
  waiting_ = false;
  return !stop();
}

// Half the entries free, and half the bytes that a largest item leaves.
bool ByteBudget::half_free() const {
  return entries_ == 0 || (entries_ <= max_entries_ / 2 &&
                           in_flight_ + largest_item_ <= limit_ - (limit_ - largest_item_) / 2);
}

void ByteBudget::acquire(std::uint64_t bytes) {
  std::lock_guard lock(mutex_);
  in_flight_ += bytes;
  ++entries_;
  peak_ = std::max(peak_, in_flight_);
  peak_entries_ = std::max(peak_entries_, entries_);
}

void ByteBudget::release(std::uint64_t bytes) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    in_flight_ -= std::min(bytes, in_flight_);
    if (entries_ > 0) --entries_;
    wake = waiting_ && half_free();
  }
  if (wake) room_.notify_one();
}

std::uint64_t ByteBudget::peak() const {
  std::lock_guard lock(mutex_);
  return peak_;
}

std::uint64_t ByteBudget::peak_entries() const {
  std::lock_guard lock(mutex_);
  return peak_entries_;
}

}  // namespace mapindex
