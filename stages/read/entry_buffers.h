// Buffers for entries' bytes, reused: the measure stage gives an entry's
// buffer back once it is done with it, and the reader takes it for a later
// entry.
//
// Why: bytes read into memory the process has not used before cost the
// system a page fault per 4 KiB page, and memory glibc frees goes back to the
// system often enough (above its trim threshold, and when one thread frees
// what another thread's arena gave) that every entry met fresh pages. On the
// corpus tar (96 MB, 267 maps) that was 10,000 of a run's 26,000 page faults,
// each a few microseconds on a 2-core VM. A kept buffer's pages stay mapped.
//
// The pool is bounded: at most kMaxKept buffers holding at most
// kMaxKeptBytes in all (beside the `--memory` budget for entries in flight);
// a buffer that does not fit is freed. The bounds hold as many buffers as
// are in flight by default up to 4 decode threads (16 entries each): with
// 16 buffers and 32 MiB, a run at --threads 2 (32 entries in flight, about
// 28 MB on the corpus tar) freed half of them as they came back, and the
// reader met fresh pages again: 9,900 of the run's 25,800 page faults were
// still its reads; with 64 and 64 MiB, 1,700 of 19,700 (peak RSS 68 -> 67
// MB; CPU 0.590 -> 0.585 s, 21 alternating runs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace mapindex::read {

class EntryBuffers {
 public:
  static constexpr std::size_t kMaxKept = 64;
  static constexpr std::size_t kMaxKeptBytes = std::size_t{64} << 20;

  // The process's pool (the reader and the measure stage share it).
  static EntryBuffers& instance();

  // An empty buffer for `size` bytes (a declared size, not trusted): the
  // smallest kept one with room for them, else a new one with room for
  // min(size, new_at_most) (a hostile header gets no more than that).
  std::vector<std::uint8_t> take(std::size_t size, std::size_t new_at_most);
  // Keeps `bytes` (emptied) for a later take() if that stays within the
  // limits; frees it otherwise. Leaves `bytes` empty with no capacity.
  void give(std::vector<std::uint8_t>& bytes);

  // Kept buffers and their capacity in all (for tests and stats).
  std::size_t kept() const;
  std::size_t kept_bytes() const;
  // Frees every kept buffer.
  void clear();

 private:
  mutable std::mutex mutex_;
  std::vector<std::vector<std::uint8_t>> kept_;
  std::size_t kept_bytes_ = 0;
};

// A buffer from the pool for an entry of `want` bytes (its size + 1, so that
// the read that finds the end fits; a declared size is not trusted), and
// what its first read should ask for (read_into's `expected`): `want`, or
// what a new buffer got (at most kMaxReserve + 1).
struct EntryBuffer {
  std::vector<std::uint8_t> bytes;
  std::size_t expected = 0;
};
EntryBuffer take_entry_buffer(std::size_t want);

}  // namespace mapindex::read
