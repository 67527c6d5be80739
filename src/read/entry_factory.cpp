#include "read/entry_factory.h"

#include <utility>

namespace mapindex::read {

std::string in_quotes(const std::string& s) { return "\"" + s + "\""; }

Entry EntryFactory::error_entry(Code code, const std::string& path, const std::string& reason,
                                std::uint64_t size) const {
  Entry e;
  e.source = source_;
  e.path = path;
  e.size = size;
  e.kind = ReadOutcome::error;
  std::string where = in_quotes(source_);
  if (!path.empty()) where += ", entry " + in_quotes(path);
  e.error = Error{std::move(code), where + ": " + reason};
  return e;
}

Entry EntryFactory::file_entry(const std::string& path, std::vector<std::uint8_t> bytes) const {
  Entry e;
  e.source = source_;
  e.path = path;
  e.size = bytes.size();
  e.kind = ReadOutcome::file;
  e.bytes = EntryBytes(std::move(bytes), pool_);
  return e;
}

Entry EntryFactory::oversize_entry(const std::string& path, std::uint64_t size) const {
  Entry e;
  e.source = source_;
  e.path = path;
  e.size = size;
  e.kind = ReadOutcome::oversize;
  return e;
}

Entry EntryFactory::not_read_entry(Code code, const std::string& path,
                                   const std::string& reason) const {
  Entry e = error_entry(std::move(code), path, reason);
  e.kind = ReadOutcome::not_read;
  return e;
}

}  // namespace mapindex::read
