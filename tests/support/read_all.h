// Reading inputs to the end with the reader, for tests.
#pragma once

#include <string>
#include <vector>

#include "read/entry.h"

namespace mapindex::testing {

// Every entry of `inputs` (at most 100,000), read with `options`; checks the
// reader stays at the end. `progress`, if given, gets the reader's progress
// after the last entry.
std::vector<read::Entry> read_all(std::vector<std::string> inputs, read::ReadOptions options = {},
                                  read::ReadProgress* progress = nullptr);

// The first difference between two readings of the same inputs (paths,
// kinds, sizes, bytes, error codes and messages), or "" if none.
std::string reading_difference(const std::vector<read::Entry>& a,
                               const std::vector<read::Entry>& b);

}  // namespace mapindex::testing
