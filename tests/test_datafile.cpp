// Round trips through the test writer: what goes in comes out of
// datafile::Datafile, for v3 and v4, DATA and ATAD, crude headers and UUID items.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "decode/datafile/datafile.h"
#include "decode/datafile/uuid.h"
#include "deflate/inflate.h"
#include "tests/support/codes.h"
#include "tests/support/datafile_writer.h"

using mapindex::Bytes;
using mapindex::Severity;
using namespace mapindex::datafile;
using mapindex::deflate::inflate_zlib;
using mapindex::deflate::InflateStatus;
using mapindex::testing::DatafileWriter;
using mapindex::testing::WriterOptions;

namespace {

std::vector<std::uint8_t> pattern(std::size_t n, unsigned seed) {
  std::vector<std::uint8_t> v(n);
  std::uint32_t x = seed * 2654435761u + 1;
  for (auto& b : v) {
    x = x * 1103515245u + 12345u;
    b = static_cast<std::uint8_t>(x >> 24);
  }
  return v;
}

std::vector<std::uint8_t> to_vector(Bytes b) { return {b.begin(), b.end()}; }

std::vector<std::int32_t> ints_of(const Item& item) {
  std::vector<std::int32_t> v;
  for (std::size_t i = 0; i < item.data.size(); ++i) v.push_back(item.data[i]);
  return v;
}

// A writer with items of three types added interleaved, and three data items.
DatafileWriter sample_writer() {
  DatafileWriter w;
  w.add_item(0, 0, {1});
  w.add_item(5, 3, {10, -20, 30});
  w.add_item(2, 0, {});
  w.add_item(5, 1, {40});
  w.add_item(0, 1, {7, 8});
  w.add_data(pattern(1000, 1));
  w.add_data(std::vector<std::uint8_t>(5000, 0x41));
  w.add_string("hello, w\xC3\xB6rld");
  return w;
}

void check_sample(const Datafile& df, int version) {
  CHECK(df.version() == version);
  REQUIRE(df.num_item_types() == 3);
  REQUIRE(df.num_items() == 5);
  REQUIRE(df.num_data() == 3);
  // Types in order of first appearance, items grouped, insertion order within a type.
  CHECK(df.item_type(0).type_id == 0);
  CHECK(df.item_type(1).type_id == 5);
  CHECK(df.item_type(2).type_id == 2);
  CHECK(df.item_type(1).start == 2);
  CHECK(df.item_type(1).num == 2);
  CHECK(df.items_of_type(5).start == 2);
  CHECK(df.items_of_type(5).num == 2);
  CHECK(df.items_of_type(77).num == 0);

  CHECK(df.item(0).type_id == 0);
  CHECK(df.item(0).id == 0);
  CHECK(ints_of(df.item(0)) == std::vector<std::int32_t>{1});
  CHECK(ints_of(df.item(1)) == std::vector<std::int32_t>{7, 8});
  CHECK(df.item(2).id == 3);
  CHECK(ints_of(df.item(2)) == std::vector<std::int32_t>{10, -20, 30});
  CHECK(df.item(3).index == 3);
  CHECK(df.item(4).type_id == 2);
  CHECK(df.item(4).data.size() == 0);

  auto found = df.find_item(5, 1);
  REQUIRE(found);
  CHECK(found->index == 3);
  CHECK(ints_of(*found) == std::vector<std::int32_t>{40});
  CHECK_FALSE(df.find_item(5, 2));
  CHECK_FALSE(df.find_item(9, 0));

  std::vector<std::uint8_t> scratch;
  auto d0 = df.data(0, scratch);
  REQUIRE(d0);
  CHECK(to_vector(*d0) == pattern(1000, 1));
  auto d1 = df.data(1, scratch);
  REQUIRE(d1);
  CHECK(to_vector(*d1) == std::vector<std::uint8_t>(5000, 0x41));
  CHECK(df.data_size(1) == 5000);
  if (version == 4) {
    CHECK(df.data_stored_size(1) < 5000);  // compressed
  } else {
    CHECK(df.data_stored_size(1) == 5000);
  }
  auto s = df.string(2);
  REQUIRE(s);
  CHECK(*s == "hello, w\xC3\xB6rld");
}

}  // namespace

TEST_SUITE("datafile") {
  TEST_CASE("datafile: v4 round trip") {
    const auto file = sample_writer().finish();
    auto df = Datafile::open(file);
    REQUIRE_MESSAGE(df, (df ? "" : df.error().to_string()));
    check_sample(*df, 4);
    CHECK_FALSE(df->reversed_magic());
    CHECK_FALSE(df->crude_header());
    CHECK(df->warnings().empty());
    CHECK(df->file().data() == file.data());  // a view, not a copy
  }

  TEST_CASE("datafile: v3 round trip returns slices of the file") {
    WriterOptions o;
    o.version = 3;
    const auto file = sample_writer().finish(o);
    auto df = Datafile::open(file);
    REQUIRE_MESSAGE(df, (df ? "" : df.error().to_string()));
    check_sample(*df, 3);
    std::vector<std::uint8_t> scratch;
    auto d0 = df->data(0, scratch);
    REQUIRE(d0);
    CHECK(scratch.empty());
    CHECK(d0->data() >= file.data());
    CHECK(d0->data() + d0->size() <= file.data() + file.size());
  }

  TEST_CASE("datafile: ATAD magic, v3 and v4") {
    for (int version : {3, 4}) {
      CAPTURE(version);
      WriterOptions o;
      o.version = version;
      o.reversed_magic = true;
      const auto file = sample_writer().finish(o);
      CHECK(std::string(file.begin(), file.begin() + 4) == "ATAD");
      auto df = Datafile::open(file);
      REQUIRE_MESSAGE(df, (df ? "" : df.error().to_string()));
      CHECK(df->reversed_magic());
      check_sample(*df, version);
    }
  }

  TEST_CASE("datafile: v4 crude header opens with warning H6.crude") {
    WriterOptions o;
    o.crude_header = true;
    const auto file = sample_writer().finish(o);
    auto df = Datafile::open(file);
    REQUIRE_MESSAGE(df, (df ? "" : df.error().to_string()));
    CHECK(df->crude_header());
    REQUIRE(df->warnings().size() == 1);
    CHECK(df->warnings()[0].code == Code::H6_crude);
    CHECK(df->warnings()[0].severity() == Severity::warning);
    check_sample(*df, 4);
  }

  TEST_CASE("datafile: empty container") {
    for (int version : {3, 4}) {
      CAPTURE(version);
      WriterOptions o;
      o.version = version;
      const auto file = DatafileWriter().finish(o);
      CHECK(file.size() == 36);
      auto df = Datafile::open(file);
      REQUIRE_MESSAGE(df, (df ? "" : df.error().to_string()));
      CHECK(df->num_items() == 0);
      CHECK(df->num_data() == 0);
      CHECK(df->num_item_types() == 0);
      std::vector<std::uint8_t> scratch;
      auto d = df->data(0, scratch);
      REQUIRE_FALSE(d);
      CHECK(d.error().code == Code::D1);
    }
  }

  TEST_CASE("datafile: v4 empty data item is warning V6 and D2 when loaded") {
    DatafileWriter w;
    w.add_item(0, 0, {1});
    w.add_data(pattern(10, 2));
    w.add_data({});
    const auto file = w.finish();
    auto df = Datafile::open(file);
    REQUIRE_MESSAGE(df, (df ? "" : df.error().to_string()));
    REQUIRE(df->warnings().size() == 1);
    CHECK(df->warnings()[0].code == Code::V6_zero_size);
    CHECK(df->warnings()[0].severity() == Severity::warning);
    CHECK(df->warnings()[0].message.find("data item 1") != std::string::npos);
    CHECK(df->data_size(1) == 0);
    CHECK(df->data_stored_size(1) > 0);  // the zlib stream of nothing
    std::vector<std::uint8_t> scratch;
    auto d = df->data(1, scratch);
    REQUIRE_FALSE(d);
    CHECK(d.error().code == Code::D2);
    CHECK(df->data(0, scratch));
  }

  TEST_CASE("datafile: UUID item types resolve through the UUID index") {
    DatafileWriter w;
    w.add_item(0, 0, {1});
    const Uuid automapper = uuid_from_name(kAutomapperConfigName);
    const Uuid bezier = uuid_from_name(kEnvPointsBezierName);
    const std::uint16_t t1 = w.uuid_type(automapper);
    const std::uint16_t t2 = w.uuid_type(bezier);
    CHECK(t1 == 0x8000);
    CHECK(t2 == 0x8001);
    CHECK(w.uuid_type(automapper) == t1);  // no second index item
    w.add_item(t1, 0, {1, 2, 3});
    w.add_item(t1, 1, {4, 5, 6});
    w.add_item(t2, 0, {9});
    const auto file = w.finish();
    auto df = Datafile::open(file);
    REQUIRE_MESSAGE(df, (df ? "" : df.error().to_string()));
    CHECK(df->items_of_type(kUuidIndexType).num == 2);
    CHECK(df->type_id_of(automapper) == std::optional<std::uint16_t>(t1));
    CHECK(df->type_id_of(bezier) == std::optional<std::uint16_t>(t2));
    CHECK_FALSE(df->type_id_of(uuid_from_name(kTestItemName)));
    CHECK(df->uuid_of(t1) == std::optional<Uuid>(automapper));
    CHECK_FALSE(df->uuid_of(0x8005));
    CHECK(df->items_of_uuid(automapper).num == 2);
    CHECK(df->items_of_uuid(bezier).num == 1);
    CHECK(df->items_of_uuid(uuid_from_name(kTestItemName)).num == 0);
    const auto r = df->items_of_uuid(automapper);
    CHECK(ints_of(df->item(r.start + 1)) == std::vector<std::int32_t>{4, 5, 6});

    // On disk the UUID is 4 ints, each holding 4 UUID bytes big-endian, so the
    // little-endian file bytes are each 4-byte group reversed.
    const auto idx = df->find_item(kUuidIndexType, t1);
    REQUIRE(idx);
    const Bytes raw = idx->data.bytes();
    REQUIRE(raw.size() == 16);
    for (std::size_t k = 0; k < 16; ++k) CHECK(raw[k] == automapper.bytes[(k & ~3u) + 3 - (k & 3)]);
  }

  TEST_CASE("datafile: duplicate UUID index items are legal") {
    DatafileWriter w;
    const Uuid automapper = uuid_from_name(kAutomapperConfigName);
    const std::uint16_t t = w.uuid_type(automapper);
    std::vector<std::int32_t> ints;
    for (std::size_t k = 0; k < 4; ++k)
      ints.push_back(
          static_cast<std::int32_t>(mapindex::load_be_u32(automapper.bytes.data() + 4 * k)));
    w.add_item(kUuidIndexType, t, ints);  // the same index item again, as old tools wrote
    w.add_item(t, 0, {1});
    const auto file = w.finish();
    auto df = Datafile::open(file);
    REQUIRE_MESSAGE(df, (df ? "" : df.error().to_string()));
    CHECK(df->items_of_type(kUuidIndexType).num == 2);
    CHECK(df->warnings().empty());
    CHECK(df->type_id_of(automapper) == std::optional<std::uint16_t>(t));
    CHECK(df->items_of_uuid(automapper).num == 1);
  }

  TEST_CASE("datafile: computed UUIDs equal independently computed values") {
    // Python's uuid.uuid3(UUID("e05ddaaa-c4e6-4cfb-b642-5d48e80c0029"), name):
    // RFC 4122 version 3 in DDNet's namespace, computed without this code.
    CHECK(uuid_from_name(kAutomapperConfigName).to_string() ==
          "3e1b2716-178c-3978-9bd9-b11ae0410dd8");
    CHECK(uuid_from_name(kEnvPointsBezierName).to_string() ==
          "3ab4f84d-d9cc-3c78-b585-0d6ccdb2e25c");
    CHECK(uuid_from_name(kTestItemName).to_string() == "b1ab2186-5ac3-39d9-9fbc-47cf03efdf1e");
    CHECK(known_uuid_name(uuid_from_name(kEnvPointsBezierName)) == kEnvPointsBezierName);
    CHECK(known_uuid_name(uuid_from_name(kGroupExName)) == kGroupExName);
    CHECK(known_uuid_name(uuid_from_name("mapitemtype-nonexistent@ddnet.tw")).empty());
    CHECK(uuid_from_name("a") != uuid_from_name("b"));
    // The ones computed once are the same.
    CHECK(known_uuid(KnownUuid::automapper_config) == uuid_from_name(kAutomapperConfigName));
    CHECK(known_uuid(KnownUuid::env_points_bezier) == uuid_from_name(kEnvPointsBezierName));
    CHECK(known_uuid(KnownUuid::test_item) == uuid_from_name(kTestItemName));
    CHECK(known_uuid(KnownUuid::group_ex) == uuid_from_name(kGroupExName));
  }

  TEST_CASE("datafile: Int32View") {
    const std::uint8_t bytes[] = {1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 3, 0, 0, 0, 9};
    const Int32View v{Bytes(bytes)};
    CHECK(v.size() == 3);
    CHECK(v[1] == -1);
    CHECK(v.get_or(2, 0) == 3);
    CHECK(v.get_or(3, 42) == 42);
    CHECK(v.subview(1, 5).size() == 2);
    CHECK(v.subview(1, 5)[0] == -1);
    CHECK(v.subview(7, 1).size() == 0);
    CHECK(Int32View{}.empty());
  }

  TEST_CASE("datafile: inflate_zlib is ok with exactly the declared size only") {
    DatafileWriter w;
    w.add_data(pattern(3000, 3));
    const auto file = w.finish();
    auto df = Datafile::open(file);
    REQUIRE(df);
    const auto layout = mapindex::testing::file_layout(file);
    const Bytes compressed(file.data() + layout.data, df->data_stored_size(0));
    std::vector<std::uint8_t> out(3000);
    mapindex::deflate::LibdeflateDecompressor d;
    CHECK(inflate_zlib(compressed, out, d).status == InflateStatus::ok);
    CHECK(out == pattern(3000, 3));
    std::vector<std::uint8_t> shorter(2999), longer(3001);
    CHECK(inflate_zlib(compressed, longer, d).status == InflateStatus::too_short);
    CHECK(inflate_zlib(compressed, longer, d).produced == 3000);
    CHECK(inflate_zlib(compressed, shorter, d).status == InflateStatus::too_long);
    CHECK(inflate_zlib(compressed.first(10), out, d).status == InflateStatus::corrupt);
  }

  TEST_CASE("datafile: to_i32_string packs bytes +128 big-endian with a final NUL") {
    const auto ints = mapindex::testing::to_i32_string("Game", 3);
    REQUIRE(ints.size() == 3);
    // 'G'+128 = 0xC7, 'a'+128 = 0xE1, 'm'+128 = 0xED, 'e'+128 = 0xE5; padding 0+128 = 0x80.
    CHECK(static_cast<std::uint32_t>(ints[0]) == 0xC7E1EDE5u);
    CHECK(static_cast<std::uint32_t>(ints[1]) == 0x80808080u);
    CHECK(static_cast<std::uint32_t>(ints[2]) == 0x80808000u);
  }

}  // TEST_SUITE
