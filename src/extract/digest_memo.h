// SHA-256 of byte strings met before: a digest taken once serves every later
// string with the same bytes, which are compared in full (a non-cryptographic
// hash only picks the candidates, never the identity: see sha256.h). The
// index hashes a tile layer's stored data to key its results; a new version
// of a map repeats most of its data, and comparing bytes costs a fraction of
// hashing them. Thread-safe. Holds copies of the bytes, at most `max_bytes`
// (the oldest are dropped first), from a string's second sighting on: the
// first is noted by its candidate key alone (8 bytes in a table of 512 KiB),
// so that a run whose strings never repeat holds no copies of them.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <utility>
#include <vector>

#include "common/bytes.h"
#include "common/sha256.h"

namespace mapindex {

class DigestMemo {
 public:
  static constexpr std::uint64_t kDefaultBytes = 32ull << 20;
  // Strings shorter than this are hashed: comparing would not save anything.
  static constexpr std::size_t kMinBytes = 256;
  // At most this many remembered strings with the same candidate key (their
  // size and last bytes) are kept and compared, and a string is kept only
  // within kMaxProbe slots of its home slot (a lookup reads no further):
  // a crafted input cannot make a lookup cost more than that, however many
  // of its strings it gives the same key or the same home.
  static constexpr int kMaxCompared = 4;
  static constexpr std::size_t kMaxProbe = 32;
  // Candidate keys of strings hashed once and not kept, in a table indexed
  // by a key's top bits (a later key with the same top bits takes the place).
  static constexpr unsigned kSightingBits = 16;

  explicit DigestMemo(std::uint64_t max_bytes = kDefaultBytes) : max_bytes_(max_bytes) {}

  // sha256(bytes): from a string remembered with the same bytes, else
  // computed, and remembered when a string with its candidate key was
  // hashed before.
  Sha256 digest(Bytes bytes);

  std::uint64_t hits() const;   // digests taken from a remembered string
  std::uint64_t bytes() const;  // bytes held

 private:
  // A remembered string. Shared: a lookup compares its bytes after letting
  // go of the lock, while another thread may drop it.
  struct Entry {
    std::vector<std::uint8_t> bytes;
    Sha256 digest;
  };
  // The index of the remembered strings: one array, open addressing with
  // linear probing, at most half full, so that a lookup reads a few adjacent
  // slots rather than following heap nodes scattered among the strings'
  // bytes. A slot is empty when `entry` is null.
  struct Slot {
    std::uint64_t key = 0;
    std::uint64_t size = 0;  // the entry's, kept here so a lookup reads no entry of another size
    std::shared_ptr<const Entry> entry;
  };

  static std::uint64_t candidate_key(Bytes bytes);
  std::size_t home(std::uint64_t key) const { return static_cast<std::size_t>(key >> shift_); }
  std::size_t next(std::size_t slot) const { return (slot + 1) & (slots_.size() - 1); }
  std::optional<Sha256> find(std::uint64_t key, Bytes bytes);
  void remember(std::uint64_t key, Bytes bytes, const Sha256& digest);
  void drop_oldest();
  void erase_slot(std::size_t slot);
  bool place(Slot slot, std::size_t max_probe);
  void grow();
  bool sighted_before(std::uint64_t key);

  const std::uint64_t max_bytes_;
  mutable std::shared_mutex mutex_;  // guards everything below but hits_
  std::vector<Slot> slots_;          // a power of two in size, or empty
  unsigned shift_ = 0;    // 64 - log2(slots_.size()), a key's home its top bits; set by grow()
  std::size_t used_ = 0;  // slots that hold a string
  std::deque<std::pair<std::uint64_t, const Entry*>> order_;  // oldest first
  std::uint64_t bytes_ = 0;
  std::vector<std::uint64_t> sightings_;  // empty until the first string is hashed
  std::atomic<std::uint64_t> hits_ = 0;
};

}  // namespace mapindex
