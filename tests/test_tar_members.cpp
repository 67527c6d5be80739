// Tar members whose data mapindex reads itself (TarMembers, one pread into
// the entry's buffer) against libarchive reading the same files: the same
// entries, bytes and errors on whole tars of each format, on tars damaged at
// every byte and cut anywhere; what TarMembers leaves to libarchive; and
// that it does read the members it vouches for.
#include <archive.h>
#include <archive_entry.h>
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "read/entry_buffers.h"
#include "read/tar_members.h"
#include "tests/support/archive_builder.h"
#include "tests/support/read_all.h"

namespace {

namespace fs = std::filesystem;
using mapindex::read::Entry;
using mapindex::read::EntryBuffers;
using mapindex::read::is_regular_file_header;
using mapindex::read::ReadOptions;
using mapindex::read::ReadOutcome;
using mapindex::read::ReadProgress;
using mapindex::read::TarMembers;
using namespace mapindex::testing;

constexpr std::size_t kBlock = TarMembers::kBlock;

std::vector<Entry> read_tar(const fs::path& tar, bool tar_members,
                            ReadProgress* progress = nullptr) {
  ReadOptions options;
  options.tar_members = tar_members;
  return read_all({tar.string()}, options, progress);
}

// A name longer than a ustar header holds (100 bytes): a pax or GNU 'L'
// header comes before the member's own.
const std::string kLongName = "maps/" + std::string(120, 'n') + ".map";

// Files whose data is read here (5 with a long name, 4 without), a folder,
// a link, a hard link, and a tar and a zip inside (streamed to libarchive).
std::vector<ArchiveMember> sample_members(bool long_name) {
  std::vector<ArchiveMember> m = {
      {.path = "link", .type = MemberType::symlink, .link_target = "a.map"},
      {.path = "a.map", .bytes = noise_bytes(20000, 1)},
      {.path = "sub/", .type = MemberType::directory},
      {.path = "sub/b.bin", .bytes = noise_bytes(kBlock, 2)},  // exactly one block
      {.path = "empty.txt", .bytes = {}},
      {.path = "tiny.txt", .bytes = to_bytes("abc")},
      {.path = "again.map", .type = MemberType::hardlink, .link_target = "a.map"},
      {.path = "inner.tar",
       .bytes =
           build_archive(ArchiveFormat::tar, {{.path = "c.map", .bytes = noise_bytes(700, 3)}})},
      {.path = "inner.zip",
       .bytes =
           build_archive(ArchiveFormat::zip, {{.path = "d.map", .bytes = noise_bytes(64, 4)}})}};
  if (long_name) m.push_back({.path = kLongName, .bytes = noise_bytes(1500, 5)});
  return m;
}

// A tar of one member ("x.map": a ustar header, then its data at offset
// kBlock) and that member's data.
struct OneFile {
  std::vector<std::uint8_t> tar;
  std::vector<std::uint8_t> data;
};
OneFile one_file(std::size_t size) {
  OneFile f;
  f.data = noise_bytes(size, 9);
  f.tar = build_archive(ArchiveFormat::tar, {{.path = "x.map", .bytes = f.data}});
  REQUIRE(f.tar.size() >= 2 * kBlock + size);
  return f;
}

// Writes the checksum field of a header block as `sum` in octal.
void set_checksum(std::uint8_t* block, std::int64_t sum) {
  REQUIRE(sum >= 0);
  REQUIRE(sum < (1 << 18));  // six octal digits
  for (int i = 5; i >= 0; --i, sum >>= 3)
    block[148 + i] = static_cast<std::uint8_t>('0' + (sum & 7));
  block[154] = '\0';
  block[155] = ' ';
}

// The unsigned and the signed sum of a header block, its checksum field
// counted as spaces.
std::pair<std::int64_t, std::int64_t> header_sums(const std::uint8_t* block) {
  std::int64_t u = 0, s = 0;
  for (std::size_t i = 0; i < kBlock; ++i) {
    const std::uint8_t b = (i >= 148 && i < 156) ? ' ' : block[i];
    u += b;
    s += static_cast<std::int8_t>(b);
  }
  return {u, s};
}

// A pax tar with one sparse file (holes between its data), written with
// libarchive: its member's data is a sparse map and the pieces, not the file.
void write_sparse_tar(const fs::path& path, std::vector<std::uint8_t>& whole) {
  whole.assign(3 * 4096, 0);
  const auto piece = noise_bytes(1000, 7);
  std::copy(piece.begin(), piece.end(), whole.begin() + 4096);
  std::unique_ptr<archive, decltype(&archive_write_free)> w(archive_write_new(),
                                                            archive_write_free);
  REQUIRE(archive_write_set_format_pax_restricted(w.get()) == ARCHIVE_OK);
  REQUIRE(archive_write_open_filename(w.get(), path.c_str()) == ARCHIVE_OK);
  std::unique_ptr<archive_entry, decltype(&archive_entry_free)> e(archive_entry_new(),
                                                                  archive_entry_free);
  archive_entry_set_pathname(e.get(), "holes.map");
  archive_entry_set_filetype(e.get(), AE_IFREG);
  archive_entry_set_perm(e.get(), 0644);
  archive_entry_set_size(e.get(), static_cast<la_int64_t>(whole.size()));
  archive_entry_sparse_add_entry(e.get(), 4096, 1000);
  REQUIRE(archive_write_header(w.get(), e.get()) == ARCHIVE_OK);
  // The whole file: the writer keeps the pieces the sparse map names.
  REQUIRE(archive_write_data(w.get(), whole.data(), whole.size()) ==
          static_cast<la_ssize_t>(whole.size()));
  REQUIRE(archive_write_close(w.get()) == ARCHIVE_OK);
  // libarchive reads it back as a sparse file (its holes listed).
  std::unique_ptr<archive, decltype(&archive_read_free)> r(archive_read_new(), archive_read_free);
  archive_read_support_format_tar(r.get());
  REQUIRE(archive_read_open_filename(r.get(), path.c_str(), 10240) == ARCHIVE_OK);
  archive_entry* header = nullptr;
  REQUIRE(archive_read_next_header(r.get(), &header) == ARCHIVE_OK);
  CHECK(archive_entry_sparse_count(header) > 0);
}

}  // namespace

TEST_SUITE("read") {
  TEST_CASE("read tar members: the same entries whether mapindex or libarchive reads the data") {
    TempDir dir;
    struct Kind {
      const char* name;
      ArchiveFormat format;
      bool long_name;  // v7 headers cannot hold one
    };
    for (const Kind& kind :
         {Kind{"pax", ArchiveFormat::tar, true}, Kind{"gnu", ArchiveFormat::tar_gnu, true},
          Kind{"v7", ArchiveFormat::tar_v7, false}}) {
      CAPTURE(std::string(kind.name));
      const auto members = sample_members(kind.long_name);
      const fs::path tar = dir / (std::string(kind.name) + ".tar");
      write_archive(tar, kind.format, members);
      ReadProgress fast{}, plain{};
      const auto a = read_tar(tar, true, &fast);
      const auto b = read_tar(tar, false, &plain);
      CHECK(reading_difference(a, b) == "");
      // Every file's data but the inner archives' (streamed to libarchive)
      // was read here; none with the option off.
      const std::uint64_t data_members = kind.long_name ? 5 : 4;
      CHECK(fast.tar_members == data_members);
      CHECK(plain.tar_members == 0);
      // And it is the members' content.
      const auto bytes_of = [&](const std::string& path) {
        const auto it =
            std::find_if(a.begin(), a.end(), [&](const Entry& e) { return e.path == path; });
        REQUIRE(it != a.end());
        CHECK(it->kind == ReadOutcome::file);
        return std::vector<std::uint8_t>(it->bytes.begin(), it->bytes.end());
      };
      CHECK(bytes_of("a.map") == members[1].bytes);
      CHECK(bytes_of("sub/b.bin") == members[3].bytes);
      CHECK(bytes_of("empty.txt").empty());
      CHECK(bytes_of("tiny.txt") == to_bytes("abc"));
      CHECK(bytes_of("inner.tar/c.map") == noise_bytes(700, 3));
      CHECK(bytes_of("inner.zip/d.map") == noise_bytes(64, 4));
      if (kind.long_name) CHECK(bytes_of(kLongName) == members.back().bytes);
    }
  }

  TEST_CASE(
      "read tar members: compressed tars, tars inside archives and sparse files are libarchive's") {
    TempDir dir;
    const std::vector<ArchiveMember> files = {{.path = "a.map", .bytes = noise_bytes(3000, 1)},
                                              {.path = "b.map", .bytes = noise_bytes(100, 2)}};
    // Through a filter, libarchive's position is in the inflated stream.
    const fs::path gz = dir / "maps.tar.gz";
    write_archive(gz, ArchiveFormat::tar_gz, files);
    ReadProgress progress{};
    CHECK(reading_difference(read_tar(gz, true, &progress), read_tar(gz, false)) == "");
    CHECK(progress.entries == 2);
    CHECK(progress.tar_members == 0);
    // A tar inside a zip is a stream, not a file.
    const fs::path zip = dir / "outer.zip";
    write_archive(zip, ArchiveFormat::zip,
                  {{.path = "inner.tar", .bytes = build_archive(ArchiveFormat::tar, files)}});
    CHECK(reading_difference(read_tar(zip, true, &progress), read_tar(zip, false)) == "");
    CHECK(progress.entries == 2);
    CHECK(progress.tar_members == 0);
    // A sparse file's data in the tar is its map and pieces: libarchive's.
    const fs::path sparse = dir / "sparse.tar";
    std::vector<std::uint8_t> whole;
    write_sparse_tar(sparse, whole);
    const auto a = read_tar(sparse, true, &progress);
    CHECK(reading_difference(a, read_tar(sparse, false)) == "");
    CHECK(progress.tar_members == 0);
    REQUIRE(a.size() == 1);
    CHECK(a[0].bytes == whole);
  }

  TEST_CASE("read tar members: the block before the data must be the member's own header") {
    const auto f = one_file(1000);
    std::vector<std::uint8_t> header(f.tar.begin(), f.tar.begin() + kBlock);
    CHECK(is_regular_file_header(header.data(), 1000));
    CHECK_FALSE(is_regular_file_header(header.data(), 999));  // another size
    CHECK_FALSE(is_regular_file_header(header.data(), 1001));
    auto damaged = header;
    damaged[10] ^= 1;  // in the name: the checksum no longer holds
    CHECK_FALSE(is_regular_file_header(damaged.data(), 1000));
    auto folder = header;
    folder[156] = '5';
    set_checksum(folder.data(), header_sums(folder.data()).first);
    CHECK_FALSE(is_regular_file_header(folder.data(), 1000));
    for (const std::uint8_t type : {std::uint8_t{'\0'}, std::uint8_t{'7'}}) {
      auto other = header;
      other[156] = type;
      set_checksum(other.data(), header_sums(other.data()).first);
      CHECK(is_regular_file_header(other.data(), 1000));
    }
    // A size in base 256 (GNU, for large files) is not octal: libarchive's.
    auto base256 = header;
    std::fill(base256.begin() + 124, base256.begin() + 136, 0);
    base256[124] = 0x80;
    base256[134] = 0x03;
    base256[135] = 0xe8;  // 1000
    set_checksum(base256.data(), header_sums(base256.data()).first);
    CHECK_FALSE(is_regular_file_header(base256.data(), 1000));
    // Old archivers summed signed bytes; libarchive takes either sum.
    auto high = header;
    high[20] = 0xe9;  // a byte of a Latin-1 name
    const auto [unsigned_sum, signed_sum] = header_sums(high.data());
    REQUIRE(unsigned_sum != signed_sum);
    set_checksum(high.data(), signed_sum);
    CHECK(is_regular_file_header(high.data(), 1000));
    set_checksum(high.data(), unsigned_sum);
    CHECK(is_regular_file_header(high.data(), 1000));
    set_checksum(high.data(), unsigned_sum + 1);
    CHECK_FALSE(is_regular_file_header(high.data(), 1000));
  }

  TEST_CASE("read tar members: read at the data's offset only, from a file that holds it all") {
    TempDir dir;
    const auto f = one_file(1000);
    const fs::path path = dir / "one.tar";
    write_file(path, f.tar);
    auto tar = TarMembers::open(path, f.tar.size());
    REQUIRE(tar);
    EntryBuffers pool;
    std::vector<std::uint8_t> out;
    CHECK(tar->read(kBlock, 1000, pool, out));
    CHECK(out == f.data);
    // Not where a header block ends, or not after the member's own header.
    CHECK_FALSE(tar->read(kBlock + 1, 999, pool, out));
    CHECK(out.empty());
    CHECK_FALSE(tar->read(2 * kBlock, 488, pool, out));
    CHECK_FALSE(tar->read(0, 1000, pool, out));
    // Another size than the header's.
    CHECK_FALSE(tar->read(kBlock, 999, pool, out));
    // A file cut inside the data, or inside the padding after it (the data
    // ends at 1512, its last block at 1536): libarchive reports it.
    const fs::path cut = dir / "cut.tar";
    for (const std::size_t keep : {kBlock + 600, kBlock + 1000, kBlock + 1020}) {
      CAPTURE(keep);
      write_file(cut, truncated_copy(f.tar, keep));
      auto cut_tar = TarMembers::open(cut, keep);
      REQUIRE(cut_tar);
      CHECK_FALSE(cut_tar->read(kBlock, 1000, pool, out));
      CHECK(out.empty());
    }
    write_file(cut, truncated_copy(f.tar, 3 * kBlock));
    CHECK(TarMembers::open(cut, 3 * kBlock)->read(kBlock, 1000, pool, out));
    CHECK(out == f.data);
    // A member that is an archive is streamed by libarchive.
    const auto inner = build_archive(ArchiveFormat::zip, {{.path = "a.map", .bytes = f.data}});
    const auto outer = build_archive(ArchiveFormat::tar, {{.path = "in.zip", .bytes = inner}});
    const fs::path nested = dir / "nested.tar";
    write_file(nested, outer);
    auto nested_tar = TarMembers::open(nested, outer.size());
    REQUIRE(nested_tar);
    CHECK_FALSE(nested_tar->read(kBlock, inner.size(), pool, out));
    CHECK(TarMembers::open(dir / "missing.tar", 0) == nullptr);
  }

  TEST_CASE(
      "read tar members slow: tars damaged at every byte or cut anywhere read the same both ways") {
    TempDir dir;
    const fs::path path = dir / "damaged.tar";
    const std::vector<ArchiveMember> members = {{.path = "a.map", .bytes = noise_bytes(300, 1)},
                                                {.path = "b/c.map", .bytes = noise_bytes(600, 2)},
                                                {.path = "d.txt", .bytes = to_bytes("not a map")}};
    const auto tar = build_archive(ArchiveFormat::tar, members);
    std::size_t differences = 0, all_taken = 0, some_left = 0, cases = 0;
    std::string first;
    const auto compare = [&](const std::vector<std::uint8_t>& bytes, const std::string& what) {
      write_file(path, bytes);
      ReadProgress fast{};
      const auto a = read_tar(path, true, &fast);
      const std::string d = reading_difference(read_tar(path, false), a);
      ++cases;
      if (!d.empty() && differences++ == 0) first = what + ": " + d;
      if (fast.tar_members == members.size()) ++all_taken;
      if (fast.tar_members < members.size()) ++some_left;
    };
    for (std::size_t at = 0; at < tar.size(); ++at)
      for (const unsigned flip : {0x01u, 0x80u, 0xffu}) {
        auto bytes = tar;
        bytes[at] = static_cast<std::uint8_t>(bytes[at] ^ flip);
        compare(bytes, "byte " + std::to_string(at) + " ^ " + std::to_string(flip));
      }
    for (std::size_t keep = 0; keep < tar.size(); keep += 7)
      compare(truncated_copy(tar, keep), "cut at " + std::to_string(keep));
    CHECK_MESSAGE(differences == 0, first);
    // Both ways were exercised: damage in the data (which no reader checks)
    // leaves every member to TarMembers, damage in a header leaves the
    // members from there on to libarchive (which stops at it), and so does
    // a cut.
    CHECK(all_taken > cases / 8);
    CHECK(some_left > cases / 8);
  }
}
