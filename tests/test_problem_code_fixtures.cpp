// One generated fixture per problem code: every code of the code table
// (src/common/problem_codes.h), but the commands' own errors, has a fixture
// that triggers it, and this test fails for a code that no fixture triggers
// (a code added to the table without one, or a fixture removed). The map check
// cases of tests/test_map_checks.cpp count as fixtures of their codes.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "decode/datafile/datafile.h"
#include "decode/spritetile/level.h"
#include "decode/teeworlds/item_decoders.h"
#include "extract/spritetile_stats.h"
#include "extract/teeworlds_measure.h"
#include "read/source_reader.h"
#include "tests/map_check_cases.h"
#include "tests/support/archive_builder.h"
#include "tests/support/codes.h"
#include "tests/support/datafile_writer.h"
#include "tests/support/map_builder.h"
#include "tests/support/process.h"
#include "tests/support/spritetile_writer.h"
#include "tests/support/sqlite_probe.h"

namespace mapindex::testing {
namespace {

namespace fs = std::filesystem;
using Bytes8 = std::vector<std::uint8_t>;
using Codes = std::vector<Code>;
using Fixture = std::function<Codes()>;

// Codes no input reaches: checks kept as a safety net.
const std::map<Code, const char*> kNoFixture = {
    {Code::internal, "measuring threw (out of memory or a bug): no input makes it throw"},
    {Code::st_lzf_failed, "liblzf disagreeing with the LZF walk that validated the stream first"},
};

Codes problem_codes(const Problems& problems) {
  Codes out;
  for (const auto& p : problems) out.push_back(p.code);
  return out;
}

Codes map_codes(const Bytes8& file) {
  return problem_codes(measure_teeworlds(Bytes(file)).problems);
}

// A map that opens and has no problem: the game group and an 8x8 game layer.
MapBuilder base_map() {
  MapBuilder b;
  b.add_game_group();
  b.add_tile_layer(TileGrid(LayerKind::game, 8, 8).fill(0, 7, 8, 1, 1));
  return b;
}

Bytes8 base_file() { return base_map().build(); }

std::int32_t read_i32(const Bytes8& f, std::size_t at) {
  return static_cast<std::int32_t>(f[at] | f[at + 1] << 8 | f[at + 2] << 16 |
                                   static_cast<std::uint32_t>(f[at + 3]) << 24);
}
void add_i32(Bytes8& f, std::size_t at, std::int32_t delta) {
  patch_i32(f, at, read_i32(f, at) + delta);
}

// The map with one header or table field patched.
Fixture patched(std::function<void(Bytes8&)> patch) {
  return [patch] {
    Bytes8 f = base_file();
    patch(f);
    return map_codes(f);
  };
}

// The error of reading data item `index` of `file`.
Codes data_error(const Bytes8& file, std::size_t index, datafile::Options options = {}) {
  auto df = datafile::Datafile::open(Bytes(file), options);
  REQUIRE(df);
  std::vector<std::uint8_t> scratch;
  auto d = df->data(index, scratch);
  return d ? Codes{} : Codes{d.error().code};
}

// A SpriteTile file's codes: the decoder's error, or the level's problems.
Codes level_codes(const Bytes8& file, const spritetile::DecodeOptions& options = {}) {
  auto level = spritetile::decode_level(Bytes(file), options);
  if (!level) return {level.error().code};
  return problem_codes(spritetile_stats(*level).problems);
}

StLayer small_layer() {
  StLayer l;
  l.width = 3;
  l.height = 2;
  l.cells = {StCell{1, 0, 0, 0}, StCell{}, StCell{}, StCell{}, StCell{}, StCell{}};
  return l;
}

Codes level_with(std::function<void(StLayer&)> change) {
  StLayer l = small_layer();
  change(l);
  return level_codes(SpriteTileWriter().layers({l}).compressed());
}

// The codes of the entries SourceReader gives for `inputs`.
Codes read_codes(const std::vector<std::string>& inputs, read::ReadOptions options = {}) {
  read::SourceReader reader(inputs, options);
  Codes out;
  while (auto e = reader.next())
    if (e->kind == read::ReadOutcome::error || e->kind == read::ReadOutcome::not_read)
      out.push_back(e->error.code);
  return out;
}

// The codes `mapindex index` stores for an input (entries and maps), read back
// from the index as text and looked up in the table.
Codes indexed_codes(const fs::path& input, const std::vector<std::string>& options = {}) {
  TempDir tmp;
  const auto db = (tmp / "index.sqlite").string();
  std::vector<std::string> args = {"index", "--db", db, "--quiet"};
  args.insert(args.end(), options.begin(), options.end());
  args.push_back(input.string());
  run_process(mapindex_binary(), args);
  Codes out;
  const std::string rows =
      sql_value(db, "SELECT group_concat(code || ' ' || severity, ',') FROM problems");
  for (const auto& c : code_table()) {
    const std::string row = std::string(c.string) + " " + std::string(to_string(c.severity));
    if (("," + rows + ",").find("," + row + ",") != std::string::npos) out.push_back(c.code);
  }
  return out;
}

std::multimap<Code, Fixture> fixtures() {
  std::multimap<Code, Fixture> f;
  const auto add = [&](Code code, Fixture fixture) { f.emplace(code, std::move(fixture)); };

  // Container.
  add(Code::H1, patched([](Bytes8& b) { b.resize(20); }));
  add(Code::H2, patched([](Bytes8& b) { b[0] = 'X'; }));
  add(Code::H3, patched([](Bytes8& b) { patch_i32(b, header_offset::version, 5); }));
  add(Code::H4, patched([](Bytes8& b) { patch_i32(b, header_offset::num_items, -1); }));
  add(Code::H5, patched([](Bytes8& b) { b.push_back(0); }));
  add(Code::H6, patched([](Bytes8& b) { add_i32(b, header_offset::size, 1); }));
  add(Code::H7, patched([](Bytes8& b) { add_i32(b, header_offset::swaplen, -1); }));
  add(Code::H8, patched([](Bytes8& b) { patch_i32(b, header_offset::num_items, 600'000'000); }));
  add(Code::H6_crude, patched([](Bytes8& b) {
        add_i32(b, header_offset::size, -4 * static_cast<std::int32_t>(file_layout(b).num_data));
      }));
  add(Code::V1, patched([](Bytes8& b) { patch_i32(b, file_layout(b).item_types, 0x10005); }));
  add(Code::V2, patched([](Bytes8& b) { patch_i32(b, file_layout(b).item_offsets, 4); }));
  add(Code::V3, patched([](Bytes8& b) {
        const auto layout = file_layout(b);
        add_i32(b, layout.items + static_cast<std::size_t>(read_i32(b, layout.item_offsets)) + 4,
                4);
      }));
  add(Code::V4, [] {
    // No items, but 8 bytes of item area.
    Bytes8 b = DatafileWriter().finish();
    b.insert(b.begin() + static_cast<std::ptrdiff_t>(file_layout(b).items), 8, 0);
    add_i32(b, header_offset::size, 8);
    add_i32(b, header_offset::swaplen, 8);
    patch_i32(b, header_offset::item_size, 8);
    return map_codes(b);
  });
  add(Code::V5, patched([](Bytes8& b) { patch_i32(b, file_layout(b).data_offsets, 1); }));
  add(Code::V6, patched([](Bytes8& b) { patch_i32(b, file_layout(b).data_sizes, -1); }));
  add(Code::V6_zero_size, patched([](Bytes8& b) { patch_i32(b, file_layout(b).data_sizes, 0); }));

  // Data items.
  add(Code::D1, [] { return data_error(base_file(), 99); });
  add(Code::D2, [] {
    Bytes8 b = base_file();
    patch_i32(b, file_layout(b).data_sizes, 0);
    return data_error(b, 0);
  });
  add(Code::D4, [] {
    Bytes8 b = base_file();
    add_i32(b, file_layout(b).data_sizes, 4);
    return data_error(b, 0);
  });
  add(Code::D_cap, [] {
    datafile::Options small;
    small.max_data_item_size = 16;
    return data_error(base_file(), 0, small);
  });
  add(Code::D_budget, [] {
    DatafileWriter w;
    w.add_item(0, 0, {1});
    w.add_data(Bytes8(1u << 20, 7));
    const Bytes8 b = w.finish();
    auto df = datafile::Datafile::open(Bytes(b));
    REQUIRE(df);
    std::vector<std::uint8_t> scratch;
    for (int i = 0; i < 100; ++i)
      if (auto d = df->data(0, scratch); !d) return Codes{d.error().code};
    return Codes{};
  });
  add(Code::D7, [] {
    DatafileWriter w;
    w.add_item(0, 0, {1});
    const std::uint8_t no_nul[] = {'a', 'b'};
    w.add_data(no_nul);
    const Bytes8 b = w.finish();
    auto df = datafile::Datafile::open(Bytes(b));
    REQUIRE(df);
    auto s = df->string(0);
    return s ? Codes{} : Codes{s.error().code};
  });

  // Map checks: the items too short to decode, and the other broken forms.
  const auto map_with = [](std::function<void(MapBuilder&)> change) -> Fixture {
    return [change] {
      MapBuilder b = base_map();
      change(b);
      return map_codes(b.build());
    };
  };
  add(Code::info_item_size,
      map_with([](MapBuilder& b) { b.add_raw_item(teeworlds::kInfoType, 0, {}); }));
  add(Code::image_item_size, map_with([](MapBuilder& b) {
        b.add_raw_item(teeworlds::kImageType, 0, {1, 0, 0, 0, 0});
      }));
  add(Code::envelope_item_size, map_with([](MapBuilder& b) {
        b.add_raw_item(teeworlds::kEnvelopeType, 0, {1, 4, 0});
      }));
  add(Code::sound_item_size, map_with([](MapBuilder& b) {
        b.add_raw_item(teeworlds::kSoundType, 0, {1, 0, 0});
      }));
  add(Code::quads_item_size, map_with([](MapBuilder& b) {
        b.add_raw_item(teeworlds::kLayerType, 1, {0, teeworlds::kLayerQuads, 0, 2});
      }));
  add(Code::sounds_item_size, map_with([](MapBuilder& b) {
        b.add_raw_item(teeworlds::kLayerType, 1, {0, teeworlds::kLayerSounds, 0, 2});
      }));
  add(Code::automapper_item_size, map_with([](MapBuilder& b) {
        // The automapper is the map's only UUID item type: the first UUID type id.
        b.add_automapper(0, 0);
        b.add_raw_item(datafile::kFirstUuidTypeId, 1, {1, 0});
      }));
  add(Code::info_string, map_with([](MapBuilder& b) {
        const std::int32_t author = b.add_raw_data({'n', 'o', '_', 'n', 'u', 'l'});
        b.add_raw_item(teeworlds::kInfoType, 0, {1, author, -1, -1, -1, -1});
      }));
  add(Code::image_size, map_with([](MapBuilder& b) { b.add_external_image("grass_main", 0, 64); }));
  add(Code::sound_name, map_with([](MapBuilder& b) {
        const std::int32_t name = b.add_raw_data({'n', 'o', '_', 'n', 'u', 'l'});
        const std::int32_t data = b.add_raw_data({1, 2, 3, 4});
        b.add_sound_raw(teeworlds::SoundItem{1, false, name, data, 4});
      }));
  add(Code::quads_data, map_with([](MapBuilder& b) {
        QuadsLayerSpec q;
        q.quads = {QuadSpec{}};
        q.data_index_override = 99;
        b.add_quads_layer(q);
      }));
  add(Code::sounds_data, map_with([](MapBuilder& b) {
        // version 2, one source, data index 99, no sound.
        b.add_raw_item(teeworlds::kLayerType, 1, {0, teeworlds::kLayerSounds, 0, 2, 1, 99, -1});
      }));
  add(Code::group_ex_item_size, [] {
    const std::int32_t one_int[] = {1};
    auto r = teeworlds::decode_group_ex(
        datafile::Int32View(Bytes(reinterpret_cast<const std::uint8_t*>(one_int), sizeof one_int)));
    return r ? Codes{} : Codes{r.error().code};
  });

  // SpriteTile levels.
  add(Code::st_lzf_empty, [] { return level_codes({}); });
  add(Code::st_lzf_truncated, [] {
    Bytes8 b = SpriteTileWriter().layers({small_layer()}).compressed();
    b.pop_back();
    return level_codes(b);
  });
  add(Code::st_lzf_backref,
      [] { return level_codes(SpriteTileWriter().layers({small_layer()}).raw()); });
  add(Code::st_lzf_cap, [] {
    SpriteTileWriter w;
    w.layers({small_layer()});
    spritetile::DecodeOptions small;
    small.max_decompressed_size = w.raw().size() - 1;
    return level_codes(w.compressed(), small);
  });
  add(Code::st_magic,
      [] { return level_codes(lzf_compress_bytes(to_bytes("some other Unity asset"))); });
  add(Code::st_header_truncated,
      [] { return level_codes(lzf_literal_stream(to_bytes("SpriteTileLevel\x01\x02"))); });
  add(Code::st_endian, [] {
    return level_codes(SpriteTileWriter().layers({small_layer()}).endian_byte(2).compressed());
  });
  add(Code::st_version,
      [] { return level_codes(SpriteTileWriter(false, 4).layers({small_layer()}).compressed()); });
  add(Code::st_tags_count,
      [] { return level_codes(SpriteTileWriter().layers({}).tag_count(0).compressed()); });
  add(Code::st_lvlayrs_duplicate, [] {
    return level_codes(
        SpriteTileWriter().layers({small_layer()}).layers({small_layer()}).compressed());
  });
  add(Code::st_numsets_duplicate, [] {
    return level_codes(
        SpriteTileWriter().numsets(32).layers({small_layer()}).numsets(32).compressed());
  });
  add(Code::st_not_level,
      [] { return level_codes(SpriteTileWriter().groups_tags().compressed()); });
  add(Code::st_lvlayrs_missing,
      [] { return level_codes(SpriteTileWriter().editor_tags().numsets(32).compressed()); });
  add(Code::st_tag_offset, [] {
    return level_codes(
        SpriteTileWriter().layers({small_layer()}).tag_offset(0, 0x7fffffff).compressed());
  });
  add(Code::st_numsets, [] {
    return level_codes(SpriteTileWriter().layers({small_layer()}).numsets(3).compressed());
  });
  add(Code::st_layers_count, [] {
    SpriteTileWriter w;
    Bytes8 payload = w.encode_layers({small_layer()});
    const Bytes8 count = w.encode_i32(-1);
    std::copy(count.begin(), count.end(), payload.begin());
    return level_codes(w.raw_tag("lvlayrs", payload).compressed());
  });
  add(Code::st_layer_truncated, [] {
    SpriteTileWriter w;
    Bytes8 payload = w.encode_layers({small_layer(), small_layer()});
    const Bytes8 count = w.encode_i32(3);
    std::copy(count.begin(), count.end(), payload.begin());
    return level_codes(w.raw_tag("lvlayrs", payload).compressed());
  });
  add(Code::st_layer_size, [] {
    StLayer short_of_a_cell = small_layer();
    short_of_a_cell.pad_cells = false;
    short_of_a_cell.cells.pop_back();
    return level_codes(SpriteTileWriter().layers({small_layer(), short_of_a_cell}).compressed());
  });
  add(Code::st_layer_tag, [] { return level_with([](StLayer& l) { l.tag = "lyrdatX"; }); });
  add(Code::st_layer_lock, [] { return level_with([](StLayer& l) { l.layer_lock = 9; }); });
  add(Code::st_layer_float,
      [] { return level_with([](StLayer& l) { l.z = std::numeric_limits<float>::quiet_NaN(); }); });
  add(Code::st_layer_tile_size, [] { return level_with([](StLayer& l) { l.tile_size_x = 0; }); });
  add(Code::st_cell_rotation,
      [] { return level_with([](StLayer& l) { l.cells[0].misc = 1800; }); });
  add(Code::st_cell_unused_bits,
      [] { return level_with([](StLayer& l) { l.cells[0].misc = 0x6000; }); });
  add(Code::st_cell_empty_value,
      [] { return level_with([](StLayer& l) { l.cells[1].tile = -2; }); });

  // Reading inputs.
  const std::vector<ArchiveMember> members = {
      {"one.map", noise_bytes(5000, 1), MemberType::file, ""},
      {"two.map", noise_bytes(5000, 2), MemberType::file, ""}};
  add(Code::read_io, [] {
    TempDir dir;
    return read_codes({(dir / "missing.zip").string()});
  });
  add(Code::read_truncated, [members] {
    TempDir dir;
    const Bytes8 tar = build_archive(ArchiveFormat::tar, members);
    write_file(dir / "cut.tar", truncated_copy(tar, tar.size() / 2));
    return read_codes({(dir / "cut.tar").string()});
  });
  add(Code::read_corrupt, [members] {
    TempDir dir;
    Bytes8 zip = build_archive(ArchiveFormat::zip, members, {"zip:compression=store", ""});
    auto at = std::search(zip.begin(), zip.end(), members[1].bytes.begin(),
                          members[1].bytes.begin() + 64);
    REQUIRE(at != zip.end());
    at[32] ^= 0x55;  // the CRC no longer matches
    write_file(dir / "crc.zip", zip);
    return read_codes({(dir / "crc.zip").string()});
  });
  add(Code::read_encrypted, [members] {
    TempDir dir;
    write_archive(dir / "secret.zip", ArchiveFormat::zip, members,
                  {"zip:encryption=zipcrypt", "hunter2"});
    return read_codes({(dir / "secret.zip").string()});
  });
  add(Code::read_nesting, [members] {
    TempDir dir;
    write_archive(
        dir / "outer.tar", ArchiveFormat::tar,
        {{"inner.zip", build_archive(ArchiveFormat::zip, members), MemberType::file, ""}});
    read::ReadOptions flat;
    flat.max_nesting = 0;
    return read_codes({(dir / "outer.tar").string()}, flat);
  });
  add(Code::read_oversize_archive, [members] {
    TempDir dir;
    write_archive(
        dir / "outer.tar", ArchiveFormat::tar,
        {{"inner.7z", build_archive(ArchiveFormat::seven_zip, members), MemberType::file, ""}});
    read::ReadOptions small;
    small.max_entry_size = 1000;
    return read_codes({(dir / "outer.tar").string()}, small);
  });
  add(Code::read_empty, [] {
    TempDir dir;
    write_file(dir / "empty.bin", Bytes());
    return read_codes({(dir / "empty.bin").string()});
  });
  add(Code::read_empty_inner, [] {
    TempDir dir;
    write_archive(dir / "outer.tar", ArchiveFormat::tar,
                  {{"none.zip", build_archive(ArchiveFormat::zip, {}), MemberType::file, ""},
                   {"a.txt", to_bytes("a"), MemberType::file, ""}});
    return read_codes({(dir / "outer.tar").string()});
  });
  add(Code::read_not_regular, [] {
    TempDir dir;
    write_archive(dir / "links.tar", ArchiveFormat::tar,
                  {{"a.txt", to_bytes("a"), MemberType::file, ""},
                   {"link", {}, MemberType::symlink, "a.txt"}});
    return read_codes({(dir / "links.tar").string()});
  });

  // Entries the index writes.
  add(Code::read_duplicate_name, [] {
    TempDir dir;
    write_archive(dir / "twice.tar", ArchiveFormat::tar,
                  {{"a.txt", to_bytes("a"), MemberType::file, ""},
                   {"a.txt", to_bytes("b"), MemberType::file, ""}});
    return indexed_codes(dir / "twice.tar");
  });
  add(Code::entry_oversize, [] {
    TempDir dir;
    write_archive(dir / "big.tar", ArchiveFormat::tar,
                  {{"big.bin", noise_bytes(2 << 20, 3), MemberType::file, ""}});
    return indexed_codes(dir / "big.tar", {"--max-map-size", "1"});
  });
  add(Code::text_not_utf8, [] {
    TempDir dir;
    ArchiveMember m{"bad\xff.txt", to_bytes("a"), MemberType::file, ""};
    m.raw_path = true;
    write_archive(dir / "names.tar", ArchiveFormat::tar, {m});
    return indexed_codes(dir / "names.tar");
  });
  return f;
}

// The code of a map check case (stored string and severity) in the table.
Code code_of(const MapCheckCase& c) {
  for (const auto& info : code_table())
    if (info.string == c.code && info.severity == c.severity) return info.code;
  FAIL("map check case '" << c.name << "' names no code of the table: " << c.code);
  return Code{};
}

}  // namespace

TEST_SUITE("problem codes") {
  TEST_CASE("problem codes e2e: every problem code has a fixture that triggers it") {
    std::multimap<Code, Fixture> all = fixtures();
    for (const auto& c : map_check_cases()) {
      const MapCheckCase copy = c;
      all.emplace(code_of(c), [copy] { return map_codes(copy.make()); });
    }
    int checked = 0;
    for (const auto& info : code_table()) {
      if (info.group == CodeGroup::tool) continue;     // commands' errors: tests/test_cli_*.cpp
      if (info.group == CodeGroup::release) continue;  // audit findings: test_audit_rules.cpp
      INFO("code " << info.string << " (" << to_string(info.severity) << ")");
      if (kNoFixture.count(info.code)) {
        CHECK(all.count(info.code) == 0);
        continue;
      }
      const auto [first, last] = all.equal_range(info.code);
      if (first == last) {
        FAIL_CHECK("no fixture triggers " << info.string);
        continue;
      }
      for (auto it = first; it != last; ++it) {
        const Codes got = it->second();
        std::string got_text;
        for (Code g : got) got_text += " " + std::string(to_string(g));
        CHECK_MESSAGE(
            std::find(got.begin(), got.end(), info.code) != got.end(),
            "the fixture for " << info.string << " does not trigger it; it gives:" << got_text);
      }
      ++checked;
    }
    CHECK(checked >= 115);
  }

}  // TEST_SUITE

}  // namespace mapindex::testing
