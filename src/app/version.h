#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace mapindex {

// The mapindex release, as stored in runs.tool_version.
std::string_view tool_version();

// The index schema version this mapindex writes: the last embedded migration's
// (PRAGMA user_version of an index it has written or migrated).
int index_schema_version();

// A library mapindex is linked with: the version of the headers it was built
// with, and the version the library reports at run time ("" when the library
// has no run-time version call: its code is compiled in, or it is header-only
// in this respect).
struct LibraryVersion {
  std::string name;
  std::string built;
  std::string running;
};
std::vector<LibraryVersion> library_versions();

// The allocator malloc resolves to in this process, named by its shared
// object: "jemalloc VERSION (libjemalloc.so.2)", or e.g. "libc.so.6".
std::string running_allocator();

// `mapindex --version`: the release, the schema version, one line per
// library ("name built X, running Y"), like `sqlite3 --version`, and the
// allocator.
void print_version(std::ostream& out);

}  // namespace mapindex
