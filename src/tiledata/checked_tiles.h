// Inflated tile data, and whether its bytes are vouched for. A datafile hands
// tile data out before comparing its Adler-32 (UncheckedTiles), because the
// tile counter sums the checksum on its own pass over the bytes, skipping air
// in one step. Only CheckedTiles can be drawn (render::TileLayerView holds
// them), and a counter's result is handed out only with them
// (read_and_check), so nothing counted or drawn comes from corrupt data.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "common/bytes.h"
#include "common/sha256.h"
#include "tiledata/adler32.h"
#include "tiledata/zero_blocks.h"

namespace mapindex::tiledata {

class UncheckedTiles {
 public:
  // `expected`: the Adler-32 the bytes must have (the zlib stream's);
  // nullopt when there is none to compare: a version 3 datafile stores its
  // data uncompressed, so the bytes are the file's own.
  UncheckedTiles(Bytes bytes, KnownZeros known, std::optional<std::uint32_t> expected)
      : bytes_(bytes), known_(known), expected_(expected) {}

  Bytes bytes() const { return bytes_; }
  const KnownZeros& known() const { return known_; }
  std::optional<std::uint32_t> expected() const { return expected_; }

 private:
  Bytes bytes_;
  KnownZeros known_;
  std::optional<std::uint32_t> expected_;
};

class CheckedTiles {
 public:
  Bytes bytes() const { return bytes_; }
  const KnownZeros& known() const { return known_; }

  // Tiles whose stored stream has the SHA-256 `stream_key` of a result that
  // was kept only once its data passed the check (the layer-result store,
  // extract/layer_data.h): the same stream, checksum included, inflates to
  // the same bytes, so the key vouches for them without a pass over them.
  static CheckedTiles vouched_by_key(const UncheckedTiles& tiles, const Sha256& stream_key) {
    (void)stream_key;  // the caller's proof; the bytes are not read
    return CheckedTiles(tiles.bytes(), tiles.known());
  }

 private:
  CheckedTiles(Bytes bytes, KnownZeros known) : bytes_(bytes), known_(known) {}
  friend std::optional<CheckedTiles> check(const UncheckedTiles& tiles);
  template <class Read>
  friend auto read_and_check(const UncheckedTiles& tiles, Read&& read)
      -> std::optional<std::pair<CheckedTiles, decltype(read(Bytes{}, KnownZeros{},
                                                             static_cast<Adler32Scan*>(nullptr)))>>;

  Bytes bytes_;
  KnownZeros known_;
};

// The tiles once their Adler-32 over every byte is the expected one; nullopt
// when it is not (the data is corrupt). For readers that do not count.
inline std::optional<CheckedTiles> check(const UncheckedTiles& tiles) {
  if (tiles.expected() && adler32(tiles.bytes()) != *tiles.expected()) return std::nullopt;
  return CheckedTiles(tiles.bytes(), tiles.known());
}

// Runs `read(bytes, known, scan)` once over the tiles, where `scan` (null when
// nothing is expected) is an Adler32Scan of the bytes the reader reports the
// zero runs it skips to, and returns what it returned with the CheckedTiles
// when the sum is the expected one; nullopt when not: the result is dropped.
template <class Read>
auto read_and_check(const UncheckedTiles& tiles, Read&& read)
    -> std::optional<std::pair<CheckedTiles, decltype(read(Bytes{}, KnownZeros{},
                                                           static_cast<Adler32Scan*>(nullptr)))>> {
  Adler32Scan scan(tiles.bytes());
  Adler32Scan* const summing = tiles.expected() ? &scan : nullptr;
  auto result = read(tiles.bytes(), tiles.known(), summing);
  if (summing && scan.finish() != *tiles.expected()) return std::nullopt;
  return std::pair(CheckedTiles(tiles.bytes(), tiles.known()), std::move(result));
}

}  // namespace mapindex::tiledata
