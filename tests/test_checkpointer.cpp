// The checkpoints of a run's write-ahead log (stages/write/checkpointer.h):
// a commit that leaves kWakePages pages or more in the log has them copied
// into the database file by the thread, without the writer waiting; one that
// leaves kWriterPages or more has them copied before the commit returns; and
// a checkpointer that cannot start leaves SQLite's own checkpoints in place.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "stages/write/checkpointer.h"
#include "tests/test_index_helpers.h"

using namespace mapindex;
using namespace mapindex::index;
using namespace mapindex::index::testing;

namespace {

constexpr std::uintmax_t kPage = 4096;

std::uintmax_t file_size(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  return ec ? 0 : size;
}

// Commits `pages` pages of new rows (4 KiB of random bytes each: a page of
// its own, in table `filler`) in one transaction.
void commit_pages(sqlite3* db, int pages) {
  exec_sql(db, "CREATE TABLE IF NOT EXISTS filler (x BLOB)");
  exec_sql(db, "BEGIN IMMEDIATE");
  exec_sql(db, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " +
                   std::to_string(pages) + ") INSERT INTO filler SELECT randomblob(3900) FROM n");
  exec_sql(db, "COMMIT");
}

// Whether the database file at `path`, `before` bytes before a commit of
// `pages` pages, holds them now: a checkpoint copied them into it.
bool holds_pages(const std::string& path, std::uintmax_t before, int pages) {
  return file_size(path) >= before + static_cast<std::uintmax_t>(pages) * kPage;
}

// Waits until `done()`, for up to a minute: the thread runs at idle
// priority, so give it time on a busy machine.
template <class Done>
bool eventually(Done done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!done() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return done();
}

IndexDb open_with_checkpointer(const std::string& path) {
  OpenOptions options;
  options.checkpoint_in_background = true;
  return open_index(path, options);
}

}  // namespace

TEST_SUITE("index") {
  TEST_CASE(
      "checkpointer: the thread copies a commit's pages into the file while the writer "
      "goes on") {
    TempDir dir;
    const auto path = dir.file("background.sqlite");
    auto db = open_with_checkpointer(path);
    const auto before = file_size(path);
    // More than the thread's threshold, less than the writer's.
    const int pages = Checkpointer::kWakePages * 2;
    static_assert(Checkpointer::kWakePages * 2 < Checkpointer::kWriterPages);
    commit_pages(db.handle(), pages);
    // The file grows by those pages once the thread has copied them.
    CHECK(eventually([&] { return holds_pages(path, before, pages); }));
  }

  TEST_CASE("checkpointer: the copy is the thread's, not the writer's") {
    TempDir dir;
    const auto path = dir.file("thread.sqlite");
    open_index(path);  // a mapindex index in WAL mode
    Connection writer;
    REQUIRE(writer.open(path, SQLITE_OPEN_READWRITE) == SQLITE_OK);
    auto checkpointer = Checkpointer::start(writer.get(), path);
    REQUIRE(checkpointer);
    commit_pages(writer.get(), Checkpointer::kWakePages * 2);
    CHECK(eventually([&] { return checkpointer->completed() >= 1; }));
  }

  TEST_CASE("checkpointer: one that cannot open its connection leaves SQLite's checkpoints") {
    TempDir dir;
    const auto path = dir.file("fallback.sqlite");
    auto db = open_index(path);
    CHECK_FALSE(Checkpointer::start(db.handle(), dir.file("no/such/folder/index.sqlite")));
    // SQLite's automatic checkpoint, at 1000 pages, copies this commit in it.
    const auto before = file_size(path);
    const int pages = 1100;
    commit_pages(db.handle(), pages);
    CHECK(holds_pages(path, before, pages));
  }

  TEST_CASE("checkpointer: without it, such a commit leaves its pages in the log") {
    // The twin of the test above: SQLite's automatic checkpoint waits for
    // 1000 pages, so what grew the file there was the thread.
    TempDir dir;
    const auto path = dir.file("automatic.sqlite");
    auto db = open_index(path);
    const auto before = file_size(path);
    commit_pages(db.handle(), Checkpointer::kWakePages * 2);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    CHECK_FALSE(holds_pages(path, before, Checkpointer::kWakePages));
  }

  TEST_CASE(
      "checkpointer: a commit past the writer's bound is copied before it returns, and the "
      "log starts again") {
    // As SQLite's automatic checkpoint would (at 1000 pages): the hook that
    // replaces it must keep this.
    TempDir dir;
    const auto path = dir.file("bounded.sqlite");
    auto db = open_with_checkpointer(path);
    const int pages = Checkpointer::kWriterPages + 100;
    std::uintmax_t wal = 0;
    for (int round = 1; round <= 3; ++round) {
      CAPTURE(round);
      const auto before = file_size(path);
      commit_pages(db.handle(), pages);
      // At once: the writer copied them in its commit.
      CHECK(holds_pages(path, before, pages));
      // The log holds one such commit at a time, not all of them.
      wal = file_size(path + "-wal");
      CHECK(wal < 2 * (pages + 100) * kPage);
    }
    CHECK(wal > pages * kPage);  // the log was written at all
  }
}
