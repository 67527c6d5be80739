// WorkspacePool (pipeline/workspace_pool.h): the index run's owner of the
// measure and thumbnail tasks' decode state.
#include <doctest/doctest.h>

#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "pipeline/workspace_pool.h"

namespace mapindex {
namespace {

TEST_SUITE("pipeline") {
  TEST_CASE("pipeline: a workspace pool makes one per lease held at once and reuses them") {
    int next_id = 0;
    WorkspacePool<int> pool([&next_id] { return std::make_unique<int>(next_id++); });
    {
      // Three held at once: three made, each the holder's alone.
      std::vector<WorkspacePool<int>::Lease> held;
      for (int i = 0; i < 3; ++i) held.push_back(pool.take());
      std::set<int*> distinct;
      for (const auto& lease : held) distinct.insert(&*lease);
      CHECK(distinct.size() == 3);
      CHECK(pool.made() == 3);
    }
    // All given back: taking them again one at a time makes none.
    for (int i = 0; i < 10; ++i) {
      const auto lease = pool.take();
      CHECK(*lease < 3);
    }
    CHECK(pool.made() == 3);
  }

  TEST_CASE("pipeline: a workspace pool gives the one given back last first") {
    WorkspacePool<int> pool([] { return std::make_unique<int>(0); });
    int* first = nullptr;
    int* second = nullptr;
    {
      auto a = pool.take();
      auto b = pool.take();
      first = &*a;
      second = &*b;
      const auto c = std::move(b);  // a lease moves, with its object
      CHECK(&*c == second);
    }  // c (the second) then a given back: a is on top
    CHECK(&*pool.take() == first);
  }
}

}  // namespace
}  // namespace mapindex
