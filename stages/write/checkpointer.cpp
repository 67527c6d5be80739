#include "stages/write/checkpointer.h"

#include <sched.h>

#include "stages/sqlite/database.h"

namespace mapindex::index {

Checkpointer::Checkpointer(sqlite3* writer, std::string path)
    : writer_(writer), path_(std::move(path)), thread_([this] { run(); }) {
  sqlite3_wal_hook(writer_, &Checkpointer::on_commit, this);
}

Checkpointer::~Checkpointer() {
  // The default hook again: SQLite's checkpoint at 1000 pages.
  sqlite3_wal_autocheckpoint(writer_, 1000);
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

std::uint64_t Checkpointer::completed() const {
  std::lock_guard lock(mutex_);
  return completed_;
}

// Called by SQLite on the writer's thread after each commit, with the pages
// the log now holds (checkpointed or not).
int Checkpointer::on_commit(void* self, sqlite3* db, const char* schema, int pages) {
  auto& c = *static_cast<Checkpointer*>(self);
  if (pages >= kWriterPages) {
    // Busy (the thread is checkpointing) is no failure: the commit stands.
    sqlite3_wal_checkpoint_v2(db, schema, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
  } else if (pages >= kWakePages) {
    {
      std::lock_guard lock(c.mutex_);
      c.due_ = true;
    }
    c.wake_.notify_one();
  }
  return SQLITE_OK;
}

void Checkpointer::run() {
#ifdef SCHED_IDLE
  // Refused only by an unusual system policy: the thread then runs at the
  // normal priority.
  sched_param idle{};
  sched_setscheduler(0, SCHED_IDLE, &idle);
#endif
  // Without a connection (the file went away, no memory) nothing is
  // checkpointed here: the writer's bound and SQLite's checkpoint when the
  // last connection closes still are.
  Connection db;
  const bool opened = db.open(path_, SQLITE_OPEN_READWRITE) == SQLITE_OK &&
                      // Reads the header, so the connection knows the log.
                      sqlite3_exec(db.get(), "SELECT count(*) FROM sqlite_schema", nullptr, nullptr,
                                   nullptr) == SQLITE_OK;
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stop_ || due_; });
    if (stop_) return;
    due_ = false;
    if (!opened) continue;
    lock.unlock();
    const int rc =
        sqlite3_wal_checkpoint_v2(db.get(), "main", SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    lock.lock();
    if (rc == SQLITE_OK) ++completed_;
  }
}

}  // namespace mapindex::index
