// An entry's bytes and who gets the buffer back. The reader takes the buffer
// from its pool (EntryBuffers, owned by the SourceReader and shared with
// every entry it made, so it lives as long as the last of them); the entry
// owns it until it is destroyed or reset(), which gives it back for a later
// entry. A copy is a plain buffer of its own that goes back to no pool.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace mapindex::read {

class EntryBuffers;

class EntryBytes {
 public:
  EntryBytes() = default;
  explicit EntryBytes(std::vector<std::uint8_t> bytes,
                      std::shared_ptr<EntryBuffers> pool = nullptr) noexcept
      : bytes_(std::move(bytes)), pool_(std::move(pool)) {}
  EntryBytes(const EntryBytes& other) : bytes_(other.bytes_) {}
  EntryBytes& operator=(const EntryBytes& other);
  EntryBytes(EntryBytes&& other) noexcept = default;  // leaves `other` empty, with no pool
  EntryBytes& operator=(EntryBytes&& other) noexcept;
  ~EntryBytes() { reset(); }

  // Gives the buffer back to its pool now (or frees it); leaves this empty.
  void reset() noexcept;
  // The bytes, no longer the pool's: the caller owns them from now on.
  std::vector<std::uint8_t> release() noexcept;

  const std::uint8_t* data() const { return bytes_.data(); }
  std::size_t size() const { return bytes_.size(); }
  std::size_t capacity() const { return bytes_.capacity(); }
  bool empty() const { return bytes_.empty(); }
  const std::uint8_t* begin() const { return bytes_.data(); }
  const std::uint8_t* end() const { return bytes_.data() + bytes_.size(); }

  friend bool operator==(const EntryBytes& a, const EntryBytes& b) { return a.bytes_ == b.bytes_; }
  friend bool operator==(const EntryBytes& a, const std::vector<std::uint8_t>& b) {
    return a.bytes_ == b;
  }

 private:
  std::vector<std::uint8_t> bytes_;
  std::shared_ptr<EntryBuffers> pool_;
};

}  // namespace mapindex::read
