// Locating the real-map corpus in ../shared/corpus (beside the checkout).
// Tests that need it call corpus_dir() and skip with report_corpus_missing()
// when it is absent (MAPINDEX_CORPUS_DIR overrides the location).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mapindex::testing {

// ../shared/corpus/<sub> if it exists (sub = "maps" or "spritetile").
std::optional<std::filesystem::path> corpus_dir(const std::string& sub);

// Files under corpus_dir(sub) with the given extension, sorted by name.
std::vector<std::filesystem::path> corpus_files(const std::string& sub, const std::string& ext);

// MANIFEST.tsv of corpus_dir(sub): file name -> (column name -> value).
std::map<std::string, std::map<std::string, std::string>> corpus_manifest(const std::string& sub);

// The whole file: as bytes, or as text. Empty when it cannot be read.
std::vector<std::uint8_t> read_file(const std::filesystem::path& path);
std::string read_text_file(const std::filesystem::path& path);

// Prints "SKIPPED: <what> (../shared/corpus/<sub> not found)" once per test
// and remembers it: the test binary then exits 77, which CTest reports as
// skipped. With MAPINDEX_REQUIRE_CORPUS=1 (CI) it throws instead, so the test
// fails rather than skips.
void report_corpus_missing(const std::string& sub, const std::string& what);

// Any other missing prerequisite (a program, e.g. chromium): prints
// "SKIPPED: <why>" and remembers it like report_corpus_missing (exit 77).
void report_skipped(const std::string& why);

// Whether report_corpus_missing or report_skipped was called in this process.
bool corpus_tests_skipped();

}  // namespace mapindex::testing
