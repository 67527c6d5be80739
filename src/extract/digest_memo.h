// SHA-256 of byte strings met before: a digest taken once serves every later
// string with the same bytes, which are compared in full (a non-cryptographic
// hash only picks the candidates, never the identity: see sha256.h). The
// index hashes a tile layer's stored data to key its results; a new version
// of a map repeats most of its data, and comparing bytes costs a fraction of
// hashing them. Thread-safe. Holds copies of the bytes, at most `max_bytes`
// (the oldest are dropped first).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

#include "common/bytes.h"
#include "common/sha256.h"

namespace mapindex {

class DigestMemo {
 public:
  static constexpr std::uint64_t kDefaultBytes = 32ull << 20;
  // Strings shorter than this are hashed: comparing would not save anything.
  static constexpr std::size_t kMinBytes = 256;

  explicit DigestMemo(std::uint64_t max_bytes = kDefaultBytes) : max_bytes_(max_bytes) {}

  // sha256(bytes): from a string remembered with the same bytes, else
  // computed and remembered.
  Sha256 digest(Bytes bytes);

  std::uint64_t hits() const;   // digests taken from a remembered string
  std::uint64_t bytes() const;  // bytes held

 private:
  struct Entry {
    std::shared_ptr<const std::vector<std::uint8_t>> bytes;
    Sha256 digest;
  };
  // At most this many remembered strings with the same candidate key are
  // compared (a crafted input cannot make a lookup cost more than that).
  static constexpr int kMaxCompared = 4;

  static std::uint64_t candidate_key(Bytes bytes);
  std::optional<Sha256> find(std::uint64_t key, Bytes bytes);
  void remember(std::uint64_t key, Bytes bytes, const Sha256& digest);

  const std::uint64_t max_bytes_;
  mutable std::shared_mutex mutex_;  // guards everything below
  std::unordered_multimap<std::uint64_t, Entry> entries_;
  std::deque<std::pair<std::uint64_t, const std::vector<std::uint8_t>*>> order_;  // oldest first
  std::uint64_t bytes_ = 0;
  std::uint64_t hits_ = 0;
};

}  // namespace mapindex
