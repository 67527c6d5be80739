// The checkpoints of a run's write-ahead log (src/index/checkpointer.h):
// a commit that leaves kWakePages pages or more in the log has them copied
// into the database file by the thread, without the writer waiting; one that
// leaves kWriterPages or more has them copied before the commit returns, the
// thread's checkpoint interrupted if it holds the way; and a checkpointer
// that cannot start leaves SQLite's own checkpoints in place.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include "index/checkpointer.h"
#include "tests/test_index_helpers.h"

using namespace mapindex;
using namespace mapindex::index;
using namespace mapindex::sqlite;
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

// A VFS over the default one that, while paused, holds every write to a main
// database file made by a thread other than the one that paused it, until
// resumed: a checkpoint thread caught in its copy, holding the checkpoint
// lock, as when it is starved of CPU. Installed as the default VFS while it
// lives.
class PausingVfs {
 public:
  PausingVfs() : base_(sqlite3_vfs_find(nullptr)) {
    REQUIRE(base_);
    vfs_ = *base_;
    vfs_.zName = "mapindex-test-pausing";
    vfs_.szOsFile = static_cast<int>(sizeof(File)) + base_->szOsFile;
    vfs_.xOpen = &PausingVfs::open;
    REQUIRE(sqlite3_vfs_register(&vfs_, 1) == SQLITE_OK);
    instance_ = this;  // no file is opened through it before this returns
  }
  ~PausingVfs() {
    resume();
    sqlite3_vfs_register(base_, 1);
    sqlite3_vfs_unregister(&vfs_);
    instance_ = nullptr;
  }
  PausingVfs(const PausingVfs&) = delete;
  PausingVfs& operator=(const PausingVfs&) = delete;

  void pause() {
    std::lock_guard lock(mutex_);
    paused_ = true;
    owner_ = std::this_thread::get_id();
  }
  void resume() {
    {
      std::lock_guard lock(mutex_);
      paused_ = false;
    }
    changed_.notify_all();
  }
  // Whether another thread waits in a write (for up to a minute).
  bool holding() {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(60), [this] { return held_ > 0; });
  }
  // How often another thread has let go of the checkpoint lock: a checkpoint
  // of its own ended, copied whole or not.
  int checkpoints_ended() {
    std::lock_guard lock(mutex_);
    return checkpoints_ended_;
  }

 private:
  struct File {
    sqlite3_file file;  // first: SQLite sees this
    sqlite3_file* real;
    bool main_db;
  };
  static sqlite3_file* real(sqlite3_file* f) { return reinterpret_cast<File*>(f)->real; }

  static int open(sqlite3_vfs* vfs, const char* name, sqlite3_file* f, int flags, int* out) {
    auto* file = reinterpret_cast<File*>(f);
    file->real = reinterpret_cast<sqlite3_file*>(file + 1);
    file->main_db = (flags & SQLITE_OPEN_MAIN_DB) != 0;
    file->file.pMethods = nullptr;
    const int rc = instance_->base_->xOpen(instance_->base_, name, file->real, flags, out);
    if (file->real->pMethods) {
      static sqlite3_io_methods methods = forwarding(file->real->pMethods);
      file->file.pMethods = &methods;
    }
    (void)vfs;
    return rc;
  }

  // SQLite's shared-memory lock slot of the checkpoint (WAL_CKPT_LOCK in
  // wal.c: 0 is the write lock, 1 the checkpoint's, 2 recovery's).
  static constexpr int kCheckpointLock = 1;

  static int shm_lock(sqlite3_file* f, int offset, int n, int flags) {
    const int rc = real(f)->pMethods->xShmLock(real(f), offset, n, flags);
    if (offset <= kCheckpointLock && kCheckpointLock < offset + n && (flags & SQLITE_SHM_UNLOCK) &&
        (flags & SQLITE_SHM_EXCLUSIVE)) {
      std::lock_guard lock(instance_->mutex_);
      if (std::this_thread::get_id() != instance_->owner_) ++instance_->checkpoints_ended_;
    }
    return rc;
  }

  static int write(sqlite3_file* f, const void* data, int amount, sqlite3_int64 offset) {
    if (reinterpret_cast<File*>(f)->main_db) instance_->wait_if_paused();
    return real(f)->pMethods->xWrite(real(f), data, amount, offset);
  }

  void wait_if_paused() {
    std::unique_lock lock(mutex_);
    if (!paused_ || std::this_thread::get_id() == owner_) return;
    ++held_;
    changed_.notify_all();
    changed_.wait(lock, [this] { return !paused_; });
    --held_;
  }

  // The base file's methods, each passed on to it; xWrite through write().
  static sqlite3_io_methods forwarding(const sqlite3_io_methods* m) {
    sqlite3_io_methods out{};
    out.iVersion = std::min(m->iVersion, 3);
    out.xClose = [](sqlite3_file* f) {
      const int rc = real(f)->pMethods->xClose(real(f));
      f->pMethods = nullptr;
      return rc;
    };
    out.xRead = [](sqlite3_file* f, void* b, int n, sqlite3_int64 o) {
      return real(f)->pMethods->xRead(real(f), b, n, o);
    };
    out.xWrite = &PausingVfs::write;
    out.xTruncate = [](sqlite3_file* f, sqlite3_int64 n) {
      return real(f)->pMethods->xTruncate(real(f), n);
    };
    out.xSync = [](sqlite3_file* f, int flags) { return real(f)->pMethods->xSync(real(f), flags); };
    out.xFileSize = [](sqlite3_file* f, sqlite3_int64* n) {
      return real(f)->pMethods->xFileSize(real(f), n);
    };
    out.xLock = [](sqlite3_file* f, int l) { return real(f)->pMethods->xLock(real(f), l); };
    out.xUnlock = [](sqlite3_file* f, int l) { return real(f)->pMethods->xUnlock(real(f), l); };
    out.xCheckReservedLock = [](sqlite3_file* f, int* r) {
      return real(f)->pMethods->xCheckReservedLock(real(f), r);
    };
    out.xFileControl = [](sqlite3_file* f, int op, void* arg) {
      return real(f)->pMethods->xFileControl(real(f), op, arg);
    };
    out.xSectorSize = [](sqlite3_file* f) { return real(f)->pMethods->xSectorSize(real(f)); };
    out.xDeviceCharacteristics = [](sqlite3_file* f) {
      return real(f)->pMethods->xDeviceCharacteristics(real(f));
    };
    out.xShmMap = [](sqlite3_file* f, int region, int size, int extend, void volatile** p) {
      return real(f)->pMethods->xShmMap(real(f), region, size, extend, p);
    };
    out.xShmLock = &PausingVfs::shm_lock;
    out.xShmBarrier = [](sqlite3_file* f) { real(f)->pMethods->xShmBarrier(real(f)); };
    out.xShmUnmap = [](sqlite3_file* f, int del) {
      return real(f)->pMethods->xShmUnmap(real(f), del);
    };
    out.xFetch = [](sqlite3_file* f, sqlite3_int64 o, int n, void** p) {
      return real(f)->pMethods->xFetch(real(f), o, n, p);
    };
    out.xUnfetch = [](sqlite3_file* f, sqlite3_int64 o, void* p) {
      return real(f)->pMethods->xUnfetch(real(f), o, p);
    };
    return out;
  }

  static inline PausingVfs* instance_ = nullptr;
  sqlite3_vfs* base_;
  sqlite3_vfs vfs_{};
  std::mutex mutex_;
  std::condition_variable changed_;
  bool paused_ = false;
  std::thread::id owner_;
  int held_ = 0;
  int checkpoints_ended_ = 0;
};

// Resumes `vfs` when it goes out of scope: declared after the checkpointer,
// so that a failed check cannot leave the thread held while its destructor
// waits for it.
struct ResumeOnExit {
  PausingVfs& vfs;
  ~ResumeOnExit() { vfs.resume(); }
};

IndexDb open_with_checkpointer(const std::string& path) {
  OpenOptions options;
  options.checkpoint_in_background = true;
  return open_index(path, options);
}

}  // namespace

TEST_SUITE("index") {
  TEST_CASE(
      "index checkpointer: the thread copies a commit's pages into the file while the writer "
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

  TEST_CASE("index checkpointer: finish_run ends the thread; later commits are SQLite's to copy") {
    // The twin of the first test: the same commit, after the run's end. The
    // close's checkpoint copies the log next; a thread's copy then would be
    // cut short by it, its syncs wasted.
    TempDir dir;
    const auto path = dir.file("finished.sqlite");
    auto db = open_with_checkpointer(path);
    db.finish_run(db.begin_run("index test", "test"), RunStatus::complete, {});
    const auto before = file_size(path);
    commit_pages(db.handle(), Checkpointer::kWakePages * 2);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    CHECK_FALSE(holds_pages(path, before, Checkpointer::kWakePages));
    // SQLite's own checkpoint is back: at 1000 pages, in the commit.
    const auto at = file_size(path);
    commit_pages(db.handle(), 1100);
    CHECK(holds_pages(path, at, 1100));
  }

  TEST_CASE("index checkpointer: the copy is the thread's, not the writer's") {
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

  TEST_CASE("index checkpointer: one that cannot open its connection leaves SQLite's checkpoints") {
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

  TEST_CASE("index checkpointer: without it, such a commit leaves its pages in the log") {
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
      "index checkpointer: a commit past the writer's bound is copied before it returns, and the "
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

  TEST_CASE(
      "index checkpointer: past the writer's bound while the thread holds the checkpoint (starved), the "
      "writer interrupts it and its next commit copies the log") {
    TempDir dir;
    const auto path = dir.file("starved.sqlite");
    PausingVfs vfs;
    open_index(path);  // a mapindex index in WAL mode
    Connection writer;
    REQUIRE(writer.open(path, SQLITE_OPEN_READWRITE) == SQLITE_OK);
    auto checkpointer = Checkpointer::start(writer.get(), path);
    REQUIRE(checkpointer);
    ResumeOnExit resume_on_exit{vfs};
    // The thread's checkpoint of a first commit is caught at its first write
    // into the file, the checkpoint lock held.
    vfs.pause();
    commit_pages(writer.get(), Checkpointer::kWakePages * 2);
    REQUIRE(vfs.holding());
    // A commit past the writer's bound: the writer cannot copy the log, and
    // it returns (the commit stands) without waiting for the thread.
    const auto before = file_size(path);
    const int pages = Checkpointer::kWriterPages + 100;
    commit_pages(writer.get(), pages);
    CHECK_FALSE(holds_pages(path, before, pages));
    // Let go, the thread stops at the interruption instead of finishing its
    // copy; a later commit of the writer copies the whole log (retried
    // while the thread is still on its way out).
    vfs.resume();
    CHECK(eventually([&] {
      commit_pages(writer.get(), 1);
      return holds_pages(path, before, pages);
    }));
    // Its checkpoint has ended (the lock let go) and does not count as done.
    // (Not interrupted, it would finish its copy: completed() 1, shortly.)
    REQUIRE(eventually([&] { return vfs.checkpoints_ended() >= 1; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK(checkpointer->completed() == 0);
  }
}
