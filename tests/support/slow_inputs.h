// Inputs that once took time growing with the product of two of their counts
// (found by fuzzing): tests/test_fuzz_regressions.cpp checks what mapindex
// reads from them, benchmarks/bounds.cpp how long it takes.
#pragma once

#include <cstdint>
#include <vector>

#include "decode/datafile/uuid.h"

namespace mapindex::testing {

// A map of `envelopes` envelopes over one list of `points` points, point k of
// time k except point `back_at` (time 5, before its predecessor) and of curve
// type 0, 1 and 9 (unknown) for k % 3 = 0, 1, 2. Envelope 0 holds every
// point; the others are stored with the range [0, points) when even,
// [back_at, points) when odd.
std::vector<std::uint8_t> overlapping_envelopes_map(int envelopes, int points, int back_at);

// A datafile with item type 0 and `types` UUID item types 0x8000 + i (the
// UUID of "fuzz-type-<i>", as uuids[i]) each with one item, after
// `duplicates` UUID index items that all name type 0x8000 (the first one,
// UUID words 1, 2, 3, 4, is the one that counts), and one item of type
// 0x8000 + types that no index item names.
struct UuidTypesFile {
  std::vector<std::uint8_t> file;
  std::vector<datafile::Uuid> uuids;
};
UuidTypesFile many_uuid_types_file(int types, int duplicates);

}  // namespace mapindex::testing
