#include "read/entry_buffers.h"

#include <algorithm>
#include <utility>

#include "read/byte_source.h"

namespace mapindex::read {

std::vector<std::uint8_t> EntryBuffers::kept_with_room(std::size_t size) {
  std::vector<std::uint8_t> out;
  std::lock_guard lock(mutex_);
  std::size_t best = kept_.size();
  for (std::size_t i = 0; i < kept_.size(); ++i)
    if (kept_[i].capacity() >= size &&
        (best == kept_.size() || kept_[i].capacity() < kept_[best].capacity()))
      best = i;
  if (best < kept_.size()) {
    out = std::move(kept_[best]);
    kept_[best] = std::move(kept_.back());
    kept_.pop_back();
    kept_bytes_ -= out.capacity();
  }
  return out;
}

std::vector<std::uint8_t> EntryBuffers::take(std::size_t size, std::size_t new_at_most) {
  std::vector<std::uint8_t> out = kept_with_room(size);
  out.clear();
  if (out.capacity() < size) out.reserve(std::min(size, new_at_most));
  return out;
}

std::vector<std::uint8_t> EntryBuffers::take_to_overwrite(std::size_t size) {
  std::vector<std::uint8_t> out = kept_with_room(size);
  out.resize(size);
  return out;
}

void EntryBuffers::give(std::vector<std::uint8_t>& bytes) {
  std::vector<std::uint8_t> freed;  // freed outside the lock
  {
    std::lock_guard lock(mutex_);
    const std::size_t capacity = bytes.capacity();
    if (capacity > 0 && kept_.size() < kMaxKept && kept_bytes_ + capacity <= kMaxKeptBytes) {
      kept_bytes_ += capacity;
      kept_.push_back(std::move(bytes));
    } else {
      freed = std::move(bytes);
    }
  }
  bytes = {};
}

std::size_t EntryBuffers::kept() const {
  std::lock_guard lock(mutex_);
  return kept_.size();
}

std::size_t EntryBuffers::kept_bytes() const {
  std::lock_guard lock(mutex_);
  return kept_bytes_;
}

void EntryBuffers::clear() {
  std::vector<std::vector<std::uint8_t>> freed;
  std::lock_guard lock(mutex_);
  freed.swap(kept_);
  kept_bytes_ = 0;
}

EntryBuffer take_entry_buffer(EntryBuffers& pool, std::size_t want) {
  EntryBuffer b{pool.take(want, kMaxReserve + 1), 0};
  b.expected = std::min(want, b.bytes.capacity());
  return b;
}

}  // namespace mapindex::read
