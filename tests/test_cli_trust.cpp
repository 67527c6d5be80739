// Trust: the command line and the index, through the real
// binary: missing inputs and out-of-range numbers are usage errors (2),
// Ctrl-C stops a runaway query (130), a query cannot write, a damaged index is
// refused and `mapindex check` says so (3), a second run on an index another
// run is writing is refused naming it (3), and an index on read-only media can
// be queried and audited.
#include <doctest/doctest.h>

#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <optional>
#include <random>
#include <thread>

#include "common/background.h"
#include "index/index_db.h"
#include "index/index_stamp.h"
#include "tests/support/archive_builder.h"
#include "tests/support/codes.h"
#include "tests/support/corpus.h"
#include "tests/support/map_builder.h"
#include "tests/support/process.h"
#include "tests/support/sqlite_probe.h"

namespace fs = std::filesystem;
using namespace mapindex::testing;
using mapindex::LayerKind;

namespace {

std::vector<std::uint8_t> tiny_map(int seed) {
  MapBuilder b;
  b.info({.author = "trust " + std::to_string(seed)});
  b.add_game_group();
  TileGrid game(LayerKind::game, 16 + seed, 10);
  game.fill(0, 8, 16 + seed, 2, 1).set(2, 7, 192).set(4, 7, 199);
  b.add_tile_layer(game, {.name = "Game"});
  return b.build();
}

// A folder of `n` small maps and an index of it.
struct IndexedFolder {
  TempDir tmp;
  fs::path maps = tmp / "maps";
  fs::path db = tmp / "index.sqlite";
  explicit IndexedFolder(int n = 6) {
    fs::create_directories(maps);
    for (int i = 0; i < n; ++i) write_file(maps / ("m" + std::to_string(i) + ".map"), tiny_map(i));
    const auto r = run_mapindex({"index", "--db", db.string(), "--quiet", maps.string()});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  }
};

std::string host_name() {
  char buffer[256] = {};
  gethostname(buffer, sizeof buffer - 1);
  return buffer;
}

// Runs `p` to its end, killing it after `limit`.
ProcessResult wait_at_most(BackgroundProcess& p, std::chrono::seconds limit) {
  std::atomic<bool> done{false};
  std::thread watchdog([&] {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (!done) p.signal(SIGKILL);
  });
  auto r = p.wait();
  done = true;
  watchdog.join();
  return r;
}

// Random bytes over the root pages of `tables` of the index at `db`, in
// place (page 1, the header and schema, stays intact).
void damage_pages(const fs::path& db, const std::vector<std::string>& tables) {
  const auto page_size = sql_int(db, "PRAGMA page_size");
  std::vector<std::int64_t> roots;
  for (const auto& table : tables) {
    roots.push_back(sql_int(db, "SELECT rootpage FROM sqlite_master WHERE name = '" + table + "'"));
    REQUIRE(roots.back() > 1);
  }
  std::fstream file(db, std::ios::in | std::ios::out | std::ios::binary);
  std::mt19937 random(11);
  for (const auto root : roots) {
    std::string noise(static_cast<std::size_t>(page_size), '\0');
    for (auto& c : noise) c = static_cast<char>(random());
    file.seekp((root - 1) * page_size);
    file.write(noise.data(), static_cast<std::streamsize>(noise.size()));
  }
  REQUIRE(file.good());
}

// A copy of the folder's index, damaged.sqlite beside it, damaged as
// damage_pages does; its path.
fs::path damaged_copy(const IndexedFolder& f, const std::vector<std::string>& tables) {
  const fs::path copy = f.tmp / "damaged.sqlite";
  fs::copy_file(f.db, copy);
  damage_pages(copy, tables);
  return copy;
}

// Opening options with the check in the background, as a run opens.
mapindex::index::OpenOptions check_in_background() {
  mapindex::index::OpenOptions options;
  options.check_in_background = true;
  return options;
}

// Whether `dir` keeps the stamp; where it does not, the stamp tests say so
// and stop.
bool keeps_stamps(const fs::path& dir) {
  const bool kept = keeps_user_xattrs(dir);
  if (!kept) MESSAGE("skipped: " << dir << " keeps no user extended attributes");
  return kept;
}

// Commits `sql` to the index at `db` through a connection of another
// program's kind (plain SQLite), closed at once.
void commit_elsewhere(const fs::path& db, const char* sql) {
  sqlite3* other = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &other) == SQLITE_OK);
  CHECK(sqlite3_exec(other, sql, nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(other);
}

// Whether the index at `db` matches its stamp, read through a connection.
bool stamp_matches(const fs::path& db) {
  mapindex::sqlite::Connection connection;
  REQUIRE(connection.open(db.string(), SQLITE_OPEN_READONLY) == SQLITE_OK);
  return mapindex::index::matches_stamp(connection.get(), db.string());
}

// Whether the stamp's size and CRC-32 are those of the file's bytes alone
// (zlib's crc32), whatever a log beside it holds.
bool stamp_matches_file_only(const fs::path& db) {
  const std::string bytes = read_text_file(db);
  char expected[64];
  std::snprintf(
      expected, sizeof expected, "1 %zu %08lx", bytes.size(),
      crc32(0, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
  return index_stamp(db) == expected;
}

// `mapindex index` over `inputs` with --stats-json: its exit status, stderr
// and how it vetted the index ("index_check", "" when it wrote no stats).
struct VettedRun {
  int exit_code = 0;
  std::string err;
  std::string index_check;
};
VettedRun index_vetted(const fs::path& db, const fs::path& input) {
  const auto stats = db.parent_path() / "stats.json";
  fs::remove(stats);
  const auto r = run_mapindex(
      {"index", "--db", db.string(), "--quiet", "--stats-json", stats.string(), input.string()});
  const std::string json = read_text_file(stats);
  const std::string key = "\"index_check\":\"";
  const auto at = json.find(key);
  return {r.exit_code, r.err,
          at == std::string::npos
              ? std::string()
              : json.substr(at + key.size(), json.find('"', at + key.size()) - at - key.size())};
}

// Runs mapindex with a private mount namespace in which `dir` is a 1 MB
// tmpfs (the index's disk fills up). A run that hangs instead of failing
// ends after 120 s (exit 124).
ProcessResult on_small_disk(const fs::path& dir, const std::vector<std::string>& args) {
  const std::string script =
      "mount -t tmpfs -o size=1m none \"$D\" 2>/dev/null || exit 97; shift; exec \"$@\"";
  std::vector<std::string> full = {"-m", "env", "D=" + dir.string(), "sh", "-c", script,
                                   "sh", "x",   "timeout",           "-k", "5",  "120"};
  full.push_back(mapindex_binary());
  full.insert(full.end(), args.begin(), args.end());
  return run_process("/usr/bin/unshare", full);
}

bool small_disk_available(const fs::path& dir) {
  return fs::exists("/usr/bin/unshare") && on_small_disk(dir, {"--version"}).exit_code == 0;
}

}  // namespace

TEST_SUITE("cli") {
  TEST_CASE(
      "cli e2e: an INPUT that does not exist or cannot be opened is a usage error, before any run") {
    TempDir tmp;
    write_file(tmp / "a.map", tiny_map(1));
    const auto db = tmp / "x.sqlite";
    const std::string missing = (tmp / "no" / "such.zip").string();
    auto r =
        run_mapindex({"index", "--db", db.string(), "--quiet", (tmp / "a.map").string(), missing});
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(contains(r.err, "mapindex index: " + missing + ": No such file or directory"),
                  r.err);
    CHECK_FALSE(fs::exists(db));  // nothing written, not even a run row

    // A path that exists in part but cannot be opened: through a regular file.
    const std::string through_file = (tmp / "a.map" / "inner.map").string();
    r = run_mapindex({"index", "--db", db.string(), "--quiet", through_file});
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(contains(r.err, through_file + ": Not a directory"), r.err);
    CHECK_FALSE(fs::exists(db));

    // A file this user may not read. Root reads anything, so as root the
    // binary runs as nobody (setpriv), the file staying root's.
    write_file(tmp / "secret.map", tiny_map(2));
    fs::permissions(tmp / "secret.map", fs::perms::owner_read | fs::perms::owner_write);
    fs::permissions(tmp.path(), fs::perms::owner_all | fs::perms::group_read |
                                    fs::perms::group_exec | fs::perms::others_read |
                                    fs::perms::others_exec);
    std::vector<std::string> secret_args = {"index", "--db", db.string(), "--quiet",
                                            (tmp / "secret.map").string()};
    std::optional<ProcessResult> secret;
    if (geteuid() != 0) {
      secret = run_mapindex(secret_args);
    } else if (fs::exists("/usr/bin/setpriv")) {
      std::vector<std::string> as_nobody = {"--reuid=65534", "--regid=65534", "--clear-groups",
                                            mapindex_binary()};
      as_nobody.insert(as_nobody.end(), secret_args.begin(), secret_args.end());
      secret = run_process("/usr/bin/setpriv", as_nobody);
    } else {
      MESSAGE("running as root without setpriv: an unreadable INPUT is not tested");
    }
    if (secret) {
      CHECK(secret->exit_code == 2);
      CHECK_MESSAGE(contains(secret->err, "mapindex index: " + (tmp / "secret.map").string() +
                                              ": Permission denied"),
                    secret->err);
      CHECK_FALSE(fs::exists(db));
    }

    // A --db in a folder that does not exist is a usage error as well.
    const auto nowhere = tmp / "no-folder" / "x.sqlite";
    r = run_mapindex({"index", "--db", nowhere.string(), "--quiet", (tmp / "a.map").string()});
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(contains(r.err, "--db " + nowhere.string() + ": folder " +
                                      (tmp / "no-folder").string() + " does not exist"),
                  r.err);

    // The existing inputs alone are indexed.
    r = run_mapindex({"index", "--db", db.string(), "--quiet", (tmp / "a.map").string()});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(sql_int(db, "SELECT count(*) FROM runs") == 1);
  }

  TEST_CASE("cli e2e: an INPUT given twice is read once, not as duplicate entries") {
    IndexedFolder f(3);
    const auto db2 = f.tmp / "twice.sqlite";
    const auto r =
        run_mapindex({"index", "--db", db2.string(), "--quiet", f.maps.string(), f.maps.string()});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK_MESSAGE(contains(r.err, f.maps.string() + " is given more than once: read once"), r.err);
    CHECK(sql_int(db2, "SELECT count(*) FROM files") == 3);
    CHECK(sql_int(db2, "SELECT count(*) FROM problems") == 0);
    CHECK(sql_int(db2, "SELECT entries FROM runs") == 3);
  }

  TEST_CASE(
      "cli e2e: every numeric option is range-checked, naming the option, the value and the range") {
    TempDir tmp;
    write_file(tmp / "a.map", tiny_map(1));
    const auto db = (tmp / "x.sqlite").string();
    const auto map = (tmp / "a.map").string();
    struct Bad {
      std::vector<std::string> command;  // command and options before the bad one
      std::string option, value, range;
    };
    const std::vector<std::string> index_cmd = {"index", "--db", db, "--quiet"};
    const std::vector<Bad> bad = {
        {index_cmd, "--threads", "-1", "0..256"},
        {index_cmd, "--threads", "-2", "0..256"},
        {index_cmd, "--threads", "257", "0..256"},
        {index_cmd, "--threads", "12x", "0..256"},
        {index_cmd, "--threads", "+1", "0..256"},
        {index_cmd, "--threads", "1.5", "0..256"},
        {index_cmd, "--memory", "-1", "2..1048576"},
        {index_cmd, "--memory", "1", "2..1048576"},
        {index_cmd, "--memory", "1048577", "2..1048576"},
        {index_cmd, "--memory", "99999999999999999999", "2..1048576"},
        {index_cmd, "--max-in-flight", "0", "1..1048576"},
        {index_cmd, "--max-in-flight", "1048577", "1..1048576"},
        {index_cmd, "--max-map-size", "0", "1..4096"},
        {index_cmd, "--max-map-size", "4097", "1..4096"},
        {index_cmd, "--max-nesting", "-1", "0..32"},
        {index_cmd, "--max-nesting", "33", "0..32"},
        {index_cmd, "--batch", "-1", "1..1000000"},
        {index_cmd, "--batch", "0", "1..1000000"},
        {index_cmd, "--batch", "1000001", "1..1000000"},
        {{"inspect"}, "--max-map-size", "-1", "1..4096"},
        {{"audit", "--db", db}, "--run", "0", "1 or more"},
        {{"audit", "--db", db}, "--against", "x", "1 or more"},
        {{"audit", "--db", db}, "--limit", "-1", "0..1000000"},
    };
    for (const auto& b : bad) {
      auto args = b.command;
      args.push_back(b.option + "=" + b.value);
      if (b.command[0] != "audit") args.push_back(map);
      INFO(b.command[0] << " " << b.option << "=" << b.value);
      const auto r = run_mapindex(args);
      CHECK(r.exit_code == 2);
      CHECK_MESSAGE(
          contains(r.err, "mapindex " + b.command[0] + ": " + b.option +
                              " must be a whole number in " + b.range + ", not '" + b.value + "'"),
          r.err);
      CHECK_FALSE(fs::exists(db));
    }
    // The separate-word form parses the same way (a negative number is a value).
    auto r = run_mapindex({"index", "--db", db, "--quiet", "--threads", "-1", map});
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(contains(r.err, "--threads must be a whole number in 0..256, not '-1'"), r.err);
    CHECK_FALSE(fs::exists(db));

    // The help shows the ranges (wherever the help's line wrapping puts them).
    r = run_mapindex({"index", "--help"});
    std::string help;
    for (const char c : r.out) {
      const bool space = c == ' ' || c == '\n';
      if (!space)
        help += c;
      else if (!help.empty() && help.back() != ' ')
        help += ' ';
    }
    for (const char* range : {"(range 0..256)", "(range 2..1048576)", "(range 1..4096)",
                              "(range 0..32)", "(range 1..1000000)"})
      CHECK_MESSAGE(contains(help, range), range);

    // The bounds themselves are accepted.
    r = run_mapindex({"index", "--db", db, "--quiet", "--threads", "256", "--memory", "2",
                      "--max-map-size", "1", "--max-nesting", "0", "--batch", "1000000", map});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    r = run_mapindex({"index", "--db", db, "--quiet", "--threads", "0", "--memory", "1048576",
                      "--max-map-size", "4096", "--max-nesting", "32", "--batch", "1", map});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(sql_value(db, "SELECT group_concat(status) FROM runs") == "complete,complete");
  }

  TEST_CASE("cli e2e: Ctrl-C stops a runaway query promptly with exit 130") {
    IndexedFolder f(1);
    // Started as from a shell script's background job, SIGINT ignored: mapindex
    // must still take Ctrl-C (the test fails, killed by the watchdog, otherwise).
    struct sigaction ignore {
    }, previous{};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGINT, &ignore, &previous);
    BackgroundProcess p(mapindex_binary(),
                        {"query", "--db", f.db.string(),
                         "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                         "SELECT count(*) FROM c"},
                        f.tmp.path());
    sigaction(SIGINT, &previous, nullptr);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    p.signal(SIGINT);  // once: the first signal must be enough
    const auto r = wait_at_most(p, std::chrono::seconds(10));
    // Killed by the watchdog (exit 137) unless the signal stopped it first.
    CHECK_MESSAGE(r.exit_code == 130, r.err);
    CHECK_MESSAGE(contains(r.err, "mapindex query: interrupted"), r.err);

    // The same after an ATTACH and a statement that printed.
    fs::create_directories(f.tmp / "attached");
    BackgroundProcess q(mapindex_binary(),
                        {"query", "--db", f.db.string(), "--csv",
                         "ATTACH '" + f.db.string() +
                             "' AS ext; SELECT count(*) AS n FROM ext.maps; "
                             "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                             "SELECT count(*) FROM c"},
                        f.tmp / "attached");
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    q.signal(SIGINT);
    const auto rq = wait_at_most(q, std::chrono::seconds(10));
    CHECK_MESSAGE(rq.exit_code == 130, rq.err);
    CHECK(rq.out.starts_with("n\n1\n"));
    CHECK_MESSAGE(contains(rq.err, "mapindex query: interrupted"), rq.err);
  }

  TEST_CASE(
      "cli e2e: a query that would write is refused before it runs: VACUUM INTO leaves no file") {
    IndexedFolder f(1);
    const auto copy = f.tmp / "copy.sqlite";
    const auto before = sql_int(f.db, "SELECT count(*) FROM maps");
    for (const std::string& sql :
         {"VACUUM INTO '" + copy.string() + "'", std::string("PRAGMA user_version = 999"),
          std::string("SELECT 1; DELETE FROM maps")}) {
      INFO(sql);
      const auto r = run_mapindex({"query", "--db", f.db.string(), sql});
      CHECK(r.exit_code == 2);
      CHECK_MESSAGE(contains(r.err, "would write: mapindex query only reads the index"), r.err);
    }
    CHECK_FALSE(fs::exists(copy));
    CHECK(sql_int(f.db, "SELECT count(*) FROM maps") == before);
    CHECK(sql_value(f.db, "PRAGMA user_version") != "999");
    // Reading PRAGMAs still work.
    const auto r = run_mapindex({"query", "--db", f.db.string(), "--csv", "PRAGMA quick_check"});
    CHECK(r.exit_code == 0);
    CHECK(r.out == "quick_check\nok\n");
  }

  TEST_CASE(
      "cli e2e: a damaged index is refused by index (exit 3, nothing written) and reported by check") {
    IndexedFolder f(8);
    CHECK(sql_value(f.db, "PRAGMA journal_mode") == "wal");
    // A sound index.
    auto r = run_mapindex({"check", "--db", f.db.string()});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(contains(r.out, "verdict: sound"));

    const auto damaged = damaged_copy(f, {"maps", "files"});
    const auto runs_before = sql_int(f.db, "SELECT count(*) FROM runs");

    r = run_mapindex({"index", "--db", damaged.string(), "--quiet", f.maps.string()});
    CHECK(r.exit_code == 3);
    CHECK_MESSAGE(contains(r.err, "index '" + damaged.string() + "' is damaged ("), r.err);
    CHECK_MESSAGE(contains(r.err, "quick_check"), r.err);
    CHECK_MESSAGE(
        contains(r.err, "rebuild it: move it away and run mapindex index again over your archives"),
        r.err);
    CHECK(sql_int(damaged, "SELECT count(*) FROM runs") == runs_before);

    r = run_mapindex({"check", "--db", damaged.string()});
    CHECK(r.exit_code == 3);
    CHECK(contains(r.out, "integrity_check    FAILED"));
    CHECK(contains(r.out, "verdict: damaged: rebuild it"));

    r = run_mapindex({"audit", "--db", damaged.string()});
    CHECK_MESSAGE(r.exit_code == 3, r.err);

    // Not an index: usage errors, not damage.
    r = run_mapindex({"check", "--db", (f.tmp / "none.sqlite").string()});
    CHECK(r.exit_code == 2);
    r = run_mapindex({"check", "--db", (f.maps / "m0.map").string()});
    CHECK(r.exit_code == 2);
  }

  TEST_CASE(
      "cli e2e: a damaged page under query and audit is exit 3 with a message naming the index") {
    IndexedFolder f(4);
    const auto damaged = damaged_copy(f, {"maps", "files"});
    const auto file = fs::canonical(damaged).string();
    auto r = run_mapindex({"query", "--db", damaged.string(), "SELECT * FROM maps"});
    CHECK_MESSAGE(r.exit_code == 3, r.err);
    CHECK_MESSAGE(contains(r.err, "index '" + damaged.string() + "': "), r.err);
    r = run_mapindex({"audit", "--db", damaged.string()});
    CHECK_MESSAGE(r.exit_code == 3, r.err);
    CHECK_MESSAGE(contains(r.err, "reading index '" + file + "' failed: "), r.err);
  }

  TEST_CASE(
      "cli index e2e: an index left as a finished run closed it is not checked again, any change to it, "
      "damage in place included, and it is") {
    IndexedFolder f(6);
    if (!keeps_stamps(f.db.parent_path())) return;
    const auto stamp = index_stamp(f.db);
    REQUIRE_MESSAGE(!stamp.empty(), "no stamp on " << f.db
                                                   << " (does its file system keep user "
                                                      "extended attributes?)");
    // The size and CRC-32 of the file, as zlib computes them.
    CHECK(stamp_matches_file_only(f.db));

    // Unchanged: not checked, and stamped again after the run's writes.
    auto run = index_vetted(f.db, f.maps);
    CHECK_MESSAGE(run.exit_code == 0, run.err);
    CHECK(run.index_check == "unchanged");
    CHECK(!index_stamp(f.db).empty());
    CHECK(index_stamp(f.db) != stamp);  // the run's row changed the file
    CHECK(stamp_matches(f.db));

    // Changed by another program (a row, the same size): checked, sound.
    const auto size = fs::file_size(f.db);
    commit_elsewhere(f.db, "UPDATE runs SET command = command || ' ' WHERE run_id = 1");
    REQUIRE(fs::file_size(f.db) == size);
    CHECK_FALSE(stamp_matches(f.db));
    run = index_vetted(f.db, f.maps);
    CHECK_MESSAGE(run.exit_code == 0, run.err);
    CHECK(run.index_check == "quick_check");

    // Damaged in place, the stamp kept, in a table a re-run does not read:
    // refused before anything is written.
    REQUIRE(!index_stamp(f.db).empty());
    const auto runs_before = sql_int(f.db, "SELECT count(*) FROM runs");
    damage_pages(f.db, {"layer_data_tiles"});
    REQUIRE(!index_stamp(f.db).empty());
    run = index_vetted(f.db, f.maps);
    CHECK(run.exit_code == 3);
    CHECK_MESSAGE(contains(run.err, "index '" + f.db.string() + "' is damaged ("), run.err);
    CHECK(sql_int(f.db, "SELECT count(*) FROM runs") == runs_before);
    CHECK(index_stamp(f.db).empty());  // the refused run removed it
  }

  TEST_CASE(
      "cli index e2e: a write-ahead log holding another connection's commit means the index is checked, "
      "a commit during the run leaves no stamp") {
    IndexedFolder f(3);
    if (!keeps_stamps(f.db.parent_path())) return;
    REQUIRE(!index_stamp(f.db).empty());
    sqlite3* other = nullptr;
    REQUIRE(sqlite3_open(f.db.c_str(), &other) == SQLITE_OK);
    REQUIRE(sqlite3_exec(other, "UPDATE runs SET command = 'x' WHERE run_id = 1", nullptr, nullptr,
                         nullptr) == SQLITE_OK);
    // The commit is in the log, not in the file: the file still matches its stamp.
    REQUIRE(fs::file_size(f.db.string() + "-wal") > 0);
    REQUIRE(stamp_matches_file_only(f.db));
    auto run = index_vetted(f.db, f.maps);
    CHECK_MESSAGE(run.exit_code == 0, run.err);
    CHECK(run.index_check == "quick_check");
    // The run moved the log into the file (the other connection was idle)
    // and stamped what it checked and wrote.
    CHECK(!index_stamp(f.db).empty());
    run = index_vetted(f.db, f.maps);
    CHECK(run.index_check == "unchanged");
    sqlite3_close(other);

    // Another connection commits while a run has the index open: no stamp.
    using namespace mapindex::index;
    using namespace mapindex::sqlite;
    {
      auto db = IndexDb::open(f.db.string(), OpenMode::read_write);
      REQUIRE_MESSAGE(db.ok(), (db.ok() ? "" : db.error().message));
      CHECK(db->index_check() == IndexCheck::unchanged);
      const auto run_id = db->begin_run("index test", "test");
      commit_elsewhere(f.db, "UPDATE runs SET command = 'y' WHERE run_id = 1");
      db->finish_run(run_id, RunStatus::complete, {});
    }
    CHECK(index_stamp(f.db).empty());
  }

  TEST_CASE(
      "cli index e2e: comparing the stamp keeps the run's lock on the index (no descriptor of its own)") {
    // Closing any descriptor of a file drops every POSIX lock the process
    // holds on it: SQLite's shared lock on the index, without which another
    // process's connection, closing, deletes this run's log.
    using namespace mapindex::index;
    using namespace mapindex::sqlite;
    IndexedFolder f(2);
    if (!keeps_stamps(f.db.parent_path())) return;
    REQUIRE(!index_stamp(f.db).empty());
    struct stat st {};
    REQUIRE(stat(f.db.c_str(), &st) == 0);
    const auto locks_held = [&] {
      std::ifstream locks("/proc/locks");
      std::string line;
      int held = 0;
      const std::string pid = " " + std::to_string(getpid()) + " ";
      const std::string inode = ":" + std::to_string(st.st_ino) + " ";
      while (std::getline(locks, line))
        if (line.find("POSIX") != std::string::npos && line.find(pid) != std::string::npos &&
            line.find(inode) != std::string::npos)
          ++held;
      return held;
    };
    for (const bool background : {false, true}) {
      CAPTURE(background);
      OpenOptions options;
      options.check_in_background = background;
      auto db = IndexDb::open(f.db.string(), OpenMode::read_write, options);
      REQUIRE_MESSAGE(db.ok(), (db.ok() ? "" : db.error().message));
      (void)db->known_maps();
      CHECK(db->index_check() == IndexCheck::unchanged);
      CHECK(locks_held() > 0);
      db->finish_run(db->begin_run("index test", "test"), RunStatus::complete, {});
    }
  }

  TEST_CASE(
      "cli index e2e: only a run that finished complete or interrupted on a vetted index stamps it") {
    using namespace mapindex::index;
    using namespace mapindex::sqlite;
    IndexedFolder f(2);
    if (!keeps_stamps(f.db.parent_path())) return;
    REQUIRE(!index_stamp(f.db).empty());
    const auto finish = [&](std::optional<RunStatus> status, OpenOptions options = {}) {
      auto db = IndexDb::open(f.db.string(), OpenMode::read_write, options);
      REQUIRE_MESSAGE(db.ok(), (db.ok() ? "" : db.error().message));
      if (status) db->finish_run(db->begin_run("index test", "test"), *status, {});
      return db->index_check();
    };
    CHECK(finish(RunStatus::failed) == IndexCheck::unchanged);
    CHECK(index_stamp(f.db).empty());
    CHECK(finish(RunStatus::complete) == IndexCheck::quick_check);
    CHECK(stamp_matches(f.db));
    CHECK(finish(RunStatus::interrupted) == IndexCheck::unchanged);
    CHECK(stamp_matches(f.db));
    CHECK(finish(std::nullopt) == IndexCheck::unchanged);  // opened, no run
    CHECK(index_stamp(f.db).empty());
    (void)finish(RunStatus::complete);
    REQUIRE(stamp_matches(f.db));
    {  // A run after a finished one, itself never finished: no stamp.
      auto db = IndexDb::open(f.db.string(), OpenMode::read_write);
      REQUIRE(db.ok());
      db->finish_run(db->begin_run("index test", "test"), RunStatus::complete, {});
      (void)db->begin_run("index test", "test");
    }
    CHECK(index_stamp(f.db).empty());
    (void)finish(RunStatus::complete);
    REQUIRE(stamp_matches(f.db));
    // Over the size limit the file is not checked, so not stamped either.
    OpenOptions big;
    big.quick_check_max_bytes = 0;
    CHECK(finish(RunStatus::complete, big) == IndexCheck::too_large);
    CHECK(index_stamp(f.db).empty());
    // A new index is vetted (nothing to check).
    const auto fresh = f.tmp / "fresh.sqlite";
    {
      auto db = IndexDb::open(fresh.string(), OpenMode::read_write);
      REQUIRE(db.ok());
      CHECK(db->index_check() == IndexCheck::created);
      db->finish_run(db->begin_run("index test", "test"), RunStatus::complete, {});
    }
    CHECK(stamp_matches(fresh));
  }

  TEST_CASE(
      "cli index e2e: damage beyond the quick_check size limit fails the first statement that touches it as index.damaged") {
    using namespace mapindex::index;
    using namespace mapindex::sqlite;
    IndexedFolder f(4);
    const auto damaged = damaged_copy(f, {"maps"});
    // Within the limit: refused at open.
    auto checked = IndexDb::open(damaged.string(), OpenMode::read_write);
    REQUIRE_FALSE(checked.ok());
    CHECK(checked.error().code == Code::index_damaged);
    CHECK(contains(checked.error().message, std::string(kRebuildAdvice)));
    // Over it (a limit of 0 bytes): opened, and reading the damaged table
    // throws with the code the CLI turns into exit status 3.
    OpenOptions big;
    big.quick_check_max_bytes = 0;
    auto unchecked = IndexDb::open(damaged.string(), OpenMode::read_write, big);
    REQUIRE_MESSAGE(unchecked.ok(), (unchecked.ok() ? "" : unchecked.error().message));
    try {
      (void)unchecked->known_maps();
      FAIL("reading a damaged table must throw");
    } catch (const IndexError& e) {
      CHECK_MESSAGE(e.code() == Code::index_damaged, e.what());
    }
  }

  TEST_CASE(
      "cli index e2e: with the check in the background, open returns at once and the first write gets "
      "the damage verdict instead of writing") {
    using namespace mapindex::index;
    using namespace mapindex::sqlite;
    IndexedFolder f(4);
    const auto damaged = damaged_copy(f, {"files"});
    const auto runs_before = sql_int(f.db, "SELECT count(*) FROM runs");
    const OpenOptions background = check_in_background();
    {
      auto opened = IndexDb::open(damaged.string(), OpenMode::read_write, background);
      REQUIRE_MESSAGE(opened.ok(), (opened.ok() ? "" : opened.error().message));
      for (int attempt = 0; attempt < 2; ++attempt) {  // the verdict stays
        try {
          (void)opened->begin_run("index test", "test");
          FAIL("a damaged index must not start a run");
        } catch (const IndexError& e) {
          CHECK_MESSAGE(e.code() == Code::index_damaged, e.what());
          CHECK_MESSAGE(contains(e.what(), "is damaged ("), e.what());
          CHECK_MESSAGE(contains(e.what(), std::string(kRebuildAdvice)), e.what());
        }
      }
    }
    CHECK(sql_int(damaged, "SELECT count(*) FROM runs") == runs_before);
    // A sound index starts its run as before.
    auto sound = IndexDb::open(f.db.string(), OpenMode::read_write, background);
    REQUIRE_MESSAGE(sound.ok(), (sound.ok() ? "" : sound.error().message));
    CHECK(sound->begin_run("index test", "test") > runs_before);
  }

  TEST_CASE(
      "cli index e2e: with no thread to be had for the background check, open checks as it would without "
      "one: a stamped index is unchanged, an unstamped one checked, a damaged one refused") {
    using namespace mapindex::index;
    using namespace mapindex::sqlite;
    IndexedFolder f(3);
    const auto damaged = damaged_copy(f, {"files"});
    mapindex::testing::RefuseThreadStarts no_threads;
    const OpenOptions background = check_in_background();
    const auto open_and_finish = [&](const fs::path& path) {
      auto db = IndexDb::open(path.string(), OpenMode::read_write, background);
      REQUIRE_MESSAGE(db.ok(), (db.ok() ? "" : db.error().message));
      db->finish_run(db->begin_run("index test", "test"), RunStatus::complete, {});
      return db->index_check();
    };
    if (keeps_stamps(f.db.parent_path())) {
      REQUIRE(stamp_matches(f.db));
      CHECK(open_and_finish(f.db) == IndexCheck::unchanged);
      CHECK(stamp_matches(f.db));  // and stamped again when closed
    }
    remove_stamp(f.db.string());
    CHECK(open_and_finish(f.db) == IndexCheck::quick_check);
    auto refused = IndexDb::open(damaged.string(), OpenMode::read_write, background);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == Code::index_damaged);
  }

  TEST_CASE(
      "cli index e2e: the check at open is for damage to the file, a row breaking a CHECK constraint is "
      "left to mapindex check, and the writer's constraints hold after it") {
    using namespace mapindex::index;
    using namespace mapindex::sqlite;
    IndexedFolder f(3);
    // A value no mapindex writes, put there by another program.
    {
      sqlite3* db = nullptr;
      REQUIRE(sqlite3_open(f.db.string().c_str(), &db) == SQLITE_OK);
      CHECK(sqlite3_exec(db,
                         "PRAGMA ignore_check_constraints = ON; "
                         "UPDATE layer_defs SET kind = 'bogus' WHERE layer_def_id = "
                         "(SELECT min(layer_def_id) FROM layer_defs)",
                         nullptr, nullptr, nullptr) == SQLITE_OK);
      sqlite3_close(db);
    }
    REQUIRE(sql_int(f.db, "SELECT count(*) FROM layer_defs WHERE kind = 'bogus'") == 1);
    {
      auto opened = IndexDb::open(f.db.string(), OpenMode::read_write);
      REQUIRE_MESSAGE(opened.ok(), (opened.ok() ? "" : opened.error().message));
      // The connection checks constraints again: a bad kind is refused.
      CHECK(sqlite3_exec(opened->handle(), "UPDATE layer_defs SET kind = 'also bogus'", nullptr,
                         nullptr, nullptr) == SQLITE_CONSTRAINT_CHECK);
      CHECK(sql_int(f.db, "SELECT count(*) FROM layer_defs WHERE kind = 'also bogus'") == 0);
    }

    auto r = run_mapindex({"index", "--db", f.db.string(), "--quiet", f.maps.string()});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    r = run_mapindex({"check", "--db", f.db.string()});
    CHECK(r.exit_code == 3);
    CHECK_MESSAGE(contains(r.out, "CHECK constraint failed in layer_defs"), r.out);
  }

  TEST_CASE(
      "cli e2e: a second index run on an index another run is writing exits 3 naming that run") {
    TempDir tmp;
    // A run slow enough to overlap: copies of one large map, decoded one by one.
    const auto big =
        make_realistic_ddnet_map({.width = 1000, .height = 700, .seed = 5, .decoration_layers = 4});
    fs::create_directories(tmp / "maps");
    write_file(tmp / "small.map", tiny_map(3));
    const auto db = tmp / "busy.sqlite";
    int copies = 0;
    bool overlapped = false;
    for (int attempt = 0; attempt < 4 && !overlapped; ++attempt) {
      for (int i = 0; i < 100 << attempt; ++i, ++copies)
        write_file(tmp / "maps" / ("copy" + std::to_string(copies) + ".map"), big);
      fs::remove(db);
      BackgroundProcess first(mapindex_binary(),
                              {"index", "--db", db.string(), "--progress", "none", "--threads", "1",
                               "--batch", "2", (tmp / "maps").string()},
                              tmp.path());
      std::int64_t running = 0;
      for (int i = 0; i < 2000 && running == 0; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        try {
          running = sql_int(db, "SELECT count(*) FROM runs WHERE status = 'running'");
        } catch (const std::exception&) {
        }
      }
      REQUIRE(running == 1);
      const auto started = std::chrono::steady_clock::now();
      const auto second =
          run_mapindex({"index", "--db", db.string(), "--quiet", (tmp / "small.map").string()});
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      const auto still_running =
          sql_int(db, "SELECT count(*) FROM runs WHERE run_id = 1 AND status = 'running'");
      first.signal(SIGINT);
      const auto r1 = first.wait();
      // The first run's row appears with its first entry written (after the
      // first big map is measured; the copies after it are known at once),
      // so it may also end between the check above and the signal.
      if (!still_running || r1.exit_code == 0) {
        MESSAGE("the first run ended before the second one was refused; growing the input");
        continue;
      }
      overlapped = true;
      CHECK(r1.exit_code == 130);
      CHECK(second.exit_code == 3);
      const auto started_at = sql_value(
          db, "SELECT replace(substr(started_at, 1, 19), 'T', ' ') FROM runs WHERE run_id = 1");
      CHECK_MESSAGE(
          contains(second.err, "index '" + db.string() + "' is being written by run 1 (pid " +
                                   std::to_string(first.pid()) + " on host " + host_name() +
                                   ", started " + started_at + " UTC): wait for it to finish"),
          second.err);
      // Refused at once: waiting for the lock would take the busy timeout.
      CHECK(seconds < mapindex::sqlite::kBusyTimeoutMs / 1000.0);
      CHECK(sql_int(db, "SELECT count(*) FROM runs") == 1);  // the second run wrote no run row
    }
    REQUIRE_MESSAGE(overlapped, "the first run never overlapped the second");
    // Once the first run is stopped, the next one proceeds.
    const auto again =
        run_mapindex({"index", "--db", db.string(), "--quiet", (tmp / "small.map").string()});
    CHECK_MESSAGE(again.exit_code == 0, again.err);
  }

  TEST_CASE(
      "cli e2e: a write lock held past the busy timeout exits 3, naming a run whose process is gone") {
    IndexedFolder f(1);
    // A run marked running by a process that no longer exists (a reaped child),
    // and another connection holding the write lock.
    const pid_t child = fork();
    if (child == 0) _exit(0);
    REQUIRE(child > 0);
    waitpid(child, nullptr, 0);
    mapindex::sqlite::Connection holder;
    REQUIRE(holder.open(f.db.string(), SQLITE_OPEN_READWRITE) == SQLITE_OK);
    REQUIRE(
        sqlite3_exec(
            holder.get(),
            ("INSERT INTO runs (started_at, status, tool_version, extractor_version, command, host, pid) "
             "VALUES ('2026-01-02T03:04:05.000Z', 'running', 'x', 1, 'gone', '" +
             host_name() + "', " + std::to_string(child) + ")")
                .c_str(),
            nullptr, nullptr, nullptr) == SQLITE_OK);
    const auto gone = sqlite3_last_insert_rowid(holder.get());
    REQUIRE(sqlite3_exec(holder.get(), "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK);
    const auto r = run_mapindex({"index", "--db", f.db.string(), "--quiet", f.maps.string()});
    sqlite3_exec(holder.get(), "ROLLBACK", nullptr, nullptr, nullptr);
    holder = mapindex::sqlite::Connection();  // closed
    CHECK(r.exit_code == 3);
    CHECK_MESSAGE(contains(r.err, "is locked by another process"), r.err);
    CHECK_MESSAGE(contains(r.err, "run " + std::to_string(gone) + " (pid " + std::to_string(child) +
                                      " on host " + host_name() +
                                      ", started 2026-01-02 03:04:05 UTC) is marked running but "
                                      "its process no longer exists"),
                  r.err);
    CHECK_FALSE(contains(r.err, "database is locked\n"));
  }

  TEST_CASE("cli e2e: query and audit work on an index on a read-only file system") {
    IndexedFolder f(3);
    const auto maps = sql_value(f.db, "SELECT count(*) FROM maps");
    REQUIRE(sql_value(f.db, "PRAGMA journal_mode") == "wal");
    // As copied onto read-only media: no -wal (the last writer checkpointed it)
    // and no -shm (our read-only probe above left one behind).
    if (fs::exists(f.db.string() + "-wal")) REQUIRE(fs::file_size(f.db.string() + "-wal") == 0);
    fs::remove(f.db.string() + "-wal");
    fs::remove(f.db.string() + "-shm");
    // A private mount namespace with the folder bind-mounted read-only; exit
    // 97/98 when that cannot be set up here.
    const std::string dir = f.tmp.path().string();
    const std::string script =
        "mount --bind \"$D\" \"$D\" 2>/dev/null && mount -o remount,bind,ro \"$D\" 2>/dev/null || exit 97; "
        "touch \"$D/probe\" 2>/dev/null && exit 98; shift; exec \"$@\"";
    const auto in_read_only = [&](std::vector<std::string> args) {
      std::vector<std::string> full = {"-m", "env", "D=" + dir,       "sh", "-c", script,
                                       "sh", "x",   mapindex_binary()};
      full.insert(full.end(), args.begin(), args.end());
      return run_process("/usr/bin/unshare", full);
    };
    const auto probe = in_read_only({"--version"});
    if (probe.exit_code != 0 || !fs::exists("/usr/bin/unshare")) {
      MESSAGE("cannot mount read-only here (unshare -m exit "
              << probe.exit_code << ": " << probe.err << "); read-only media not tested");
      return;
    }
    auto r =
        in_read_only({"query", "--db", f.db.string(), "--csv", "SELECT count(*) AS n FROM maps"});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.out == "n\n" + maps + "\n");
    r = in_read_only({"audit", "--db", f.db.string()});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(contains(r.out, "run 1"));
    r = in_read_only({"check", "--db", f.db.string()});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    // Writing there is an I/O failure of the index (3), not a usage error.
    r = in_read_only({"index", "--db", f.db.string(), "--quiet", f.maps.string()});
    CHECK_MESSAGE(r.exit_code == 3, r.err);
    CHECK_FALSE(fs::exists(f.db.string() + "-shm"));
  }

  TEST_CASE("cli e2e: a full disk under the index stops the run with exit 3 and SQLite's reason") {
    TempDir tmp;
    fs::create_directories(tmp / "maps");
    fs::create_directories(tmp / "small");
    for (int i = 0; i < 400; ++i)
      write_file(tmp / "maps" / ("m" + std::to_string(i) + ".map"),
                 make_realistic_ddnet_map({.width = 60 + i,
                                           .height = 40,
                                           .seed = static_cast<std::uint32_t>(i),
                                           .decoration_layers = 1}));
    if (!small_disk_available(tmp / "small")) {
      MESSAGE("cannot mount a small tmpfs here; a full disk is not tested");
      return;
    }
    const auto r =
        on_small_disk(tmp / "small", {"index", "--db", (tmp / "small" / "x.sqlite").string(),
                                      "--quiet", (tmp / "maps").string()});
    CHECK(r.exit_code == 3);
    CHECK_MESSAGE(contains(r.err, "database or disk is full"), r.err);
  }

  TEST_CASE("cli corpus: a full disk while large maps are in flight stops the run, not hangs") {
    // The corpus's large maps keep entries in flight when the writer fails;
    // the reader, waiting for their bytes to come back (they never do: the
    // graph is cancelled), must stop waiting. It waited forever once (the
    // timeout's exit 124), at 1 and 2 threads alike.
    const auto maps = corpus_dir("maps");
    if (!maps) {
      report_corpus_missing("maps", "a full disk with large maps in flight");
      return;
    }
    TempDir tmp;
    fs::create_directories(tmp / "small");
    if (!small_disk_available(tmp / "small")) {
      MESSAGE("cannot mount a small tmpfs here; a full disk is not tested");
      return;
    }
    for (const std::string threads : {"1", "2"}) {
      CAPTURE(threads);
      const auto r =
          on_small_disk(tmp / "small", {"index", "--db", (tmp / "small" / "x.sqlite").string(),
                                        "--quiet", "--threads", threads, maps->string()});
      CHECK(r.exit_code == 3);
      CHECK_MESSAGE(contains(r.err, "database or disk is full"), r.err);
    }
  }

  TEST_CASE("cli e2e: the help documents every exit status") {
    const auto r = run_mapindex({"--help"});
    for (const char* status : {"0 clean", "1 finished with findings", "2 usage error",
                               "3 the index is damaged", "130 interrupted"})
      CHECK_MESSAGE(contains(r.out, status), status);
    for (const char* command : {"index", "query", "audit", "check"}) {
      const auto help = run_mapindex({command, "--help"});
      CHECK(help.exit_code == 0);
      CHECK_MESSAGE(contains(help.out, "3 the index is damaged"), command);
    }
  }

}  // TEST_SUITE
