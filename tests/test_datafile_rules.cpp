// One failing input per container and data item rule (docs/problem-codes.md,
// H*, V* and D* codes), each checking the
// stable error code; plus hostile inputs that must fail cleanly.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "decode/datafile/datafile.h"
#include "tests/support/codes.h"
#include "tests/support/datafile_writer.h"

using mapindex::Bytes;
using namespace mapindex::datafile;
using mapindex::testing::DatafileWriter;
using mapindex::testing::file_layout;
using mapindex::testing::patch_i32;
using mapindex::testing::WriterOptions;
namespace header_offset = mapindex::testing::header_offset;

namespace {

std::vector<std::uint8_t> bytes_of(std::size_t n, std::uint8_t seed) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(seed + i * 7 + (i >> 5));
  return v;
}

// Types 0 (2 items), 5 (3 items: ids 1, 3, 2), 2 (1 item); three data items.
std::vector<std::uint8_t> sample(int version = 4, bool crude = false) {
  DatafileWriter w;
  w.add_item(0, 0, {1});
  w.add_item(0, 1, {1, 2});
  w.add_item(5, 1, {1, 2, 3});
  w.add_item(5, 3, {4, 5, 6});
  w.add_item(5, 2, {7, 8, 9});
  w.add_item(2, 0, {});
  w.add_data(bytes_of(300, 1));
  w.add_data(bytes_of(4000, 2));
  w.add_string("text");
  WriterOptions o;
  o.version = version;
  o.crude_header = crude;
  return w.finish(o);
}

std::int32_t read_i32(const std::vector<std::uint8_t>& f, std::size_t offset) {
  return mapindex::load_le_i32(f.data() + offset);
}
void add_to_i32(std::vector<std::uint8_t>& f, std::size_t offset, std::int32_t delta) {
  patch_i32(f, offset, read_i32(f, offset) + delta);
}

// An error code ("ok" when there is none) with its message, which doctest
// prints when a CHECK against the expected code fails.
struct Outcome {
  std::string code;
  std::string message;
};
bool operator==(const Outcome& o, const char* code) { return o.code == code; }
Outcome ok() { return {"ok", ""}; }
Outcome outcome(const mapindex::Error& e) { return {std::string(to_string(e.code)), e.message}; }

}  // namespace

namespace doctest {
template <>
struct StringMaker<Outcome> {
  static String convert(const Outcome& o) { return (o.code + ": " + o.message).c_str(); }
};
}  // namespace doctest

namespace {

// The error code of opening `file`, or "ok".
Outcome open_code(const std::vector<std::uint8_t>& file, const Options& options = {}) {
  auto df = Datafile::open(file, options);
  return df ? ok() : outcome(df.error());
}

Outcome data_code(const std::vector<std::uint8_t>& file, std::size_t index,
                  const Options& options = {}) {
  auto df = Datafile::open(file, options);
  REQUIRE_MESSAGE(df, (df ? "" : df.error().to_string()));
  std::vector<std::uint8_t> scratch;
  auto d = df->data(index, scratch);
  return d ? ok() : outcome(d.error());
}

Outcome string_code(const std::vector<std::uint8_t>& file, std::size_t index) {
  auto df = Datafile::open(file);
  REQUIRE_MESSAGE(df, (df ? "" : df.error().to_string()));
  auto s = df->string(index);
  return s ? ok() : outcome(s.error());
}

std::size_t item_type_at(const std::vector<std::uint8_t>& f, std::size_t t) {
  return file_layout(f).item_types + 12 * t;
}
std::size_t item_offset_at(const std::vector<std::uint8_t>& f, std::size_t i) {
  return file_layout(f).item_offsets + 4 * i;
}
// File position of item i's 8-byte header.
std::size_t item_header_at(const std::vector<std::uint8_t>& f, std::size_t i) {
  return file_layout(f).items + static_cast<std::size_t>(read_i32(f, item_offset_at(f, i)));
}
std::size_t data_offset_at(const std::vector<std::uint8_t>& f, std::size_t i) {
  return file_layout(f).data_offsets + 4 * i;
}
std::size_t data_size_at(const std::vector<std::uint8_t>& f, std::size_t i) {
  return file_layout(f).data_sizes + 4 * i;
}

// Grows the file by `n` zero bytes at `at` and fixes size (and swaplen when
// the bytes are not in the data block) so only the intended rule breaks.
void insert_zeros(std::vector<std::uint8_t>& f, std::size_t at, std::size_t n, bool in_data) {
  f.insert(f.begin() + static_cast<std::ptrdiff_t>(at), n, 0);
  add_to_i32(f, header_offset::size, static_cast<std::int32_t>(n));
  if (!in_data) add_to_i32(f, header_offset::swaplen, static_cast<std::int32_t>(n));
}

}  // namespace

TEST_SUITE("datafile") {
  TEST_CASE("datafile rules: the sample opens (so each failure below is the patch's)") {
    for (int version : {3, 4}) {
      CHECK(open_code(sample(version)) == "ok");
      for (std::size_t i = 0; i < 3; ++i) CHECK(data_code(sample(version), i) == "ok");
    }
    CHECK(open_code(sample(4, true)) == "ok");
  }

  TEST_CASE("datafile rules: H1 file shorter than 36 bytes") {
    CHECK(open_code({}) == "H1");
    auto f = sample();
    f.resize(35);
    CHECK(open_code(f) == "H1");
  }

  TEST_CASE("datafile rules: H2 magic") {
    auto f = sample();
    f[3] = 'B';
    CHECK(open_code(f) == "H2");
    f[0] = 0;
    CHECK(open_code(f) == "H2");
    auto g = sample();
    g[0] = 'd';  // case matters
    CHECK(open_code(g) == "H2");
  }

  TEST_CASE("datafile rules: H3 version") {
    for (std::int32_t v : {0, 1, 2, 5, -4, 0x04000000}) {
      CAPTURE(v);
      auto f = sample();
      patch_i32(f, header_offset::version, v);
      CHECK(open_code(f) == "H3");
    }
  }

  TEST_CASE("datafile rules: H4 header counts") {
    struct Case {
      std::size_t offset;
      std::int32_t value;
    };
    for (Case c : {Case{header_offset::num_item_types, -1},
                   Case{header_offset::num_item_types, 65537}, Case{header_offset::num_items, -1},
                   Case{header_offset::num_data, -1}, Case{header_offset::item_size, -4},
                   Case{header_offset::item_size, 6}, Case{header_offset::data_size, -1}}) {
      CAPTURE(c.offset);
      CAPTURE(c.value);
      auto f = sample();
      patch_i32(f, c.offset, c.value);
      CHECK(open_code(f) == "H4");
    }
  }

  TEST_CASE("datafile rules: H5 header sizes must add up to the file size") {
    auto longer = sample();
    longer.push_back(0);
    CHECK(open_code(longer) == "H5");
    auto shorter = sample();
    shorter.pop_back();
    CHECK(open_code(shorter) == "H5");
    auto more_items = sample();
    add_to_i32(more_items, header_offset::num_items, 1);
    CHECK(open_code(more_items) == "H5");
    auto v3_with_v4_layout = sample(4);  // v3 has no size table: 12 bytes too many
    patch_i32(v3_with_v4_layout, header_offset::version, 3);
    CHECK(open_code(v3_with_v4_layout) == "H5");
    // Extreme values computed in 64 bits, not wrapped.
    auto huge = sample();
    patch_i32(huge, header_offset::data_size, 0x7FFFFFFF);
    CHECK(open_code(huge) == "H5");
  }

  TEST_CASE("datafile rules: H6 size field") {
    for (int version : {3, 4}) {
      CAPTURE(version);
      auto f = sample(version);
      add_to_i32(f, header_offset::size, 1);
      CHECK(open_code(f) == "H6");
    }
    // The crude variant is a v4 quirk only.
    CHECK(open_code(sample(3, true)) == "H6");
  }

  TEST_CASE("datafile rules: H7 swaplen field") {
    for (int version : {3, 4}) {
      CAPTURE(version);
      auto f = sample(version);
      add_to_i32(f, header_offset::swaplen, -4);
      CHECK(open_code(f) == "H7");
    }
    auto v3 = sample(3, true);  // crude swaplen with a correct size: still wrong for v3
    add_to_i32(v3, header_offset::size, 4 * 3);
    CHECK(open_code(v3) == "H7");
  }

  TEST_CASE("datafile rules: v4 crude header (H6.crude) is a warning, either field") {
    auto size_only = sample(4);
    add_to_i32(size_only, header_offset::size, -4 * 3);
    auto df = Datafile::open(size_only);
    REQUIRE(df);
    CHECK(df->crude_header());
    REQUIRE(df->warnings().size() == 1);
    CHECK(df->warnings()[0].code == Code::H6_crude);
    auto swaplen_only = sample(4);
    add_to_i32(swaplen_only, header_offset::swaplen, -4 * 3);
    auto df2 = Datafile::open(swaplen_only);
    REQUIRE(df2);
    CHECK(df2->crude_header());
  }

  TEST_CASE("datafile rules: H8 metadata above 2 GiB is refused before anything else") {
    auto f = sample();
    patch_i32(f, header_offset::num_items, 600'000'000);  // 2.4 GB of item offsets
    CHECK(open_code(f) == "H8");
    auto g = sample();
    patch_i32(g, header_offset::num_item_types, 65536);
    patch_i32(g, header_offset::item_size, 0x7FFFFFFC);
    CHECK(open_code(g) == "H8");
  }

  TEST_CASE("datafile rules: V1 item types") {
    SUBCASE("type id above 0xFFFF") {
      auto f = sample();
      patch_i32(f, item_type_at(f, 1), 0x10005);
      CHECK(open_code(f) == "V1");
    }
    SUBCASE("negative type id") {
      auto f = sample();
      patch_i32(f, item_type_at(f, 1), -1);
      CHECK(open_code(f) == "V1");
    }
    SUBCASE("duplicate type id") {
      auto f = sample();
      patch_i32(f, item_type_at(f, 2), 5);
      CHECK(open_code(f) == "V1");
    }
    SUBCASE("num 0") {
      auto f = sample();
      patch_i32(f, item_type_at(f, 2) + 8, 0);
      CHECK(open_code(f) == "V1");
    }
    SUBCASE("start not the running count") {
      auto f = sample();
      patch_i32(f, item_type_at(f, 1) + 4, 1);
      CHECK(open_code(f) == "V1");
    }
    SUBCASE("nums do not add up to num_items") {
      auto f = sample();
      patch_i32(f, item_type_at(f, 1) + 8, 2);  // 2 + 2 + 1 = 5 of 6 items
      patch_i32(f, item_type_at(f, 2) + 4, 4);
      CHECK(open_code(f) == "V1");
    }
    SUBCASE("nums exceed num_items") {
      auto f = sample();
      patch_i32(f, item_type_at(f, 2) + 8, 2);
      CHECK(open_code(f) == "V1");
    }
    SUBCASE("items but no item types") {
      auto f = sample();
      // Drop the three item type entries (36 bytes) and fix the header.
      const auto layout = file_layout(f);
      f.erase(f.begin() + static_cast<std::ptrdiff_t>(layout.item_types),
              f.begin() + static_cast<std::ptrdiff_t>(layout.item_offsets));
      patch_i32(f, header_offset::num_item_types, 0);
      add_to_i32(f, header_offset::size, -36);
      add_to_i32(f, header_offset::swaplen, -36);
      CHECK(open_code(f) == "V1");
    }
  }

  TEST_CASE("datafile rules: V2 item offsets") {
    SUBCASE("first offset not 0") {
      auto f = sample();
      patch_i32(f, item_offset_at(f, 0), 4);
      CHECK(open_code(f) == "V2");
    }
    SUBCASE("not strictly increasing") {
      auto f = sample();
      patch_i32(f, item_offset_at(f, 3), read_i32(f, item_offset_at(f, 2)));
      CHECK(open_code(f) == "V2");
    }
    SUBCASE("decreasing") {
      auto f = sample();
      patch_i32(f, item_offset_at(f, 3), 4);
      CHECK(open_code(f) == "V2");
    }
    SUBCASE("last offset not below item_size") {
      auto f = sample();
      patch_i32(f, item_offset_at(f, 5), static_cast<std::int32_t>(file_layout(f).item_size));
      CHECK(open_code(f) == "V2");
    }
    SUBCASE("negative offset") {
      auto f = sample();
      patch_i32(f, item_offset_at(f, 1), -8);
      CHECK(open_code(f) == "V2");
    }
  }

  TEST_CASE("datafile rules: V3 items") {
    SUBCASE("span shorter than the item header") {
      auto f = sample();
      patch_i32(f, item_offset_at(f, 1), 4);
      CHECK(open_code(f) == "V3");
    }
    SUBCASE("header type differs from its item type entry") {
      auto f = sample();
      const std::size_t h = item_header_at(f, 3);
      patch_i32(f, h, static_cast<std::int32_t>((2u << 16) | 3u));
      CHECK(open_code(f) == "V3");
    }
    SUBCASE("duplicate id within a type") {
      auto f = sample();
      const std::size_t h = item_header_at(f, 4);
      patch_i32(f, h, static_cast<std::int32_t>((5u << 16) | 1u));
      CHECK(open_code(f) == "V3");
    }
    SUBCASE("the same id in different types is fine") {
      DatafileWriter w;
      w.add_item(1, 7, {1});
      w.add_item(2, 7, {1});
      w.add_item(1, 8, {1});
      CHECK(open_code(w.finish()) == "ok");
    }
    SUBCASE("size negative") {
      auto f = sample();
      patch_i32(f, item_header_at(f, 2) + 4, -12);
      CHECK(open_code(f) == "V3");
    }
    SUBCASE("size not a multiple of 4") {
      auto f = sample();
      patch_i32(f, item_header_at(f, 2) + 4, 10);
      CHECK(open_code(f) == "V3");
    }
    SUBCASE("size differs from the span, with a message naming both") {
      auto f = sample();
      patch_i32(f, item_header_at(f, 3) + 4, 8);
      auto df = Datafile::open(f);
      REQUIRE_FALSE(df);
      CHECK(df.error().code == Code::V3);
      CHECK(df.error().message == "item 3 (type 5, id 3): size 8 is not the size of its span 12");
    }
    SUBCASE("last item larger than what is left of item_size") {
      auto f = sample();
      patch_i32(f, item_header_at(f, 5) + 4, 65536);
      CHECK(open_code(f) == "V3");
    }
  }

  TEST_CASE("datafile rules: V4 item spans must fill item_size") {
    // No items, but 8 bytes of item area.
    auto f = DatafileWriter().finish();
    insert_zeros(f, file_layout(f).items, 8, false);
    patch_i32(f, header_offset::item_size, 8);
    CHECK(open_code(f) == "V4");
  }

  TEST_CASE("datafile rules: V5 data offsets") {
    SUBCASE("first offset not 0") {
      auto f = sample();
      patch_i32(f, data_offset_at(f, 0), 1);
      CHECK(open_code(f) == "V5");
    }
    SUBCASE("not strictly increasing") {
      auto f = sample();
      patch_i32(f, data_offset_at(f, 2), read_i32(f, data_offset_at(f, 1)));
      CHECK(open_code(f) == "V5");
    }
    SUBCASE("not below data_size") {
      auto f = sample();
      patch_i32(f, data_offset_at(f, 2), static_cast<std::int32_t>(file_layout(f).data_size));
      CHECK(open_code(f) == "V5");
    }
    SUBCASE("v3 empty data item") {
      DatafileWriter w;
      w.add_data(bytes_of(10, 1));
      w.add_data({});
      WriterOptions o;
      o.version = 3;
      CHECK(open_code(w.finish(o)) == "V5");
    }
    SUBCASE("data items but no data") {
      auto f = sample(3);
      // Cut the whole data block and set data_size to 0.
      const auto layout = file_layout(f);
      f.resize(layout.data);
      add_to_i32(f, header_offset::size, -static_cast<std::int32_t>(layout.data_size));
      patch_i32(f, header_offset::data_size, 0);
      CHECK(open_code(f) == "V5");
    }
  }

  TEST_CASE("datafile rules: V6 uncompressed sizes") {
    auto f = sample();
    patch_i32(f, data_size_at(f, 1), -1);
    CHECK(open_code(f) == "V6");
    auto g = sample();
    patch_i32(g, data_size_at(g, 1), 0);
    auto df = Datafile::open(g);
    REQUIRE(df);  // a warning, not an error
    REQUIRE(df->warnings().size() == 1);
    CHECK(df->warnings()[0].code == Code::V6_zero_size);
    CHECK(df->warnings()[0].location == Location::data_item(1));
  }

  TEST_CASE("datafile rules: D1 data index out of range") {
    for (int version : {3, 4}) {
      CHECK(data_code(sample(version), 3) == "D1");
      CHECK(data_code(sample(version), static_cast<std::size_t>(-1)) == "D1");
    }
  }

  TEST_CASE("datafile rules: D2 declared size 0") {
    auto f = sample();
    patch_i32(f, data_size_at(f, 0), 0);
    CHECK(data_code(f, 0) == "D2");
    CHECK(data_code(f, 1) == "ok");
  }

  TEST_CASE("datafile rules: D4 inflate must give exactly the declared size") {
    SUBCASE("declared size too large (stream is short)") {
      auto f = sample();
      add_to_i32(f, data_size_at(f, 1), 1);
      CHECK(data_code(f, 1) == "D4");
    }
    SUBCASE("declared size too small (stream is long)") {
      auto f = sample();
      add_to_i32(f, data_size_at(f, 1), -1);
      CHECK(data_code(f, 1) == "D4");
    }
    SUBCASE("corrupt stream") {
      auto f = sample();
      const auto layout = file_layout(f);
      const auto at = layout.data + static_cast<std::size_t>(read_i32(f, data_offset_at(f, 1)));
      for (std::size_t k = 0; k < 16; ++k) f[at + 2 + k] ^= 0x5A;
      CHECK(data_code(f, 1) == "D4");
    }
    SUBCASE("corrupt zlib header") {
      auto f = sample();
      const auto layout = file_layout(f);
      f[layout.data] = 0x00;  // data item 0 starts the data block
      CHECK(data_code(f, 0) == "D4");
    }
    SUBCASE("a declared size beyond zlib's 1032:1 is refused before allocating") {
      auto f = sample();
      patch_i32(f, data_size_at(f, 2), 100'000);  // "text\0" compresses to ~13 bytes
      Options o;
      auto df = Datafile::open(f, o);
      REQUIRE(df);
      std::vector<std::uint8_t> scratch;
      auto d = df->data(2, scratch);
      REQUIRE_FALSE(d);
      CHECK(d.error().code == Code::D4);
      CHECK(scratch.capacity() == 0);
    }
  }

  TEST_CASE("datafile rules: D.cap and a 100-byte file claiming a 2 GiB data item") {
    DatafileWriter w;
    w.add_item(0, 0, {1});
    w.add_data(std::vector<std::uint8_t>(1000, 7));
    auto f = w.finish();
    CHECK(f.size() <= 100);
    patch_i32(f, data_size_at(f, 0), 0x7FFFFFFF);
    auto df = Datafile::open(f);
    REQUIRE(df);
    std::vector<std::uint8_t> scratch;
    auto d = df->data(0, scratch);
    REQUIRE_FALSE(d);
    CHECK(d.error().code == Code::D_cap);
    CHECK(d.error().message.find("2147483647") != std::string::npos);
    CHECK(scratch.capacity() == 0);

    // With the cap out of the way, the ratio check still refuses it.
    Options no_cap;
    no_cap.max_data_item_size = std::uint64_t{1} << 40;
    auto df2 = Datafile::open(f, no_cap);
    REQUIRE(df2);
    auto d2 = df2->data(0, scratch);
    REQUIRE_FALSE(d2);
    CHECK(d2.error().code == Code::D4);
    CHECK(scratch.capacity() == 0);

    // A small cap refuses an honest item too.
    auto honest = w.finish();
    Options small;
    small.max_data_item_size = 999;
    CHECK(data_code(honest, 0, small) == "D.cap");
    small.max_data_item_size = 1000;
    CHECK(data_code(honest, 0, small) == "ok");
  }

  TEST_CASE("datafile rules: D7 strings") {
    auto make = [](std::vector<std::uint8_t> bytes, int version) {
      DatafileWriter w;
      w.add_data(bytes);
      WriterOptions o;
      o.version = version;
      return w.finish(o);
    };
    for (int version : {3, 4}) {
      CAPTURE(version);
      CHECK(string_code(make({'a', 'b', 0}, version), 0) == "ok");
      CHECK(string_code(make({0}, version), 0) == "ok");                    // the empty string
      CHECK(string_code(make({'a', 'b'}, version), 0) == "D7");             // no final NUL
      CHECK(string_code(make({'a', 0, 'b', 0}, version), 0) == "D7");       // NUL inside
      CHECK(string_code(make({'a', 0xFF, 0}, version), 0) == "D7");         // invalid byte
      CHECK(string_code(make({0xC0, 0xAF, 0}, version), 0) == "D7");        // overlong '/'
      CHECK(string_code(make({0xED, 0xA0, 0x80, 0}, version), 0) == "D7");  // surrogate
      CHECK(string_code(make({0xE2, 0x82, 0}, version), 0) == "D7");        // truncated sequence
      CHECK(string_code(make({0xF4, 0x90, 0x80, 0x80, 0}, version), 0) == "D7");  // > U+10FFFF
      CHECK(string_code(make({0xF0, 0x9F, 0x98, 0x80, 0}, version), 0) == "ok");  // U+1F600
      CHECK(string_code(make({'a', 0}, version), 1) == "D1");
    }
    // v4: size 0 is D2 (rule D7's "size > 0" cannot be reached past it).
    DatafileWriter w;
    w.add_data({});
    CHECK(string_code(w.finish(), 0) == "D2");
  }

  TEST_CASE("datafile rules: every truncation of a valid file fails cleanly") {
    for (int version : {3, 4}) {
      const auto f = sample(version);
      for (std::size_t n = 0; n < f.size(); ++n) {
        std::vector<std::uint8_t> cut(f.begin(), f.begin() + static_cast<std::ptrdiff_t>(n));
        auto df = Datafile::open(cut);
        REQUIRE_FALSE(df);
        CHECK((df.error().code == Code::H1 || df.error().code == Code::H5));
      }
    }
  }

  TEST_CASE("datafile rules: mutated files never read out of bounds") {
    // Random single-int and byte mutations of valid files; under the sanitizers
    // any out-of-bounds read would abort. Whatever opens must serve all items
    // and data items (or a typed error).
    std::uint32_t x = 12345;
    auto next = [&x] {
      x = x * 1664525u + 1013904223u;
      return x;
    };
    std::int64_t checksum = 0;
    int opened = 0, failed = 0;
    for (int version : {3, 4}) {
      const auto base = sample(version);
      for (int round = 0; round < 1500; ++round) {
        auto f = base;
        const int edits = 1 + static_cast<int>(next() % 3);
        for (int e = 0; e < edits; ++e) {
          const std::size_t at = next() % f.size();
          if (next() % 2 == 0 && at + 4 <= f.size()) {
            const std::int32_t values[] = {0,
                                           1,
                                           -1,
                                           4,
                                           8,
                                           12,
                                           0x7FFFFFFF,
                                           static_cast<std::int32_t>(0x80000000u),
                                           static_cast<std::int32_t>(next())};
            patch_i32(f, at & ~std::size_t{3}, values[next() % 9]);
          } else {
            f[at] = static_cast<std::uint8_t>(next());
          }
        }
        auto df = Datafile::open(f);
        if (!df) {
          ++failed;
          CHECK_FALSE(to_string(df.error().code).empty());
          continue;
        }
        ++opened;
        std::int64_t sum = 0;
        for (std::size_t i = 0; i < df->num_items(); ++i) {
          const Item it = df->item(i);
          for (std::size_t k = 0; k < it.data.size(); ++k) sum += it.data[k];
        }
        std::vector<std::uint8_t> scratch;
        for (std::size_t i = 0; i < df->num_data(); ++i) {
          auto d = df->data(i, scratch);
          if (d) {
            for (std::uint8_t b : *d) sum += b;
          }
          (void)df->string(i);
        }
        (void)df->find_item(5, 3);
        (void)df->uuid_of(0x8000);
        checksum += sum;  // keep the reads observable
      }
    }
    MESSAGE("mutated files: " << opened << " opened, " << failed << " refused (checksum "
                              << checksum << ")");
    CHECK(failed > 0);
    CHECK(opened > 0);
  }

}  // TEST_SUITE
