// Checkpoints of the index's write-ahead log while a run writes, on a thread
// of its own that runs only when a core would otherwise be idle.
//
// Why: SQLite's automatic checkpoint (copy the log into the database file,
// syncing both) runs inside the commit that takes the log past 1000 pages, on
// the writer's thread, so a short run's last commit, after every entry, did
// most of it. Here a commit that leaves at least kWakePages pages in the log
// wakes the thread, which copies them while the run goes on (a passive
// checkpoint: it never waits for the writer or blocks it). At the idle
// priority (SCHED_IDLE on Linux) it takes only a core that would be idle; at
// normal priority it took from the decoding as much as it saved at the end.
//
// The log is bounded whatever the thread does: a commit that leaves
// kWriterPages pages or more checkpoints on the writer's thread, as SQLite's
// automatic checkpoint would; should the thread hold the checkpoint lock
// then (its copy starved of CPU by other work), the writer interrupts it and
// checkpoints at its next commit. SQLite starts the log again from its
// beginning at the next transaction once a checkpoint has copied all of it
// and no reader still uses it.
//
// Stopping interrupts a checkpoint the thread is running (the stamp's own
// checkpoint, index_stamp.h, then does what is left). The thread still has
// to run to notice: on a machine whose cores are all busy with other work,
// that can take a few scheduler periods.
#pragma once

#include <sqlite3.h>

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "sqlite/database.h"

namespace mapindex::index {

class Checkpointer {
 public:
  static constexpr int kWakePages = 256;     // 1 MiB of 4 KiB pages
  static constexpr int kWriterPages = 4096;  // 16 MiB

  // A thread that takes over `writer`'s automatic checkpoints (its WAL hook)
  // for the database at `path`, which must be in WAL mode, with a connection
  // of its own; null when that connection cannot be opened or the thread
  // cannot be started (`writer` then keeps SQLite's automatic checkpoints).
  static std::unique_ptr<Checkpointer> start(sqlite3* writer, const std::string& path);

  // Stops the thread (interrupting a checkpoint it runs) and gives `writer`
  // SQLite's automatic checkpoints back.
  ~Checkpointer();
  Checkpointer(const Checkpointer&) = delete;
  Checkpointer& operator=(const Checkpointer&) = delete;

  // Checkpoints the thread has completed (for tests).
  std::uint64_t completed() const;

 private:
  Checkpointer(sqlite3* writer, sqlite::Connection own);
  static int on_commit(void* self, sqlite3* db, const char* schema, int pages);
  void run();

  sqlite3* writer_;
  sqlite::Connection own_;  // the thread's; outlives it
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool due_ = false, stop_ = false;
  std::uint64_t completed_ = 0;
  std::thread thread_;
};

}  // namespace mapindex::index
