// Zip members read and inflated by mapindex (ZipMembers, libdeflate) against
// libarchive reading the same files: the same entries, bytes and errors on
// whole zips and on zips damaged at every byte; the files ZipMembers leaves
// to libarchive; and that it does read the members it vouches for.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "read/zip_members.h"
#include "tests/support/archive_builder.h"
#include "tests/support/read_all.h"

namespace {

namespace fs = std::filesystem;
using mapindex::load_le_u16;
using mapindex::load_le_u32;
using mapindex::read::Entry;
using mapindex::read::ReadOptions;
using mapindex::read::ReadOutcome;
using mapindex::read::ReadProgress;
using mapindex::read::ZipMember;
using mapindex::read::ZipMembers;
using namespace mapindex::testing;

// Bytes that deflate into dynamic Huffman blocks with matches (a pattern
// with noise through it), unlike noise alone.
std::vector<std::uint8_t> patterned(std::size_t size, std::uint32_t seed) {
  auto noise = noise_bytes(size, seed);
  std::vector<std::uint8_t> out(size);
  for (std::size_t i = 0; i < size; ++i)
    out[i] = (i % 7 == 3) ? noise[i] : static_cast<std::uint8_t>("DATA tiles "[i % 11]);
  return out;
}

// Files whose data is read (3), a folder, a link and a zip inside. The link
// comes first: libarchive declares its size 0, not its target's length, and
// that must not take the files after it from ZipMembers.
std::vector<ArchiveMember> sample_members(std::size_t size) {
  return {
      {.path = "link", .type = MemberType::symlink, .link_target = "a.map"},
      {.path = "a.map", .bytes = patterned(size, 1)},
      {.path = "sub/", .type = MemberType::directory},
      {.path = "sub/b.bin", .bytes = patterned(size / 2, 2)},
      {.path = "empty.txt", .bytes = {}},
      {.path = "inner.zip",
       .bytes = build_archive(ArchiveFormat::zip, {{.path = "c.map", .bytes = patterned(64, 3)}})}};
}
constexpr std::uint64_t kSampleDataMembers = 3;  // a.map, sub/b.bin, empty.txt

std::vector<Entry> read_zip(const fs::path& zip, bool zip_members,
                            ReadProgress* progress = nullptr) {
  ReadOptions options;
  options.zip_members = zip_members;
  return read_all({zip.string()}, options, progress);
}

// The offset of the end of central directory record of a zip with no comment.
std::size_t end_record(const std::vector<std::uint8_t>& zip) {
  REQUIRE(zip.size() >= 22);
  const std::size_t at = zip.size() - 22;
  REQUIRE(load_le_u32(zip.data() + at) == 0x06054b50u);
  return at;
}

// `zip` with a comment of `comment` bytes after its end record.
std::vector<std::uint8_t> with_comment(std::vector<std::uint8_t> zip,
                                       const std::vector<std::uint8_t>& comment) {
  const std::size_t end = end_record(zip);
  zip[end + 20] = static_cast<std::uint8_t>(comment.size());
  zip[end + 21] = static_cast<std::uint8_t>(comment.size() >> 8);
  zip.insert(zip.end(), comment.begin(), comment.end());
  return zip;
}

// `zip` (one member, no comment) with every offset moved `by` bytes on, to
// follow `by` bytes of something else.
std::vector<std::uint8_t> shifted(std::vector<std::uint8_t> zip, std::uint32_t by) {
  const std::size_t end = end_record(zip);
  const std::size_t directory = load_le_u32(zip.data() + end + 16);
  REQUIRE(load_le_u32(zip.data() + directory) == 0x02014b50u);
  mapindex::store_le_u32(zip.data() + directory + 42,
                         load_le_u32(zip.data() + directory + 42) + by);
  mapindex::store_le_u32(zip.data() + end + 16, static_cast<std::uint32_t>(directory) + by);
  return zip;
}

// `zip` (one member, no comment) whose directory record has a 20-byte
// comment that starts with a zip64 end locator's signature, right before the
// end record.
std::vector<std::uint8_t> with_locator_before_end(std::vector<std::uint8_t> zip) {
  const std::size_t end = end_record(zip);
  const std::size_t directory = load_le_u32(zip.data() + end + 16);
  REQUIRE(load_le_u16(zip.data() + directory + 32) == 0);  // no comment yet
  zip[directory + 32] = 20;
  mapindex::store_le_u32(zip.data() + end + 12, load_le_u32(zip.data() + end + 12) + 20);
  std::vector<std::uint8_t> locator(20, 0);
  locator[0] = 'P';
  locator[1] = 'K';
  locator[2] = 6;
  locator[3] = 7;
  locator[16] = 1;  // one disk: a locator libarchive follows
  zip.insert(zip.begin() + static_cast<std::ptrdiff_t>(end), locator.begin(), locator.end());
  return zip;
}

}  // namespace

TEST_SUITE("read") {
  TEST_CASE("read zip members: the same entries whether mapindex or libarchive inflates them") {
    TempDir dir;
    struct Kind {
      const char* name;
      ArchiveSettings settings;
    };
    for (const Kind& kind : {Kind{"deflated", {}}, Kind{"stored", {"zip:compression=store", ""}}}) {
      CAPTURE(std::string(kind.name));
      const auto members = sample_members(20000);
      const fs::path zip = dir / (std::string(kind.name) + ".zip");
      write_archive(zip, ArchiveFormat::zip, members, kind.settings);
      ReadProgress fast{}, plain{};
      const auto a = read_zip(zip, true, &fast);
      const auto b = read_zip(zip, false, &plain);
      CHECK(reading_difference(a, b) == "");
      // Every file's data but the inner zip's (streamed to libarchive as an
      // archive) was read here; none with the option off.
      CHECK(fast.zip_members == kSampleDataMembers);
      CHECK(plain.zip_members == 0);
      // And it is the members' content (the inner zip's map included).
      REQUIRE(a.size() == 5);
      CHECK(a[0].path == "link");
      CHECK(a[0].kind == ReadOutcome::not_read);
      CHECK(a[1].path == "a.map");
      CHECK(a[1].bytes == members[1].bytes);
      CHECK(a[2].path == "sub/b.bin");
      CHECK(a[2].bytes == members[3].bytes);
      CHECK(a[3].path == "empty.txt");
      CHECK(a[3].kind == ReadOutcome::file);
      CHECK(a[3].bytes.empty());
      CHECK(a[4].path == "inner.zip/c.map");
      CHECK(a[4].bytes == patterned(64, 3));
    }
  }

  TEST_CASE("read zip members: names flagged UTF-8 keep their letters, whatever the locale") {
    // mapindex reads in C.UTF-8 (read::use_utf8_names, called by main());
    // in the C locale libarchive could not convert these names and the
    // entries had none ("<unnamed entry>").
    TempDir dir;
    const std::vector<std::string> names = {"café.map", "карты/мост.map", "日本/マップ.map"};
    std::vector<ArchiveMember> members;
    for (const auto& name : names) members.push_back({.path = name, .bytes = to_bytes(name)});
    const fs::path zip = dir / "names.zip";
    write_archive(zip, ArchiveFormat::zip, members);
    auto z = ZipMembers::open(zip, fs::file_size(zip));
    REQUIRE(z);
    for (const auto& m : z->members()) CHECK((m.flags & 0x800) != 0);  // flagged UTF-8
    for (const bool zip_members : {true, false}) {
      CAPTURE(zip_members);
      ReadProgress progress{};
      const auto entries = read_zip(zip, zip_members, &progress);
      REQUIRE(entries.size() == names.size());
      for (std::size_t i = 0; i < names.size(); ++i) {
        CHECK(entries[i].path == names[i]);
        CHECK(entries[i].bytes == to_bytes(names[i]));
      }
      CHECK(progress.zip_members == (zip_members ? names.size() : 0));
    }
  }

  TEST_CASE("read zip members: listed by local header offset, read whole and checked") {
    TempDir dir;
    const auto members = sample_members(5000);
    const fs::path zip = dir / "sample.zip";
    write_archive(zip, ArchiveFormat::zip, members);
    auto z = ZipMembers::open(zip, fs::file_size(zip));
    REQUIRE(z);
    REQUIRE(z->members().size() == members.size());
    for (std::size_t i = 1; i < z->members().size(); ++i)
      CHECK(z->members()[i - 1].local_offset < z->members()[i].local_offset);
    // The written order is the offset order here.
    mapindex::read::EntryBuffers pool;
    for (std::size_t i = 0; i < members.size(); ++i) {
      CAPTURE(members[i].path);
      const ZipMember& m = z->members()[i];
      CHECK(m.name == members[i].path);
      // As libarchive gives every header (a link's size as 0).
      const bool file = members[i].type == MemberType::file;
      const ZipMember* got = z->next(m.name, file ? m.size : 0, file);
      if (!file) {
        CHECK(got == nullptr);
        continue;
      }
      REQUIRE(got == &m);
      CHECK(got->size == members[i].bytes.size());
      std::vector<std::uint8_t> out;
      if (members[i].path == "inner.zip") {
        // An archive is libarchive's to stream, found before it is inflated.
        CHECK_FALSE(z->read(*got, got->size, pool, out));
        CHECK(out.empty());
        continue;
      }
      // Over the size limit: libarchive's (which reports it).
      if (!members[i].bytes.empty()) {
        CHECK_FALSE(z->read(*got, got->size - 1, pool, out));
        CHECK(out.empty());
      }
      REQUIRE(z->read(*got, got->size, pool, out));
      CHECK(out == members[i].bytes);
    }
  }

  TEST_CASE("read zip members: a header that is not the next member hands the rest to libarchive") {
    TempDir dir;
    const fs::path zip = dir / "sample.zip";
    write_archive(zip, ArchiveFormat::zip, sample_members(3000));
    // members: link, a.map, sub/, sub/b.bin, empty.txt, inner.zip
    {
      auto z = ZipMembers::open(zip, fs::file_size(zip));
      REQUIRE(z);
      const auto& m = z->members();
      CHECK(z->next("other", 0, false) == nullptr);
      CHECK(z->next(m[1].name, m[1].size, true) == nullptr);  // the rest too
      CHECK(z->next(m[2].name, 0, false) == nullptr);
      CHECK(z->next(m[3].name, m[3].size, true) == nullptr);
    }
    {
      // Another size, or none, or not a regular file: that member is
      // libarchive's, the next ones are still read here.
      auto z = ZipMembers::open(zip, fs::file_size(zip));
      const auto& m = z->members();
      CHECK(z->next(m[0].name, 0, false) == nullptr);
      CHECK(z->next(m[1].name, m[1].size + 1, true) == nullptr);
      CHECK(z->next(m[2].name, 0, false) == nullptr);
      CHECK(z->next(m[3].name, std::nullopt, true) == nullptr);
      CHECK(z->next(m[4].name, m[4].size, false) == nullptr);
      CHECK(z->next(m[5].name, m[5].size, true) == &m[5]);
    }
  }

  TEST_CASE("read zip members: files whose end ZipMembers does not vouch for are libarchive's") {
    TempDir dir;
    const auto zip = build_archive(ArchiveFormat::zip, sample_members(3000));
    const std::size_t end = end_record(zip);
    struct Case {
      const char* name;
      std::vector<std::uint8_t> bytes;
    };
    std::vector<std::uint8_t> prefixed(100, 'x');
    prefixed.insert(prefixed.end(), zip.begin(), zip.end());
    std::vector<std::uint8_t> two_ends = zip;
    two_ends.insert(two_ends.end(), zip.begin() + static_cast<std::ptrdiff_t>(end), zip.end());
    const Case cases[] = {
        // libarchive looks for the end record in the last 16 KiB only.
        {"a comment over 16 KiB", with_comment(zip, std::vector<std::uint8_t>(20000, 'c'))},
        // Offsets that a reader must correct for the data before them.
        {"data before the first member", prefixed},
        // A record after the end record's start: the last one is libarchive's.
        {"an end record in the comment",
         with_comment(zip, std::vector<std::uint8_t>(zip.begin() + static_cast<std::ptrdiff_t>(end),
                                                     zip.end()))},
        {"an end record after the end record", two_ends},
        {"a tar", build_archive(ArchiveFormat::tar, sample_members(3000))},
    };
    for (const Case& c : cases) {
      CAPTURE(c.name);
      const fs::path path = dir / "case.zip";
      write_file(path, c.bytes);
      CHECK(ZipMembers::open(path, c.bytes.size()) == nullptr);
      ReadProgress fast{};
      const auto a = read_zip(path, true, &fast);
      CHECK(fast.zip_members == 0);
      CHECK(reading_difference(a, read_zip(path, false)) == "");
    }
    // The end record at the first byte of the last 16 KiB: libarchive's
    // search stops before it (and reads the file as a stream); one byte
    // later it is found.
    for (const std::size_t comment : {std::size_t{16384 - 22}, std::size_t{16384 - 23}}) {
      CAPTURE(comment);
      const fs::path path = dir / "edge.zip";
      const auto bytes = with_comment(zip, std::vector<std::uint8_t>(comment, 'c'));
      write_file(path, bytes);
      CHECK((ZipMembers::open(path, bytes.size()) == nullptr) == (comment == 16384 - 22));
      CHECK(reading_difference(read_zip(path, true), read_zip(path, false)) == "");
    }
    // A short comment is fine.
    const fs::path path = dir / "comment.zip";
    const auto commented = with_comment(zip, std::vector<std::uint8_t>(100, 'c'));
    write_file(path, commented);
    CHECK(ZipMembers::open(path, commented.size()) != nullptr);
  }

  TEST_CASE(
      "read zip members: a zip libarchive reads otherwise than by the directory found is its own") {
    TempDir dir;
    const auto x =
        build_archive(ArchiveFormat::zip, {{.path = "a.map", .bytes = patterned(900, 1)}});
    const auto y =
        build_archive(ArchiveFormat::zip, {{.path = "a.map", .bytes = patterned(900, 2)}});
    // A gzip-compressed zip followed by another zip, whose offsets count
    // from the file's start: libarchive reads the first through its gzip
    // filter, and the second's directory must not stand in for it.
    auto filtered = gzip_bytes(x);
    const auto second = shifted(y, static_cast<std::uint32_t>(filtered.size()));
    filtered.insert(filtered.end(), second.begin(), second.end());
    // A zip64 end locator right before the end record: libarchive takes the
    // directory's offset from it.
    const auto located = with_locator_before_end(x);
    struct Case {
      const char* name;
      std::vector<std::uint8_t> bytes;
    };
    for (const Case& c : {Case{"gzip filter", filtered}, Case{"zip64 locator", located}}) {
      CAPTURE(c.name);
      const fs::path path = dir / "case.zip";
      write_file(path, c.bytes);
      ReadProgress fast{};
      const auto a = read_zip(path, true, &fast);
      CHECK(fast.zip_members == 0);
      CHECK(reading_difference(a, read_zip(path, false)) == "");
    }
    // The gzip-compressed zip's member is the first zip's.
    const fs::path path = dir / "filtered.zip";
    write_file(path, filtered);
    const auto entries = read_zip(path, true);
    REQUIRE(entries.size() == 1);
    CHECK(entries[0].bytes == patterned(900, 1));
  }

  TEST_CASE("read zip members slow: zips damaged at every byte read the same both ways") {
    // Each byte of a small zip changed in turn (three ways): whatever
    // ZipMembers takes must give what libarchive gives, and what it does not
    // vouch for is libarchive's anyway. Stored members have no deflate
    // stream to break: their damage is found by the CRC-32 alone.
    TempDir dir;
    const fs::path path = dir / "damaged.zip";
    for (const char* options : {"", "zip:compression=store"}) {
      CAPTURE(std::string(options));
      const auto members =
          std::vector<ArchiveMember>{{.path = "a.map", .bytes = patterned(300, 1)},
                                     {.path = "b/c.map", .bytes = patterned(200, 2)},
                                     {.path = "d.txt", .bytes = to_bytes("not a map")}};
      const auto zip = build_archive(ArchiveFormat::zip, members, {options, ""});
      std::size_t differences = 0, all_taken = 0, some_left = 0, cases = 0;
      std::string first;
      for (std::size_t at = 0; at < zip.size(); ++at) {
        for (const unsigned flip : {0x01u, 0x80u, 0xffu}) {
          auto bytes = zip;
          bytes[at] = static_cast<std::uint8_t>(bytes[at] ^ flip);
          write_file(path, bytes);
          ReadProgress fast{};
          const auto a = read_zip(path, true, &fast);
          const auto b = read_zip(path, false);
          const std::string d = reading_difference(b, a);
          ++cases;
          if (!d.empty() && differences++ == 0)
            first = "byte " + std::to_string(at) + " ^ " + std::to_string(flip) + ": " + d;
          if (fast.zip_members == members.size()) ++all_taken;
          if (fast.zip_members < members.size()) ++some_left;
        }
      }
      CHECK_MESSAGE(differences == 0, first);
      // Both ways were exercised: most damage (in fields no reader checks)
      // leaves every member to ZipMembers, and damage it finds leaves some to
      // libarchive.
      CHECK(all_taken > cases / 8);
      CHECK(some_left > cases / 8);
    }
  }
}
