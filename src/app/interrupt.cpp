#include "app/interrupt.h"

#include <unistd.h>
#include <atomic>
#include <csignal>

#include <cstdint>

namespace mapindex {
namespace {

std::atomic<int> g_signals{0};
StopRequest g_stop;
std::atomic<const LiveCounters*> g_counters{nullptr};

// "mapindex: finishing N entries in flight (Ctrl-C again to abort)", written
// with write(2) only (async-signal-safe).
void say_finishing(const LiveCounters& c) {
  const std::uint64_t read = c.entries.load(), done = c.written.load() + c.not_written.load();
  std::uint64_t n = read > done ? read - done : 0;
  char digits[24];
  int len = 0;
  do {
    digits[len++] = static_cast<char>('0' + n % 10);
    n /= 10;
  } while (n > 0);
  char msg[128];
  int pos = 0;
  const auto put = [&](const char* text) {
    while (*text) msg[pos++] = *text++;
  };
  put("\nmapindex: finishing ");
  while (len > 0) msg[pos++] = digits[--len];
  put(" entries in flight (Ctrl-C again to abort)\n");
  [[maybe_unused]] auto written = ::write(2, msg, static_cast<std::size_t>(pos));
}

extern "C" void on_signal(int) {
  if (g_signals.fetch_add(1) >= 1) {
    static const char msg[] = "\nmapindex: interrupted again, exiting now\n";
    [[maybe_unused]] auto n = ::write(2, msg, sizeof msg - 1);
    ::_exit(130);
  }
  if (const LiveCounters* counters = g_counters.load()) say_finishing(*counters);
  g_stop.request();
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

StopRequest& interrupt_stop_request() { return g_stop; }

void set_interrupt_counters(const LiveCounters* counters) { g_counters.store(counters); }

bool interrupt_requested() { return g_stop.requested(); }

}  // namespace mapindex
