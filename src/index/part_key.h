// The keys of what a map's versions share (schema/011_stored_once.sql): a
// distinct layer (layer_defs), a map's body (its settings, groups, images,
// envelopes, sounds and their users: map_bodies), its DDNet features
// (feature_sets) and its thumbnail (thumbnail_images). Each key is the
// SHA-256 of the values of the rows it stands for, so two maps share a row
// exactly when they would have written the same rows. They are computed from
// MapStats alone (part_keys), where the map was measured, so that the writer
// only looks them up.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/sha256.h"
#include "extract/map_stats.h"

namespace mapindex::index {

struct MapPartKeys {
  Sha256 body{};
  std::optional<Sha256> features;   // none: the map has no DDNet feature
  std::optional<Sha256> thumbnail;  // of layers_key and PNG; none: no thumbnail or no layers_key
  // One per layer of MapStats::layers; none for a layer with layer data but
  // no data key (its layer_data row is its own: the layer is never shared).
  std::vector<std::optional<Sha256>> layers;
};

// `extractor_version` is part of a layer's key: its layer_data row is that
// extractor's result.
MapPartKeys part_keys(const MapStats& stats, int extractor_version);

// Values appended in an encoding that marks each one's type and length, so
// that two different sequences of values never give the same bytes; digest()
// is the SHA-256 of those bytes. The caller appends the same fields in the
// same order for rows of one kind, with counts before lists.
class KeyEncoder {
 public:
  KeyEncoder() : bytes_(std::make_unique_for_overwrite<std::uint8_t[]>(1024)), capacity_(1024) {}
  KeyEncoder(const KeyEncoder&) = delete;
  KeyEncoder& operator=(const KeyEncoder&) = delete;
  KeyEncoder& null() {
    const char tag = 'n';
    append(&tag, 1);
    return *this;
  }
  KeyEncoder& integer(std::int64_t v) {
    word('i', static_cast<std::uint64_t>(v));
    return *this;
  }
  KeyEncoder& real(double v) {
    word('r', std::bit_cast<std::uint64_t>(v));
    return *this;
  }
  KeyEncoder& text(std::string_view v) {  // the original bytes, valid UTF-8 or not
    word('t', v.size());
    append(v.data(), v.size());
    return *this;
  }
  KeyEncoder& blob(Bytes v) {
    word('b', v.size());
    append(v.data(), v.size());
    return *this;
  }
  template <class T>
  KeyEncoder& optional_integer(const std::optional<T>& v) {
    return v ? integer(static_cast<std::int64_t>(*v)) : null();
  }
  Sha256 digest() const { return sha256(Bytes(bytes_.get(), size_)); }

 private:
  // The tag, then the value's 8 bytes, least significant first.
  void word(char tag, std::uint64_t u) {
    char bytes[9];
    bytes[0] = tag;
    for (int i = 0; i < 8; ++i) bytes[i + 1] = static_cast<char>((u >> (8 * i)) & 0xff);
    append(bytes, sizeof bytes);
  }
  // A buffer of its own rather than std::string, so that appending a value
  // is an inline copy of a fixed size where std::string's append is a call:
  // a map's keys append thousands of values.
  void append(const void* p, std::size_t n) {
    if (n == 0) return;  // `p` may be null then
    if (n > capacity_ - size_) grow(n);
    std::memcpy(bytes_.get() + size_, p, n);
    size_ += n;
  }
  void grow(std::size_t n) {
    capacity_ = std::max(capacity_ * 2, size_ + n);
    auto bigger = std::make_unique_for_overwrite<std::uint8_t[]>(capacity_);
    std::memcpy(bigger.get(), bytes_.get(), size_);
    bytes_ = std::move(bigger);
  }
  std::unique_ptr<std::uint8_t[]> bytes_;  // size_ bytes written, capacity_ allocated
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace mapindex::index
