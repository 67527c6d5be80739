#include "decode/spritetile/level.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <utility>

namespace mapindex::spritetile {

namespace {

constexpr std::string_view kLayersTag = "lvlayrs";
constexpr std::string_view kNumSetsTag = "numsets";
constexpr std::string_view kLayerDataTag = "lyrdata";
constexpr std::array<std::string_view, 3> kGroupsTags = {"grpsets", "rndsets", "tersets"};
constexpr std::size_t kMinLayerSize = kLayerHeaderSize + kCellSize;  // width, height >= 1

// Reads ints and floats in the file's byte order. Callers check bounds.
class Reader {
 public:
  Reader(Bytes data, bool big_endian) : data_(data), big_endian_(big_endian) {}

  std::uint32_t u32(std::size_t at) const {
    const std::uint8_t* p = data_.data() + at;
    return big_endian_ ? load_be_u32(p) : load_le_u32(p);
  }
  std::int32_t i32(std::size_t at) const { return static_cast<std::int32_t>(u32(at)); }
  float f32(std::size_t at) const { return std::bit_cast<float>(u32(at)); }
  std::string str(std::size_t at, std::size_t n) const {
    return std::string(reinterpret_cast<const char*>(data_.data() + at), n);
  }
  std::size_t size() const { return data_.size(); }

 private:
  Bytes data_;
  bool big_endian_;
};

std::string layer_prefix(std::size_t layer) { return "layer " + std::to_string(layer) + ": "; }

// Swaps the three 16-bit fields of each 7-byte cell record.
void swap_cells_to_little_endian(std::uint8_t* p, std::size_t num_cells) {
  for (std::size_t i = 0; i < num_cells; ++i, p += kCellSize) {
    std::swap(p[0], p[1]);
    std::swap(p[2], p[3]);
    std::swap(p[4], p[5]);
  }
}

// Where the tags this decoder reads point, after the duplicate checks.
struct KnownTags {
  std::optional<std::int32_t> lvlayrs;
  std::optional<std::int32_t> numsets;
  bool groups = false;
};

Result<KnownTags> find_known_tags(const std::vector<Tag>& tags) {
  KnownTags known;
  for (std::size_t i = 0; i < tags.size(); ++i) {
    const Tag& tag = tags[i];
    if (tag.name == kLayersTag) {
      if (known.lvlayrs) {
        return Error{Code::st_lvlayrs_duplicate,
                     "tag " + std::to_string(i) + " is a second \"lvlayrs\" tag (offset " +
                         std::to_string(tag.offset) + ", first at offset " +
                         std::to_string(*known.lvlayrs) + "): expected exactly one"};
      }
      known.lvlayrs = tag.offset;
    } else if (tag.name == kNumSetsTag) {
      if (known.numsets) {
        return Error{Code::st_numsets_duplicate,
                     "tag " + std::to_string(i) + " is a second \"numsets\" tag (offset " +
                         std::to_string(tag.offset) + ", first at offset " +
                         std::to_string(*known.numsets) + "): expected at most one"};
      }
      known.numsets = tag.offset;
    } else if (std::find(kGroupsTags.begin(), kGroupsTags.end(), tag.name) != kGroupsTags.end()) {
      known.groups = true;
    }
  }
  return known;
}

std::string tag_names(const std::vector<Tag>& tags) {
  std::string names;
  for (const Tag& tag : tags) {
    if (!names.empty()) names += ", ";
    for (char c : tag.name) names += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  return names;
}

// Checks that `size` bytes at `offset` (a tag's data) lie inside the level.
std::optional<Error> check_tag_data(std::string_view name, std::int32_t offset, std::size_t size,
                                    std::size_t level_size) {
  if (offset < 0 || static_cast<std::uint64_t>(offset) + size > level_size) {
    return Error{Code::st_tag_offset, "\"" + std::string(name) + "\" data at offset " +
                                          std::to_string(offset) + " (" + std::to_string(size) +
                                          " bytes) lies outside the " + std::to_string(level_size) +
                                          "-byte level"};
  }
  return std::nullopt;
}

Result<std::vector<Layer>> parse_layers(const Reader& in, std::size_t at, Problems& warnings) {
  const std::size_t end = in.size();
  const std::int32_t count = in.i32(at);
  at += 4;
  if (count < 0 || static_cast<std::uint64_t>(count) > (end - at) / kMinLayerSize) {
    return Error{Code::st_layers_count,
                 "layer count " + std::to_string(count) + " at offset " + std::to_string(at - 4) +
                     ": expected 0 to " + std::to_string((end - at) / kMinLayerSize) +
                     " (each layer takes at least " + std::to_string(kMinLayerSize) +
                     " bytes and " + std::to_string(end - at) + " remain)"};
  }
  std::vector<Layer> layers;
  layers.reserve(static_cast<std::size_t>(count));
  for (std::int32_t i = 0; i < count; ++i) {
    const auto index = static_cast<std::size_t>(i);
    if (end - at < kLayerHeaderSize) {
      return Error{Code::st_layer_truncated,
                   layer_prefix(index) + "header (" + std::to_string(kLayerHeaderSize) +
                       " bytes at offset " + std::to_string(at) + ") runs past the end of the " +
                       std::to_string(end) + "-byte level",
                   Location::layer(index)};
    }
    Layer layer;
    layer.tag = in.str(at, kTagNameSize);
    layer.tile_size_x = in.f32(at + 7);
    layer.tile_size_y = in.f32(at + 11);
    layer.scroll_x = in.i32(at + 15);
    layer.scroll_y = in.i32(at + 19);
    layer.preview_size = in.i32(at + 23);
    layer.z = in.f32(at + 27);
    layer.layer_lock = in.i32(at + 31);
    layer.add_border = in.i32(at + 35);
    layer.width = in.i32(at + 39);
    layer.height = in.i32(at + 43);
    at += kLayerHeaderSize;

    if (layer.tag != kLayerDataTag) {
      warnings.push_back(
          Problem{Code::st_layer_tag,
                  "layer tag is \"" + tag_names({Tag{layer.tag, 0}}) + "\", expected \"lyrdata\"",
                  Location::layer(index)});
    }
    if (layer.width < 1 || layer.height < 1) {
      return Error{Code::st_layer_size,
                   layer_prefix(index) + "width " + std::to_string(layer.width) + " and height " +
                       std::to_string(layer.height) + ": both must be at least 1",
                   Location::layer(index)};
    }
    // width * height < 2^62 in 64 bits; compare cells, not bytes, so that
    // nothing can wrap.
    const auto cells =
        static_cast<std::uint64_t>(layer.width) * static_cast<std::uint64_t>(layer.height);
    if (cells > (end - at) / kCellSize) {
      return Error{Code::st_layer_size,
                   layer_prefix(index) + std::to_string(layer.width) + " x " +
                       std::to_string(layer.height) + " = " + std::to_string(cells) +
                       " cells need " + std::to_string(cells) + " * 7 bytes from offset " +
                       std::to_string(at) + ", but only " + std::to_string(end - at) +
                       " bytes remain in the level",
                   Location::layer(index)};
    }
    layer.cells_offset = at;
    at += static_cast<std::size_t>(cells) * kCellSize;
    layers.push_back(std::move(layer));
  }
  return layers;
}

}  // namespace

CellView Level::cells(std::size_t layer) const {
  const Layer& l = layers[layer];
  return CellView(
      data.view().subspan(l.cells_offset, static_cast<std::size_t>(l.num_cells()) * kCellSize));
}

bool looks_like_spritetile(Bytes file) {
  std::array<std::uint8_t, kMagic.size()> prefix{};
  if (lzf_decompress_prefix(file, prefix) != prefix.size()) return false;
  return std::memcmp(prefix.data(), kMagic.data(), kMagic.size()) == 0;
}

Result<Level> decode_level(Bytes file, const DecodeOptions& options) {
  auto decompressed =
      lzf_decompress(file, lzf_size_cap(file.size(), options.max_decompressed_size));
  if (!decompressed) return decompressed.error();
  return parse_level(std::move(*decompressed));
}

Result<Level> parse_level(ByteBuffer decompressed) {
  const Bytes bytes = decompressed.view();
  const std::size_t size = bytes.size();
  if (size < kMagic.size() || std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0) {
    return Error{Code::st_magic, "the decompressed file does not start with \"SpriteTileLevel\""};
  }
  if (size < kHeaderSize) {
    return Error{Code::st_header_truncated, "the level is " + std::to_string(size) +
                                                " bytes, shorter than its 24-byte header"};
  }
  const std::uint8_t endian = bytes[15];
  if (endian > 1) {
    return Error{Code::st_endian, "endianness byte is " + std::to_string(endian) +
                                      ", expected 0 (big endian) or 1 (little endian)"};
  }
  Level level;
  level.big_endian = endian == 0;
  const Reader in(bytes, level.big_endian);
  level.version = in.i32(16);
  if (level.version != 2 && level.version != 3) {
    return Error{Code::st_version, "level version " + std::to_string(level.version) +
                                       " is not supported: expected 2 or 3"};
  }
  const std::int32_t num_tags = in.i32(20);
  const std::uint64_t max_tags = (size - kHeaderSize) / kTagEntrySize;
  if (num_tags < 1 || static_cast<std::uint64_t>(num_tags) > max_tags) {
    return Error{Code::st_tags_count,
                 "tag count " + std::to_string(num_tags) + ": expected 1 to " +
                     std::to_string(max_tags) + " (" + std::to_string(kTagEntrySize) +
                     " bytes each after the header in a " + std::to_string(size) + "-byte level)"};
  }
  level.tags.reserve(static_cast<std::size_t>(num_tags));
  for (std::size_t i = 0; i < static_cast<std::size_t>(num_tags); ++i) {
    const std::size_t at = kHeaderSize + i * kTagEntrySize;
    level.tags.push_back(Tag{in.str(at, kTagNameSize), in.i32(at + kTagNameSize)});
  }

  auto known = find_known_tags(level.tags);
  if (!known) return known.error();
  if (!known->lvlayrs) {
    if (known->groups) {
      return Error{Code::st_not_level, "no \"lvlayrs\" tag; tags " + tag_names(level.tags) +
                                           ": a SpriteTile groups file, not a level"};
    }
    return Error{Code::st_lvlayrs_missing,
                 "no \"lvlayrs\" tag among the tags " + tag_names(level.tags)};
  }
  if (auto e = check_tag_data(kLayersTag, *known->lvlayrs, 4, size)) return *e;
  if (known->numsets) {
    if (auto e = check_tag_data(kNumSetsTag, *known->numsets, 4, size)) return *e;
    const std::int32_t numsets = in.i32(static_cast<std::size_t>(*known->numsets));
    if (numsets != 2 && numsets != 4 && numsets != 8 && numsets != 16 && numsets != 32) {
      return Error{Code::st_numsets,
                   "numsets is " + std::to_string(numsets) + ": expected 2, 4, 8, 16 or 32"};
    }
    level.numsets = numsets;
  }

  auto layers = parse_layers(in, static_cast<std::size_t>(*known->lvlayrs), level.warnings);
  if (!layers) return layers.error();
  level.layers = std::move(*layers);

  if (level.big_endian) {
    for (const Layer& layer : level.layers) {
      swap_cells_to_little_endian(decompressed.bytes.get() + layer.cells_offset,
                                  static_cast<std::size_t>(layer.num_cells()));
    }
  }
  level.data = std::move(decompressed);
  return level;
}

}  // namespace mapindex::spritetile
