// A SpriteTile level writer for tests, benchmarks and fuzzing (never used by
// the product). Builds levels in either byte order with any tags in any
// order (lvlayrs, numsets, the editor's preference tags, groups tags, raw
// ones), lets tests break the header, tag table and layers, and compresses
// with liblzf's lzf_compress. Also builds hand-made LZF streams.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mapindex::testing {

struct StCell {
  std::int16_t tile = -1;
  std::uint16_t misc = 0;
  std::int16_t order = 0;
  std::uint8_t trigger = 0;
};

struct StLayer {
  std::string tag = "lyrdata";  // written as 7 bytes (cut or NUL-padded)
  float tile_size_x = 1, tile_size_y = 1;
  std::int32_t scroll_x = 0, scroll_y = 0, preview_size = 64;
  float z = 0;
  std::int32_t layer_lock = 0, add_border = 0;
  std::int32_t width = 1, height = 1;
  // Cells row by row from the lower-left corner. With pad_cells, written as
  // exactly width*height cells (missing ones empty); otherwise exactly these.
  std::vector<StCell> cells;
  bool pad_cells = true;
};

class SpriteTileWriter {
 public:
  explicit SpriteTileWriter(bool big_endian = false, std::int32_t version = 2);

  // Tags are written to the table in call order.
  SpriteTileWriter& layers(const std::vector<StLayer>& layers);  // "lvlayrs"
  SpriteTileWriter& numsets(std::int32_t value);                 // "numsets"
  // The editor's preference tags with payloads of their real sizes: prvsize,
  // tintclr, divposn, stlsize, curlayr, bkmarks, panelwd, srtlyrs.
  SpriteTileWriter& editor_tags();
  // The tags of a groups file (grpsets, rndsets, tersets) with some payload.
  SpriteTileWriter& groups_tags();
  SpriteTileWriter& raw_tag(std::string name, std::vector<std::uint8_t> payload);

  // Order in which tag payloads follow the table (indices into the tags);
  // default: table order. Indices left out are placed after, in table order.
  SpriteTileWriter& payload_order(std::vector<std::size_t> order);
  // Breakage: overrides of the stored tag count, one tag's offset, the magic
  // and the endianness byte.
  SpriteTileWriter& tag_count(std::int32_t count);
  SpriteTileWriter& tag_offset(std::size_t tag, std::int32_t offset);
  SpriteTileWriter& magic(std::string magic);
  SpriteTileWriter& endian_byte(std::uint8_t value);
  // Bytes appended after all payloads.
  SpriteTileWriter& trailer(std::vector<std::uint8_t> bytes);

  std::size_t num_tags() const { return tags_.size(); }

  // The uncompressed level.
  std::vector<std::uint8_t> raw() const;
  // raw() compressed with lzf_compress.
  std::vector<std::uint8_t> compressed() const;

  // Encodings in this writer's byte order.
  std::vector<std::uint8_t> encode_i32(std::int32_t value) const;
  std::vector<std::uint8_t> encode_layers(const std::vector<StLayer>& layers) const;

 private:
  struct TagEntry {
    std::string name;
    std::vector<std::uint8_t> payload;
    std::optional<std::int32_t> offset;
  };

  bool big_endian_;
  std::int32_t version_;
  std::vector<TagEntry> tags_;
  std::vector<std::size_t> payload_order_;
  std::optional<std::int32_t> tag_count_;
  std::string magic_ = "SpriteTileLevel";
  std::optional<std::uint8_t> endian_byte_;
  std::vector<std::uint8_t> trailer_;
};

// LZF-compresses `raw` with liblzf (lzf_compress); aborts if it fails.
std::vector<std::uint8_t> lzf_compress_bytes(std::span<const std::uint8_t> raw);
// A valid LZF stream of literal runs only (no back references).
std::vector<std::uint8_t> lzf_literal_stream(std::span<const std::uint8_t> raw);

}  // namespace mapindex::testing
