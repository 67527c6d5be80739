// Ctrl-C / SIGTERM handling for long runs: the first signal asks the run to
// stop (finish in-flight work, commit, mark the run interrupted); a second one
// exits at once with status 130.
#pragma once

namespace mapindex {

void install_interrupt_handlers();
// A function the first signal calls from the handler (it must be
// async-signal-safe), e.g. to wake a reader blocked on standard input.
// nullptr clears it.
using InterruptHook = void (*)(void* arg);
void set_interrupt_hook(InterruptHook hook, void* arg);
bool interrupt_requested();
// For tests and for the pipeline's own stop paths.
void request_interrupt();
void reset_interrupt();

}  // namespace mapindex
