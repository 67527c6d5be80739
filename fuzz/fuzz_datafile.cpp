// libFuzzer target: the datafile container (src/decode/datafile) over any
// bytes. Opens the container and, when it opens, reads back everything it
// exposes: item types, items (by index, by type, by id, by UUID) and every
// data item (inflated, and as a string), checking the views stay inside the
// input. Every v4 data item is also inflated by the tile data decoder
// (inflate_zlib_onto_zeros), which must read exactly what zlib reads.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "decode/datafile/datafile.h"
#include "deflate/inflate.h"
#include "deflate/inflate_workspace.h"
#include "tiledata/adler32.h"
#include "tiledata/zeroed_buffer.h"

using namespace mapindex;

namespace {

// A view handed out by the decoder must lie inside the input it views.
void check_inside(Bytes view, Bytes file) {
  if (view.empty()) return;
  const auto* begin = file.data();
  const auto* end = file.data() + file.size();
  if (view.data() < begin || view.data() + view.size() > end) std::abort();
}

// zlib's uncompress() and the decoder agree on whether `stored` holds
// exactly `size` bytes, and on the bytes.
void check_like_zlib(Bytes stored, std::size_t size, tiledata::ZeroedBuffer& zeroed,
                     deflate::InflateWorkspace& workspace) {
  // Room for one byte more: with none at all (size 0), uncompress() inflates
  // into a byte of its own and says Z_OK for a stream of one byte.
  std::vector<std::uint8_t> want(size + 1);
  uLongf produced = static_cast<uLongf>(size + 1);
  const int r =
      uncompress(want.data(), &produced, stored.data(), static_cast<uLong>(stored.size()));
  const bool zlib_ok = r == Z_OK && produced == size;
  const auto got = deflate::inflate_zlib_onto_zeros(stored, zeroed.take(size), workspace);
  const bool ok = got.status == deflate::InflateStatus::ok &&
                  tiledata::adler32(Bytes(zeroed.data(), size)) == got.checksum;
  if (ok != zlib_ok) std::abort();
  if (ok && size > 0 && std::memcmp(want.data(), zeroed.data(), size) != 0) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Bytes file(data, size);
  datafile::Options options;
  options.max_data_item_size = 64ull << 20;
  auto df = datafile::Datafile::open(file, options);
  if (!df) return 0;

  for (std::size_t i = 0; i < df->num_item_types(); ++i) {
    const auto type = df->item_type(i);
    const auto range = df->items_of_type(type.type_id);
    if (range.num > 0 && std::uint64_t{range.start} + range.num > df->num_items()) std::abort();
    (void)df->uuid_of(type.type_id);
  }
  for (std::size_t i = 0; i < df->num_items(); ++i) {
    const auto item = df->item(i);
    check_inside(item.data.bytes(), file);
    const auto found = df->find_item(item.type_id, item.id);
    if (!found) std::abort();  // the item just read must be found by its key
    if (auto uuid = df->uuid_of(item.type_id)) {
      // Both directions agree (with duplicate index items, type_id_of names
      // the first type registered for the UUID).
      const auto type = df->type_id_of(*uuid);
      if (!type || df->uuid_of(*type) != uuid) std::abort();
      (void)df->items_of_uuid(*uuid);
    }
    (void)item.data.get_or(3, 0);
    (void)item.data.subview(1, 5);
  }
  std::vector<std::uint8_t> scratch;
  tiledata::ZeroedBuffer zeroed;
  deflate::InflateWorkspace workspace;
  for (std::size_t i = 0; i < df->num_data(); ++i) {
    if (df->version() == 4) {
      const auto stored = df->stored_data(i);
      const std::int64_t inflated_size = df->data_size(i);
      // Up to 1 MiB: larger outputs add time per input, not paths.
      if (stored && inflated_size >= 0 && inflated_size <= (1 << 20))
        check_like_zlib(*stored, static_cast<std::size_t>(inflated_size), zeroed, workspace);
    }
    (void)df->data_stored_size(i);
    const auto declared = df->data_size(i);
    auto bytes = df->data(i, scratch);
    if (bytes) {
      if (df->version() == 3)
        check_inside(*bytes, file);
      else if (static_cast<std::int64_t>(bytes->size()) != declared)
        std::abort();
    }
    (void)df->string(i);
  }
  (void)df->data(df->num_data(), scratch);  // D1: out of range
  return 0;
}
