// Buffers for entries' bytes, reused: an entry's EntryBytes gives its buffer
// back once it is done with (destroyed or reset), and the reader takes it for
// a later entry. Each SourceReader owns one pool, shared with its entries.
//
// Why: memory glibc frees often goes back to the system, so every entry met
// fresh pages, a page fault per 4 KiB read; a kept buffer's pages stay mapped.
//
// The pool is bounded: at most kMaxKept buffers holding at most
// kMaxKeptBytes in all (beside the `--memory` budget for entries in flight);
// a buffer that does not fit is freed. The bounds hold as many buffers as
// are in flight by default at one decode thread (64 entries); smaller
// bounds freed buffers as they came back, and the reader met fresh pages.
// More threads have more in flight; keeping more buffers for them held more
// memory where entries are large, and saved fresh pages only where they are
// small.
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

  // An empty buffer for `size` bytes (a declared size, not trusted): the
  // smallest kept one with room for them, else a new one with room for
  // min(size, new_at_most) (a hostile header gets no more than that).
  std::vector<std::uint8_t> take(std::size_t size, std::size_t new_at_most);
  // A buffer of exactly `size` bytes (a size known to be real) for a caller
  // that writes every one of them before it is read: a kept one still holds
  // an earlier entry's bytes up to its old size (only what it grows by is
  // zeroed), so that its pages are not written twice. Found as take() finds
  // one.
  std::vector<std::uint8_t> take_to_overwrite(std::size_t size);
  // Keeps `bytes` (its bytes too, for take_to_overwrite) for a later take if
  // that stays within the limits; frees it otherwise. Leaves `bytes` empty
  // with no capacity.
  void give(std::vector<std::uint8_t>& bytes);

  // Kept buffers and their capacity in all (for tests and stats).
  std::size_t kept() const;
  std::size_t kept_bytes() const;
  // Frees every kept buffer.
  void clear();

 private:
  // The smallest kept buffer with room for `size` bytes (taken from the
  // pool), else an empty one.
  std::vector<std::uint8_t> kept_with_room(std::size_t size);

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
EntryBuffer take_entry_buffer(EntryBuffers& pool, std::size_t want);

}  // namespace mapindex::read
