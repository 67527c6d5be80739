// commit_interval (pipeline/index_run.h): how old the writer lets a batch's
// transaction grow, from the run's age.
#include <doctest/doctest.h>

#include <chrono>

#include "pipeline/index_run.h"

namespace mapindex {
namespace {

using std::chrono::milliseconds;

TEST_SUITE("pipeline") {
  TEST_CASE("pipeline: a batch may grow to a fifth of the run's age, within its two bounds") {
    // The bounds are what the help and the guide say.
    CHECK(kCommitIntervalMin == milliseconds(200));
    CHECK(kCommitIntervalMax == milliseconds(1000));
    // A short run commits at the lower bound, so its log is copied as it goes.
    CHECK(commit_interval(milliseconds(0)) == kCommitIntervalMin);
    CHECK(commit_interval(milliseconds(999)) == kCommitIntervalMin);
    // In between, a fifth of the run's age.
    CHECK(commit_interval(milliseconds(1500)) == milliseconds(300));
    CHECK(commit_interval(milliseconds(4000)) == milliseconds(800));
    // A long run never holds a batch open longer than the upper bound.
    CHECK(commit_interval(milliseconds(5000)) == kCommitIntervalMax);
    CHECK(commit_interval(milliseconds(3'600'000)) == kCommitIntervalMax);
  }
}

}  // namespace
}  // namespace mapindex
