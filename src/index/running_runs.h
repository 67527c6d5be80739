// The runs an index's runs table marks 'running', whether their processes
// still live, and the errors that name them: a write refused because another
// `mapindex index` run holds the index.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"

namespace mapindex::index {

// This machine's host name ("" when it cannot be read), as runs.host holds it.
std::string host_name();

// A run the runs table says is 'running'.
struct RunningRun {
  std::int64_t run_id = 0;
  std::string host;
  std::int64_t pid = 0;
  std::string started_at;
  bool alive = false;  // its process exists (on this host)
};

// The runs marked 'running'; none when there is no runs table yet (a new
// index) or it cannot be read (the caller's next statement says why).
std::vector<RunningRun> running_runs(sqlite3* db);

// index.locked: `run`, alive, is writing the index at `path`.
Error live_run_error(const std::string& path, const RunningRun& run);

// index.locked: the write lock stayed taken for the whole busy timeout
// (`what`: SQLite's message); names a live run if there is one.
Error busy_error(sqlite3* db, const std::string& path, const std::string& what);

}  // namespace mapindex::index
