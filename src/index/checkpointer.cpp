#include "index/checkpointer.h"

#include <pthread.h>
#include <sched.h>

#include <system_error>

namespace mapindex::index {

std::unique_ptr<Checkpointer> Checkpointer::start(sqlite3* writer, const std::string& path) {
  sqlite::Connection own;
  if (own.open(path, SQLITE_OPEN_READWRITE) != SQLITE_OK) return nullptr;
  sqlite3_busy_timeout(own.get(), sqlite::kBusyTimeoutMs);
  // Reads the header, so that the connection knows the log; not the schema
  // (a SELECT from sqlite_schema would parse all of it at every run's start).
  if (sqlite3_exec(own.get(), sqlite::kReadHeaderSql, nullptr, nullptr, nullptr) != SQLITE_OK)
    return nullptr;
  try {
    return std::unique_ptr<Checkpointer>(new Checkpointer(writer, std::move(own)));
  } catch (const std::system_error&) {
    return nullptr;  // no thread to be had
  }
}

Checkpointer::Checkpointer(sqlite3* writer, sqlite::Connection own)
    : writer_(writer), own_(std::move(own)), thread_([this] { run(); }) {
  sqlite3_wal_hook(writer_, &Checkpointer::on_commit, this);
}

Checkpointer::~Checkpointer() {
  // The default hook again: SQLite's checkpoint at 1000 pages.
  sqlite3_wal_autocheckpoint(writer_, 1000);
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  sqlite3_interrupt(own_.get());
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
    // Busy: the thread holds the checkpoint lock (or, rarely, another
    // connection does: the thread's next checkpoint is then cut short).
    // Interrupted, it lets go, and the next commit checkpoints here. The
    // commit stands either way.
    if (sqlite3_wal_checkpoint_v2(db, schema, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr) ==
        SQLITE_BUSY)
      sqlite3_interrupt(c.own_.get());
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
  pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle);
#endif
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stop_ || due_; });
    if (stop_) return;
    due_ = false;
    lock.unlock();
    // Interrupted (by the writer or by stopping) or busy, it copies what it
    // can; SQLite clears the interruption when it returns.
    const int rc =
        sqlite3_wal_checkpoint_v2(own_.get(), "main", SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    lock.lock();
    if (rc == SQLITE_OK) ++completed_;
  }
}

}  // namespace mapindex::index
