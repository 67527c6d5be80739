#include "read/named_entry.h"

#include <filesystem>

#include "read/source_reader.h"

namespace mapindex::read {

Result<std::vector<std::uint8_t>> read_named_entry(const std::string& name,
                                                   std::uint64_t max_size) {
  const auto fail = [](std::string message) {
    return Error{.code = Code::render_input, .message = std::move(message), .location = {}};
  };
  std::string input = name, wanted;
  if (const auto sep = name.find("::"); sep != std::string::npos) {
    input = name.substr(0, sep);
    wanted = name.substr(sep + 2);
    if (wanted.empty()) return fail(name + ": no entry after '::' (ARCHIVE::path/in/archive.map)");
  }
  std::error_code ec;
  if (input != "-" && !std::filesystem::exists(input, ec)) return fail(input + ": no such file");
  ReadOptions ro;
  ro.max_entry_size = max_size;
  SourceReader reader({input}, ro);
  const SourceKind kind = reader.sources().front().kind;
  if (wanted.empty() && kind == SourceKind::archive)
    return fail(input + " is an archive: name the map in it as " + input + "::path/in/archive.map");
  if (wanted.empty() && kind == SourceKind::folder)
    return fail(input + " is a folder, not a map file");
  if (!wanted.empty() && kind != SourceKind::archive)
    return fail(input + " is not an archive, so it has no entry '" + wanted + "'");
  while (auto entry = reader.next()) {
    if (!wanted.empty() && entry->path != wanted) {
      if (entry->kind == ReadOutcome::error && entry->path.empty())
        return fail(input + ": " + entry->error.to_string());
      continue;
    }
    switch (entry->kind) {
      case ReadOutcome::file: return entry->bytes.release();
      case ReadOutcome::oversize:
        return fail(name + ": " + std::to_string(entry->size) + " bytes, over --max-map-size");
      default: return fail(name + ": " + entry->error.to_string());
    }
  }
  return fail(input + " has no entry '" + wanted + "'");
}

}  // namespace mapindex::read
