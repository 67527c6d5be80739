// Ctrl-C / SIGTERM handling for long runs: the first signal asks the run to
// stop (finish in-flight work, commit, mark the run interrupted) and says how
// many entries are still in flight; a second one exits at once with status 130
// (SQLite rolls back the uncommitted batch: the index stays consistent).
#pragma once

#include "pipeline/run_counters.h"
#include "pipeline/stop_request.h"

namespace mapindex {

void install_interrupt_handlers();
// What the first signal requests: pass it to run_index (IndexOptions::stop).
// The process has one; it lives as long as the process.
StopRequest& interrupt_stop_request();
// While set, the first signal prints "mapindex: finishing N entries in flight
// (Ctrl-C again to abort)" to stderr, N = entries read but not yet written.
// nullptr clears it.
void set_interrupt_counters(const LiveCounters* counters);
bool interrupt_requested();

}  // namespace mapindex
