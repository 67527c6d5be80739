#include "tests/support/corpus.h"

#include "tests/support/test_kind.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace mapindex::testing {
namespace fs = std::filesystem;

std::optional<fs::path> corpus_dir(const std::string& sub) {
  require_corpus_allowed(sub);
  fs::path root;
  if (const char* env = std::getenv("MAPINDEX_CORPUS_DIR"); env && *env) {
    root = env;
  } else {
    root = fs::path(MAPINDEX_SOURCE_DIR_FOR_FIXTURES) / ".." / "shared" / "corpus";
  }
  fs::path dir = root / sub;
  std::error_code ec;
  if (fs::is_directory(dir, ec)) return fs::weakly_canonical(dir, ec);
  return std::nullopt;
}

std::vector<fs::path> corpus_files(const std::string& sub, const std::string& ext) {
  std::vector<fs::path> files;
  auto dir = corpus_dir(sub);
  if (!dir) return files;
  for (const auto& e : fs::directory_iterator(*dir))
    if (e.is_regular_file() && e.path().extension() == ext) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::map<std::string, std::map<std::string, std::string>> corpus_manifest(const std::string& sub) {
  std::map<std::string, std::map<std::string, std::string>> rows;
  auto dir = corpus_dir(sub);
  if (!dir) return rows;
  std::ifstream in(*dir / "MANIFEST.tsv");
  std::string line;
  std::vector<std::string> header;
  auto split = [](const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string field;
    while (std::getline(ss, field, '\t')) out.push_back(field);
    return out;
  };
  if (std::getline(in, line)) header = split(line);
  while (std::getline(in, line)) {
    auto fields = split(line);
    if (fields.empty()) continue;
    auto& row = rows[fields[0]];
    for (std::size_t i = 0; i < fields.size() && i < header.size(); ++i) row[header[i]] = fields[i];
  }
  return rows;
}

std::vector<std::uint8_t> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

std::string read_text_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

namespace {
bool g_skipped = false;
}

void report_corpus_missing(const std::string& sub, const std::string& what) {
  const std::string why = what + " (../shared/corpus/" + sub +
                          " not found; set MAPINDEX_CORPUS_DIR or put shared/ beside the checkout)";
  if (const char* required = std::getenv("MAPINDEX_REQUIRE_CORPUS");
      required && *required && std::string(required) != "0")
    throw std::runtime_error("MAPINDEX_REQUIRE_CORPUS is set but the corpus is missing: " + why);
  report_skipped(why);
}

void report_skipped(const std::string& why) {
  std::cout << "SKIPPED: " << why << "\n";
  g_skipped = true;
}

bool corpus_tests_skipped() { return g_skipped; }

}  // namespace mapindex::testing
