// The audit over an archive of DDNet's size (thousands of entries, two runs):
// every category still adds up, and the audit stays quick.
#include <doctest/doctest.h>

#include <chrono>

#include "tests/test_audit_helpers.h"

using namespace mapindex;
using namespace mapindex::audit;
using namespace mapindex::audit::testing;

TEST_SUITE("audit") {
  TEST_CASE("audit scale slow: 6000 entries over two runs") {
    constexpr int kMaps = 6000;
    AuditIndex index;
    const auto ok = ok_map();
    const auto warned = warning_map();
    const auto rejected = rejected_map();
    const auto stats_of = [&](int content) -> const MapStats& {
      return content % 50 == 0 ? rejected : content % 10 == 0 ? warned : ok;
    };

    const auto r1 = index.begin_run();
    auto src = index.source(r1, "maps.zip");
    for (int i = 0; i < kMaps; ++i)
      index.map(r1, src, "maps/m" + std::to_string(i) + ".map", i + 1, stats_of(i + 1));
    index.finish(r1);

    // Run 2: every 100th map changed to a rejected one, every 100th (offset 1)
    // renamed, every 100th (offset 2) removed, 60 added.
    const auto r2 = index.begin_run();
    src = index.source(r2, "maps.zip");
    for (int i = 0; i < kMaps; ++i) {
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

    const auto start = std::chrono::steady_clock::now();
    const auto report = index.audit();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    MESSAGE("audit of " << kMaps << " entries over two runs: " << seconds << " s");

    const auto& s = report.sources[0];
    CHECK(s.changed.size() == 60);
    CHECK(s.moved.size() == 60);
    CHECK(s.removed.size() == 60);
    CHECK(s.added.size() == 60);
    CHECK(s.unchanged == kMaps - 180);
    // Changed to rejected: content i + 1 was rejected before when (i + 1) % 50 == 0,
    // never for i % 100 == 0; so all 60 are newly broken.
    CHECK(s.newly_broken.size() == 60);
    CHECK(s.now.entries == kMaps);
    CHECK(seconds < 20.0);  // a few hundred milliseconds in a release build
  }

}  // TEST_SUITE
