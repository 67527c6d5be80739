#include "pipeline/stop_request.h"

namespace mapindex {

void StopRequest::request() noexcept {
  requested_.store(true);
  if (Waker waker = waker_.load()) waker(arg_.load());
}

void StopRequest::set_waker(Waker waker, void* arg) noexcept {
  waker_.store(nullptr);
  arg_.store(arg);
  waker_.store(waker);
}

}  // namespace mapindex
