// A small Teeworlds datafile writer for tests, benchmarks, fuzzing and the
// demo archive (never used by the product). Builds v3 and v4 files, `DATA` and
// `ATAD` magic, crude v4 headers and UUID item types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "decode/datafile/uuid.h"

namespace mapindex::testing {

struct WriterOptions {
  int version = 4;              // 3 (raw data) or 4 (zlib data + size table)
  bool reversed_magic = false;  // write `ATAD` instead of `DATA`
  bool crude_header = false;    // size/swaplen leave out the num_data*4 size table (a v4 quirk;
                                // also applied to v3, which readers must then reject)
  int zlib_level = 9;
};

class DatafileWriter {
 public:
  // Adds an item. Items are written grouped by type id (in order of first
  // appearance of the type), in insertion order within a type.
  void add_item(std::uint16_t type_id, std::uint16_t id, std::vector<std::int32_t> data);

  // The type id for a UUID item type: assigns the next id from 0x8000 and adds
  // the UUID index item (type 0xFFFF) the first time a UUID is seen.
  std::uint16_t uuid_type(const datafile::Uuid& uuid);

  // Adds a data item (stored uncompressed in v3, zlib-compressed in v4) and
  // returns its index.
  std::int32_t add_data(std::span<const std::uint8_t> bytes);
  // Adds `text` plus a terminating NUL as a data item.
  std::int32_t add_string(std::string_view text);

  std::vector<std::uint8_t> finish(const WriterOptions& options = {}) const;

 private:
  struct PendingItem {
    std::uint16_t type_id;
    std::uint16_t id;
    std::vector<std::int32_t> data;
  };
  std::vector<PendingItem> items_;
  std::vector<std::vector<std::uint8_t>> data_;
  std::vector<datafile::Uuid> uuids_;
};

// Offsets of header fields in a written file, for tests that break one.
namespace header_offset {
inline constexpr std::size_t magic = 0, version = 4, size = 8, swaplen = 12, num_item_types = 16,
                             num_items = 20, num_data = 24, item_size = 28, data_size = 32,
                             item_types = 36;
}

// Where the parts of a written (or any well-formed) datafile start, read from
// its header; for tests that break one part.
struct FileLayout {
  int version = 0;
  std::size_t num_item_types = 0, num_items = 0, num_data = 0, item_size = 0, data_size = 0;
  std::size_t item_types = 0;    // 12 bytes per item type: type_id, start, num
  std::size_t item_offsets = 0;  // 4 bytes per item
  std::size_t data_offsets = 0;  // 4 bytes per data item
  std::size_t data_sizes = 0;    // 4 bytes per data item (v4; == items in v3)
  std::size_t items = 0;         // item_size bytes
  std::size_t data = 0;          // data_size bytes
};
// Precondition: file holds at least the 36-byte header.
FileLayout file_layout(std::span<const std::uint8_t> file);

// Overwrites the little-endian int32 at `offset`.
void patch_i32(std::vector<std::uint8_t>& file, std::size_t offset, std::int32_t value);

// A well-formed v4 `file` with the stored (compressed) bytes of data item
// `index` replaced by `stored`, as is (a zlib stream written by hand): the
// offsets after it and the header's sizes follow; its declared size stays.
std::vector<std::uint8_t> with_stored_data(std::span<const std::uint8_t> file, std::size_t index,
                                           std::span<const std::uint8_t> stored);

// Strings stored in consecutive int32s (names of groups, layers, envelopes):
// big-endian bytes, each +128, last byte NUL.
std::vector<std::int32_t> to_i32_string(std::string_view text, std::size_t num_ints);

}  // namespace mapindex::testing
