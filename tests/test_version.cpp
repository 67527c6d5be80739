// `mapindex --version`: the release, the index schema version it writes (the
// last embedded migration, not a number written twice) and the libraries it
// was built with and runs with. The expected versions come from the
// libraries themselves, asked here.
#include <doctest/doctest.h>

#include <archive.h>
#include <libdeflate.h>
#include <lzf.h>
#include <openssl/crypto.h>
#include <png.h>
#include <sqlite3.h>

#include <oneapi/tbb/version.h>
#include <string>

#include "index/migrations.h"
#include "tests/support/process.h"

using namespace mapindex::testing;

namespace {

// The line of `text` that starts with `prefix` (after leading spaces), or "".
std::string line_starting(const std::string& text, const std::string& prefix) {
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    const auto first = line.find_first_not_of(' ');
    if (first != std::string::npos && line.compare(first, prefix.size(), prefix) == 0) return line;
    start = end + 1;
  }
  return "";
}

}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("cli e2e: --version prints the schema version it writes and each library's version") {
    const auto r = run_process(mapindex_binary(), {"--version"});
    REQUIRE(r.exit_code == 0);
    INFO(r.out);
    CHECK(r.out.rfind("mapindex " MAPINDEX_VERSION "\n", 0) == 0);
    const int schema = mapindex::index::default_migrations().back().version;
    CHECK(schema >= 5);  // the info severity's migration is among them
    CHECK(contains(r.out, "\nindex schema version " + std::to_string(schema) + "\n"));

    // Each library by its own line: built with the headers' version, running
    // with what the library reports now.
    const std::string sqlite = line_starting(r.out, "SQLite ");
    CHECK(contains(sqlite, SQLITE_VERSION));
    CHECK(contains(sqlite, std::string("running ") + sqlite3_libversion()));
    const std::string libarchive = line_starting(r.out, "libarchive ");
    CHECK(contains(libarchive, ARCHIVE_VERSION_ONLY_STRING));
    CHECK(contains(libarchive, std::string("running ") + archive_version_details()));
    CHECK(contains(line_starting(r.out, "libdeflate "), LIBDEFLATE_VERSION_STRING));
    const std::string tbb = line_starting(r.out, "oneTBB ");
    CHECK(contains(tbb, TBB_VERSION_STRING));
    CHECK(contains(tbb, std::string("running ") + TBB_runtime_version()));
    const std::string openssl = line_starting(r.out, "OpenSSL ");
    CHECK(contains(openssl, std::string("running ") + OpenSSL_version(OPENSSL_VERSION)));
    CHECK(contains(line_starting(r.out, "liblzf "),
                   std::to_string(LZF_VERSION >> 8) + "." + std::to_string(LZF_VERSION & 0xff)));
    const std::string libpng = line_starting(r.out, "libpng ");
    CHECK(contains(libpng, PNG_LIBPNG_VER_STRING));
    CHECK(contains(libpng, std::string("running ") + png_get_libpng_ver(nullptr)));
    // The allocator, by the shared object malloc resolves to: jemalloc's
    // when the build links it (CMakeLists.txt, MAPINDEX_JEMALLOC).
    const std::string allocator = line_starting(r.out, "allocator: ");
#if MAPINDEX_BINARY_LINKS_JEMALLOC
    CHECK(allocator.rfind("allocator: jemalloc ", 0) == 0);
    CHECK(contains(allocator, "(libjemalloc.so"));
#else
    CHECK(allocator.size() > std::string("allocator: ").size());
    CHECK_FALSE(contains(allocator, "jemalloc"));
#endif
    // -V is the same.
    CHECK(run_process(mapindex_binary(), {"-V"}).out == r.out);
  }
}
