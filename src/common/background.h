// Work started on a thread of its own, when one can be had.
#pragma once

#include <atomic>
#include <chrono>
#include <future>
#include <system_error>
#include <type_traits>
#include <utility>

namespace mapindex {

namespace detail {
inline std::atomic<int> refused_thread_starts{0};
}  // namespace detail

// Runs `f` on a new thread (std::async). When no thread can be started
// (std::system_error), the future returned is not valid(): the caller then
// does the work itself or goes without it.
template <class F>
std::future<std::invoke_result_t<std::decay_t<F>>> start_in_background(F&& f) {
  if (detail::refused_thread_starts.load(std::memory_order_relaxed) > 0) return {};
  try {
    return std::async(std::launch::async, std::forward<F>(f));
  } catch (const std::system_error&) {
    return {};
  }
}

// Waits until `result` is ready (true) or `stop` (may be null) is set
// (false), looking at `stop` every 20 ms: for a wait on work that a cancelled
// run may never finish.
template <class T>
bool wait_unless_stopped(const std::shared_future<T>& result, const std::atomic<bool>* stop) {
  while (result.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready)
    if (stop && stop->load()) return false;
  return true;
}

namespace testing {

// While one lives, start_in_background starts no thread, as when the system
// has none to give: for tests of what its callers do then.
class RefuseThreadStarts {
 public:
  RefuseThreadStarts() { detail::refused_thread_starts.fetch_add(1); }
  ~RefuseThreadStarts() { detail::refused_thread_starts.fetch_sub(1); }
  RefuseThreadStarts(const RefuseThreadStarts&) = delete;
  RefuseThreadStarts& operator=(const RefuseThreadStarts&) = delete;
};

}  // namespace testing
}  // namespace mapindex
