// One large buffer shared by threads, taken in turn. The decode threads
// inflate tile data of up to kSharedBufferAbove bytes into a buffer of their
// workspace's own (kept across layers and maps) and larger data into this
// one, which their owner (an index run) shares among them: a tile layer that
// inflates to hundreds of MB is held once per run, not once per decode thread
// that has met one.
//
// A thread holding the buffer must not wait for anything another thread may
// be doing while it holds it (the layer cache, another entry's result): it
// inflates, measures and gives the buffer back.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "tiledata/zeroed_buffer.h"

namespace mapindex::tiledata {

// Data larger than this goes into the shared buffer.
inline constexpr std::uint64_t kSharedBufferAbove = 32ull << 20;

class SharedBuffer {
 public:
  // Holds the buffer while alive (or nothing, when default-constructed or
  // moved from). Released on the thread that took it.
  class Lease {
   public:
    Lease() = default;
    Lease(Lease&& other) noexcept : owner_(std::exchange(other.owner_, nullptr)) {}
    Lease& operator=(Lease&& other) noexcept {
      if (this != &other) {
        release();
        owner_ = std::exchange(other.owner_, nullptr);
      }
      return *this;
    }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() { release(); }

    ZeroedBuffer& buffer() { return owner_->buffer_; }
    explicit operator bool() const { return owner_ != nullptr; }

   private:
    friend class SharedBuffer;
    explicit Lease(SharedBuffer& owner) : owner_(&owner) {}
    void release() {
      if (!owner_) return;
      owner_->holder_.store(std::thread::id());
      owner_->mutex_.unlock();
      owner_ = nullptr;
    }
    SharedBuffer* owner_ = nullptr;
  };

  // Waits until no other thread holds the buffer. The buffer keeps its
  // capacity between leases (it grows to the largest data held).
  Lease take() {
    mutex_.lock();
    holder_.store(std::this_thread::get_id());
    return Lease(*this);
  }

  // Whether the calling thread holds a lease (for checks and tests: code
  // that may wait on other threads asserts it does not).
  bool held_by_this_thread() const { return holder_.load() == std::this_thread::get_id(); }

 private:
  std::mutex mutex_;
  std::atomic<std::thread::id> holder_{};
  ZeroedBuffer buffer_;
};

}  // namespace mapindex::tiledata
