// SHA-256 of a byte span (OpenSSL EVP; SHA-NI where the CPU has it). The one
// content hash of the project: whole files (src/read/digest.h) and tile
// layer data (src/extract/layer_data.h). Inputs are hostile, so identity is
// never taken from a non-cryptographic hash.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

#include "common/bytes.h"

namespace mapindex {

using Sha256 = std::array<std::uint8_t, 32>;

// Throws std::runtime_error only when OpenSSL itself fails (allocation).
Sha256 sha256(Bytes bytes);

// The digest whose text is `hex` (64 lowercase hex digits, as to_hex writes
// it and the index stores it); nothing for any other text.
std::optional<Sha256> sha256_from_hex(std::string_view hex);

// Sets OpenSSL up (its configuration, the implementation), which the first
// sha256() does otherwise, so that a caller can run it on another thread
// while it does something else.
void sha256_warm_up();

// A hash-table hash of a SHA-256 value: its bytes are uniform, so the first
// word serves (identity is still the whole value: the table compares keys).
struct Sha256Hash {
  std::size_t operator()(const Sha256& s) const noexcept {
    std::size_t h;
    std::memcpy(&h, s.data(), sizeof h);
    return h;
  }
};

}  // namespace mapindex
