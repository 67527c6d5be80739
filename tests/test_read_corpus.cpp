#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "read/digest.h"
#include "read/source_reader.h"
#include "tests/support/archive_builder.h"
#include "tests/support/corpus.h"

namespace {

namespace fs = std::filesystem;
using mapindex::read::ReadOutcome;
using mapindex::read::SourceReader;

// Reads `input` and checks every entry is a file whose SHA-256 matches the
// manifest row of its file name (the part after `prefix`); returns the names
// (and, if asked, how many were zip members read by ZipMembers).
std::set<std::string> check_against_manifest(
    const std::string& input, const std::string& prefix,
    const std::map<std::string, std::map<std::string, std::string>>& manifest,
    std::uint64_t* zip_members = nullptr) {
  std::set<std::string> seen;
  SourceReader reader({input});
  while (auto entry = reader.next()) {
    CAPTURE(entry->path);
    CAPTURE(entry->error.message);
    REQUIRE(entry->kind == ReadOutcome::file);
    REQUIRE(entry->path.starts_with(prefix));
    std::string name = entry->path.substr(prefix.size());
    if (name == "MANIFEST.tsv" || name == "README.md") continue;
    auto row = manifest.find(name);
    REQUIRE(row != manifest.end());
    CHECK(mapindex::read::digest(entry->bytes).sha256_hex() == row->second.at("sha256"));
    CHECK(seen.insert(name).second);
  }
  CHECK(reader.progress().input_bytes_done == reader.progress().input_bytes_total);
  if (zip_members) *zip_members = reader.progress().zip_members;
  return seen;
}

}  // namespace

TEST_SUITE("read") {
  TEST_CASE("read corpus: every map comes back out of a zip with its manifest SHA-256") {
    auto maps = mapindex::testing::corpus_files("maps", ".map");
    if (maps.empty()) {
      mapindex::testing::report_corpus_missing("maps", "read: corpus zip round trip");
      return;
    }
    auto manifest = mapindex::testing::corpus_manifest("maps");
    mapindex::testing::TempDir dir;
    std::vector<std::pair<std::string, fs::path>> files;
    for (const auto& path : maps) files.emplace_back("maps/" + path.filename().string(), path);
    fs::path zip = dir / "corpus.zip";
    mapindex::testing::write_archive_from_files(zip, mapindex::testing::ArchiveFormat::zip, files);

    std::uint64_t zip_members = 0;
    auto seen = check_against_manifest(zip.string(), "maps/", manifest, &zip_members);
    CHECK(seen.size() == maps.size());
    // Every map was inflated by mapindex (ZipMembers), not libarchive.
    CHECK(zip_members == maps.size());
    CHECK(seen.size() == manifest.size());
  }

  TEST_CASE(
      "read corpus: read as folders, no real map or SpriteTile file is taken for an archive") {
    for (std::string sub : {"maps", "spritetile"}) {
      auto dir = mapindex::testing::corpus_dir(sub);
      if (!dir) {
        mapindex::testing::report_corpus_missing(sub, "read: corpus folder");
        continue;
      }
      CAPTURE(sub);
      auto manifest = mapindex::testing::corpus_manifest(sub);
      auto seen = check_against_manifest(dir->string(), "", manifest);
      CHECK(seen.size() == manifest.size());
    }
  }
}
