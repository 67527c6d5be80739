#include "extract/digest_memo.h"

#include <array>
#include <bit>
#include <cstring>
#include <mutex>

namespace mapindex {

std::uint64_t DigestMemo::candidate_key(Bytes bytes) {
  // The size and the last 8 bytes (a zlib stream ends with the Adler-32 of
  // what it inflates to), mixed: multiplied by an odd constant, so that the
  // top bits, a key's home slot, depend on all of them.
  std::uint64_t tail = 0;
  std::memcpy(&tail, bytes.data() + bytes.size() - sizeof tail, sizeof tail);
  return (tail ^ bytes.size()) * 0x9e3779b97f4a7c15ull;
}

std::optional<Sha256> DigestMemo::find(std::uint64_t key, Bytes bytes) {
  std::array<std::shared_ptr<const Entry>, kMaxCompared> candidates;
  std::size_t found = 0;
  {
    std::shared_lock lock(mutex_);
    if (slots_.empty()) return std::nullopt;
    std::size_t s = home(key);
    for (std::size_t step = 0; step < kMaxProbe && slots_[s].entry && found < candidates.size();
         ++step, s = next(s))
      if (slots_[s].key == key && slots_[s].size == bytes.size())
        candidates[found++] = slots_[s].entry;
  }
  for (std::size_t i = 0; i < found; ++i)
    if (std::memcmp(candidates[i]->bytes.data(), bytes.data(), bytes.size()) == 0) {
      hits_.fetch_add(1, std::memory_order_relaxed);
      return candidates[i]->digest;
    }
  return std::nullopt;
}

// Whether a string with candidate key `key` was hashed before and its note
// is still in the table (a later key with the same top bits replaces it: the
// string then needs another sighting to be kept); notes the key when not.
// Another string with the same key counts as a sighting: that costs a copy,
// never a wrong digest.
bool DigestMemo::sighted_before(std::uint64_t key) {
  std::unique_lock lock(mutex_);
  if (sightings_.empty()) sightings_.assign(std::size_t{1} << kSightingBits, 0);
  std::uint64_t& slot = sightings_[static_cast<std::size_t>(key >> (64 - kSightingBits))];
  if (slot == key) return true;
  slot = key;
  return false;
}

void DigestMemo::remember(std::uint64_t key, Bytes bytes, const Sha256& digest) {
  if (bytes.size() > max_bytes_ / 4) return;  // would push out too much
  if (!sighted_before(key)) return;
  auto entry = std::make_shared<const Entry>(
      Entry{std::vector<std::uint8_t>(bytes.begin(), bytes.end()), digest});
  std::unique_lock lock(mutex_);
  int same_key = 0;
  if (!slots_.empty()) {
    std::size_t s = home(key);
    for (std::size_t step = 0; step < kMaxProbe && slots_[s].entry; ++step, s = next(s)) {
      if (slots_[s].key != key) continue;
      if (slots_[s].entry->digest == digest) return;  // another thread remembered it
      ++same_key;
    }
  }
  if (same_key >= kMaxCompared) return;  // never compared beyond the first few
  while (bytes_ + bytes.size() > max_bytes_ && !order_.empty()) drop_oldest();
  if ((used_ + 1) * 2 > slots_.size()) grow();
  // Within kMaxProbe slots of its home, or not at all (dropping strings
  // only ever moves others nearer their homes).
  const Entry* kept = entry.get();
  if (!place(Slot{key, bytes.size(), std::move(entry)}, kMaxProbe)) return;
  order_.emplace_back(key, kept);
  bytes_ += bytes.size();
}

void DigestMemo::drop_oldest() {
  const auto [key, entry] = order_.front();
  order_.pop_front();
  for (std::size_t s = home(key); slots_[s].entry; s = next(s))
    if (slots_[s].entry.get() == entry) {
      bytes_ -= slots_[s].size;
      erase_slot(s);
      return;
    }
}

// Empties `slot` and moves back the slots after it that probing would no
// longer reach across the gap (deletion without tombstones: every string
// stays reachable from its home by a run of filled slots).
void DigestMemo::erase_slot(std::size_t slot) {
  std::size_t gap = slot;
  for (std::size_t s = next(gap); slots_[s].entry; s = next(s)) {
    const std::size_t h = home(slots_[s].key);
    // Whether h lies cyclically in (gap, s]: then the string at s is still
    // reached from its home without passing the gap.
    const bool reached = gap <= s ? (gap < h && h <= s) : (gap < h || h <= s);
    if (reached) continue;
    slots_[gap] = std::move(slots_[s]);
    gap = s;
  }
  slots_[gap] = Slot{};
  --used_;
}

// The first empty slot from its home, within `max_probe` slots. grow()
// gives no limit: a string that lands more than kMaxProbe slots from its
// home is not found by lookups, and is dropped in its turn all the same
// (drop_oldest searches to the end of the run).
bool DigestMemo::place(Slot slot, std::size_t max_probe) {
  std::size_t s = home(slot.key);
  for (std::size_t step = 0; slots_[s].entry; ++step, s = next(s))
    if (step + 1 >= max_probe) return false;
  slots_[s] = std::move(slot);
  ++used_;
  return true;
}

void DigestMemo::grow() {
  std::vector<Slot> old = std::move(slots_);
  const std::size_t size = old.empty() ? 64 : old.size() * 2;
  slots_.assign(size, Slot{});
  shift_ = 64 - static_cast<unsigned>(std::countr_zero(size));
  used_ = 0;
  for (auto& slot : old)
    if (slot.entry) place(std::move(slot), slots_.size());  // always finds room: half full
}

Sha256 DigestMemo::digest(Bytes bytes) {
  if (bytes.size() < kMinBytes) return sha256(bytes);
  const std::uint64_t key = candidate_key(bytes);
  if (auto known = find(key, bytes)) return *known;
  const Sha256 computed = sha256(bytes);
  remember(key, bytes, computed);
  return computed;
}

std::uint64_t DigestMemo::hits() const { return hits_.load(std::memory_order_relaxed); }

std::uint64_t DigestMemo::bytes() const {
  std::shared_lock lock(mutex_);
  return bytes_;
}

}  // namespace mapindex
