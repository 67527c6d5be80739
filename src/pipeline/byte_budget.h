// The memory budget of an index run: entries in flight between the reader
// and the writer, counted in bytes and in entries. The reader waits for room
// before it reads the next entry; the writer gives the entry back once its
// rows are written. This is the flow graph's backpressure: memory does not
// grow with the size of the archive nor with its number of entries.
//
// An entry costs its bytes plus kEntryOverhead (its path, its measurement,
// the graph's bookkeeping: about 1 KiB measured for a tiny entry), and no
// more than max_entries are in flight however small they are: without that,
// 200,000 one-byte entries ran all ahead of the writer (246 MB).
//
// The defaults of `mapindex index` (--memory 128 MB, --max-in-flight 64 per
// decode thread, at most 1024): the cap must keep the serial writer fed.
// Once it is reached the reader waits until half is free (wait_for_room),
// and the entries behind come in a burst that must be read, hashed and
// measured before the writer has used up the rest; the writer also takes
// entries in input order, so one that is slow to measure (a map met for the
// first time among versions whose layers are known) holds back every entry
// behind it. With too small a cap the writer waits, and the decode threads
// that run dry spin a while (oneTBB's workers yield before they sleep) on
// the cores the writer needs. Bytes stay bounded by --memory (the reader ran
// up to 1 GB ahead of a single decode thread with the old default of
// 1024 MB).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>

namespace mapindex {

class ByteBudget {
 public:
  static constexpr std::uint64_t kEntryOverhead = 2048;
  static constexpr std::uint64_t kDefaultMaxEntries = 1024;
  static constexpr std::uint64_t kDefaultMemoryMb = 128;
  static constexpr std::uint64_t kDefaultEntriesPerThread = 64;

  // Entries in flight by default for `decode_threads` decode threads:
  // kDefaultEntriesPerThread each, at most kDefaultMaxEntries.
  static std::uint64_t default_max_entries(unsigned decode_threads);

  // `limit`: bytes allowed in flight; `largest_item`: the most one item can
  // take (an entry is never larger than --max-map-size, plus its overhead);
  // `max_entries`: items allowed in flight.
  ByteBudget(std::uint64_t limit, std::uint64_t largest_item,
             std::uint64_t max_entries = kDefaultMaxEntries);

  // Blocks until one more item of up to `largest_item` bytes fits and fewer
  // than max_entries are in flight (always true when nothing is in flight),
  // or until `stop()` returns true (then returns false). `stop` is polled
  // every few milliseconds. A caller that had to wait goes on only once half
  // the entries and half the bytes are free: it then reads a burst of
  // entries, and the threads behind it work on them in a burst, instead of
  // waking (and going idle again) for every entry the writer gives back.
  bool wait_for_room(const std::function<bool()>& stop);
  // One item of `bytes` enters / leaves.
  void acquire(std::uint64_t bytes);
  void release(std::uint64_t bytes);

  std::uint64_t peak() const;          // most bytes in flight at once
  std::uint64_t peak_entries() const;  // most items in flight at once

 private:
  const std::uint64_t limit_;
  const std::uint64_t largest_item_;
  const std::uint64_t max_entries_;
  mutable std::mutex mutex_;
  std::condition_variable room_;
  std::uint64_t in_flight_ = 0;
  std::uint64_t entries_ = 0;
  std::uint64_t peak_ = 0;
  std::uint64_t peak_entries_ = 0;
  bool waiting_ = false;   // a caller waits in wait_for_room
  bool half_free() const;  // guarded by mutex_
};

}  // namespace mapindex
