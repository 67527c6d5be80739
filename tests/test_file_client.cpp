// The file client (read/file_client.h) against archive_read_open_filename,
// libarchive's own reader of a file: every header, position, byte and error
// the same, whether the data is read, skipped or read in part, on archives
// of each format, damaged at every byte or cut anywhere; and that after a
// skip it reads a short block, not the next member's data.
#include "read/file_client.h"

#include <archive.h>
#include <doctest/doctest.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "read/libarchive_reader.h"
#include "tests/support/archive_builder.h"
#include "tests/support/file_client_trace.h"

namespace {

namespace fs = std::filesystem;
using mapindex::read::FileClientCounts;
using mapindex::read::kFileClientBlock;
using mapindex::read::new_archive_reader;
using mapindex::read::open_file_client;
using namespace mapindex::testing;

std::string text(const std::vector<std::uint8_t>& bytes) {
  return std::string(bytes.begin(), bytes.end());
}

// Members of each kind, and names longer than the short block after a skip
// (a pax or GNU long-name header of 3,000 bytes).
std::vector<ArchiveMember> members(bool long_names) {
  std::vector<ArchiveMember> m = {
      {.path = "a.map", .bytes = noise_bytes(90000, 1)},
      {.path = "sub/", .type = MemberType::directory},
      {.path = "sub/b.bin", .bytes = noise_bytes(512, 2)},
      {.path = "empty.txt", .bytes = {}},
      {.path = "link", .type = MemberType::symlink, .link_target = "a.map"},
      {.path = "tiny.txt", .bytes = to_bytes("abc")},
      {.path = "big.map", .bytes = noise_bytes(3 * kFileClientBlock + 5, 3)}};
  if (long_names) {
    m.push_back({.path = "maps/" + std::string(3000, 'n') + ".map", .bytes = noise_bytes(700, 4)});
    m.push_back({.path = "last.map", .bytes = noise_bytes(1500, 5)});
  }
  return m;
}

}  // namespace

TEST_SUITE("read") {
  TEST_CASE("read file client: reads every format as libarchive's own file reader does") {
    TempDir dir;
    struct Kind {
      const char* name;
      ArchiveFormat format;
      bool long_names;  // v7 headers hold none; others' long names are 3,000 bytes
    };
    for (const Kind& kind :
         {Kind{"pax", ArchiveFormat::tar, true}, Kind{"gnu", ArchiveFormat::tar_gnu, true},
          Kind{"v7", ArchiveFormat::tar_v7, false}, Kind{"zip", ArchiveFormat::zip, true},
          Kind{"7z", ArchiveFormat::seven_zip, true}, Kind{"gz", ArchiveFormat::tar_gz, true},
          Kind{"xz", ArchiveFormat::tar_xz, true}}) {
      CAPTURE(std::string(kind.name));
      const fs::path path = dir / (std::string(kind.name) + std::string(extension(kind.format)));
      const auto m = members(kind.long_names);
      write_archive(path, kind.format, m);
      CHECK(file_client_difference(path) == "");
      // The trace is of the members written: their count and their bytes.
      const auto t = file_client_trace(path, true, TraceData::read);
      CHECK(std::count(t.begin(), t.end(), text(m[0].bytes)) == 1);
      CHECK(std::count(t.begin(), t.end(), text(m[6].bytes)) == 1);
      REQUIRE(t.size() >= 2);
      CHECK(t[t.size() - 2] == "header 1");  // ARCHIVE_EOF, then no error
      CHECK(t.back() == "0 (none)");
    }
    // A file that is no archive, one that is missing, one that cannot be read.
    write_file(dir / "plain.txt", to_bytes("not an archive at all"));
    CHECK(file_client_difference(dir / "plain.txt") == "");
    CHECK(file_client_trace(dir / "plain.txt", true, TraceData::read).size() ==
          2);  // open failed, and why
    CHECK(file_client_difference(dir / "missing.tar") == "");
    const auto missing = file_client_trace(dir / "missing.tar", true, TraceData::read);
    REQUIRE(missing.size() == 2);
    CHECK(missing[1] ==
          std::to_string(ENOENT) + " Failed to open '" + (dir / "missing.tar").string() + "'");
    fs::create_directory(dir / "folder.tar");
    CHECK(file_client_difference(dir / "folder.tar") == "");
  }

  TEST_CASE("read file client: after a skip it reads the next header, not the next member's data") {
    TempDir dir;
    const fs::path path = dir / "small-members.tar";
    std::vector<ArchiveMember> m;
    std::uint64_t data = 0;
    for (std::uint32_t i = 0; i < 40; ++i) {
      m.push_back({.path = "v" + std::to_string(i) + ".map", .bytes = noise_bytes(90000, i)});
      data += m.back().bytes.size();
    }
    write_archive(path, ArchiveFormat::tar, m);
    CHECK(file_client_difference(path) == "");
    FileClientCounts opening, skipping, reading;
    {
      auto a = new_archive_reader();
      REQUIRE(open_file_client(a.get(), path, &opening) == ARCHIVE_OK);
    }
    file_client_trace(path, true, TraceData::skip, &skipping);
    file_client_trace(path, true, TraceData::read, &reading);
    // Skipping every member, the client read what the opening reads (the
    // formats' bids), then each member's headers in one short read (a
    // 64 KiB read after each skip would take most of the next member).
    REQUIRE(opening.bytes > 0);
    CHECK(skipping.bytes - opening.bytes <= m.size() * mapindex::read::kFileClientAfterSkipBlock);
    CHECK(skipping.reads - opening.reads >= m.size());
    // Reading them, every byte, in whole blocks but for the first after a
    // skip (libarchive skips a member's padding when its block ends first).
    CHECK(reading.bytes >= data);
    CHECK(reading.reads <= fs::file_size(path) / kFileClientBlock + m.size() + 2);
  }

  TEST_CASE("read file client slow: archives damaged at every byte or cut anywhere read the same") {
    TempDir dir;
    const std::vector<ArchiveMember> m = {{.path = "a.map", .bytes = noise_bytes(3000, 1)},
                                          {.path = "b/c.map", .bytes = noise_bytes(600, 2)},
                                          {.path = "d.txt", .bytes = to_bytes("not a map")}};
    for (const ArchiveFormat format : {ArchiveFormat::tar, ArchiveFormat::zip}) {
      const auto bytes = build_archive(format, m);
      const fs::path path = dir / ("damaged" + std::string(extension(format)));
      std::size_t differences = 0, cases = 0, refused = 0;
      std::string first;
      const auto compare = [&](const std::vector<std::uint8_t>& b, const std::string& what) {
        write_file(path, b);
        std::vector<std::string> t;
        const std::string d =
            file_client_difference(path, std::numeric_limits<std::uint64_t>::max(), &t);
        ++cases;
        if (!d.empty() && differences++ == 0) first = what + ": " + d;
        // Whether libarchive found this copy damaged (any result below OK),
        // from the client's trace of reading it whole.
        if (std::any_of(t.begin(), t.end(), [](const std::string& line) {
              return line.rfind("open -", 0) == 0 || line.rfind("header -", 0) == 0 ||
                     line.rfind("data -", 0) == 0;
            }))
          ++refused;
      };
      for (std::size_t at = 0; at < bytes.size(); ++at) {
        auto b = bytes;
        b[at] = static_cast<std::uint8_t>(b[at] ^ 0xff);
        compare(b, "byte " + std::to_string(at));
      }
      for (std::size_t keep = 0; keep < bytes.size(); keep += 7)
        compare(truncated_copy(bytes, keep), "cut at " + std::to_string(keep));
      CAPTURE(std::string(extension(format)));
      CHECK(cases > bytes.size());
      CHECK_MESSAGE(differences == 0, first);
      // Both kinds of copy were compared: ones libarchive refuses (a damaged
      // header, a cut, a zip member's CRC-32) and ones it reads to the end
      // (a tar's data, which nothing checks, or a field it ignores).
      CHECK(refused > cases / 8);
      CHECK(cases - refused > cases / 20);
    }
  }
}
