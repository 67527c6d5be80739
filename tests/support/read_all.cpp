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

}  // namespace mapindex::testing
