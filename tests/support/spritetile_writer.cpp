#include "tests/support/spritetile_writer.h"

#include <lzf.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace mapindex::testing {

namespace {

void put_u16(std::vector<std::uint8_t>& out, std::uint16_t v, bool big_endian) {
  const auto lo = static_cast<std::uint8_t>(v);
  const auto hi = static_cast<std::uint8_t>(v >> 8);
  if (big_endian) {
    out.push_back(hi);
    out.push_back(lo);
  } else {
    out.push_back(lo);
    out.push_back(hi);
  }
}

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v, bool big_endian) {
  for (int i = 0; i < 4; ++i) {
    const int shift = big_endian ? 24 - 8 * i : 8 * i;
    out.push_back(static_cast<std::uint8_t>(v >> shift));
  }
}

void put_name(std::vector<std::uint8_t>& out, const std::string& name) {
  for (std::size_t i = 0; i < 7; ++i)
    out.push_back(i < name.size() ? static_cast<std::uint8_t>(name[i]) : 0);
}

std::vector<std::uint8_t> pattern(std::size_t size, std::uint8_t seed) {
  std::vector<std::uint8_t> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::uint8_t>(seed + i * 7);
  return bytes;
}

}  // namespace

SpriteTileWriter::SpriteTileWriter(bool big_endian, std::int32_t version)
    : big_endian_(big_endian), version_(version) {}

SpriteTileWriter& SpriteTileWriter::layers(const std::vector<StLayer>& layers) {
  return raw_tag("lvlayrs", encode_layers(layers));
}

SpriteTileWriter& SpriteTileWriter::numsets(std::int32_t value) {
  return raw_tag("numsets", encode_i32(value));
}

SpriteTileWriter& SpriteTileWriter::editor_tags() {
  raw_tag("prvsize", encode_i32(64));
  raw_tag("tintclr", {0x80, 0x80, 0xff, 0xff});
  raw_tag("divposn", encode_i32(300));
  raw_tag("stlsize", {1});
  raw_tag("curlayr", encode_i32(0));
  raw_tag("bkmarks", pattern(199, 3));
  raw_tag("panelwd", encode_i32(250));
  return raw_tag("srtlyrs", pattern(12, 9));
}

SpriteTileWriter& SpriteTileWriter::groups_tags() {
  raw_tag("grpsets", pattern(400, 1));
  raw_tag("rndsets", pattern(143, 2));
  return raw_tag("tersets", pattern(137, 5));
}

SpriteTileWriter& SpriteTileWriter::raw_tag(std::string name, std::vector<std::uint8_t> payload) {
  tags_.push_back(TagEntry{std::move(name), std::move(payload), std::nullopt});
  return *this;
}

SpriteTileWriter& SpriteTileWriter::payload_order(std::vector<std::size_t> order) {
  payload_order_ = std::move(order);
  return *this;
}

SpriteTileWriter& SpriteTileWriter::tag_count(std::int32_t count) {
  tag_count_ = count;
  return *this;
}

SpriteTileWriter& SpriteTileWriter::tag_offset(std::size_t tag, std::int32_t offset) {
  tags_.at(tag).offset = offset;
  return *this;
}

SpriteTileWriter& SpriteTileWriter::magic(std::string magic) {
  magic_ = std::move(magic);
  return *this;
}

SpriteTileWriter& SpriteTileWriter::endian_byte(std::uint8_t value) {
  endian_byte_ = value;
  return *this;
}

SpriteTileWriter& SpriteTileWriter::trailer(std::vector<std::uint8_t> bytes) {
  trailer_ = std::move(bytes);
  return *this;
}

std::vector<std::uint8_t> SpriteTileWriter::encode_i32(std::int32_t value) const {
  std::vector<std::uint8_t> out;
  put_u32(out, static_cast<std::uint32_t>(value), big_endian_);
  return out;
}

std::vector<std::uint8_t> SpriteTileWriter::encode_layers(
    const std::vector<StLayer>& layers) const {
  std::vector<std::uint8_t> out;
  put_u32(out, static_cast<std::uint32_t>(layers.size()), big_endian_);
  for (const StLayer& l : layers) {
    put_name(out, l.tag);
    put_u32(out, std::bit_cast<std::uint32_t>(l.tile_size_x), big_endian_);
    put_u32(out, std::bit_cast<std::uint32_t>(l.tile_size_y), big_endian_);
    put_u32(out, static_cast<std::uint32_t>(l.scroll_x), big_endian_);
    put_u32(out, static_cast<std::uint32_t>(l.scroll_y), big_endian_);
    put_u32(out, static_cast<std::uint32_t>(l.preview_size), big_endian_);
    put_u32(out, std::bit_cast<std::uint32_t>(l.z), big_endian_);
    put_u32(out, static_cast<std::uint32_t>(l.layer_lock), big_endian_);
    put_u32(out, static_cast<std::uint32_t>(l.add_border), big_endian_);
    put_u32(out, static_cast<std::uint32_t>(l.width), big_endian_);
    put_u32(out, static_cast<std::uint32_t>(l.height), big_endian_);
    std::size_t count = l.cells.size();
    if (l.pad_cells) {
      const std::int64_t declared = std::int64_t{l.width} * l.height;
      count = declared > 0 ? static_cast<std::size_t>(declared) : 0;
    }
    out.reserve(out.size() + count * 7);
    for (std::size_t i = 0; i < count; ++i) {
      const StCell c = i < l.cells.size() ? l.cells[i] : StCell{};
      put_u16(out, static_cast<std::uint16_t>(c.tile), big_endian_);
      put_u16(out, c.misc, big_endian_);
      put_u16(out, static_cast<std::uint16_t>(c.order), big_endian_);
      out.push_back(c.trigger);
    }
  }
  return out;
}

std::vector<std::uint8_t> SpriteTileWriter::raw() const {
  std::vector<std::uint8_t> out(magic_.begin(), magic_.end());
  out.push_back(endian_byte_.value_or(big_endian_ ? 0 : 1));
  put_u32(out, static_cast<std::uint32_t>(version_), big_endian_);
  put_u32(out,
          static_cast<std::uint32_t>(tag_count_.value_or(static_cast<std::int32_t>(tags_.size()))),
          big_endian_);

  std::vector<std::size_t> order;
  for (std::size_t i : payload_order_)
    if (i < tags_.size() && std::find(order.begin(), order.end(), i) == order.end())
      order.push_back(i);
  for (std::size_t i = 0; i < tags_.size(); ++i)
    if (std::find(order.begin(), order.end(), i) == order.end()) order.push_back(i);

  std::vector<std::size_t> offsets(tags_.size());
  std::size_t at = out.size() + tags_.size() * 11;
  for (std::size_t i : order) {
    offsets[i] = at;
    at += tags_[i].payload.size();
  }
  for (std::size_t i = 0; i < tags_.size(); ++i) {
    put_name(out, tags_[i].name);
    const auto offset = tags_[i].offset.value_or(static_cast<std::int32_t>(offsets[i]));
    put_u32(out, static_cast<std::uint32_t>(offset), big_endian_);
  }
  for (std::size_t i : order)
    out.insert(out.end(), tags_[i].payload.begin(), tags_[i].payload.end());
  out.insert(out.end(), trailer_.begin(), trailer_.end());
  return out;
}

std::vector<std::uint8_t> SpriteTileWriter::compressed() const { return lzf_compress_bytes(raw()); }

std::vector<std::uint8_t> lzf_compress_bytes(std::span<const std::uint8_t> raw) {
  // LZF's worst case adds one control byte per 32 literals.
  std::vector<std::uint8_t> out(raw.size() + raw.size() / 16 + 64);
  const unsigned size = lzf_compress(raw.data(), static_cast<unsigned>(raw.size()), out.data(),
                                     static_cast<unsigned>(out.size()));
  if (size == 0 && !raw.empty()) {
    std::fprintf(stderr, "lzf_compress failed on %zu bytes\n", raw.size());
    std::abort();
  }
  out.resize(size);
  return out;
}

std::vector<std::uint8_t> lzf_literal_stream(std::span<const std::uint8_t> raw) {
  std::vector<std::uint8_t> out;
  out.reserve(raw.size() + raw.size() / 32 + 1);
  for (std::size_t at = 0; at < raw.size(); at += 32) {
    const std::size_t run = std::min<std::size_t>(32, raw.size() - at);
    out.push_back(static_cast<std::uint8_t>(run - 1));
    out.insert(out.end(), raw.begin() + static_cast<std::ptrdiff_t>(at),
               raw.begin() + static_cast<std::ptrdiff_t>(at + run));
  }
  return out;
}

}  // namespace mapindex::testing
