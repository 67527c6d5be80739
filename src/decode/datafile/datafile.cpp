#include "decode/datafile/datafile.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <utility>

#include "common/hex.h"
#include "decode/datafile/container.h"
#include "deflate/inflate.h"

namespace mapindex::datafile {
namespace {

// The header (docs/formats/datafile.md): the magic, then eight little-endian
// int32s at these byte offsets.
constexpr char kMagic[] = "DATA", kMagicReversed[] = "ATAD";
constexpr std::size_t kVersionAt = 4, kSizeAt = 8, kSwaplenAt = 12, kNumItemTypesAt = 16,
                      kNumItemsAt = 20, kNumDataAt = 24, kItemSizeAt = 28, kDataSizeAt = 32;
constexpr std::size_t kHeaderSize = 36;
static_assert(kDataSizeAt + 4 == kHeaderSize);
constexpr std::int64_t kMaxMetadata = std::int64_t{1} << 31;  // H8: 2 GiB

using std::to_string;

std::string describe_magic(const std::uint8_t* p) {
  std::string printable;
  bool all_printable = true;
  for (int i = 0; i < 4; ++i) {
    if (p[i] < 0x20 || p[i] > 0x7E) all_printable = false;
    printable += static_cast<char>(p[i]);
  }
  const std::string hex = to_hex(std::span(p, 4));
  return all_printable ? "'" + printable + "' (" + hex + ")" : hex;
}

// A set of 16-bit values on the stack: 8 KiB, no heap.
class U16Set {
 public:
  bool test_and_set(std::uint32_t v) {
    const std::uint64_t bit = std::uint64_t{1} << (v & 63);
    const bool was = (words_[v >> 6] & bit) != 0;
    words_[v >> 6] |= bit;
    return was;
  }
  void reset(std::uint32_t v) { words_[v >> 6] &= ~(std::uint64_t{1} << (v & 63)); }

 private:
  std::array<std::uint64_t, 1024> words_{};
};

std::string item_label(std::size_t index, std::uint32_t type_id, std::uint32_t id) {
  return "item " + to_string(index) + " (type " + to_string(type_id) + ", id " + to_string(id) +
         ")";
}

}  // namespace

Int32View Int32View::subview(std::size_t first, std::size_t count) const {
  const std::size_t n = size();
  if (first > n) first = n;
  if (count > n - first) count = n - first;
  return Int32View(bytes_.subspan(4 * first, 4 * count));
}

namespace {

// The metadata the header describes, in bytes: item types, item offsets,
// data offsets, v4's table of uncompressed sizes and the items.
std::int64_t metadata_size(const HeaderFields& h) {
  const std::int64_t size_table = h.version == 4 ? std::int64_t{h.num_data} * 4 : 0;
  return std::int64_t{h.num_item_types} * static_cast<std::int64_t>(kItemTypeSize) +
         std::int64_t{h.num_items} * 4 + std::int64_t{h.num_data} * 4 + size_table + h.item_size;
}

}  // namespace

std::int64_t HeaderFields::described_size() const {
  return static_cast<std::int64_t>(kHeaderSize) + metadata_size(*this) + data_size;
}

std::optional<HeaderFields> read_header_fields(Bytes file) {
  if (file.size() < kHeaderSize) return std::nullopt;
  const std::uint8_t* p = file.data();
  HeaderFields h;
  if (std::memcmp(p, kMagicReversed, 4) == 0)
    h.reversed_magic = true;
  else if (std::memcmp(p, kMagic, 4) != 0)
    return std::nullopt;
  h.version = load_le_i32(p + kVersionAt);
  h.size = load_le_i32(p + kSizeAt);
  h.swaplen = load_le_i32(p + kSwaplenAt);
  h.num_item_types = load_le_i32(p + kNumItemTypesAt);
  h.num_items = load_le_i32(p + kNumItemsAt);
  h.num_data = load_le_i32(p + kNumDataAt);
  h.item_size = load_le_i32(p + kItemSizeAt);
  h.data_size = load_le_i32(p + kDataSizeAt);
  return h;
}

namespace {

// H1..H4: the header of `file`: its size, magic, version and counts.
Result<HeaderFields> read_header(Bytes file) {
  // H1
  if (file.size() < kHeaderSize)
    return fail(Code::H1, "file is " + to_string(file.size()) +
                              " bytes, shorter than the 36-byte datafile header");
  // H2
  const auto fields = read_header_fields(file);
  if (!fields)
    return fail(Code::H2, "magic " + describe_magic(file.data()) + " is neither 'DATA' nor 'ATAD'");
  const HeaderFields& h = *fields;

  // H3
  if (h.version != 3 && h.version != 4)
    return fail(Code::H3, "version " + to_string(h.version) + " is not 3 or 4");

  // H4
  if (h.num_item_types < 0 || h.num_item_types > 65536)
    return fail(Code::H4,
                "num_item_types " + to_string(h.num_item_types) + " is outside [0, 65536]");
  if (h.num_items < 0)
    return fail(Code::H4, "num_items " + to_string(h.num_items) + " is negative");
  if (h.num_data < 0) return fail(Code::H4, "num_data " + to_string(h.num_data) + " is negative");
  if (h.item_size < 0)
    return fail(Code::H4, "item_size " + to_string(h.item_size) + " is negative");
  if (h.item_size % 4 != 0)
    return fail(Code::H4, "item_size " + to_string(h.item_size) + " is not a multiple of 4");
  if (h.data_size < 0)
    return fail(Code::H4, "data_size " + to_string(h.data_size) + " is negative");

  return h;
}

// What the sizes in the header say about the file: the v4 table of
// uncompressed sizes and whether the header is v4's crude variant.
struct Sizes {
  std::int64_t size_table = 0;
  bool crude = false;
};

// H8, H5, H6, H7: the header's sizes against each other and the file size,
// before anything is allocated for the metadata they describe.
Result<Sizes> check_sizes(const HeaderFields& h, std::int64_t file_size) {
  const bool v4 = h.version == 4;
  const std::int64_t size = h.size, swaplen = h.swaplen, num_types = h.num_item_types,
                     num_items = h.num_items, num_data = h.num_data, item_size = h.item_size,
                     data_size = h.data_size;
  // H8 before H5: a reader allocates the metadata before it can compare sizes.
  const std::int64_t size_table = v4 ? num_data * 4 : 0;
  const std::int64_t metadata = metadata_size(h);
  if (metadata > kMaxMetadata)
    return fail(Code::H8, "metadata of " + to_string(metadata) + " bytes (" + to_string(num_types) +
                              " item types, " + to_string(num_items) + " items, " +
                              to_string(num_data) + " data items, item_size " +
                              to_string(item_size) + ") exceeds the 2 GiB limit");

  // H5
  const std::int64_t expected_size = h.described_size();
  if (expected_size != file_size)
    return fail(Code::H5, "header describes a file of " + to_string(expected_size) + " bytes (" +
                              to_string(num_types) + " item types, " + to_string(num_items) +
                              " items, " + to_string(num_data) + " data items, item_size " +
                              to_string(item_size) + ", data_size " + to_string(data_size) +
                              ") but the file is " + to_string(file_size) + " bytes");

  // H6, H7 (v4 also accepts the "crude" variant that leaves out the size table)
  bool crude = false;
  if (size + 16 != file_size) {
    if (v4 && size + 16 + size_table == file_size) {
      crude = true;
    } else {
      std::string expected = to_string(file_size - 16);
      if (v4)
        expected += " (or " + to_string(file_size - 16 - size_table) + " for a v4 crude header)";
      return fail(Code::H6, "size " + to_string(size) + " is not the file size " +
                                to_string(file_size) + " minus 16 = " + expected);
    }
  }
  if (swaplen + 16 != file_size - data_size) {
    if (v4 && swaplen + 16 + size_table == file_size - data_size) {
      crude = true;
    } else {
      std::string expected = to_string(file_size - data_size - 16);
      if (v4)
        expected += " (or " + to_string(file_size - data_size - 16 - size_table) +
                    " for a v4 crude header)";
      return fail(Code::H7, "swaplen " + to_string(swaplen) + " is not the file size " +
                                to_string(file_size) + " minus data_size " + to_string(data_size) +
                                " minus 16 = " + expected);
    }
  }

  return Sizes{size_table, crude};
}

}  // namespace

Result<Datafile> Datafile::open(Bytes file, const Options& options) {
  const std::int64_t file_size = static_cast<std::int64_t>(file.size());
  auto header = read_header(file);  // H1..H4
  if (!header) return header.error();
  auto sizes = check_sizes(*header, file_size);  // H8, H5, H6, H7
  if (!sizes) return sizes.error();
  // The sections the header describes, as views of the file.
  const std::uint8_t* p = file.data();
  const HeaderFields& h = *header;
  const auto [size_table, crude] = *sizes;
  const bool v4 = h.version == 4;
  Datafile df;
  df.file_ = file;
  df.options_ = options;
  df.version_ = h.version;
  df.reversed_magic_ = h.reversed_magic;
  df.crude_header_ = crude;
  df.num_item_types_ = static_cast<std::size_t>(h.num_item_types);
  df.num_items_ = static_cast<std::size_t>(h.num_items);
  df.num_data_ = static_cast<std::size_t>(h.num_data);
  df.item_types_ = p + kHeaderSize;
  df.item_offsets_ = df.item_types_ + df.num_item_types_ * kItemTypeSize;
  df.data_offsets_ = df.item_offsets_ + df.num_items_ * 4;
  df.data_sizes_ = v4 ? df.data_offsets_ + df.num_data_ * 4 : nullptr;
  df.items_ = df.data_offsets_ + df.num_data_ * 4 + static_cast<std::size_t>(size_table);
  df.item_size_ = static_cast<std::uint32_t>(h.item_size);
  df.data_ = df.items_ + df.item_size_;
  df.data_block_size_ = static_cast<std::uint32_t>(h.data_size);
  if (crude)
    df.warnings_.push_back(Problem{Code::H6_crude,
                                   "v4 crude header: size " + to_string(h.size) + " and swaplen " +
                                       to_string(h.swaplen) + " leave out the " +
                                       to_string(size_table) + "-byte table of uncompressed sizes",
                                   Location::file()});

  if (auto e = check_item_types(df)) return *e;    // V1
  if (auto e = check_item_offsets(df)) return *e;  // V2
  if (auto e = check_items(df)) return *e;         // V3, V4
  if (auto e = check_data_offsets(df)) return *e;  // V5
  if (auto e = check_data_sizes(df)) return *e;    // V6
  return df;
}

// V1: item types.
std::optional<Error> Datafile::check_item_types(const Datafile& df) {
  const auto num_items = static_cast<std::int64_t>(df.num_items_);
  U16Set seen_types;
  std::int64_t running = 0;
  for (std::size_t t = 0; t < df.num_item_types_; ++t) {
    const std::uint8_t* e = df.item_types_ + t * kItemTypeSize;
    const std::int64_t type_id = load_le_i32(e);
    const std::int64_t start = load_le_i32(e + kTypeStartAt);
    const std::int64_t num = load_le_i32(e + kTypeNumAt);
    auto label = [&] { return "item type " + to_string(t) + " (type " + to_string(type_id) + ")"; };
    if (type_id < 0 || type_id > 0xFFFF)
      return fail(Code::V1, label() + ": type id is outside [0, 65535]");
    if (seen_types.test_and_set(static_cast<std::uint32_t>(type_id)))
      return fail(Code::V1, label() + ": type id " + to_string(type_id) + " appears twice");
    if (num <= 0) return fail(Code::V1, label() + ": num " + to_string(num) + " is not positive");
    if (start != running)
      return fail(Code::V1, label() + ": start " + to_string(start) + " is not " +
                                to_string(running) +
                                ", the number of items of the types before it");
    running += num;
    if (running > num_items)
      return fail(Code::V1, label() + ": num " + to_string(num) + " takes the item count to " +
                                to_string(running) + ", above num_items " + to_string(num_items));
  }
  if (running != num_items)
    return fail(Code::V1, "item types hold " + to_string(running) + " items but num_items is " +
                              to_string(num_items));

  return std::nullopt;
}

// V2: item offsets.
std::optional<Error> Datafile::check_item_offsets(const Datafile& df) {
  const std::int64_t item_size = df.item_size_;
  std::int64_t previous = -1;
  for (std::size_t i = 0; i < df.num_items_; ++i) {
    const std::int64_t offset = load_le_i32(df.item_offsets_ + 4 * i);
    auto label = [&] { return "item " + to_string(i); };
    if (i == 0 && offset != 0)
      return fail(Code::V2, label() + ": offset " + to_string(offset) + " is not 0");
    if (i > 0 && offset <= previous)
      return fail(Code::V2, label() + ": offset " + to_string(offset) +
                                " is not above the previous item's offset " + to_string(previous));
    if (offset >= item_size)
      return fail(Code::V2, label() + ": offset " + to_string(offset) + " is not below item_size " +
                                to_string(item_size));
    previous = offset;
  }

  return std::nullopt;
}

// V3: items; V4: their spans fill item_size.
std::optional<Error> Datafile::check_items(const Datafile& df) {
  const std::int64_t item_size = df.item_size_;
  U16Set seen_ids;
  std::int64_t spans = 0;
  std::size_t index = 0;
  for (std::size_t t = 0; t < df.num_item_types_; ++t) {
    const std::uint8_t* e = df.item_types_ + t * kItemTypeSize;
    const auto type_id = static_cast<std::uint32_t>(load_le_i32(e));
    const auto num = static_cast<std::size_t>(load_le_i32(e + kTypeNumAt));
    const std::size_t first = index;
    for (std::size_t k = 0; k < num; ++k, ++index) {
      const std::int64_t offset = load_le_i32(df.item_offsets_ + 4 * index);
      const std::int64_t end =
          index + 1 < df.num_items_ ? load_le_i32(df.item_offsets_ + 4 * (index + 1)) : item_size;
      const std::int64_t span = end - offset;
      if (span < static_cast<std::int64_t>(kItemHeaderSize))
        return fail(Code::V3, "item " + to_string(index) + " (type " + to_string(type_id) +
                                  "): its span of " + to_string(span) +
                                  " bytes is shorter than the 8-byte item header");
      const std::uint8_t* h = df.items_ + offset;
      const std::uint32_t key = load_le_u32(h);
      const std::uint32_t header_type = key >> 16;
      const std::uint32_t id = key & 0xFFFF;
      const std::int64_t item_data_size = load_le_i32(h + kItemPayloadSizeAt);
      auto label = [&] { return item_label(index, header_type, id); };
      if (header_type != type_id)
        return fail(Code::V3, label() + ": its header says type " + to_string(header_type) +
                                  " but it lies in the items of item type " + to_string(t) +
                                  " (type " + to_string(type_id) + ")");
      const std::int64_t payload = span - static_cast<std::int64_t>(kItemHeaderSize);
      if (item_data_size < 0)
        return fail(Code::V3, label() + ": size " + to_string(item_data_size) + " is negative");
      if (item_data_size % 4 != 0)
        return fail(Code::V3,
                    label() + ": size " + to_string(item_data_size) + " is not a multiple of 4");
      if (item_data_size != payload)
        return fail(Code::V3, label() + ": size " + to_string(item_data_size) +
                                  " is not the size of its span " + to_string(payload));
      if (type_id != kUuidIndexType && seen_ids.test_and_set(id)) {
        // Clean up is unnecessary: we return.
        return fail(Code::V3, label() + ": id " + to_string(id) + " appears twice in type " +
                                  to_string(type_id));
      }
      spans += span;
    }
    if (type_id != kUuidIndexType)
      for (std::size_t i = first; i < index; ++i)
        seen_ids.reset(load_le_u32(df.items_ + load_le_i32(df.item_offsets_ + 4 * i)) & 0xFFFF);
  }
  if (spans != item_size)
    return fail(Code::V4, "item spans add up to " + to_string(spans) + " bytes but item_size is " +
                              to_string(item_size));

  return std::nullopt;
}

// V5: data offsets.
std::optional<Error> Datafile::check_data_offsets(const Datafile& df) {
  const std::int64_t data_size = df.data_block_size_;
  std::int64_t previous = -1;
  for (std::size_t i = 0; i < df.num_data_; ++i) {
    const std::int64_t offset = load_le_i32(df.data_offsets_ + 4 * i);
    auto label = [&] { return "data item " + to_string(i); };
    if (i == 0 && offset != 0)
      return fail(Code::V5, label() + ": offset " + to_string(offset) + " is not 0");
    if (i > 0 && offset <= previous)
      return fail(Code::V5, label() + ": offset " + to_string(offset) +
                                " is not above the previous data item's offset " +
                                to_string(previous));
    if (offset >= data_size)
      return fail(Code::V5, label() + ": offset " + to_string(offset) + " is not below data_size " +
                                to_string(data_size));
    previous = offset;
  }

  return std::nullopt;
}

// V6: uncompressed sizes (v4); sets the inflate budget.
std::optional<Error> Datafile::check_data_sizes(Datafile& df) {
  const bool v4 = df.version_ == 4;
  if (v4) {
    std::uint64_t inflatable = 0;  // what inflating every data item once produces
    for (std::size_t i = 0; i < df.num_data_; ++i) {
      const std::int32_t declared = load_le_i32(df.data_sizes_ + 4 * i);
      if (declared < 0)
        return fail(Code::V6, "data item " + to_string(i) + ": uncompressed size " +
                                  to_string(declared) + " is negative");
      if (declared == 0)
        df.warnings_.push_back(
            Problem{Code::V6_zero_size,
                    "data item " + to_string(i) + ": uncompressed size is 0 (loading it fails)",
                    Location::data_item(i)});
      const auto wanted = static_cast<std::uint64_t>(declared);
      if (wanted <= df.options_.max_data_item_size &&
          wanted <= deflate::max_inflated_size(df.data_stored_size(i)))
        inflatable += wanted;
    }
    df.inflate_budget_ = kInflateBudgetFactor * inflatable + kInflateBudgetSlack;
  }
  return std::nullopt;
}

}  // namespace mapindex::datafile
