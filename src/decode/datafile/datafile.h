// The Teeworlds datafile container (versions 3 and 4, `DATA` and `ATAD`):
// header, item types, items and data items, validated against the
// container rules (codes H1..H8, V1..V6; src/extract/README.md). Layout:
// docs/formats/datafile.md.
//
// Datafile::open() validates the whole container without copying the item
// block and without a heap allocation per item: it keeps a view of the input,
// which must outlive the Datafile. Data items are decompressed lazily, one at a
// time, only when a caller asks (codes D1, D2, D4, D7, "D.cap" and
// "D.budget").
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "common/problem.h"
#include "common/result.h"
#include "decode/datafile/uuid.h"
#include "deflate/inflate.h"
#include "deflate/inflate_workspace.h"
#include "tiledata/zeroed_buffer.h"

namespace mapindex::datafile {

inline constexpr std::uint16_t kUuidIndexType = 0xFFFF;
inline constexpr std::uint16_t kFirstUuidTypeId = 0x8000;
// Reading a v4 file's data items inflates, in total, at most this factor
// times what inflating each of them once gives, plus the slack: a data item
// shared by many layers or names cannot make one small file cost hours.
inline constexpr std::uint64_t kInflateBudgetFactor = 2;
inline constexpr std::uint64_t kInflateBudgetSlack = 16ull << 20;

struct Options {
  // The largest data item the decoder will allocate for (declared
  // uncompressed size). Larger ones fail with code "D.cap".
  std::uint64_t max_data_item_size = 256ull << 20;
  // What inflates data items onto a ZeroedBuffer (tile data): zero_inflate,
  // or libdeflate as every other data item (src/deflate/README.md).
  deflate::Inflater tile_inflater = deflate::Inflater::zeros;
  // The inflaters' state, the caller's (one thread at a time, outliving the
  // Datafile): a decode thread keeps one across maps. Null: the Datafile
  // makes one at its first inflate and frees it with itself.
  deflate::InflateWorkspace* inflate_workspace = nullptr;
};

// A view of an item's payload as little-endian int32s (never a cast of the
// underlying, possibly unaligned, memory).
class Int32View {
 public:
  Int32View() = default;
  explicit Int32View(Bytes bytes) : bytes_(bytes) {}

  std::size_t size() const { return bytes_.size() / 4; }
  bool empty() const { return bytes_.size() < 4; }
  // Precondition: i < size().
  std::int32_t operator[](std::size_t i) const { return load_le_i32(bytes_.data() + 4 * i); }
  // The int at i, or `fallback` when the item is too short to hold it.
  std::int32_t get_or(std::size_t i, std::int32_t fallback) const {
    return i < size() ? (*this)[i] : fallback;
  }
  Int32View subview(std::size_t first, std::size_t count) const;  // clamped to size()
  Bytes bytes() const { return bytes_; }

 private:
  Bytes bytes_;
};

struct ItemType {
  std::uint16_t type_id = 0;
  std::int32_t start = 0;
  std::int32_t num = 0;
};

struct Item {
  std::uint16_t type_id = 0;
  std::uint16_t id = 0;
  std::uint32_t index = 0;  // position in the items array
  Int32View data;           // the payload after the 8-byte item header
};

// Items [start, start + num) of one type.
struct ItemRange {
  std::uint32_t start = 0;
  std::uint32_t num = 0;
};

// The header's fields as stored: the magic and the eight int32s after it,
// not checked against each other or the file. What a report shows of a
// file whose container does not open (Datafile::open() reads the same).
struct HeaderFields {
  bool reversed_magic = false;  // `ATAD`
  std::int32_t version = 0, size = 0, swaplen = 0, num_item_types = 0, num_items = 0, num_data = 0,
               item_size = 0, data_size = 0;
  // The file size the counts and sizes add up to (rule H5): the header, the
  // metadata (with v4's table of uncompressed sizes) and the data.
  std::int64_t described_size() const;
};

// The header of `file`, or nullopt when `file` is shorter than the header
// (H1) or its magic is neither `DATA` nor `ATAD` (H2).
std::optional<HeaderFields> read_header_fields(Bytes file);

class Datafile {
 public:
  // Validates the container. On success the Datafile views `file`.
  static Result<Datafile> open(Bytes file, const Options& options = {});

  int version() const { return version_; }
  bool reversed_magic() const { return reversed_magic_; }  // `ATAD`
  bool crude_header() const { return crude_header_; }      // v4 header without the size table
  // Non-fatal findings: "H6.crude" (v4 crude header) and "V6" (zero-size data item).
  const Problems& warnings() const { return warnings_; }
  Bytes file() const { return file_; }

  std::size_t num_item_types() const { return num_item_types_; }
  ItemType item_type(std::size_t i) const;  // precondition: i < num_item_types()
  std::size_t num_items() const { return num_items_; }
  Item item(std::size_t i) const;                        // precondition: i < num_items()
  ItemRange items_of_type(std::uint16_t type_id) const;  // empty range when absent
  std::optional<Item> find_item(std::uint16_t type_id, std::uint16_t id) const;

  // UUID item types, resolved through the UUID index items (type 0xFFFF, id =
  // the type id it names, 4 big-endian ints = the 16 UUID bytes). Only ids
  // from 0x8000 up are UUID types: uuid_of() of a lower id is nullopt.
  std::optional<std::uint16_t> type_id_of(const Uuid& uuid) const;
  std::optional<Uuid> uuid_of(std::uint16_t type_id) const;
  // Items of the type registered for `uuid` (empty range when absent).
  ItemRange items_of_uuid(const Uuid& uuid) const;

  std::size_t num_data() const { return num_data_; }
  // Bytes the data item occupies in the file (compressed size in v4).
  std::uint32_t data_stored_size(std::size_t index) const;
  // Uncompressed size: the v4 size table entry, or the stored size in v3.
  std::int64_t data_size(std::size_t index) const;

  // The uncompressed bytes of data item `index`. v3 returns a slice of the
  // file; v4 inflates into the front of `scratch` (grown, never shrunk or
  // zero-filled again, so one buffer serves many items) and returns a view of
  // exactly the declared size: use the returned view, not scratch.size().
  // Errors: "D1" index out of range, "D2" declared size 0, "D.cap" declared
  // size above Options::max_data_item_size, "D4" inflate failed or produced
  // another size than declared, "D.budget" the inflate budget of this
  // Datafile (kInflateBudgetFactor) is used up. Not thread-safe: counts what
  // it inflates (one Datafile per thread).
  Result<Bytes> data(std::size_t index, std::vector<std::uint8_t>& scratch) const;
  // data() without its last check, for a caller that reads every byte anyway
  // and sums them on the way (Adler32Scan): the Adler-32 of the inflated
  // bytes is not compared with the stream's. `checksum` is set to the value
  // they must have (left empty for v3 data, which has none): when they do
  // not, the item is corrupt and invalid_stream_error(index) is the error data()
  // gives for it. Every other error is data()'s.
  Result<Bytes> data_unchecked(std::size_t index, std::vector<std::uint8_t>& scratch,
                               std::optional<std::uint32_t>& checksum) const;
  // The same into `buffer`, for tile data (mostly zero): v4 data is inflated
  // onto zeros by Options::tile_inflater, by default writing only what is not
  // zero (src/deflate/zero_inflate.h), and the buffer's marks then say
  // which chunks may hold bytes other than zero. The returned view is the
  // buffer's front (v4) or a slice of the file (v3).
  Result<Bytes> data_unchecked(std::size_t index, tiledata::ZeroedBuffer& buffer,
                               std::optional<std::uint32_t>& checksum) const;
  // "D4": data item `index` is not a valid zlib stream, as data() says it.
  Error invalid_stream_error(std::size_t index) const;
  // The bytes data item `index` occupies in the file (compressed in v4; "D1"
  // when out of range): what a cache of results derived from a data item's
  // contents keys by (with the declared size).
  Result<Bytes> stored_data(std::size_t index) const;
  // data()'s checks and its count against the inflate budget, without
  // inflating: for a caller that already holds what the item's bytes give (a
  // cached result), so that the Datafile's later data() calls fail or succeed
  // exactly as if it had inflated. Returns the declared size (v3: the stored
  // size). Errors as data(), except those of the inflating itself.
  Result<std::uint64_t> charge(std::size_t index) const;

  // Data item `index` as a string (rule D7: size > 0, last byte NUL, no NUL
  // before it, valid UTF-8), without the terminating NUL.
  Result<std::string> string(std::size_t index) const;
  // The same without the UTF-8 part of rule D7: the bytes as stored (names
  // that are not UTF-8 are kept and reported by extract).
  Result<std::string> string_bytes(std::size_t index) const;

 private:
  Datafile() = default;

  // The checks open() runs once the header's sizes hold (datafile.cpp).
  static std::optional<Error> check_item_types(const Datafile& df);    // V1
  static std::optional<Error> check_item_offsets(const Datafile& df);  // V2
  static std::optional<Error> check_items(const Datafile& df);         // V3, V4
  static std::optional<Error> check_data_offsets(const Datafile& df);  // V5
  static std::optional<Error> check_data_sizes(Datafile& df);  // V6; sets the inflate budget
  // data_unchecked()'s checks and errors around `inflate(compressed, size)`,
  // which gives the InflateOutcome and where the bytes are.
  template <typename Inflate>
  Result<Bytes> inflated(std::size_t index, std::optional<std::uint32_t>& checksum,
                         Inflate&& inflate) const;

  Bytes file_;
  Options options_;
  int version_ = 0;
  bool reversed_magic_ = false;
  bool crude_header_ = false;
  Problems warnings_;
  std::size_t num_item_types_ = 0;
  std::size_t num_items_ = 0;
  std::size_t num_data_ = 0;
  const std::uint8_t* item_types_ = nullptr;    // num_item_types * 12 bytes
  const std::uint8_t* item_offsets_ = nullptr;  // num_items * 4
  const std::uint8_t* data_offsets_ = nullptr;  // num_data * 4
  const std::uint8_t* data_sizes_ = nullptr;    // num_data * 4 (v4 only)
  const std::uint8_t* items_ = nullptr;         // item_size bytes
  const std::uint8_t* data_ = nullptr;          // data_size bytes
  std::uint32_t item_size_ = 0;
  std::uint32_t data_block_size_ = 0;
  std::uint64_t inflate_budget_ = 0;    // bytes data() may inflate in total (v4)
  mutable std::uint64_t inflated_ = 0;  // bytes data() has inflated so far
  // Options::inflate_workspace, or (without one) this Datafile's own.
  deflate::InflateWorkspace& inflate_workspace() const;
  mutable std::unique_ptr<deflate::InflateWorkspace> own_workspace_;
};

// The UUID a UUID index item (type 0xFFFF) holds: its first 4 ints, each 4
// UUID bytes big-endian; nullopt when it holds fewer.
std::optional<Uuid> uuid_of_index_item(const Item& item);

}  // namespace mapindex::datafile
