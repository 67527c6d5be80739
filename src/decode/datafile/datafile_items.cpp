// Reading what Datafile::open() validated: items, UUID item types, data items
// (inflated on demand, against the inflate budget) and strings.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "common/utf8.h"
#include "decode/datafile/container.h"
#include "decode/datafile/datafile.h"
#include "deflate/inflate.h"
#include "tiledata/adler32.h"

namespace mapindex::datafile {

using deflate::InflateStatus;
using std::to_string;

ItemType Datafile::item_type(std::size_t i) const {
  const std::uint8_t* e = item_types_ + i * kItemTypeSize;
  return ItemType{static_cast<std::uint16_t>(load_le_i32(e)), load_le_i32(e + kTypeStartAt),
                  load_le_i32(e + kTypeNumAt)};
}

Item Datafile::item(std::size_t i) const {
  const auto offset = static_cast<std::uint32_t>(load_le_i32(item_offsets_ + 4 * i));
  const std::uint8_t* h = items_ + offset;
  const std::uint32_t key = load_le_u32(h);
  const auto size = static_cast<std::uint32_t>(load_le_i32(h + kItemPayloadSizeAt));
  return Item{static_cast<std::uint16_t>(key >> 16), static_cast<std::uint16_t>(key & 0xFFFF),
              static_cast<std::uint32_t>(i), Int32View(Bytes(h + kItemHeaderSize, size))};
}

ItemRange Datafile::items_of_type(std::uint16_t type_id) const {
  for (std::size_t t = 0; t < num_item_types_; ++t) {
    const std::uint8_t* e = item_types_ + t * kItemTypeSize;
    if (load_le_i32(e) == type_id)
      return ItemRange{static_cast<std::uint32_t>(load_le_i32(e + kTypeStartAt)),
                       static_cast<std::uint32_t>(load_le_i32(e + kTypeNumAt))};
  }
  return ItemRange{};
}

std::optional<Item> Datafile::find_item(std::uint16_t type_id, std::uint16_t id) const {
  const ItemRange range = items_of_type(type_id);
  for (std::uint32_t i = range.start; i < range.start + range.num; ++i) {
    const auto offset = static_cast<std::uint32_t>(load_le_i32(item_offsets_ + 4 * i));
    if ((load_le_u32(items_ + offset) & 0xFFFF) == id) return item(i);
  }
  return std::nullopt;
}

// The UUID in a UUID index item: 4 ints, each holding 4 UUID bytes big-endian.
std::optional<Uuid> uuid_of_index_item(const Item& item) {
  if (item.data.size() < 4) return std::nullopt;
  Uuid uuid;
  for (std::size_t k = 0; k < 4; ++k) {
    const auto v = static_cast<std::uint32_t>(item.data[k]);
    uuid.bytes[4 * k] = static_cast<std::uint8_t>(v >> 24);
    uuid.bytes[4 * k + 1] = static_cast<std::uint8_t>(v >> 16);
    uuid.bytes[4 * k + 2] = static_cast<std::uint8_t>(v >> 8);
    uuid.bytes[4 * k + 3] = static_cast<std::uint8_t>(v);
  }
  return uuid;
}

std::optional<std::uint16_t> Datafile::type_id_of(const Uuid& uuid) const {
  const ItemRange range = items_of_type(kUuidIndexType);
  for (std::uint32_t i = range.start; i < range.start + range.num; ++i) {
    const Item it = item(i);
    if (it.id < kFirstUuidTypeId) continue;
    if (auto u = uuid_of_index_item(it); u && *u == uuid) return it.id;
  }
  return std::nullopt;
}

std::optional<Uuid> Datafile::uuid_of(std::uint16_t type_id) const {
  // Type ids below 0x8000 are plain types, never UUID types, even when a
  // (broken) UUID index item carries one as its id: as in type_id_of().
  if (type_id < kFirstUuidTypeId) return std::nullopt;
  const ItemRange range = items_of_type(kUuidIndexType);
  for (std::uint32_t i = range.start; i < range.start + range.num; ++i) {
    const Item it = item(i);
    if (it.id != type_id) continue;
    if (auto u = uuid_of_index_item(it)) return u;
  }
  return std::nullopt;
}

ItemRange Datafile::items_of_uuid(const Uuid& uuid) const {
  const auto type_id = type_id_of(uuid);
  return type_id ? items_of_type(*type_id) : ItemRange{};
}

std::uint32_t Datafile::data_stored_size(std::size_t index) const {
  const auto offset = static_cast<std::uint32_t>(load_le_i32(data_offsets_ + 4 * index));
  const std::uint32_t end =
      index + 1 < num_data_
          ? static_cast<std::uint32_t>(load_le_i32(data_offsets_ + 4 * (index + 1)))
          : data_block_size_;
  return end - offset;
}

std::int64_t Datafile::data_size(std::size_t index) const {
  if (version_ == 4) return load_le_i32(data_sizes_ + 4 * index);
  return data_stored_size(index);
}

Result<Bytes> Datafile::stored_data(std::size_t index) const {
  if (index >= num_data_)
    return fail(Code::D1, "data item " + to_string(index) + " does not exist (the file has " +
                              to_string(num_data_) + " data items)");
  const auto offset = static_cast<std::uint32_t>(load_le_i32(data_offsets_ + 4 * index));
  return Bytes(data_ + offset, data_stored_size(index));
}

Result<std::uint64_t> Datafile::charge(std::size_t index) const {
  auto label = [index] { return "data item " + to_string(index); };
  auto stored_bytes = stored_data(index);
  if (!stored_bytes) return stored_bytes.error();
  const auto stored = static_cast<std::uint32_t>(stored_bytes->size());
  if (version_ == 3) return stored;

  const std::int64_t declared = data_size(index);
  if (declared <= 0)
    return fail(Code::D2,
                label() + ": uncompressed size " + to_string(declared) + " is not positive");
  const auto wanted = static_cast<std::uint64_t>(declared);
  if (wanted > options_.max_data_item_size)
    return fail(Code::D_cap, label() + ": uncompressed size " + to_string(wanted) +
                                 " is above the limit of " +
                                 to_string(options_.max_data_item_size) + " bytes per data item");
  if (wanted > deflate::max_inflated_size(stored))
    return fail(Code::D4, label() + ": uncompressed size " + to_string(wanted) + " is more than " +
                              to_string(stored) +
                              " compressed bytes can hold (zlib expands at most 1032:1)");
  if (wanted > inflate_budget_ - std::min(inflated_, inflate_budget_))
    return fail(Code::D_budget,
                label() +
                    ": not inflated: reading the file's data items has already "
                    "inflated " +
                    to_string(inflated_) + " bytes and " + to_string(wanted) +
                    " more would pass the limit of " + to_string(inflate_budget_) +
                    " (twice what inflating every data item once gives, plus 16 MiB)");
  inflated_ += wanted;
  return wanted;
}

Result<Bytes> Datafile::data(std::size_t index, std::vector<std::uint8_t>& scratch) const {
  std::optional<std::uint32_t> checksum;
  auto bytes = data_unchecked(index, scratch, checksum);
  if (bytes && checksum && tiledata::adler32(*bytes) != *checksum)
    return invalid_stream_error(index);
  return bytes;
}

Error Datafile::invalid_stream_error(std::size_t index) const {
  const auto stored = stored_data(index);
  return fail(Code::D4, "data item " + to_string(index) + ": " +
                            to_string(stored ? stored->size() : 0) +
                            " compressed bytes are not a valid zlib stream (declared size " +
                            to_string(data_size(index)) + ")");
}

deflate::InflateWorkspace& Datafile::inflate_workspace() const {
  if (options_.inflate_workspace) return *options_.inflate_workspace;
  if (!own_workspace_) own_workspace_ = std::make_unique<deflate::InflateWorkspace>();
  return *own_workspace_;
}

Result<Bytes> Datafile::data_unchecked(std::size_t index, std::vector<std::uint8_t>& scratch,
                                       std::optional<std::uint32_t>& checksum) const {
  return inflated(index, checksum, [this, &scratch](Bytes compressed, std::size_t wanted) {
    // Grow only: zero-filling the buffer again for every data item would
    // write each byte twice (libdeflate writes all `wanted` bytes on success).
    if (scratch.size() < wanted) scratch.resize(wanted);
    const std::span<std::uint8_t> out(scratch.data(), wanted);
    return std::pair(
        deflate::inflate_zlib_unchecked(compressed, out, inflate_workspace().libdeflate),
        out.data());
  });
}

Result<Bytes> Datafile::data_unchecked(std::size_t index, tiledata::ZeroedBuffer& buffer,
                                       std::optional<std::uint32_t>& checksum) const {
  return inflated(index, checksum, [&](Bytes compressed, std::size_t wanted) {
    tiledata::ZeroedSpan out = buffer.take(wanted);
    const std::uint8_t* const bytes = out.data();
    return std::pair(deflate::inflate_zlib_onto_zeros(compressed, std::move(out),
                                                      inflate_workspace(), options_.tile_inflater),
                     bytes);
  });
}

template <typename Inflate>
Result<Bytes> Datafile::inflated(std::size_t index, std::optional<std::uint32_t>& checksum,
                                 Inflate&& inflate) const {
  checksum.reset();
  auto label = [index] { return "data item " + to_string(index); };
  auto charged = charge(index);
  if (!charged) return charged.error();
  const Bytes compressed = *stored_data(index);
  if (version_ == 3) return compressed;
  const std::uint32_t stored = static_cast<std::uint32_t>(compressed.size());
  const std::uint64_t wanted = *charged;
  const auto [outcome, out] = inflate(compressed, static_cast<std::size_t>(wanted));
  switch (outcome.status) {
    case InflateStatus::ok: checksum = outcome.checksum; return Bytes(out, outcome.produced);
    case InflateStatus::too_short:
      return fail(Code::D4, label() + ": " + to_string(stored) + " compressed bytes inflate to " +
                                to_string(outcome.produced) + " bytes, not the declared " +
                                to_string(wanted));
    case InflateStatus::too_long:
      return fail(Code::D4, label() + ": " + to_string(stored) +
                                " compressed bytes inflate to more than the declared " +
                                to_string(wanted) + " bytes");
    case InflateStatus::corrupt: break;
  }
  return invalid_stream_error(index);
}

Result<std::string> Datafile::string(std::size_t index) const {
  auto text = string_bytes(index);
  if (text && !is_valid_utf8(*text))
    return fail(Code::D7, "data item " + to_string(index) + ": string is not valid UTF-8");
  return text;
}

Result<std::string> Datafile::string_bytes(std::size_t index) const {
  std::vector<std::uint8_t> scratch;
  auto bytes = data(index, scratch);
  if (!bytes) return bytes.error();
  const Bytes b = *bytes;
  auto label = [index] { return "data item " + to_string(index); };
  if (b.empty()) return fail(Code::D7, label() + ": a string needs at least its terminating NUL");
  if (b.back() != 0)
    return fail(Code::D7,
                label() + ": string of " + to_string(b.size()) + " bytes does not end with NUL");
  const std::string_view text(reinterpret_cast<const char*>(b.data()), b.size() - 1);
  if (const auto nul = text.find('\0'); nul != std::string_view::npos)
    return fail(Code::D7, label() + ": string has a NUL at byte " + to_string(nul) +
                              " before its end " + to_string(b.size() - 1));
  return std::string(text);
}

}  // namespace mapindex::datafile
