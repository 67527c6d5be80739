// The files of schema/, compiled into the library by scripts/embed_schema.cmake.
#pragma once

#include <string_view>
#include <vector>

namespace mapindex::index {

struct SchemaFile {
  std::string_view name;  // e.g. "001_initial.sql"
  std::string_view content;
};

// Sorted by name.
const std::vector<SchemaFile>& schema_files();

}  // namespace mapindex::index
