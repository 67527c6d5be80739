// Two nights of an archive of DDNet's size, for the audit's scale test
// (tests/test_audit_scale.cpp) and its time (benchmarks/bounds.cpp).
#pragma once

#include <string>

#include "tests/test_audit_helpers.h"

namespace mapindex::audit::testing {

// Night 1: `maps` entries maps/m<i>.map in maps.zip, content i + 1: every 50th
// content rejected, every 10th else warned, the rest ok. Night 2: every 100th
// map changed to a rejected one, every 100th (offset 1) renamed, every 100th
// (offset 2) removed, 60 added.
inline void write_two_nights(AuditIndex& index, int maps) {
  const auto ok = ok_map();
  const auto warned = warning_map();
  const auto rejected = rejected_map();
  const auto stats_of = [&](int content) -> const MapStats& {
    return content % 50 == 0 ? rejected : content % 10 == 0 ? warned : ok;
  };

  const auto r1 = index.begin_run();
  auto src = index.source(r1, "maps.zip");
  for (int i = 0; i < maps; ++i)
    index.map(r1, src, "maps/m" + std::to_string(i) + ".map", i + 1, stats_of(i + 1));
  index.finish(r1);

  const auto r2 = index.begin_run();
  src = index.source(r2, "maps.zip");
  for (int i = 0; i < maps; ++i) {
    const std::string path = "maps/m" + std::to_string(i) + ".map";
    if (i % 100 == 0)
      index.map(r2, src, path, 100000 + i, rejected);
    else if (i % 100 == 1)
      index.map(r2, src, "renamed/m" + std::to_string(i) + ".map", i + 1, stats_of(i + 1));
    else if (i % 100 != 2)
      index.map(r2, src, path, i + 1, stats_of(i + 1));
  }
  for (int i = 0; i < 60; ++i)
    index.map(r2, src, "new/n" + std::to_string(i) + ".map", 200000 + i, ok);
  index.finish(r2);
}

}  // namespace mapindex::audit::testing
