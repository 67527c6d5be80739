// One large buffer shared by every thread, taken in turn. The decode threads
// inflate tile data of up to kSharedBufferAbove bytes into a buffer of their
// own (kept across layers and maps) and larger data into this one: a tile
// layer that inflates to hundreds of MB is held once per process, not once
// per decode thread that has met one (with 2 threads on the corpus: peak RSS
// 300 MiB with a 128 MiB layer in each thread's buffer).
//
// A thread holding the buffer must not wait for anything another thread may
// be doing while it holds it (the layer cache, another entry's result): it
// inflates, measures and gives the buffer back.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

namespace mapindex {

// Data larger than this goes into the shared buffer.
inline constexpr std::uint64_t kSharedBufferAbove = 32ull << 20;

class SharedBuffer {
 public:
  // Holds the buffer while alive (or nothing, when default-constructed).
  class Lease {
   public:
    Lease() = default;
    std::vector<std::uint8_t>& buffer() { return *buffer_; }
    explicit operator bool() const { return lock_.owns_lock(); }

   private:
    friend class SharedBuffer;
    Lease(std::mutex& mutex, std::vector<std::uint8_t>& buffer) : lock_(mutex), buffer_(&buffer) {}
    std::unique_lock<std::mutex> lock_;
    std::vector<std::uint8_t>* buffer_ = nullptr;
  };

  // Waits until no other thread holds the buffer. The buffer keeps its
  // capacity between leases (it grows to the largest data held).
  Lease take() { return Lease(mutex_, buffer_); }

  // The process's one shared buffer.
  static SharedBuffer& instance();

 private:
  std::mutex mutex_;
  std::vector<std::uint8_t> buffer_;
};

}  // namespace mapindex
