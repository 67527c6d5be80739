// A request from outside a run to stop it early (the command line's Ctrl-C).
// The caller owns it and outlives the run; run_index polls requested() and,
// while it runs, registers a waker that request() calls to wake its reader
// when blocked on a pipe. request() is async-signal-safe: atomics only, and
// the waker must be too (read::SourceReader::stop is).
#pragma once

#include <atomic>

namespace mapindex {

class StopRequest {
 public:
  using Waker = void (*)(void* arg);

  void request() noexcept;
  bool requested() const noexcept { return requested_.load(std::memory_order_relaxed); }

  // While set, request() calls waker(arg); nullptr clears it. A request made
  // before the waker is set is seen by requested().
  void set_waker(Waker waker, void* arg) noexcept;

 private:
  std::atomic<bool> requested_{false};
  std::atomic<Waker> waker_{nullptr};
  std::atomic<void*> arg_{nullptr};
};

}  // namespace mapindex
