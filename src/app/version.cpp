#include "app/version.h"

#include <archive.h>
#include <dlfcn.h>
#include <libdeflate.h>
#include <lzf.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <png.h>
#include <sqlite3.h>

#include <oneapi/tbb/version.h>
#include <boost/version.hpp>
#include <cstdlib>
#include <filesystem>

#include "index/migrations.h"

namespace mapindex {

std::string_view tool_version() { return MAPINDEX_VERSION; }

int index_schema_version() { return index::default_migrations().back().version; }

std::vector<LibraryVersion> library_versions() {
  const auto lzf = std::to_string(LZF_VERSION >> 8) + "." + std::to_string(LZF_VERSION & 0xff);
  return {
      {"SQLite", SQLITE_VERSION, sqlite3_libversion()},
      // The details name the compression libraries libarchive itself uses
      // (zlib, liblzma, zstd, ...): mapindex links none of them directly.
      {"libarchive", ARCHIVE_VERSION_ONLY_STRING, archive_version_details()},
      {"libdeflate", LIBDEFLATE_VERSION_STRING, ""},
      {"oneTBB", TBB_VERSION_STRING, TBB_runtime_version()},
      {"OpenSSL", OPENSSL_VERSION_TEXT, OpenSSL_version(OPENSSL_VERSION)},
      {"liblzf", lzf, ""},  // LZF_VERSION: the API version
      {"Boost", BOOST_LIB_VERSION, ""},
      {"libpng", PNG_LIBPNG_VER_STRING, png_get_libpng_ver(nullptr)},
  };
}

std::string running_allocator() {
  // Which shared object the process's malloc resolves to: jemalloc's when
  // the program links it (CMakeLists.txt, MAPINDEX_JEMALLOC) or it is
  // preloaded, the C library's otherwise (a sanitizer's under one).
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&std::malloc), &info) == 0 || info.dli_fname == nullptr)
    return "unknown";
  const std::string object = std::filesystem::path(info.dli_fname).filename().string();
  if (object.find("jemalloc") == std::string::npos) return object;
  using Mallctl = int (*)(const char*, void*, std::size_t*, void*, std::size_t);
  const auto mallctl = reinterpret_cast<Mallctl>(dlsym(RTLD_DEFAULT, "mallctl"));
  const char* version = nullptr;
  std::size_t size = sizeof(version);
  if (mallctl == nullptr || mallctl("version", &version, &size, nullptr, 0) != 0 ||
      version == nullptr)
    return "jemalloc (" + object + ")";
  return "jemalloc " + std::string(version) + " (" + object + ")";
}

void print_version(std::ostream& out) {
  out << "mapindex " << tool_version() << "\n";
  out << "index schema version " << index_schema_version() << "\n";
  out << "libraries (built with, running with):\n";
  for (const auto& lib : library_versions()) {
    out << "  " << lib.name << std::string(lib.name.size() < 11 ? 11 - lib.name.size() : 1, ' ')
        << lib.built;
    if (!lib.running.empty()) out << ", running " << lib.running;
    out << "\n";
  }
  out << "allocator: " << running_allocator() << "\n";
}

}  // namespace mapindex
