// A writer killed at any moment (SIGKILL, mid-batch) leaves a consistent
// index: whole batches only, each map with its files row and child rows, and
// the next run marks the dead run interrupted and completes.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "index/index_db.h"
#include "tests/support/codes.h"
#include "tests/test_index_helpers.h"

using namespace mapindex;
using namespace mapindex::index;
using namespace mapindex::sqlite;
using namespace mapindex::index::testing;

namespace {

constexpr int kBatch = 7;

// A map whose shape depends on n: 1..4 layers of 2 tile kinds each, n % 3
// warnings, one image used by the first layer.
MapStats numbered_map(int n) {
  MapStats s;
  s.format = MapFormat::teeworlds;
  s.format_version = 4;
  s.game_width = 10 + n;
  s.game_height = 10;
  for (int i = 0; i < 1 + n % 4; ++i) {
    auto l = layer(i, 0, i == 0 ? LayerKind::game : LayerKind::tiles, "L" + std::to_string(i));
    l.width = s.game_width;
    l.height = 10;
    l.tile_counts = {{1, n + 1}, {2, 1}};
    s.layers.push_back(l);
  }
  ImageStats image;
  image.name = "img";
  image.used_by = {{0, 0}};
  s.images = {image};
  for (int w = 0; w < n % 3; ++w)
    s.problems.push_back({Code::image_size, "warning " + std::to_string(w), Location::image(w)});
  s.ddnet_features = {"DEATH"};
  finalize_status(s);
  return s;
}

void write_numbered(IndexDb& db, std::int64_t run, std::int64_t source, int n, bool known) {
  const auto stats = numbered_map(n);
  db.write_entry(run, map_entry(source, "maps/m" + std::to_string(n) + ".map", 1000 + n),
                 known ? nullptr : &stats);
  EntryRecord other;
  other.source_id = source;
  other.entry_path = "notes/n" + std::to_string(n) + ".txt";
  other.size = 10;
  other.sha256 = digest_of(5000 + n);
  db.write_entry(run, other, nullptr);
}

// Child process: writes entries in batches of kBatch maps (2 entries each)
// and, after map number `stop_after`, tells the parent through `fd`, then
// either waits inside its open batch (`hold_batch`) or keeps writing. Never
// returns.
[[noreturn]] void child_writer(const std::string& path, int fd, int stop_after, bool hold_batch) {
  try {
    auto db = IndexDb::open(path, OpenMode::read_write);
    if (!db) _exit(3);
    const auto run = db->begin_run("child", "0.0-test");
    const auto source = db->source_id(run, "/srv/maps", index::SourceKind::folder);
    db->commit_batch();
    for (int n = 0; n < 200000; ++n) {
      write_numbered(*db, run, source, n, false);
      if ((n + 1) % kBatch == 0) db->commit_batch();
      if (n == stop_after) {
        if (write(fd, "k", 1) != 1) _exit(5);
        if (hold_batch)
          while (true) pause();  // mid-batch, until killed
      }
    }
  } catch (...) {
    _exit(4);
  }
  _exit(0);
}

// Forks a writer, waits for its signal, sleeps `delay`, kills it with SIGKILL.
void run_and_kill(const std::string& path, int stop_after, bool hold_batch,
                  std::chrono::milliseconds delay) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    close(fds[0]);
    child_writer(path, fds[1], stop_after, hold_batch);
  }
  close(fds[1]);
  char c = 0;
  const auto got = read(fds[0], &c, 1);
  close(fds[0]);
  if (got == 1) std::this_thread::sleep_for(delay);
  kill(child, SIGKILL);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE_MESSAGE(got == 1, "the child writer stopped early, exit status " << WEXITSTATUS(status));
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);
}

// What must hold after any crash: integrity, whole batches, whole entries.
std::int64_t check_consistent(sqlite3* h) {
  CHECK(query_text(h, "PRAGMA integrity_check") == "ok");
  CHECK(query_int(h, "SELECT count(*) FROM pragma_foreign_key_check") == 0);
  const auto maps = query_int(h, "SELECT count(*) FROM maps");
  CHECK(maps % kBatch == 0);
  CHECK(query_int(h, "SELECT count(*) FROM files WHERE kind = 'map'") == maps);
  CHECK(query_int(h, "SELECT count(*) FROM files WHERE kind = 'other'") == maps);
  // Every map has one file, and all its child rows.
  CHECK(
      query_int(
          h,
          "SELECT count(*) FROM maps m WHERE (SELECT count(*) FROM files f WHERE f.map_id = m.map_id) <> 1") ==
      0);
  CHECK(query_int(
            h,
            "SELECT count(*) FROM maps m WHERE m.num_layers <> 1 + (m.game_width - 10) % 4 "
            "OR (SELECT count(*) FROM layers l WHERE l.map_id = m.map_id) <> m.num_layers "
            "OR (SELECT count(*) FROM tile_counts t WHERE t.map_id = m.map_id) <> 2 * m.num_layers "
            "OR (SELECT count(*) FROM images i WHERE i.map_id = m.map_id) <> 1 "
            "OR (SELECT count(*) FROM image_users u WHERE u.map_id = m.map_id) <> 1 "
            "OR (SELECT count(*) FROM ddnet_features d WHERE d.map_id = m.map_id) <> 1 "
            "OR (SELECT count(*) FROM problems p WHERE p.map_id = m.map_id) <> m.warnings "
            "OR m.warnings <> (m.game_width - 10) % 3") == 0);
  // Every file has its content version and its sighting.
  CHECK(query_int(h,
                  "SELECT count(*) FROM files f WHERE NOT EXISTS (SELECT 1 FROM file_sightings s "
                  "WHERE s.file_id = f.file_id AND s.run_id = f.last_run_id)") == 0);
  CHECK(query_int(h, "SELECT count(*) FROM file_versions") == 2 * maps);
  return maps;
}

// The next run continues: the dead run is marked interrupted, the known maps
// are not written again, the rest is, and the run completes.
void check_next_run_completes(const std::string& path, std::int64_t committed, int total) {
  auto db = open_index(path);
  sqlite3* h = db.handle();
  const auto known = db.known_maps();
  CHECK(static_cast<std::int64_t>(known.size()) == committed);
  const auto run = db.begin_run("next", "0.0-test");
  CHECK(query_rows(h, "SELECT status FROM runs ORDER BY run_id") ==
        std::vector<std::string>{"interrupted", "running"});
  const auto source = db.source_id(run, "/srv/maps", index::SourceKind::folder);
  for (int n = 0; n < total; ++n) {
    write_numbered(db, run, source, n, known.count(digest_of(1000 + n)) > 0);
    if ((n + 1) % kBatch == 0) db.commit_batch();
  }
  db.finish_run(run, index::RunStatus::complete, {});
  CHECK(query_rows(h, "SELECT status FROM runs ORDER BY run_id") ==
        std::vector<std::string>{"interrupted", "complete"});
  CHECK(query_int(h, "SELECT count(*) FROM maps") == total);
  CHECK(query_int(h, "SELECT count(*) FROM files WHERE last_run_id = " + std::to_string(run)) ==
        2 * total);
  CHECK(query_text(h, "PRAGMA integrity_check") == "ok");
}

}  // namespace

TEST_SUITE("index") {
  TEST_CASE(
      "index e2e: a writer killed mid-batch leaves whole batches, and the next run completes") {
    TempDir dir;
    const auto path = dir.file("killed.sqlite");
    { auto db = open_index(path); }
    // 5 batches committed, then 3 more maps written in an open batch.
    run_and_kill(path, 5 * kBatch + 2, true, std::chrono::milliseconds(0));
    std::int64_t committed = 0;
    {
      auto db = IndexDb::open(path, OpenMode::read_only);
      REQUIRE(db.ok());
      committed = check_consistent(db->handle());
      CHECK(committed == 5 * kBatch);
      CHECK(query_text(db->handle(), "SELECT status FROM runs") == "running");
    }
    check_next_run_completes(path, committed, 6 * kBatch);
  }

  TEST_CASE("index e2e: a writer killed at an arbitrary moment leaves a consistent index") {
    for (const int delay_ms : {15, 120}) {
      CAPTURE(delay_ms);
      TempDir dir;
      const auto path = dir.file("killed.sqlite");
      { auto db = open_index(path); }
      // Killed while writing, some time after its first commit.
      run_and_kill(path, kBatch - 1, false, std::chrono::milliseconds(delay_ms));
      std::int64_t committed = 0;
      {
        auto db = IndexDb::open(path, OpenMode::read_only);
        REQUIRE(db.ok());
        committed = check_consistent(db->handle());
        CHECK(committed >= kBatch);
      }
      MESSAGE("killed after " << delay_ms << " ms with " << committed << " maps committed");
      check_next_run_completes(path, committed, static_cast<int>(committed) + 2 * kBatch);
    }
  }

}  // TEST_SUITE
