#include "tests/support/read_all.h"

#include <doctest/doctest.h>

#include "read/source_reader.h"

namespace mapindex::testing {

std::vector<read::Entry> read_all(std::vector<std::string> inputs, read::ReadOptions options,
                                  read::ReadProgress* progress) {
  read::SourceReader reader(std::move(inputs), options);
  std::vector<read::Entry> out;
  while (auto e = reader.next()) {
    out.push_back(std::move(*e));
    REQUIRE(out.size() < 100000);
  }
  CHECK_FALSE(reader.next().has_value());  // stays at the end
  if (progress) *progress = reader.progress();
  return out;
}

std::string reading_difference(const std::vector<read::Entry>& a,
                               const std::vector<read::Entry>& b) {
  if (a.size() != b.size())
    return std::to_string(a.size()) + " entries against " + std::to_string(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const read::Entry &x = a[i], &y = b[i];
    const std::string at = "entry " + std::to_string(i) + " (" + x.path + "): ";
    if (x.path != y.path) return at + "path " + y.path;
    if (x.kind != y.kind) return at + "kind";
    if (x.size != y.size) return at + "size";
    if (x.bytes != y.bytes) return at + "bytes";
    if (x.error.code != y.error.code) return at + "code: " + y.error.to_string();
    if (x.error.message != y.error.message)
      return at + "message: " + x.error.message + " | " + y.error.message;
  }
  return "";
}

}  // namespace mapindex::testing
