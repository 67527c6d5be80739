// Ctrl-C / SIGTERM handling for long runs: the first signal asks the run to
// stop (finish in-flight work, commit, mark the run interrupted) and says how
// many entries are still in flight; a second one exits at once with status 130
// (SQLite rolls back the uncommitted batch: the index stays consistent).
#pragma once

#include "pipeline/run_counters.h"

namespace mapindex {

void install_interrupt_handlers();
// A function the first signal calls from the handler (it must be
// async-signal-safe), e.g. to wake a reader blocked on standard input.
// nullptr clears it.
using InterruptHook = void (*)(void* arg);
void set_interrupt_hook(InterruptHook hook, void* arg);
// While set, the first signal prints "mapindex: finishing N entries in flight
// (Ctrl-C again to abort)" to stderr, N = entries read but not yet written.
// nullptr clears it.
void set_interrupt_counters(const LiveCounters* counters);
bool interrupt_requested();

}  // namespace mapindex
