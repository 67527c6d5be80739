// SpriteTile level files (`.bytes`): an LZF-compressed header, a table of
// named tags pointing at their data, the `lvlayrs` layers with their cells and
// the optional `numsets`. Layout: the sizes and structs below; what each
// check refuses: the error codes below.
//
// decode_level() is a pure function over the file bytes. It decompresses the
// whole level once (exact size found first, capped), validates every offset
// and size in 64 bits and keeps the decompressed buffer; cells are read from
// it through CellView. Big-endian files are normalised to little-endian in
// place, so a big-endian file decodes to exactly what its little-endian twin
// decodes to (except Level::big_endian).
//
// Error codes (Error::code); messages about a layer start with "layer N: ":
//   st.lzf.empty, st.lzf.truncated, st.lzf.backref, st.lzf.cap, st.lzf.failed
//                          the LZF stream (see lzf_stream.h)
//   st.magic               does not start with "SpriteTileLevel"
//   st.header.truncated    shorter than the 24-byte header
//   st.endian              endianness byte neither 0 (big) nor 1 (little)
//   st.version             level version other than 2 or 3
//   st.tags.count          tag count below 1, or the tag table runs past the end
//   st.lvlayrs.duplicate   a second `lvlayrs` tag
//   st.numsets.duplicate   a second `numsets` tag
//   st.not_level           no `lvlayrs` but groups tags: a SpriteTile groups file
//   st.lvlayrs.missing     no `lvlayrs` tag (and no groups tags)
//   st.tag.offset          `lvlayrs` or `numsets` data outside the file
//   st.numsets             numsets not 2, 4, 8, 16 or 32
//   st.layers.count        negative layer count, or more layers than bytes allow
//   st.layer.truncated     a layer header runs past the end
//   st.layer.size          width or height below 1, or width*height cells
//                          (7 bytes each) run past the end
// Warnings (Level::warnings): st.layer.tag (layer tag other than "lyrdata").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/problem.h"
#include "common/result.h"
#include "decode/spritetile/cell.h"
#include "decode/spritetile/lzf_stream.h"

namespace mapindex::spritetile {

inline constexpr std::string_view kMagic = "SpriteTileLevel";
inline constexpr std::size_t kHeaderSize = 24;  // magic, endianness, version, tag count
inline constexpr std::size_t kTagNameSize = 7;
inline constexpr std::size_t kTagEntrySize = 11;     // name + int offset
inline constexpr std::size_t kLayerHeaderSize = 47;  // "lyrdata" + 10 four-byte fields
inline constexpr std::int32_t kDefaultNumSets = 32;
inline constexpr std::int32_t kTileSlots = 32768;  // numsets * tiles per set

struct Tag {
  std::string name;         // 7 bytes as stored
  std::int32_t offset = 0;  // from the start of the decompressed level
  bool operator==(const Tag&) const = default;
};

struct Layer {
  std::string tag;  // "lyrdata" in every real file
  float tile_size_x = 0, tile_size_y = 0;
  std::int32_t scroll_x = 0, scroll_y = 0;
  std::int32_t preview_size = 0;
  float z = 0;
  std::int32_t layer_lock = 0;  // 0 none, 1 X, 2 Y, 3 X and Y; others stored as they are
  std::int32_t add_border = 0;
  std::int32_t width = 0, height = 0;  // both >= 1
  std::size_t cells_offset = 0;        // of the first cell in Level::data()

  std::int64_t num_cells() const { return std::int64_t{width} * height; }
  bool operator==(const Layer&) const = default;  // floats compare by value
};

struct Level {
  std::int32_t version = 0;             // 2 or 3
  bool big_endian = false;              // as stored; the buffer is little-endian after decoding
  std::vector<Tag> tags;                // the whole tag table, in file order
  std::optional<std::int32_t> numsets;  // value of the `numsets` tag when present
  std::vector<Layer> layers;
  Problems warnings;  // non-fatal findings (location "layer N")
  ByteBuffer data;    // the decompressed level (cells little-endian)

  std::int32_t num_sets() const { return numsets.value_or(kDefaultNumSets); }
  std::int32_t tiles_per_set() const { return kTileSlots / num_sets(); }
  // Precondition: layer < layers.size().
  CellView cells(std::size_t layer) const;
};

struct DecodeOptions {
  // Ceiling on the decompressed level; the effective cap is
  // lzf_size_cap(file size, max_decompressed_size).
  std::size_t max_decompressed_size = kDefaultMaxDecompressedSize;
};

// Cheap content check: the first tokens of an LZF stream decode to
// "SpriteTileLevel". Levels and groups files both pass; other `.bytes`
// assets, Teeworlds maps and empty input do not.
bool looks_like_spritetile(Bytes file);

// Decompresses and parses a level file.
Result<Level> decode_level(Bytes file, const DecodeOptions& options = {});

// Parses an already decompressed level; takes the buffer (big-endian cells
// are swapped in place).
Result<Level> parse_level(ByteBuffer decompressed);

}  // namespace mapindex::spritetile
