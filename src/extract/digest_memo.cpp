#include "extract/digest_memo.h"

#include <cstring>
#include <mutex>

namespace mapindex {

std::uint64_t DigestMemo::candidate_key(Bytes bytes) {
  // The size and the last 8 bytes (a zlib stream ends with the Adler-32 of
  // what it inflates to), mixed.
  std::uint64_t tail = 0;
  std::memcpy(&tail, bytes.data() + bytes.size() - sizeof tail, sizeof tail);
  return (tail ^ bytes.size()) * 0x9e3779b97f4a7c15ull;
}

std::optional<Sha256> DigestMemo::find(std::uint64_t key, Bytes bytes) {
  std::vector<Entry> candidates;
  {
    std::shared_lock lock(mutex_);
    auto [first, last] = entries_.equal_range(key);
    for (; first != last && static_cast<int>(candidates.size()) < kMaxCompared; ++first)
      if (first->second.bytes->size() == bytes.size()) candidates.push_back(first->second);
  }
  for (const auto& c : candidates)
    if (std::memcmp(c.bytes->data(), bytes.data(), bytes.size()) == 0) {
      std::unique_lock lock(mutex_);
      ++hits_;
      return c.digest;
    }
  return std::nullopt;
}

void DigestMemo::remember(std::uint64_t key, Bytes bytes, const Sha256& digest) {
  if (bytes.size() > max_bytes_ / 4) return;  // would push out too much
  auto copy = std::make_shared<const std::vector<std::uint8_t>>(bytes.begin(), bytes.end());
  std::unique_lock lock(mutex_);
  auto [first, last] = entries_.equal_range(key);
  int same_key = 0;
  for (; first != last; ++first, ++same_key)
    if (first->second.digest == digest) return;  // another thread remembered it
  if (same_key >= kMaxCompared) return;          // never compared beyond the first few
  while (bytes_ + bytes.size() > max_bytes_ && !order_.empty()) {
    const auto [old_key, old_bytes] = order_.front();
    order_.pop_front();
    auto [a, b] = entries_.equal_range(old_key);
    for (; a != b; ++a)
      if (a->second.bytes.get() == old_bytes) {
        bytes_ -= old_bytes->size();
        entries_.erase(a);
        break;
      }
  }
  order_.emplace_back(key, copy.get());
  bytes_ += bytes.size();
  entries_.emplace(key, Entry{std::move(copy), digest});
}

Sha256 DigestMemo::digest(Bytes bytes) {
  if (bytes.size() < kMinBytes) return sha256(bytes);
  const std::uint64_t key = candidate_key(bytes);
  if (auto known = find(key, bytes)) return *known;
  const Sha256 computed = sha256(bytes);
  remember(key, bytes, computed);
  return computed;
}

std::uint64_t DigestMemo::hits() const {
  std::shared_lock lock(mutex_);
  return hits_;
}

std::uint64_t DigestMemo::bytes() const {
  std::shared_lock lock(mutex_);
  return bytes_;
}

}  // namespace mapindex
