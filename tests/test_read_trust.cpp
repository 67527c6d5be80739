// Every input and every entry is bounded and accounted for: text
// is not an archive, inputs that give nothing get a row, links and special
// files get a row, a zip cut inside its central directory is truncated, and
// the budget caps entries in flight however small they are.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "pipeline/byte_budget.h"
#include "read/archive_magic.h"
#include "read/source_reader.h"
#include "tests/support/archive_builder.h"
#include "tests/support/codes.h"
#include "tests/support/read_all.h"

namespace {

namespace fs = std::filesystem;
using mapindex::read::Entry;
using mapindex::read::ReadOutcome;
using mapindex::read::SourceReader;
using namespace mapindex::testing;

// Reads standard input replaced by `file`.
std::vector<Entry> read_stdin_from(const fs::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  const int saved = ::dup(STDIN_FILENO);
  REQUIRE(::dup2(fd, STDIN_FILENO) == STDIN_FILENO);
  ::close(fd);
  auto entries = read_all({"-"});
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
  return entries;
}

std::vector<std::uint8_t> text_lines(const std::string& line, std::size_t count) {
  std::string text;
  for (std::size_t i = 0; i < count; ++i) text += line + std::to_string(i) + "\n";
  return to_bytes(text);
}

std::uint32_t le32(const std::vector<std::uint8_t>& b, std::size_t at) {
  return b[at] | b[at + 1] << 8 | b[at + 2] << 16 | static_cast<std::uint32_t>(b[at + 3]) << 24;
}

// The offset of a zip's central directory, read from its end record (the
// last 22 bytes of an archive without a comment).
std::size_t central_directory_offset(const std::vector<std::uint8_t>& zip) {
  REQUIRE(zip.size() >= 22);
  const std::size_t eocd = zip.size() - 22;
  REQUIRE(le32(zip, eocd) == 0x06054b50u);
  return le32(zip, eocd + 16);
}

void put16(std::vector<std::uint8_t>& out, std::uint32_t v) {
  out.push_back(static_cast<std::uint8_t>(v));
  out.push_back(static_cast<std::uint8_t>(v >> 8));
}
void put32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  put16(out, v & 0xffff);
  put16(out, v >> 16);
}

// The local entries of a stored zip (sizes and CRC in each local header, no
// data descriptor) and nothing after them: a zip cut where its central
// directory begins.
std::vector<std::uint8_t> stored_zip_without_directory(const std::vector<ArchiveMember>& members) {
  std::vector<std::uint8_t> out;
  for (const auto& m : members) {
    const auto crc =
        static_cast<std::uint32_t>(crc32(0, m.bytes.data(), static_cast<uInt>(m.bytes.size())));
    put32(out, 0x04034b50u);
    put16(out, 10);  // version needed
    put16(out, 0);   // flags: sizes are in this header
    put16(out, 0);   // stored
    put16(out, 0);
    put16(out, 0x21);  // time, date
    put32(out, crc);
    put32(out, static_cast<std::uint32_t>(m.bytes.size()));
    put32(out, static_cast<std::uint32_t>(m.bytes.size()));
    put16(out, static_cast<std::uint32_t>(m.path.size()));
    put16(out, 0);
    out.insert(out.end(), m.path.begin(), m.path.end());
    out.insert(out.end(), m.bytes.begin(), m.bytes.end());
  }
  return out;
}

void check_one(const std::vector<Entry>& entries, ReadOutcome kind, const std::string& code,
               const std::string& path, const std::string& words) {
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].kind == kind);
  CHECK(to_string(entries[0].error.code) == code);
  CHECK(entries[0].path == path);
  CHECK(entries[0].error.message.find(words) != std::string::npos);
}

}  // namespace

TEST_SUITE("read") {
  TEST_CASE("read: text files are plain entries, never archives (no mtree): one row each, whole") {
    TempDir dir;
    const fs::path folder = dir / "maps";
    fs::create_directory(folder);
    // Lines of words, as libarchive's mtree reader took for a manifest of
    // entries (one fake entry per line).
    const auto list = text_lines("ctf5.map type=file size=", 5000);
    const auto xs = text_lines("x", 200000);  // 1.4 MB of "x" lines
    write_file(folder / "list.txt", list);
    write_file(folder / "xs.txt", xs);
    auto entries = read_all({folder.string()});
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].path == "list.txt");
    CHECK(entries[0].kind == ReadOutcome::file);
    CHECK(entries[0].bytes == list);
    CHECK(entries[1].path == "xs.txt");
    CHECK(entries[1].kind == ReadOutcome::file);
    CHECK(entries[1].bytes == xs);
    // The same from standard input, and inside an archive.
    auto piped = read_stdin_from(folder / "list.txt");
    REQUIRE(piped.size() == 1);
    CHECK(piped[0].kind == ReadOutcome::file);
    CHECK(piped[0].bytes == list);
    write_archive(dir / "pack.tar", ArchiveFormat::tar, {{"list.txt", list, MemberType::file, ""}});
    auto packed = read_all({(dir / "pack.tar").string()});
    REQUIRE(packed.size() == 1);
    CHECK(packed[0].path == "list.txt");
    CHECK(packed[0].bytes == list);
  }

  TEST_CASE("read: archive magic matches the formats and filters that are read") {
    using mapindex::read::ArchiveMagic;
    using mapindex::read::sniff_archive;
    CHECK(sniff_archive(to_bytes("LZIP\x01\x0c")) == ArchiveMagic::lzip);
    CHECK(sniff_archive(to_bytes("\x1f\x9d\x90stuff")) == ArchiveMagic::compress);
    // A bare .lzma stream: properties 0x5d, 8 MiB dictionary, unknown size.
    std::vector<std::uint8_t> lzma = {0x5d, 0,    0,    0x80, 0,    0xff, 0xff, 0xff,
                                      0xff, 0xff, 0xff, 0xff, 0xff, 0,    0x21, 0x33};
    CHECK(sniff_archive(lzma) == ArchiveMagic::lzma);
    lzma[3] = 0x81;  // not a dictionary size an encoder writes
    CHECK(sniff_archive(lzma) == ArchiveMagic::none);
    // A v7 tar header: no "ustar" magic, only a name and a checksum.
    auto tar =
        build_archive(ArchiveFormat::tar, {{"a.map", to_bytes("DATA"), MemberType::file, ""}});
    std::vector<std::uint8_t> v7(tar.begin(), tar.begin() + 512);
    std::fill(v7.begin() + 257, v7.end(), 0);  // clear magic, owner names, prefix
    std::uint32_t sum = 0;
    for (int i = 0; i < 512; ++i)
      sum += (i >= 148 && i < 156) ? ' ' : v7[static_cast<std::size_t>(i)];
    std::snprintf(reinterpret_cast<char*>(v7.data()) + 148, 8, "%06o", sum);
    v7[155] = ' ';
    CHECK(sniff_archive(v7) == ArchiveMagic::tar);
    v7[0] ^= 1;  // the checksum no longer matches
    CHECK(sniff_archive(v7) == ArchiveMagic::none);
    CHECK(sniff_archive(std::vector<std::uint8_t>(512, 0)) == ArchiveMagic::none);  // zeros
    CHECK(sniff_archive(text_lines("ctf5.map type=file", 100)) == ArchiveMagic::none);
  }

  TEST_CASE("read: inputs that give nothing get one read.empty error row saying what was found") {
    TempDir dir;
    write_file(dir / "empty.bin", std::vector<std::uint8_t>{});
    write_file(dir / "zeros.bin", std::vector<std::uint8_t>(1 << 20, 0));
    write_archive(dir / "empty.zip", ArchiveFormat::zip, {});
    write_archive(dir / "empty.tar.gz", ArchiveFormat::tar_gz, {});
    write_archive(dir / "folders.tar", ArchiveFormat::tar,
                  {{"a/", {}, MemberType::directory, ""}, {"a/b/", {}, MemberType::directory, ""}});
    fs::create_directories(dir / "nothing" / "sub");

    check_one(read_all({(dir / "empty.bin").string()}), ReadOutcome::error, "read.empty", "",
              "the input is empty (0 bytes)");
    check_one(read_all({"/dev/null"}), ReadOutcome::error, "read.empty", "",
              "the input is empty (0 bytes)");
    check_one(read_stdin_from(dir / "empty.bin"), ReadOutcome::error, "read.empty", "",
              "the input is empty (0 bytes)");
    for (auto zeros :
         {read_all({(dir / "zeros.bin").string()}), read_stdin_from(dir / "zeros.bin")})
      check_one(zeros, ReadOutcome::error, "read.empty", "",
                "read as an empty tar archive (the input starts with a block of zero bytes");
    check_one(read_all({(dir / "empty.zip").string()}), ReadOutcome::error, "read.empty", "",
              "no entries: an empty zip archive");
    check_one(read_all({(dir / "empty.tar.gz").string()}), ReadOutcome::error, "read.empty", "",
              "empty gzip-compressed tar archive");
    check_one(read_all({(dir / "folders.tar").string()}), ReadOutcome::error, "read.empty", "",
              "no files: only 2 folder entries in the tar archive");
    check_one(read_all({(dir / "nothing").string()}), ReadOutcome::error, "read.empty", "",
              "the folder holds no files");

    // The next input is still read, and its rows are its own.
    auto both = read_all({(dir / "empty.zip").string(), (dir / "folders.tar").string()});
    REQUIRE(both.size() == 2);
    CHECK(both[0].source == (dir / "empty.zip").string());
    CHECK(both[1].source == (dir / "folders.tar").string());
  }

  TEST_CASE(
      "read: an empty archive inside an archive is a not_read row, the outer one is not empty") {
    auto empty_zip = build_archive(ArchiveFormat::zip, {});
    auto zeros = std::vector<std::uint8_t>(4096, 0);  // an entry of zeros is a plain entry
    TempDir dir;
    write_archive(dir / "outer.tar", ArchiveFormat::tar,
                  {{"packs/none.zip", empty_zip, MemberType::file, ""},
                   {"zeros.bin", zeros, MemberType::file, ""}});
    auto entries = read_all({(dir / "outer.tar").string()});
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].path == "packs/none.zip");
    CHECK(entries[0].kind == ReadOutcome::not_read);
    CHECK(entries[0].error.code == Code::read_empty_inner);
    CHECK(entries[0].error.message.find("an empty zip archive") != std::string::npos);
    CHECK(entries[1].path == "zeros.bin");
    CHECK(entries[1].kind == ReadOutcome::file);
    CHECK(entries[1].bytes == zeros);
  }

  TEST_CASE("read: tar FIFOs and devices get a not_read row naming what they are") {
    TempDir dir;
    write_archive(dir / "dev.tar", ArchiveFormat::tar,
                  {{"dev/fifo", {}, MemberType::fifo, ""},
                   {"dev/null", {}, MemberType::char_device, ""},
                   {"dev/sda", {}, MemberType::block_device, ""},
                   {"a.map", to_bytes("DATA"), MemberType::file, ""}});
    auto entries = read_all({(dir / "dev.tar").string()});
    REQUIRE(entries.size() == 4);
    const char* what[] = {"FIFO: not read", "character device: not read", "block device: not read"};
    for (int i = 0; i < 3; ++i) {
      CAPTURE(i);
      CHECK(entries[static_cast<std::size_t>(i)].kind == ReadOutcome::not_read);
      CHECK(entries[static_cast<std::size_t>(i)].error.code == Code::read_not_regular);
      CHECK(entries[static_cast<std::size_t>(i)].error.message.find(what[i]) != std::string::npos);
    }
    CHECK(entries[3].kind == ReadOutcome::file);
  }

  TEST_CASE(
      "read: a zip cut inside its central directory is read.truncated, every entry still read") {
    std::vector<ArchiveMember> members;
    for (int i = 0; i < 5; ++i)
      members.push_back({"m" + std::to_string(i) + ".map",
                         noise_bytes(1000, static_cast<std::uint32_t>(i)), MemberType::file, ""});
    const auto zip = build_archive(ArchiveFormat::zip, members);
    const std::size_t cd = central_directory_offset(zip);
    REQUIRE(cd + 46 + 10 < zip.size() - 22);
    const auto cut = truncated_copy(zip, cd + 46 + 10);  // inside the first directory record
    TempDir dir;
    write_file(dir / "cut.zip", cut);
    write_archive(dir / "outer.tar", ArchiveFormat::tar,
                  {{"in/cut.zip", cut, MemberType::file, ""}});
    write_file(dir / "whole.zip", zip);

    struct Case {
      std::vector<Entry> entries;
      std::string prefix;
    };
    Case cases[] = {{read_all({(dir / "cut.zip").string()}), ""},
                    {read_stdin_from(dir / "cut.zip"), ""},
                    {read_all({(dir / "outer.tar").string()}), "in/cut.zip"}};
    for (const auto& c : cases) {
      CAPTURE(c.prefix);
      REQUIRE(c.entries.size() == members.size() + 1);
      for (std::size_t i = 0; i < members.size(); ++i) {
        CHECK(c.entries[i].kind == ReadOutcome::file);
        CHECK(c.entries[i].bytes == members[i].bytes);
      }
      const Entry& last = c.entries.back();
      CHECK(last.kind == ReadOutcome::error);
      CHECK(last.error.code == Code::read_truncated);
      CHECK(last.path == c.prefix);
      CHECK(last.error.message.find("no end of central directory record") != std::string::npos);
    }
    // Cut where the central directory begins, in a zip whose local headers
    // carry the sizes (as Info-ZIP writes them; libarchive's writer uses data
    // descriptors): libarchive's streamed reader fails without a message;
    // the message says what happened.
    write_file(dir / "bare.zip", stored_zip_without_directory(members));
    for (auto bare : {read_all({(dir / "bare.zip").string()}), read_stdin_from(dir / "bare.zip")}) {
      REQUIRE(bare.size() == members.size() + 1);
      for (std::size_t i = 0; i < members.size(); ++i) CHECK(bare[i].bytes == members[i].bytes);
      CHECK(bare.back().kind == ReadOutcome::error);
      CHECK(bare.back().error.code == Code::read_truncated);
      CHECK(bare.back().error.message.find(
                "ends where its next entry or its central directory should begin") !=
            std::string::npos);
    }
    // The whole archive, as a file and on standard input, has no problem.
    for (auto whole :
         {read_all({(dir / "whole.zip").string()}), read_stdin_from(dir / "whole.zip")}) {
      REQUIRE(whole.size() == members.size());
      for (const auto& e : whole) CHECK(e.kind == ReadOutcome::file);
    }
  }

  TEST_CASE("read: the zip end record is found with its comment, also before padding or junk") {
    using mapindex::read::has_zip_end_record;
    std::vector<std::uint8_t> end = {'P', 'K', 5, 6, 0, 0, 0, 0, 0, 0, 0,
                                     0,   0,   0, 0, 0, 0, 0, 0, 0, 0, 0};
    CHECK(has_zip_end_record(end));
    auto with_comment = end;
    with_comment[20] = 3;
    for (char c : std::string("abc")) with_comment.push_back(static_cast<std::uint8_t>(c));
    CHECK(has_zip_end_record(with_comment));
    // Cut inside the comment: the record is not whole.
    CHECK_FALSE(has_zip_end_record(
        std::vector<std::uint8_t>(with_comment.begin(), with_comment.end() - 1)));
    // Zero padding or junk after the record, as unzip accepts.
    auto padded = with_comment;
    padded.resize(padded.size() + 1000, 0);
    CHECK(has_zip_end_record(padded));
    CHECK_FALSE(has_zip_end_record(std::vector<std::uint8_t>(end.begin(), end.end() - 1)));
    CHECK_FALSE(has_zip_end_record({}));
    // Further back than a record with the longest comment reaches: not an end record.
    auto far = end;
    far.resize(far.size() + 65536, 0);
    CHECK_FALSE(has_zip_end_record(far));
  }

  TEST_CASE("read: a whole zip followed by padding or junk is not truncated") {
    std::vector<ArchiveMember> members = {{"a.map", to_bytes("DATA one"), MemberType::file, ""},
                                          {"b.map", to_bytes("DATA two"), MemberType::file, ""}};
    auto zip = build_archive(ArchiveFormat::zip, members);
    TempDir dir;
    auto junk = zip;
    for (char c : std::string("appended by some tool"))
      junk.push_back(static_cast<std::uint8_t>(c));
    auto padded = zip;
    padded.resize(padded.size() + 4096, 0);
    write_file(dir / "junk.zip", junk);
    write_file(dir / "padded.zip", padded);
    for (const char* name : {"junk.zip", "padded.zip"}) {
      CAPTURE(name);
      for (auto entries : {read_all({(dir / name).string()}), read_stdin_from(dir / name)}) {
        REQUIRE(entries.size() == 2);
        CHECK(entries[0].bytes == members[0].bytes);
        CHECK(entries[1].bytes == members[1].bytes);
      }
    }
  }

  TEST_CASE("read: the budget caps entries in flight, however small") {
    mapindex::ByteBudget budget(1 << 30, 1 << 20, 3);
    const auto never = [] { return false; };
    for (int i = 0; i < 3; ++i) {
      REQUIRE(budget.wait_for_room(never));
      budget.acquire(1);
    }
    CHECK(budget.peak_entries() == 3);
    // A fourth waits until half of them are given back (3 -> 1): one
    // given back is not enough, then it reads a burst.
    std::atomic<bool> got{false};
    std::thread reader([&] {
      REQUIRE(budget.wait_for_room(never));
      got = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK_FALSE(got.load());
    budget.release(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK_FALSE(got.load());
    budget.release(1);
    reader.join();
    CHECK(got.load());
    // Not full: no wait.
    budget.acquire(1);
    CHECK(budget.wait_for_room(never));
    // The stop function ends a wait.
    budget.acquire(1);
    CHECK_FALSE(budget.wait_for_room([] { return true; }));
    CHECK(budget.peak_entries() == 3);
  }
}
