#include "read/entry_bytes.h"

#include <utility>

#include "read/entry_buffers.h"

namespace mapindex::read {

EntryBytes& EntryBytes::operator=(const EntryBytes& other) {
  if (this != &other) {
    reset();
    bytes_ = other.bytes_;
  }
  return *this;
}

EntryBytes& EntryBytes::operator=(EntryBytes&& other) noexcept {
  if (this != &other) {
    reset();
    bytes_ = std::exchange(other.bytes_, {});
    pool_ = std::move(other.pool_);
  }
  return *this;
}

void EntryBytes::reset() noexcept {
  if (pool_) {
    try {
      pool_->give(bytes_);
    } catch (...) {  // no room to keep it: it is freed below
    }
  }
  bytes_ = {};
  pool_.reset();
}

std::vector<std::uint8_t> EntryBytes::release() noexcept {
  pool_.reset();
  return std::exchange(bytes_, {});
}

}  // namespace mapindex::read
