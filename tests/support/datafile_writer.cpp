#include "tests/support/datafile_writer.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "common/bytes.h"
#include "decode/datafile/datafile.h"

namespace mapindex::testing {
namespace {

// Writes into a buffer sized up front (no reallocation while writing).
class Cursor {
 public:
  explicit Cursor(std::vector<std::uint8_t>& out) : out_(out) {}
  void i32(std::int64_t value) {
    store_le_u32(out_.data() + at_, static_cast<std::uint32_t>(value));
    at_ += 4;
  }
  void bytes(const void* p, std::size_t n) {
    if (n != 0) std::memcpy(out_.data() + at_, p, n);
    at_ += n;
  }
  std::size_t position() const { return at_; }

 private:
  std::vector<std::uint8_t>& out_;
  std::size_t at_ = 0;
};

std::vector<std::uint8_t> zlib_compress(std::span<const std::uint8_t> bytes, int level) {
  uLongf bound = compressBound(static_cast<uLong>(bytes.size()));
  std::vector<std::uint8_t> out(bound);
  if (compress2(out.data(), &bound, bytes.data(), static_cast<uLong>(bytes.size()), level) != Z_OK)
    throw std::runtime_error("zlib compress2 failed");
  out.resize(bound);
  return out;
}

}  // namespace

void DatafileWriter::add_item(std::uint16_t type_id, std::uint16_t id,
                              std::vector<std::int32_t> data) {
  items_.push_back(PendingItem{type_id, id, std::move(data)});
}

std::uint16_t DatafileWriter::uuid_type(const datafile::Uuid& uuid) {
  for (std::size_t i = 0; i < uuids_.size(); ++i)
    if (uuids_[i] == uuid) return static_cast<std::uint16_t>(datafile::kFirstUuidTypeId + i);
  const auto type_id = static_cast<std::uint16_t>(datafile::kFirstUuidTypeId + uuids_.size());
  uuids_.push_back(uuid);
  std::vector<std::int32_t> ints(4);
  for (std::size_t k = 0; k < 4; ++k)
    ints[k] = static_cast<std::int32_t>(load_be_u32(uuid.bytes.data() + 4 * k));
  add_item(datafile::kUuidIndexType, type_id, std::move(ints));
  return type_id;
}

std::int32_t DatafileWriter::add_data(std::span<const std::uint8_t> bytes) {
  data_.emplace_back(bytes.begin(), bytes.end());
  return static_cast<std::int32_t>(data_.size() - 1);
}

std::int32_t DatafileWriter::add_string(std::string_view text) {
  std::vector<std::uint8_t> bytes(text.begin(), text.end());
  bytes.push_back(0);
  return add_data(bytes);
}

std::vector<std::uint8_t> DatafileWriter::finish(const WriterOptions& options) const {
  if (options.version != 3 && options.version != 4)
    throw std::invalid_argument("DatafileWriter: version must be 3 or 4");
  const bool v4 = options.version == 4;

  // Group items by type, types in order of first appearance (in linear
  // time: the fuzz regression tests write hundreds of thousands of items).
  std::vector<std::uint16_t> types;
  std::vector<std::vector<const PendingItem*>> by_type;
  std::vector<std::int32_t> slot(0x10000, -1);
  for (const auto& item : items_) {
    auto& s = slot[item.type_id];
    if (s < 0) {
      s = static_cast<std::int32_t>(types.size());
      types.push_back(item.type_id);
      by_type.emplace_back();
    }
    by_type[static_cast<std::size_t>(s)].push_back(&item);
  }
  std::vector<const PendingItem*> ordered;
  ordered.reserve(items_.size());
  struct TypeEntry {
    std::uint16_t type_id;
    std::size_t start, num;
  };
  std::vector<TypeEntry> type_entries;
  for (std::size_t k = 0; k < types.size(); ++k) {
    const std::size_t start = ordered.size();
    ordered.insert(ordered.end(), by_type[k].begin(), by_type[k].end());
    type_entries.push_back({types[k], start, ordered.size() - start});
  }

  std::vector<std::size_t> item_offsets;
  std::size_t item_size = 0;
  for (const auto* item : ordered) {
    item_offsets.push_back(item_size);
    item_size += 8 + 4 * item->data.size();
  }

  std::vector<std::vector<std::uint8_t>> stored;
  stored.reserve(data_.size());
  for (const auto& d : data_) stored.push_back(v4 ? zlib_compress(d, options.zlib_level) : d);
  std::vector<std::size_t> data_offsets;
  std::size_t data_size = 0;
  for (const auto& s : stored) {
    data_offsets.push_back(data_size);
    data_size += s.size();
  }

  const std::size_t num_data = data_.size();
  const std::size_t size_table = v4 ? 4 * num_data : 0;
  const std::size_t file_size = 36 + 12 * type_entries.size() + 4 * ordered.size() + 4 * num_data +
                                size_table + item_size + data_size;
  const std::size_t crude_cut = options.crude_header ? 4 * num_data : 0;

  std::vector<std::uint8_t> out(file_size);
  Cursor c(out);
  c.bytes(options.reversed_magic ? "ATAD" : "DATA", 4);
  c.i32(options.version);
  c.i32(static_cast<std::int64_t>(file_size - 16 - crude_cut));              // size
  c.i32(static_cast<std::int64_t>(file_size - data_size - 16 - crude_cut));  // swaplen
  c.i32(static_cast<std::int64_t>(type_entries.size()));
  c.i32(static_cast<std::int64_t>(ordered.size()));
  c.i32(static_cast<std::int64_t>(num_data));
  c.i32(static_cast<std::int64_t>(item_size));
  c.i32(static_cast<std::int64_t>(data_size));
  for (const auto& e : type_entries) {
    c.i32(e.type_id);
    c.i32(static_cast<std::int64_t>(e.start));
    c.i32(static_cast<std::int64_t>(e.num));
  }
  for (std::size_t o : item_offsets) c.i32(static_cast<std::int64_t>(o));
  for (std::size_t o : data_offsets) c.i32(static_cast<std::int64_t>(o));
  if (v4)
    for (const auto& d : data_) c.i32(static_cast<std::int64_t>(d.size()));
  for (const auto* item : ordered) {
    c.i32(static_cast<std::int64_t>((std::uint32_t{item->type_id} << 16) | item->id));
    c.i32(static_cast<std::int64_t>(4 * item->data.size()));
    for (std::int32_t v : item->data) c.i32(v);
  }
  for (const auto& s : stored) c.bytes(s.data(), s.size());
  if (c.position() != file_size) throw std::logic_error("DatafileWriter: size mismatch");
  return out;
}

FileLayout file_layout(std::span<const std::uint8_t> file) {
  FileLayout l;
  auto field = [&](std::size_t offset) {
    return static_cast<std::size_t>(static_cast<std::uint32_t>(load_le_i32(file.data() + offset)));
  };
  l.version = load_le_i32(file.data() + header_offset::version);
  l.num_item_types = field(header_offset::num_item_types);
  l.num_items = field(header_offset::num_items);
  l.num_data = field(header_offset::num_data);
  l.item_size = field(header_offset::item_size);
  l.data_size = field(header_offset::data_size);
  l.item_types = header_offset::item_types;
  l.item_offsets = l.item_types + 12 * l.num_item_types;
  l.data_offsets = l.item_offsets + 4 * l.num_items;
  l.data_sizes = l.data_offsets + 4 * l.num_data;
  l.items = l.data_sizes + (l.version == 4 ? 4 * l.num_data : 0);
  l.data = l.items + l.item_size;
  return l;
}

void patch_i32(std::vector<std::uint8_t>& file, std::size_t offset, std::int32_t value) {
  if (offset + 4 > file.size()) throw std::out_of_range("patch_i32 past the end of the file");
  store_le_u32(file.data() + offset, static_cast<std::uint32_t>(value));
}

std::vector<std::uint8_t> with_stored_data(std::span<const std::uint8_t> file, std::size_t index,
                                           std::span<const std::uint8_t> stored) {
  const FileLayout l = file_layout(file);
  if (l.version != 4 || index >= l.num_data)
    throw std::invalid_argument("with_stored_data: a v4 file and one of its data items");
  const auto offset = [&](std::size_t i) {
    return i < l.num_data
               ? static_cast<std::size_t>(load_le_u32(file.data() + l.data_offsets + 4 * i))
               : l.data_size;
  };
  const std::size_t begin = l.data + offset(index), end = l.data + offset(index + 1);
  std::vector<std::uint8_t> out(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(begin));
  out.insert(out.end(), stored.begin(), stored.end());
  out.insert(out.end(), file.begin() + static_cast<std::ptrdiff_t>(end), file.end());
  const auto shift = [&](std::size_t at, std::size_t value) {
    patch_i32(out, at, static_cast<std::int32_t>(value - (end - begin) + stored.size()));
  };
  for (std::size_t i = index + 1; i < l.num_data; ++i) shift(l.data_offsets + 4 * i, offset(i));
  shift(header_offset::data_size, l.data_size);
  shift(header_offset::size,
        static_cast<std::size_t>(load_le_u32(file.data() + header_offset::size)));
  return out;
}

std::vector<std::int32_t> to_i32_string(std::string_view text, std::size_t num_ints) {
  std::vector<std::int32_t> ints(num_ints);
  std::size_t index = 0;
  for (std::size_t i = 0; i < num_ints; ++i) {
    std::uint32_t v = 0;
    for (std::size_t c = 0; c < 4; ++c) {
      const std::uint8_t byte =
          index < text.size() ? static_cast<std::uint8_t>(text[index++]) : std::uint8_t{0};
      v = (v << 8) | static_cast<std::uint8_t>(byte + 128);
    }
    ints[i] = static_cast<std::int32_t>(v);
  }
  if (num_ints > 0)
    ints.back() = static_cast<std::int32_t>(static_cast<std::uint32_t>(ints.back()) & 0xFFFFFF00u);
  return ints;
}

}  // namespace mapindex::testing
