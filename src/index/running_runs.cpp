#include "index/running_runs.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "sqlite/statement.h"

namespace mapindex::index {
namespace {

// A run left 'running' belongs to a live process only if that process (on
// this host, other than us) still exists.
bool run_is_alive(const std::string& host, std::int64_t pid) {
  if (host != host_name() || pid <= 0 || pid == getpid()) return false;
  return kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

// "run 7 (pid 4242 on host h, started 2026-11-23 05:01:02 UTC)".
std::string describe(const RunningRun& run) {
  std::string started = run.started_at.substr(0, run.started_at.find('.'));
  if (auto t = started.find('T'); t != std::string::npos) started[t] = ' ';
  return "run " + std::to_string(run.run_id) + " (pid " + std::to_string(run.pid) + " on host " +
         (run.host.empty() ? "?" : run.host) + ", started " + started + " UTC)";
}

}  // namespace

std::string host_name() {
  char buffer[256] = {};
  if (gethostname(buffer, sizeof buffer - 1) != 0) return {};
  return buffer;
}

std::vector<RunningRun> running_runs(sqlite3* db) {
  std::vector<RunningRun> runs;
  try {
    sqlite::Statement select(
        db,
        "SELECT run_id, ifnull(host, ''), ifnull(pid, 0), started_at FROM runs "
        "WHERE status = 'running' ORDER BY run_id");
    while (select.step()) {
      RunningRun run{select.column_int(0), select.column_text(1), select.column_int(2),
                     select.column_text(3)};
      run.alive = run_is_alive(run.host, run.pid);
      runs.push_back(std::move(run));
    }
  } catch (const sqlite::IndexError&) {
  }
  return runs;
}

Error live_run_error(const std::string& path, const RunningRun& run) {
  return Error{Code::index_locked, "index '" + path + "' is being written by " + describe(run) +
                                       ": wait for it to finish, or stop it (kill " +
                                       std::to_string(run.pid) +
                                       ") and run again; a stopped run's work is kept"};
}

Error busy_error(sqlite3* db, const std::string& path, const std::string& what) {
  const auto runs = running_runs(db);
  for (const auto& run : runs)
    if (run.alive) return live_run_error(path, run);
  std::string message = "index '" + path + "' is locked by another process (" + what + ")";
  for (const auto& run : runs)
    if (run.host == host_name())
      message += "; " + describe(run) + " is marked running but its process no longer exists";
  return Error{Code::index_locked, message +
                                       ": wait for the process holding it to finish or stop it "
                                       "(`fuser -v " +
                                       path + "` names it), then run again"};
}

}  // namespace mapindex::index
