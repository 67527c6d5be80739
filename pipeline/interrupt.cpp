#include "pipeline/interrupt.h"

#include <csignal>
#include <atomic>
#include <unistd.h>

namespace mapindex {
namespace {

std::atomic<int> g_signals{0};
std::atomic<InterruptHook> g_hook{nullptr};
std::atomic<void*> g_hook_arg{nullptr};

extern "C" void on_signal(int) {
  if (g_signals.fetch_add(1) >= 1) {
    static const char msg[] = "\nmapindex: interrupted again, exiting now\n";
    [[maybe_unused]] auto n = ::write(2, msg, sizeof msg - 1);
    ::_exit(130);
  }
  if (InterruptHook hook = g_hook.load()) hook(g_hook_arg.load());
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

void set_interrupt_hook(InterruptHook hook, void* arg) {
  g_hook.store(nullptr);
  g_hook_arg.store(arg);
  g_hook.store(hook);
}

bool interrupt_requested() { return g_signals.load(std::memory_order_relaxed) > 0; }
void request_interrupt() { g_signals.fetch_add(1); }
void reset_interrupt() { g_signals.store(0); }

}  // namespace mapindex
