// Work started on a thread of its own, when one can be had.
#pragma once

#include <future>
#include <system_error>
#include <type_traits>
#include <utility>

namespace mapindex {

// Runs `f` on a new thread (std::async). When no thread can be started
// (std::system_error), the future returned is not valid(): the caller then
// does the work itself or goes without it.
template <class F>
std::future<std::invoke_result_t<std::decay_t<F>>> start_in_background(F&& f) {
  try {
    return std::async(std::launch::async, std::forward<F>(f));
  } catch (const std::system_error&) {
    return {};
  }
}

}  // namespace mapindex
