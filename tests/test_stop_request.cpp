// StopRequest, how a caller stops a run (the command line's Ctrl-C): the
// waker it holds, and run_index honouring it. The signal side is tested end
// to end in test_cli_trust.cpp (a real SIGINT to the binary).
#include <doctest/doctest.h>

#include "pipeline/index_run.h"
#include "pipeline/stop_request.h"
#include "tests/support/archive_builder.h"
#include "tests/support/map_builder.h"
#include "tests/support/sqlite_probe.h"

namespace mapindex {
namespace {

using testing::TempDir;

TEST_SUITE("pipeline") {
  TEST_CASE("pipeline: a stop request calls the waker set at the time, and only that one") {
    StopRequest stop;
    int woken_a = 0, woken_b = 0;
    const auto wake = [](void* counter) { ++*static_cast<int*>(counter); };
    CHECK_FALSE(stop.requested());
    stop.set_waker(wake, &woken_a);
    stop.set_waker(wake, &woken_b);  // replaces the first
    stop.request();
    CHECK(stop.requested());
    CHECK(woken_a == 0);
    CHECK(woken_b == 1);
    stop.set_waker(nullptr, nullptr);
    stop.request();  // asked again: still requested, no waker left to call
    CHECK(stop.requested());
    CHECK(woken_b == 1);
  }

  TEST_CASE("pipeline: a run stopped before it starts ends interrupted, with the version given") {
    TempDir tmp;
    for (int i = 0; i < 3; ++i) {
      testing::MapBuilder b;
      b.add_game_group();
      b.add_tile_layer(testing::TileGrid(LayerKind::game, 8 + i, 8).fill(0, 7, 8 + i, 1, 1));
      testing::write_file(tmp / ("m" + std::to_string(i) + ".map"), b.build());
    }
    const auto run = [&](StopRequest* stop, const std::string& version) {
      IndexOptions options;
      options.db_path = tmp.file("index.sqlite");
      options.inputs = {tmp.path().string()};
      options.threads = 1;
      options.tool_version = version;
      options.stop = stop;
      LiveCounters counters;
      auto summary = run_index(options, counters);
      REQUIRE_MESSAGE(summary.ok(), (summary.ok() ? "" : summary.error().message));
      return std::pair(*summary, counters.maps_indexed.load());
    };
    StopRequest stopped;
    stopped.request();
    const auto [first, indexed_first] = run(&stopped, "stop-test 1");
    CHECK(first.interrupted);
    CHECK(indexed_first == 0);
    const std::string last_run =
        "SELECT status || ' ' || tool_version FROM runs ORDER BY run_id DESC LIMIT 1";
    CHECK(testing::sql_value(tmp / "index.sqlite", last_run) == "interrupted stop-test 1");
    // Not requested: the same inputs are indexed whole.
    StopRequest idle;
    const auto [second, indexed_second] = run(&idle, "stop-test 2");
    CHECK_FALSE(second.interrupted);
    CHECK(indexed_second == 3);
    CHECK(testing::sql_value(tmp / "index.sqlite", last_run) == "complete stop-test 2");
  }

}  // TEST_SUITE

}  // namespace
}  // namespace mapindex
