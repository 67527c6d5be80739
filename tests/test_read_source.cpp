#include <doctest/doctest.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "read/archive_magic.h"
#include "read/byte_source.h"
#include "read/entry_buffers.h"
#include "read/source_reader.h"
#include "tests/support/archive_builder.h"
#include "tests/support/codes.h"
#include "tests/support/read_all.h"

namespace {

namespace fs = std::filesystem;
using mapindex::read::Entry;
using mapindex::read::ReadOptions;
using mapindex::read::ReadOutcome;
using mapindex::read::SourceReader;
using namespace mapindex::testing;

std::vector<std::string> paths_of(const std::vector<Entry>& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries) out.push_back(e.path);
  return out;
}

// A small datafile-like header: what a map starts with.
std::vector<std::uint8_t> fake_map(std::uint32_t seed, std::size_t size) {
  auto bytes = noise_bytes(size, seed);
  bytes[0] = 'D';
  bytes[1] = 'A';
  bytes[2] = 'T';
  bytes[3] = 'A';
  return bytes;
}

std::vector<ArchiveMember> sample_members() {
  return {
      {"maps/", {}, MemberType::directory, ""},
      {"maps/a.map", fake_map(1, 3000), MemberType::file, ""},
      {"maps/sub/b.map", fake_map(2, 200000), MemberType::file, ""},
      {"readme.txt", to_bytes("hello maps\n"), MemberType::file, ""},
      {"empty.bin", {}, MemberType::file, ""},
  };
}

const ArchiveFormat kAllFormats[] = {
    ArchiveFormat::zip,     ArchiveFormat::tar,     ArchiveFormat::tar_gz,   ArchiveFormat::tar_xz,
    ArchiveFormat::tar_zst, ArchiveFormat::tar_bz2, ArchiveFormat::seven_zip};

void check_sample(const std::vector<Entry>& entries, const std::string& source,
                  const std::string& prefix = "") {
  auto members = sample_members();
  std::vector<const ArchiveMember*> files;
  for (const auto& m : members)
    if (m.type == MemberType::file) files.push_back(&m);
  REQUIRE(entries.size() == files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    CAPTURE(i);
    CHECK(entries[i].kind == ReadOutcome::file);
    CHECK(entries[i].source == source);
    CHECK(entries[i].path == prefix + files[i]->path);
    CHECK(entries[i].size == files[i]->bytes.size());
    CHECK(entries[i].bytes == files[i]->bytes);
  }
}

// Runs `body` with standard input reading `bytes` from a pipe fed by a thread.
template <class Body>
void with_stdin(const std::vector<std::uint8_t>& bytes, Body body) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  int saved = ::dup(STDIN_FILENO);
  REQUIRE(saved >= 0);
  REQUIRE(::dup2(fds[0], STDIN_FILENO) == STDIN_FILENO);
  ::close(fds[0]);
  std::thread writer([&bytes, fd = fds[1]] {
    std::size_t done = 0;
    while (done < bytes.size()) {
      ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n <= 0) break;  // reader stopped early: EPIPE
      done += static_cast<std::size_t>(n);
    }
    ::close(fd);
  });
  body();
  // Drain what the reader left so the writer can finish, then restore fd 0.
  std::vector<std::uint8_t> sink(65536);
  while (::read(STDIN_FILENO, sink.data(), sink.size()) > 0) {
  }
  writer.join();
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
}

// Flips one byte inside `needle`'s first occurrence in `haystack`.
void damage(std::vector<std::uint8_t>& haystack, const std::vector<std::uint8_t>& needle) {
  auto it = std::search(haystack.begin(), haystack.end(), needle.begin(), needle.begin() + 64);
  REQUIRE(it != haystack.end());
  it[32] ^= 0x55;
}

}  // namespace

TEST_SUITE("read") {
  TEST_CASE("read: names outside ASCII come back as written from every archive format") {
    // mapindex reads in C.UTF-8 (read::use_utf8_names, called by main() and
    // the test runner): in the C locale libarchive could not convert such
    // names from zip (flagged UTF-8) and 7-Zip (UTF-16) archives, and the
    // entries had none ("<unnamed entry>").
    TempDir dir;
    const std::vector<std::string> names = {"café.map", "карты/мост.map", "日本/マップ.map"};
    std::vector<ArchiveMember> members;
    for (const auto& name : names) members.push_back({.path = name, .bytes = to_bytes(name)});
    for (const auto format : {ArchiveFormat::zip, ArchiveFormat::seven_zip, ArchiveFormat::tar,
                              ArchiveFormat::tar_gz}) {
      const fs::path path = dir / ("names" + std::string(extension(format)));
      CAPTURE(path.string());
      write_archive(path, format, members);
      const auto entries = read_all({path.string()});
      REQUIRE(entries.size() == names.size());
      for (std::size_t i = 0; i < names.size(); ++i) {
        CHECK(entries[i].path == names[i]);
        CHECK(entries[i].bytes == to_bytes(names[i]));
      }
    }
  }

  TEST_CASE("read: archive magic is recognised by content") {
    using mapindex::read::ArchiveMagic;
    using mapindex::read::sniff_archive;
    CHECK(sniff_archive(build_archive(ArchiveFormat::zip, sample_members())) == ArchiveMagic::zip);
    CHECK(sniff_archive(build_archive(ArchiveFormat::tar, sample_members())) == ArchiveMagic::tar);
    CHECK(sniff_archive(build_archive(ArchiveFormat::tar_gz, sample_members())) ==
          ArchiveMagic::gzip);
    CHECK(sniff_archive(build_archive(ArchiveFormat::tar_xz, sample_members())) ==
          ArchiveMagic::xz);
    CHECK(sniff_archive(build_archive(ArchiveFormat::tar_zst, sample_members())) ==
          ArchiveMagic::zstd);
    CHECK(sniff_archive(build_archive(ArchiveFormat::tar_bz2, sample_members())) ==
          ArchiveMagic::bzip2);
    CHECK(sniff_archive(build_archive(ArchiveFormat::seven_zip, sample_members())) ==
          ArchiveMagic::seven_zip);
    CHECK(sniff_archive(fake_map(3, 1000)) == ArchiveMagic::none);
    CHECK(sniff_archive(to_bytes("PK")) == ArchiveMagic::none);  // too short
    CHECK(sniff_archive({}) == ArchiveMagic::none);
  }

  TEST_CASE("read: every archive format is read entry by entry, directories skipped") {
    TempDir dir;
    for (ArchiveFormat format : kAllFormats) {
      std::string name = "sample" + std::string(extension(format));
      CAPTURE(name);
      fs::path path = dir / name;
      write_archive(path, format, sample_members());
      check_sample(read_all({path.string()}), path.string());
    }
  }

  TEST_CASE("read: archive kind is decided by content, not by name") {
    TempDir dir;
    // A tar.gz named .map, and a plain file named .zip.
    write_file(dir / "disguised.map", build_archive(ArchiveFormat::tar_gz, sample_members()));
    write_file(dir / "plain.zip", to_bytes("not an archive at all"));
    auto archive = read_all({(dir / "disguised.map").string()});
    check_sample(archive, (dir / "disguised.map").string());
    auto plain = read_all({(dir / "plain.zip").string()});
    REQUIRE(plain.size() == 1);
    CHECK(plain[0].kind == ReadOutcome::file);
    CHECK(plain[0].path == "plain.zip");
    CHECK(plain[0].bytes == to_bytes("not an archive at all"));
  }

  TEST_CASE("read: a single map file is one entry, an empty input file is a read.empty error") {
    TempDir dir;
    auto map = fake_map(7, 5000);
    write_file(dir / "ctf1.map", map);
    write_file(dir / "empty.map", std::vector<std::uint8_t>{});
    auto entries = read_all({(dir / "ctf1.map").string(), (dir / "empty.map").string()});
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].kind == ReadOutcome::file);
    CHECK(entries[0].source == (dir / "ctf1.map").string());
    CHECK(entries[0].path == "ctf1.map");
    CHECK(entries[0].bytes == map);
    // Given as an input, an empty file gives nothing to index: an error row
    // for the input itself (in a folder or an archive it is an empty entry).
    CHECK(entries[1].kind == ReadOutcome::error);
    CHECK(entries[1].source == (dir / "empty.map").string());
    CHECK(entries[1].path == "");
    CHECK(entries[1].error.code == Code::read_empty);
    CHECK(entries[1].error.message.find("empty (0 bytes)") != std::string::npos);
  }

  TEST_CASE("read: links in archives get a not_read row naming the target, folders get none") {
    TempDir dir;
    std::vector<ArchiveMember> members = {
        {"d/", {}, MemberType::directory, ""},
        {"d/real.map", fake_map(4, 100), MemberType::file, ""},
        {"d/link.map", {}, MemberType::symlink, "real.map"},
        {"d/hard.map", {}, MemberType::hardlink, "d/real.map"},
        {"d/sub/", {}, MemberType::directory, ""},
        {"d/last.txt", to_bytes("x"), MemberType::file, ""},
    };
    for (ArchiveFormat format :
         {ArchiveFormat::tar, ArchiveFormat::zip, ArchiveFormat::seven_zip}) {
      CAPTURE(extension(format));
      fs::path path = dir / ("links" + std::string(extension(format)));
      if (format != ArchiveFormat::tar) members.erase(members.begin() + 3);  // tar-only hard link
      write_archive(path, format, members);
      auto entries = read_all({path.string()});
      std::vector<std::string> expected = {"d/real.map", "d/link.map", "d/last.txt"};
      if (format == ArchiveFormat::tar) expected.insert(expected.begin() + 2, "d/hard.map");
      REQUIRE(paths_of(entries) == expected);
      CHECK(entries[0].kind == ReadOutcome::file);
      CHECK(entries[1].kind == ReadOutcome::not_read);
      CHECK(entries[1].error.code == Code::read_not_regular);
      CHECK(entries[1].error.message.find("symbolic link to \"real.map\": not followed") !=
            std::string::npos);
      if (format == ArchiveFormat::tar) {
        CHECK(entries[2].kind == ReadOutcome::not_read);
        CHECK(entries[2].error.code == Code::read_not_regular);
        CHECK(entries[2].error.message.find("hard link to \"d/real.map\"") != std::string::npos);
      }
      CHECK(entries.back().kind == ReadOutcome::file);
    }
  }

  TEST_CASE(
      "read: folders are walked recursively in sorted order, loops, broken links and FIFOs get a row") {
    TempDir dir;
    fs::path root = dir / "maps";
    fs::create_directories(root / "a" / "deep");
    fs::create_directories(root / "z");
    // Created in an order unlike the sorted one.
    for (int i = 19; i >= 0; --i)
      write_file(root / "z" / ("m" + std::to_string(100 + i) + ".map"),
                 fake_map(static_cast<std::uint32_t>(i), 64));
    write_file(root / "b.map", fake_map(50, 64));
    write_file(root / "a.map", fake_map(51, 64));
    write_file(root / "A.map", fake_map(52, 64));
    write_file(root / "a" / "deep" / "x.map", fake_map(53, 64));
    write_archive(root / "a" / "pack.zip", ArchiveFormat::zip,
                  {{"in.map", fake_map(54, 64), MemberType::file, ""}});
    fs::create_directory_symlink("..", root / "a" / "deep" / "up");  // a loop
    fs::create_symlink("b.map", root / "c_link.map");                // a file link
    fs::create_symlink("missing.map", root / "d_broken.map");        // broken
    REQUIRE(::mkfifo((root / "e_fifo").c_str(), 0644) == 0);         // would block

    std::vector<std::string> expected = {"A.map", "a/deep/up", "a/deep/x.map", "a/pack.zip/in.map",
                                         "a.map", "b.map",     "c_link.map",   "d_broken.map",
                                         "e_fifo"};
    for (int i = 0; i < 20; ++i) expected.push_back("z/m" + std::to_string(100 + i) + ".map");
    auto entries = read_all({root.string()});
    CHECK(paths_of(entries) == expected);
    REQUIRE(entries.size() == expected.size());
    // What is not read is accounted for, with what it is.
    const std::map<std::string, std::string> not_read = {
        {"a/deep/up", "symbolic link to \"..\": a folder that holds it, not walked again (a loop)"},
        {"d_broken.map", "symbolic link to \"missing.map\": broken"},
        {"e_fifo", "FIFO: not read"}};
    for (const auto& e : entries) {
      CAPTURE(e.path);
      CHECK(e.source == root.string());
      if (auto it = not_read.find(e.path); it != not_read.end()) {
        CHECK(e.kind == ReadOutcome::not_read);
        CHECK(e.error.code == Code::read_not_regular);
        CHECK(e.error.message.find(it->second) != std::string::npos);
      } else {
        CHECK(e.kind == ReadOutcome::file);
      }
    }
    entries.erase(std::remove_if(entries.begin(), entries.end(),
                                 [](const Entry& e) { return e.kind != ReadOutcome::file; }),
                  entries.end());
    CHECK(entries[0].bytes == fake_map(52, 64));
    CHECK(entries[2].bytes == fake_map(54, 64));
    CHECK(entries[5].bytes == fake_map(50, 64));  // the link reads its target
    // Same inputs, same order.
    CHECK(paths_of(read_all({root.string()})) == expected);
  }

  TEST_CASE("read: archives inside archives are followed by content") {
    TempDir dir;
    auto inner_zip = build_archive(ArchiveFormat::zip, sample_members());
    auto inner_tar = build_archive(ArchiveFormat::tar, sample_members());

    SUBCASE("zip in tar.gz") {
      fs::path path = dir / "outer.tar.gz";
      write_archive(path, ArchiveFormat::tar_gz,
                    {{"top.map", fake_map(9, 100), MemberType::file, ""},
                     {"packs/inner.zip", inner_zip, MemberType::file, ""},
                     {"after.map", fake_map(10, 100), MemberType::file, ""}});
      auto entries = read_all({path.string()});
      REQUIRE(entries.size() == 6);
      CHECK(entries[0].path == "top.map");
      check_sample({entries.begin() + 1, entries.begin() + 5}, path.string(), "packs/inner.zip/");
      CHECK(entries[5].path == "after.map");
      CHECK(entries[5].bytes == fake_map(10, 100));
    }
    SUBCASE("tar in zip, named without extension") {
      fs::path path = dir / "outer.zip";
      write_archive(path, ArchiveFormat::zip, {{"packs/inner", inner_tar, MemberType::file, ""}});
      check_sample(read_all({path.string()}), path.string(), "packs/inner/");
    }
    SUBCASE("7z in tar (held in memory) and tar.xz in zip in tar.zst") {
      auto inner_7z = build_archive(ArchiveFormat::seven_zip, sample_members());
      auto txz = build_archive(ArchiveFormat::tar_xz, sample_members());
      auto zip = build_archive(ArchiveFormat::zip, {{"x.tar.xz", txz, MemberType::file, ""}});
      fs::path path = dir / "outer.tar.zst";
      write_archive(
          path, ArchiveFormat::tar_zst,
          {{"i.7z", inner_7z, MemberType::file, ""}, {"z.zip", zip, MemberType::file, ""}});
      auto entries = read_all({path.string()});
      REQUIRE(entries.size() == 8);
      check_sample({entries.begin(), entries.begin() + 4}, path.string(), "i.7z/");
      check_sample({entries.begin() + 4, entries.end()}, path.string(), "z.zip/x.tar.xz/");
    }
    SUBCASE("a compressed file that is not an archive is delivered as it is") {
      auto map = fake_map(11, 70000);  // more than one feeder block
      auto gz = gzip_bytes(map);
      auto fake_zip = to_bytes("PK\x03\x04 but nothing a zip reader accepts, padded...........");
      fs::path path = dir / "odd.tar";
      write_archive(path, ArchiveFormat::tar,
                    {{"a.map.gz", gz, MemberType::file, ""},
                     {"fake.zip", fake_zip, MemberType::file, ""},
                     {"b.map", map, MemberType::file, ""}});
      auto entries = read_all({path.string()});
      REQUIRE(entries.size() == 3);
      CHECK(entries[0].kind == ReadOutcome::file);
      CHECK(entries[0].path == "a.map.gz");
      CHECK(entries[0].bytes == gz);
      CHECK(entries[1].kind == ReadOutcome::error);
      CHECK(entries[1].path == "fake.zip");
      // Its "header" runs past the end of the entry: corrupt or cut, either way.
      CHECK((entries[1].error.code == Code::read_corrupt ||
             entries[1].error.code == Code::read_truncated));
      CHECK(entries[1].error.message.find("fake.zip") != std::string::npos);
      CHECK(entries[2].path == "b.map");
      CHECK(entries[2].bytes == map);
    }
    SUBCASE("nesting deeper than max_nesting is reported, not followed") {
      auto level2 =
          build_archive(ArchiveFormat::tar, {{"deep.map", fake_map(12, 10), MemberType::file, ""}});
      auto level1 =
          build_archive(ArchiveFormat::zip, {{"l2.tar", level2, MemberType::file, ""},
                                             {"l1.map", fake_map(13, 10), MemberType::file, ""}});
      fs::path path = dir / "l0.tar.gz";
      write_archive(path, ArchiveFormat::tar_gz, {{"l1.zip", level1, MemberType::file, ""}});

      ReadOptions one;
      one.max_nesting = 1;
      auto entries = read_all({path.string()}, one);
      REQUIRE(entries.size() == 2);
      CHECK(entries[0].kind == ReadOutcome::error);
      CHECK(entries[0].error.code == Code::read_nesting);
      CHECK(entries[0].path == "l1.zip/l2.tar");
      CHECK(entries[1].path == "l1.zip/l1.map");

      ReadOptions two;
      two.max_nesting = 2;
      CHECK(paths_of(read_all({path.string()}, two)) ==
            std::vector<std::string>{"l1.zip/l2.tar/deep.map", "l1.zip/l1.map"});

      ReadOptions none;
      none.max_nesting = 0;
      auto flat = read_all({path.string()}, none);
      REQUIRE(flat.size() == 1);
      CHECK(flat[0].error.code == Code::read_nesting);
      CHECK(flat[0].path == "l1.zip");
    }
  }

  TEST_CASE("read: standard input: an archive streamed from fd 0, or a plain file") {
    for (ArchiveFormat format : {ArchiveFormat::tar_gz, ArchiveFormat::zip, ArchiveFormat::tar,
                                 ArchiveFormat::seven_zip}) {
      CAPTURE(extension(format));
      auto bytes = build_archive(format, sample_members());
      with_stdin(bytes, [&] {
        SourceReader reader({"-"});
        std::vector<Entry> entries;
        while (auto e = reader.next()) entries.push_back(std::move(*e));
        check_sample(entries, "-");
        CHECK(reader.progress().input_bytes_total == 0);  // unknown
        CHECK(reader.progress().input_bytes_done == bytes.size());
      });
    }
    auto map = fake_map(21, 100000);
    with_stdin(map, [&] {
      auto entries = read_all({"-"});
      REQUIRE(entries.size() == 1);
      CHECK(entries[0].kind == ReadOutcome::file);
      CHECK(entries[0].source == "-");
      CHECK(entries[0].path == "-");
      CHECK(entries[0].bytes == map);
    });
    ReadOptions small;
    small.max_entry_size = 1000;
    with_stdin(map, [&] {
      auto entries = read_all({"-"}, small);
      REQUIRE(entries.size() == 1);
      CHECK(entries[0].kind == ReadOutcome::oversize);
      CHECK(entries[0].size == map.size());
      CHECK(entries[0].bytes.empty());
    });
    auto big_7z = build_archive(ArchiveFormat::seven_zip, sample_members());
    with_stdin(big_7z, [&] {
      auto entries = read_all({"-"}, small);
      REQUIRE(entries.size() == 1);
      CHECK(entries[0].kind == ReadOutcome::error);
      CHECK(entries[0].error.code == Code::read_oversize_archive);
    });
  }

  TEST_CASE("read slow: a truncated archive yields the entries before the cut, then one error") {
    TempDir dir;
    std::vector<ArchiveMember> members = {
        {"one.map", noise_bytes(100000, 1), MemberType::file, ""},
        {"two.map", noise_bytes(100000, 2), MemberType::file, ""},
        {"three.map", noise_bytes(300000, 3), MemberType::file, ""},
    };
    fs::path good = dir / "good.map";
    write_file(good, fake_map(5, 10));
    for (ArchiveFormat format : {ArchiveFormat::zip, ArchiveFormat::tar, ArchiveFormat::tar_gz,
                                 ArchiveFormat::tar_xz, ArchiveFormat::tar_zst}) {
      CAPTURE(extension(format));
      auto bytes = build_archive(format, members);
      // Cut in the middle of the last entry's data (the data is incompressible).
      // Far from the end of the entry before: libarchive's decompression
      // filters drop their last partial 64 KiB output block on a cut input.
      fs::path path = dir / ("cut" + std::string(extension(format)));
      write_file(path, truncated_copy(bytes, bytes.size() - 100000));
      auto entries = read_all({path.string(), good.string()});
      REQUIRE(entries.size() == 4);
      CHECK(entries[0].path == "one.map");
      CHECK(entries[0].bytes == members[0].bytes);
      CHECK(entries[1].path == "two.map");
      CHECK(entries[1].bytes == members[1].bytes);
      CHECK(entries[2].kind == ReadOutcome::error);
      CHECK(entries[2].source == path.string());
      CHECK(entries[2].path == "three.map");
      CHECK(entries[2].error.code == Code::read_truncated);
      CHECK(entries[2].error.message.find(path.string()) != std::string::npos);
      CHECK(entries[2].error.message.find("three.map") != std::string::npos);
      CHECK(entries[3].kind == ReadOutcome::file);  // the next input is read
      CHECK(entries[3].source == good.string());
    }
    SUBCASE("7z cut short: nothing readable, one error") {
      auto bytes = build_archive(ArchiveFormat::seven_zip, members);
      fs::path path = dir / "cut.7z";
      write_file(path, truncated_copy(bytes, bytes.size() / 2));
      auto entries = read_all({path.string(), good.string()});
      REQUIRE(entries.size() == 2);
      CHECK(entries[0].kind == ReadOutcome::error);
      CHECK(entries[0].source == path.string());
      CHECK(entries[1].source == good.string());
    }
    SUBCASE("a truncated archive inside an archive: the outer goes on") {
      auto inner = build_archive(ArchiveFormat::tar_gz, members);
      fs::path path = dir / "outer.zip";
      write_archive(
          path, ArchiveFormat::zip,
          {{"inner.tgz", truncated_copy(inner, inner.size() - 100000), MemberType::file, ""},
           {"after.map", fake_map(6, 10), MemberType::file, ""}});
      auto entries = read_all({path.string()});
      REQUIRE(entries.size() == 4);
      CHECK(entries[0].path == "inner.tgz/one.map");
      CHECK(entries[1].path == "inner.tgz/two.map");
      CHECK(entries[2].kind == ReadOutcome::error);
      CHECK(entries[2].path == "inner.tgz/three.map");
      CHECK(entries[2].error.code == Code::read_truncated);
      CHECK(entries[3].path == "after.map");
      CHECK(entries[3].kind == ReadOutcome::file);
    }
    SUBCASE("an archive truncated inside a nested archive's data: one error for the outer") {
      auto inner = build_archive(ArchiveFormat::tar, members);
      auto outer = build_archive(ArchiveFormat::tar_gz,
                                 {{"inner.tar", inner, MemberType::file, ""},
                                  {"after.map", fake_map(6, 10), MemberType::file, ""}});
      fs::path path = dir / "outer_cut.tar.gz";
      write_file(path, truncated_copy(outer, outer.size() - 150000));  // inside three.map
      auto entries = read_all({path.string(), good.string()});
      REQUIRE(entries.size() == 4);
      CHECK(entries[0].path == "inner.tar/one.map");
      CHECK(entries[1].path == "inner.tar/two.map");
      CHECK(entries[1].bytes == members[1].bytes);
      CHECK(entries[2].kind == ReadOutcome::error);
      CHECK(entries[2].source == path.string());
      CHECK(entries[2].path == "inner.tar");
      CHECK(entries[2].error.code == Code::read_truncated);
      CHECK(entries[3].source == good.string());
    }
  }

  TEST_CASE("read: unreadable inputs are error entries, reading goes on") {
    TempDir dir;
    fs::path good = dir / "good.map";
    write_file(good, fake_map(5, 10));
    auto entries = read_all({(dir / "missing.zip").string(), good.string()});
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].kind == ReadOutcome::error);
    CHECK(entries[0].error.code == Code::read_io);
    CHECK(entries[0].source == (dir / "missing.zip").string());
    CHECK(entries[0].error.message.find("missing.zip") != std::string::npos);
    CHECK(entries[1].kind == ReadOutcome::file);

    if (::geteuid() != 0) {  // root reads anything
      fs::path locked = dir / "locked.zip";
      write_archive(locked, ArchiveFormat::zip, sample_members());
      fs::permissions(locked, fs::perms::none);
      auto denied = read_all({locked.string(), good.string()});
      REQUIRE(denied.size() == 2);
      CHECK(denied[0].kind == ReadOutcome::error);
      CHECK(denied[0].error.code == Code::read_io);
      CHECK(denied[1].kind == ReadOutcome::file);
      fs::permissions(locked, fs::perms::owner_all);
    }
  }

  TEST_CASE("read: oversize entries are not read") {
    TempDir dir;
    ReadOptions options;
    options.max_entry_size = 1000;
    std::vector<ArchiveMember> members = {
        {"small.map", fake_map(1, 1000), MemberType::file, ""},
        {"big.map", fake_map(2, 5000), MemberType::file, ""},
        {"after.map", fake_map(3, 10), MemberType::file, ""},
    };
    for (ArchiveFormat format : kAllFormats) {
      CAPTURE(extension(format));
      fs::path path = dir / ("big" + std::string(extension(format)));
      write_archive(path, format, members);
      auto entries = read_all({path.string()}, options);
      REQUIRE(entries.size() == 3);
      CHECK(entries[0].kind == ReadOutcome::file);
      CHECK(entries[0].size == 1000);
      CHECK(entries[1].kind == ReadOutcome::oversize);
      CHECK(entries[1].path == "big.map");
      CHECK(entries[1].size == 5000);
      CHECK(entries[1].bytes.empty());
      CHECK(entries[2].kind == ReadOutcome::file);
      CHECK(entries[2].bytes == members[2].bytes);
    }
    SUBCASE("a single file, and a compressed file found larger while reading") {
      write_file(dir / "huge.map", fake_map(4, 4000));
      auto gz = gzip_bytes(fake_map(5, 100000));
      REQUIRE(gz.size() > 1000);
      write_archive(dir / "gz.tar", ArchiveFormat::tar, {{"x.gz", gz, MemberType::file, ""}});
      auto entries = read_all({(dir / "huge.map").string(), (dir / "gz.tar").string()}, options);
      REQUIRE(entries.size() == 2);
      CHECK(entries[0].kind == ReadOutcome::oversize);
      CHECK(entries[0].size == 4000);
      CHECK(entries[1].kind == ReadOutcome::oversize);
      CHECK(entries[1].path == "x.gz");
      CHECK(entries[1].size == gz.size());
    }
  }

  TEST_CASE("read: progress counts input bytes and entries, stop ends the stream") {
    TempDir dir;
    fs::path a = dir / "a.tar.gz";
    fs::path b = dir / "b.map";
    write_archive(a, ArchiveFormat::tar_gz, sample_members());
    write_file(b, fake_map(1, 777));
    std::uint64_t total = fs::file_size(a) + fs::file_size(b);
    {
      SourceReader reader({a.string(), b.string()});
      CHECK(reader.progress().input_bytes_total == total);
      CHECK(reader.progress().input_bytes_done == 0);
      std::uint64_t n = 0;
      std::uint64_t last_done = 0;
      while (auto e = reader.next()) {
        ++n;
        CHECK(reader.progress().entries == n);
        CHECK(reader.progress().input_bytes_done >= last_done);
        last_done = reader.progress().input_bytes_done;
      }
      CHECK(n == 5);
      CHECK(reader.progress().input_bytes_done == total);
    }
    {
      SourceReader reader({a.string(), b.string()});
      REQUIRE(reader.next().has_value());
      reader.stop();
      CHECK_FALSE(reader.next().has_value());
      CHECK_FALSE(reader.next().has_value());
    }
  }

  TEST_CASE("read: damaged and encrypted entries are errors, the archive goes on") {
    TempDir dir;
    std::vector<ArchiveMember> members = {
        {"one.map", noise_bytes(5000, 1), MemberType::file, ""},
        {"two.map", noise_bytes(5000, 2), MemberType::file, ""},
        {"three.map", noise_bytes(5000, 3), MemberType::file, ""},
    };
    const ArchiveSettings store{"zip:compression=store", ""};

    SUBCASE("a CRC mismatch") {
      auto zip = build_archive(ArchiveFormat::zip, members, store);
      damage(zip, members[1].bytes);
      write_file(dir / "crc.zip", zip);
      auto entries = read_all({(dir / "crc.zip").string()});
      REQUIRE(entries.size() == 3);
      CHECK(entries[0].bytes == members[0].bytes);
      CHECK(entries[1].kind == ReadOutcome::error);
      CHECK(entries[1].path == "two.map");
      CHECK(entries[1].error.code == Code::read_corrupt);
      CHECK(entries[1].error.message.find("CRC") != std::string::npos);
      CHECK(entries[2].bytes == members[2].bytes);
    }
    SUBCASE("a CRC mismatch of an outer entry holding an archive") {
      std::vector<ArchiveMember> big = {
          {"one.map", noise_bytes(200000, 1), MemberType::file, ""},
          {"two.map", noise_bytes(200000, 2), MemberType::file, ""},
          {"three.map", noise_bytes(200000, 3), MemberType::file, ""},
      };
      auto tar = build_archive(ArchiveFormat::tar, big);
      auto zip = build_archive(ArchiveFormat::zip,
                               {{"inner.tar", tar, MemberType::file, ""},
                                {"after.map", fake_map(1, 10), MemberType::file, ""}},
                               store);
      damage(zip, big[2].bytes);
      write_file(dir / "outer.zip", zip);
      auto entries = read_all({(dir / "outer.zip").string()});
      // Streaming: inner entries come out before the outer CRC is known at
      // the end of the outer entry; then one error for it, then the rest.
      REQUIRE(entries.size() >= 3);
      CHECK(entries[0].path == "inner.tar/one.map");
      CHECK(entries[0].bytes == big[0].bytes);
      const Entry& error = entries[entries.size() - 2];
      CHECK(error.kind == ReadOutcome::error);
      CHECK(error.path == "inner.tar");
      CHECK(error.error.code == Code::read_corrupt);
      CHECK(error.error.message.find("CRC") != std::string::npos);
      CHECK(entries.back().path == "after.map");
      CHECK(entries.back().kind == ReadOutcome::file);
      for (std::size_t i = 0; i + 2 < entries.size(); ++i)
        CHECK(entries[i].kind == ReadOutcome::file);
    }
    SUBCASE("a CRC mismatch found after the inner archive's end") {
      auto tar = build_archive(ArchiveFormat::tar, members);
      tar.resize(tar.size() + 300000, 0);  // zeros after the end-of-archive blocks
      auto zip = build_archive(ArchiveFormat::zip,
                               {{"inner.tar", tar, MemberType::file, ""},
                                {"after.map", fake_map(1, 10), MemberType::file, ""}},
                               store);
      damage(zip, members[2].bytes);
      write_file(dir / "padded.zip", zip);
      auto entries = read_all({(dir / "padded.zip").string()});
      // The inner tar ends before the outer entry: the rest is read to learn
      // the outer CRC, which condemns what the inner archive delivered.
      CHECK(paths_of(entries) == std::vector<std::string>{"inner.tar/one.map", "inner.tar/two.map",
                                                          "inner.tar/three.map", "inner.tar",
                                                          "after.map"});
      REQUIRE(entries.size() == 5);
      CHECK(entries[2].bytes != members[2].bytes);  // damaged, the outer CRC says so below
      CHECK(entries[3].kind == ReadOutcome::error);
      CHECK(entries[3].error.code == Code::read_corrupt);
    }
    SUBCASE("encrypted zip entries") {
      write_archive(dir / "secret.zip", ArchiveFormat::zip, members,
                    ArchiveSettings{"zip:encryption=zipcrypt", "hunter2"});
      auto entries = read_all({(dir / "secret.zip").string()});
      REQUIRE(entries.size() == 3);
      for (const auto& e : entries) {
        CHECK(e.kind == ReadOutcome::error);
        CHECK(e.error.code == Code::read_encrypted);
        CHECK(e.size == 5000);
      }
      CHECK(entries[2].path == "three.map");
    }
  }

  TEST_CASE("read: a named FIFO is read as a stream") {
    TempDir dir;
    fs::path fifo = dir / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    auto bytes = build_archive(ArchiveFormat::tar_xz, sample_members());
    std::thread writer([&] { write_file(fifo, bytes); });
    auto entries = read_all({fifo.string()});
    writer.join();
    check_sample(entries, fifo.string());
  }

  TEST_CASE("read: sources(): what each input is, as the reader reads it") {
    using mapindex::read::ArchiveMagic;
    using mapindex::read::SourceKind;
    TempDir dir;
    write_archive(dir / "a.zip", ArchiveFormat::zip, sample_members());
    write_archive(dir / "b.tar.gz", ArchiveFormat::tar_gz, sample_members());
    write_file(dir / "c.map", fake_map(3, 500));
    const auto gz = gzip_bytes(fake_map(4, 500));  // gzip magic, but no archive inside
    write_file(dir / "d.map.gz", gz);
    write_file(dir / "e.zip",
               truncated_copy(build_archive(ArchiveFormat::zip, sample_members()), 40));
    write_file(dir / "empty.bin", {});
    fs::create_directories(dir / "folder");
    write_file(dir / "folder" / "x.map", fake_map(5, 10));
    const fs::path fifo_archive = dir / "fifo-archive", fifo_plain = dir / "fifo-plain";
    REQUIRE(::mkfifo(fifo_archive.c_str(), 0600) == 0);
    REQUIRE(::mkfifo(fifo_plain.c_str(), 0600) == 0);
    const auto txz = build_archive(ArchiveFormat::tar_xz, sample_members());
    std::thread archive_writer([&] { write_file(fifo_archive, txz); });
    std::thread plain_writer([&] { write_file(fifo_plain, gz); });
    const std::vector<std::string> inputs = {
        (dir / "a.zip").string(),    (dir / "b.tar.gz").string(), (dir / "c.map").string(),
        (dir / "d.map.gz").string(), (dir / "e.zip").string(),    (dir / "empty.bin").string(),
        (dir / "folder").string(),   fifo_archive.string(),       fifo_plain.string(),
        (dir / "missing").string()};
    SourceReader reader(inputs);
    const std::vector<std::pair<SourceKind, ArchiveMagic>> expected = {
        {SourceKind::archive, ArchiveMagic::zip}, {SourceKind::archive, ArchiveMagic::gzip},
        {SourceKind::file, ArchiveMagic::none},   {SourceKind::file, ArchiveMagic::none},
        {SourceKind::archive, ArchiveMagic::zip}, {SourceKind::file, ArchiveMagic::none},
        {SourceKind::folder, ArchiveMagic::none}, {SourceKind::archive, ArchiveMagic::xz},
        {SourceKind::file, ArchiveMagic::none},   {SourceKind::unreadable, ArchiveMagic::none}};
    const auto& sources = reader.sources();
    REQUIRE(sources.size() == inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      CAPTURE(inputs[i]);
      CHECK(sources[i].input == inputs[i]);
      CHECK(sources[i].kind == expected[i].first);
      CHECK(sources[i].format == expected[i].second);
    }
    // Read as said: an input that is a file is one entry named as the file;
    // the streams, opened to be told, are still read whole.
    std::map<std::string, std::vector<Entry>> by_source;
    while (auto e = reader.next()) by_source[e->source].push_back(std::move(*e));
    archive_writer.join();
    plain_writer.join();
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (sources[i].kind != SourceKind::file) continue;
      CAPTURE(inputs[i]);
      REQUIRE(by_source[inputs[i]].size() == 1);
      const Entry& e = by_source[inputs[i]][0];
      if (e.kind == ReadOutcome::file)
        CHECK(e.path == fs::path(inputs[i]).filename().string());
      else
        CHECK(e.error.code == Code::read_empty);  // empty.bin: the input itself gives nothing
    }
    check_sample(by_source[(dir / "a.zip").string()], (dir / "a.zip").string());
    check_sample(by_source[fifo_archive.string()], fifo_archive.string());
    REQUIRE(by_source[fifo_plain.string()].size() == 1);
    CHECK(by_source[fifo_plain.string()][0].bytes == gz);
    CHECK(by_source[(dir / "missing").string()].at(0).error.code == Code::read_io);
  }

  TEST_CASE("read: stop() ends a wait on a silent standard input") {
    struct sigaction wake {
    }, old{};
    wake.sa_handler = [](int) {};
    sigemptyset(&wake.sa_mask);
    wake.sa_flags = 0;  // no SA_RESTART: read() returns EINTR
    REQUIRE(::sigaction(SIGUSR1, &wake, &old) == 0);
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    int saved = ::dup(STDIN_FILENO);
    REQUIRE(::dup2(fds[0], STDIN_FILENO) == STDIN_FILENO);
    ::close(fds[0]);

    SourceReader reader({"-"});
    std::atomic<bool> done{false};
    std::optional<Entry> result;
    std::thread consumer([&] {
      result = reader.next();
      done = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    reader.stop();
    for (int i = 0; i < 100 && !done; ++i) {
      ::pthread_kill(consumer.native_handle(), SIGUSR1);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const bool returned_while_waiting = done.load();
    ::close(fds[1]);  // if stop() did not work, end of input releases the reader
    consumer.join();
    CHECK(returned_while_waiting);
    CHECK_FALSE(result.has_value());
    ::dup2(saved, STDIN_FILENO);
    ::close(saved);
    ::sigaction(SIGUSR1, &old, nullptr);
  }

  TEST_CASE("read: cut and damaged archives of every format end cleanly") {
    TempDir dir;
    auto inner =
        build_archive(ArchiveFormat::zip, {{"in.map", fake_map(1, 3000), MemberType::file, ""}});
    std::vector<ArchiveMember> members = {
        {"a.map", fake_map(2, 3000), MemberType::file, ""},
        {"inner.zip", inner, MemberType::file, ""},
        {"b.map", noise_bytes(3000, 3), MemberType::file, ""},
    };
    fs::path path = dir / "damaged";
    std::uint32_t seed = 12345;
    for (ArchiveFormat format : kAllFormats) {
      CAPTURE(extension(format));
      auto bytes = build_archive(format, members);
      for (int variant = 0; variant < 40; ++variant) {
        CAPTURE(variant);
        auto damaged = bytes;
        seed = seed * 1664525u + 1013904223u;
        if (variant < 20) {
          damaged.resize(seed % damaged.size());
        } else {
          for (int flip = 0; flip < 3; ++flip) {
            seed = seed * 1664525u + 1013904223u;
            damaged[seed % damaged.size()] ^= static_cast<std::uint8_t>(1 + (seed >> 24) % 255);
          }
        }
        write_file(path, damaged);
        std::size_t errors = 0;
        for (const auto& e : read_all({path.string()})) {
          if (e.kind == ReadOutcome::error) {
            ++errors;
            CHECK(to_string(e.error.code).starts_with("read."));
            CHECK(e.error.message.find(path.string()) != std::string::npos);
          } else if (e.kind == ReadOutcome::file) {
            CHECK(e.bytes.size() == e.size);
          }
        }
        CHECK(errors <=
              7);  // at most two per damaged byte (entry, and its outer archive), plus the cut
      }
    }
  }

  TEST_CASE("read: entry buffers: the smallest that fits is reused, within the pool's limits") {
    using mapindex::read::EntryBuffers;
    EntryBuffers pool;
    auto with_capacity = [](std::size_t n) {
      std::vector<std::uint8_t> v;
      v.reserve(n);
      v.resize(n / 2, 7);  // given back with bytes in it: take() gives it empty
      return v;
    };
    for (const std::size_t n : {300000, 100000, 200000}) {
      auto v = with_capacity(n);
      pool.give(v);
      CHECK(v.capacity() == 0);
    }
    CHECK(pool.kept() == 3);
    CHECK(pool.kept_bytes() >= 600000);
    // 150,000 bytes: the 200,000 one, not the 300,000 one.
    auto a = pool.take(150000, 1 << 20);
    CHECK(a.empty());
    CHECK(a.capacity() >= 200000);
    CHECK(a.capacity() < 300000);
    CHECK(pool.kept() == 2);
    // Nothing kept fits 400,000: a new buffer, of at most `new_at_most`.
    auto b = pool.take(400000, 1000);
    CHECK(b.capacity() >= 1000);
    CHECK(b.capacity() < 100000);
    CHECK(pool.kept() == 2);
    auto c = pool.take(400000, 1 << 20);
    CHECK(c.capacity() >= 400000);
    // At most kMaxKept buffers and kMaxKeptBytes in all; the rest is freed.
    pool.clear();
    CHECK(pool.kept() == 0);
    CHECK(pool.kept_bytes() == 0);
    for (std::size_t i = 0; i < EntryBuffers::kMaxKept + 5; ++i) {
      auto v = with_capacity(1000);
      pool.give(v);
    }
    CHECK(pool.kept() == EntryBuffers::kMaxKept);
    pool.clear();
    auto huge = with_capacity(EntryBuffers::kMaxKeptBytes + 1);
    pool.give(huge);
    CHECK(pool.kept() == 0);
    CHECK(huge.capacity() == 0);
    std::vector<std::uint8_t> none;
    pool.give(none);
    CHECK(pool.kept() == 0);
  }

  TEST_CASE("read: entry buffers to overwrite keep their old bytes, zeroed only where they grow") {
    using mapindex::read::EntryBuffers;
    EntryBuffers pool;
    const auto give = [&](std::size_t capacity, std::size_t size, std::uint8_t value) {
      std::vector<std::uint8_t> v;
      v.reserve(capacity);
      v.resize(size, value);
      pool.give(v);
    };
    give(100000, 60000, 7);
    // Smaller than what it held: the first bytes it held, none zeroed.
    auto a = pool.take_to_overwrite(50000);
    CHECK(a.size() == 50000);
    CHECK(a.capacity() >= 100000);
    CHECK(std::count(a.begin(), a.end(), 7) == 50000);
    CHECK(pool.kept() == 0);
    pool.give(a);
    // Larger: its bytes, then zeros where it grew.
    auto b = pool.take_to_overwrite(80000);
    CHECK(b.size() == 80000);
    CHECK(std::count(b.begin(), b.begin() + 50000, 7) == 50000);
    CHECK(std::count(b.begin() + 50000, b.end(), 0) == 30000);
    pool.give(b);
    // take() still gives it empty.
    CHECK(pool.take(1000, 1 << 20).empty());
    // Nothing kept fits: a new buffer, zeroed.
    auto c = pool.take_to_overwrite(200000);
    CHECK(c.size() == 200000);
    CHECK(std::count(c.begin(), c.end(), 0) == 200000);
  }

  TEST_CASE("read: entry bytes go back to their pool when done; a copy or a release does not") {
    using mapindex::read::EntryBuffers;
    using mapindex::read::EntryBytes;
    const auto pool = std::make_shared<EntryBuffers>();
    const auto buffer = [](std::size_t n) { return std::vector<std::uint8_t>(n, 9); };
    {
      EntryBytes a(buffer(1000), pool);
      CHECK(a.size() == 1000);
      EntryBytes copy = a;  // a buffer of its own, no pool's
      CHECK(copy == a);
      EntryBytes moved = std::move(a);
      CHECK(a.empty());
      CHECK(moved.size() == 1000);
      CHECK(pool->kept() == 0);
      moved.reset();  // given back now
      CHECK(moved.empty());
      CHECK(pool->kept() == 1);
      EntryBytes b(buffer(2000), pool);
      const std::vector<std::uint8_t> mine = b.release();
      CHECK(mine.size() == 2000);
      CHECK(b.empty());
    }  // `copy` and the released `b` go back to no pool; `a` was moved from
    CHECK(pool->kept() == 1);
    { EntryBytes c(buffer(3000), pool); }  // destroyed: given back
    CHECK(pool->kept() == 2);
    // An entry may outlive its reader: the pool lives as long as the entry.
    TempDir dir;
    write_file(dir / "one.map", mapindex::Bytes(buffer(500)));
    std::optional<mapindex::read::Entry> kept;
    {
      SourceReader reader({dir.file("one.map")});
      kept = reader.next();
    }
    REQUIRE(kept);
    CHECK(kept->bytes == buffer(500));
    kept.reset();
  }

  TEST_CASE("read: entry buffers: entries read into reused buffers hold their own bytes") {
    // Large entries first, then small ones, each buffer given back before the
    // next entry is read (as the measure stage does): a reused buffer must
    // not show a larger earlier entry's tail or an earlier entry's bytes.
    TempDir dir;
    std::vector<ArchiveMember> members;
    const std::size_t sizes[] = {3000000, 1500000, 700000, 1, 0, 40000, 2500000, 64 * 1024, 12345};
    for (std::size_t i = 0; i < std::size(sizes); ++i)
      members.push_back({"m" + std::to_string(i) + ".map",
                         noise_bytes(sizes[i], static_cast<std::uint32_t>(100 + i))});
    for (const ArchiveFormat format : {ArchiveFormat::tar, ArchiveFormat::zip}) {
      CAPTURE(extension(format));
      const fs::path path = dir / ("reuse" + std::string(extension(format)));
      write_archive(path, format, members);
      SourceReader reader({path.string()});
      std::size_t i = 0;
      while (auto e = reader.next()) {
        REQUIRE(i < members.size());
        CAPTURE(members[i].path);
        CHECK(e->kind == ReadOutcome::file);
        CHECK(e->bytes == members[i].bytes);
        e->bytes.reset();
        ++i;
      }
      CHECK(i == members.size());
    }
    // A folder of the same files, read the same way.
    const fs::path folder = dir / "folder";
    fs::create_directories(folder);
    for (const auto& m : members) write_file(folder / m.path, mapindex::Bytes(m.bytes));
    std::map<std::string, std::vector<std::uint8_t>> got;
    SourceReader reader({folder.string()});
    while (auto e = reader.next()) {
      got[fs::path(e->path).filename().string()] = e->bytes.release();
    }
    REQUIRE(got.size() == members.size());
    for (const auto& m : members) CHECK(got[m.path] == m.bytes);
  }

  TEST_CASE("read: read_into: asks first for what the caller expects, then grows") {
    // A source of `size` bytes that records what it was asked for.
    struct Recording final : mapindex::read::ByteSource {
      std::size_t size = 0, at = 0;
      std::vector<std::size_t> asked;
      std::int64_t read(std::uint8_t* out, std::size_t n) override {
        asked.push_back(n);
        const std::size_t k = std::min(n, size - at);
        std::fill(out, out + k, std::uint8_t{9});
        at += k;
        return static_cast<std::int64_t>(k);
      }
    };
    Recording source;
    source.size = 5000;
    std::vector<std::uint8_t> bytes;
    bytes.reserve(1 << 20);  // a reused buffer, far larger than the entry
    REQUIRE(mapindex::read::read_into(source, bytes, 1 << 30, 5001));
    CHECK(bytes.size() == 5000);
    REQUIRE(source.asked.size() >= 2);
    CHECK(source.asked[0] == 5001);  // not the whole capacity
    // Beyond what was expected it grows: a declared size may be wrong.
    Recording longer;
    longer.size = 300000;
    std::vector<std::uint8_t> more;
    REQUIRE(mapindex::read::read_into(longer, more, 1 << 30, 1001));
    CHECK(more.size() == 300000);
    CHECK(longer.asked[0] == 1001);
    CHECK(std::all_of(more.begin(), more.end(), [](std::uint8_t b) { return b == 9; }));
    // The limit holds whatever was expected.
    Recording capped;
    capped.size = 300000;
    std::vector<std::uint8_t> less;
    REQUIRE(mapindex::read::read_into(capped, less, 70000, 1001));
    CHECK(less.size() == 70000);
  }
}
