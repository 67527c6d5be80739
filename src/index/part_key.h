// The keys of what a map's versions share (schema/011_stored_once.sql): a
// distinct layer (layer_defs), a map's body (its settings, groups, images,
// envelopes, sounds and their users: map_bodies), its DDNet features
// (feature_sets) and its thumbnail (thumbnail_images). Each key is the
// SHA-256 of the values of the rows it stands for, so two maps share a row
// exactly when they would have written the same rows. They are computed from
// MapStats alone (part_keys), where the map was measured, so that the writer
// only looks them up.
#pragma once

#include <bit>
#include <cstdint>
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
  KeyEncoder() { bytes_.reserve(1024); }
  KeyEncoder& null() {
    bytes_ += 'n';
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
    bytes_.append(v);
    return *this;
  }
  KeyEncoder& blob(Bytes v) {
    word('b', v.size());
    bytes_.append(reinterpret_cast<const char*>(v.data()), v.size());
    return *this;
  }
  template <class T>
  KeyEncoder& optional_integer(const std::optional<T>& v) {
    return v ? integer(static_cast<std::int64_t>(*v)) : null();
  }
  Sha256 digest() const {
    return sha256(Bytes(reinterpret_cast<const std::uint8_t*>(bytes_.data()), bytes_.size()));
  }

 private:
  // The tag, then the value's 8 bytes, least significant first.
  void word(char tag, std::uint64_t u) {
    char bytes[9];
    bytes[0] = tag;
    for (int i = 0; i < 8; ++i) bytes[i + 1] = static_cast<char>((u >> (8 * i)) & 0xff);
    bytes_.append(bytes, sizeof bytes);
  }
  std::string bytes_;
};

}  // namespace mapindex::index
