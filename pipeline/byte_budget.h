// The memory budget of an index run: bytes of entries in flight between the
// reader and the writer. The reader waits for room before it reads the next
// entry; the writer gives the bytes back once the entry's rows are written.
// This is the flow graph's backpressure: memory does not grow with the size of
// the archive.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>

namespace mapindex {

class ByteBudget {
 public:
  // `limit`: bytes allowed in flight; `largest_item`: the most one item can
  // take (an entry is never larger than --max-map-size).
  ByteBudget(std::uint64_t limit, std::uint64_t largest_item);

  // Blocks until one more item of up to `largest_item` bytes fits (always true
  // when nothing is in flight), or until `stop()` returns true (then returns
  // false). `stop` is polled every few milliseconds.
  bool wait_for_room(const std::function<bool()>& stop);
  void acquire(std::uint64_t bytes);
  void release(std::uint64_t bytes);

  std::uint64_t in_flight() const;
  std::uint64_t peak() const;

 private:
  const std::uint64_t limit_;
  const std::uint64_t largest_item_;
  mutable std::mutex mutex_;
  std::condition_variable room_;
  std::uint64_t in_flight_ = 0;
  std::uint64_t peak_ = 0;
};

}  // namespace mapindex
