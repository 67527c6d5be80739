// The audit over an archive of DDNet's size (thousands of entries, two runs):
// every category still adds up. Its time is benchmarks/bounds.cpp's.
#include <doctest/doctest.h>

#include "tests/test_audit_helpers.h"
#include "tests/test_audit_scale.h"

using namespace mapindex;
using namespace mapindex::audit;
using namespace mapindex::audit::testing;

TEST_SUITE("audit") {
  TEST_CASE("audit scale slow: 6000 entries over two runs") {
    constexpr int kMaps = 6000;
    AuditIndex index;
    write_two_nights(index, kMaps);
    const auto report = index.audit();

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
  }

}  // TEST_SUITE
