// Objects a node's tasks use one at a time and keep warm between tasks (the
// measure node's MeasureWorkspace, the thumbnail node's PNG blocks): a task
// takes one for its work and gives it back when its lease ends. The pool makes
// one when none is free, so it holds at most as many as tasks ran at once
// (the node's concurrency), owns them and frees them with itself; the one
// given back last is taken first, its memory still warm.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace mapindex {

template <class T>
class WorkspacePool {
 public:
  explicit WorkspacePool(std::function<std::unique_ptr<T>()> make) : make_(std::move(make)) {}
  WorkspacePool(const WorkspacePool&) = delete;
  WorkspacePool& operator=(const WorkspacePool&) = delete;

  // One object, the caller's alone until the lease ends.
  class Lease {
   public:
    Lease(WorkspacePool& pool, std::unique_ptr<T> object)
        : pool_(&pool), object_(std::move(object)) {}
    Lease(Lease&& other) noexcept = default;
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() {
      if (object_) pool_->give(std::move(object_));
    }
    T& operator*() const { return *object_; }
    T* operator->() const { return object_.get(); }

   private:
    WorkspacePool* pool_;
    std::unique_ptr<T> object_;
  };

  // A free object, or a new one (what `make` throws, this throws).
  Lease take() {
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        std::unique_ptr<T> object = std::move(free_.back());
        free_.pop_back();
        return Lease(*this, std::move(object));
      }
    }
    std::unique_ptr<T> object = make_();
    std::lock_guard lock(mutex_);
    ++made_;
    return Lease(*this, std::move(object));
  }

  // How many objects the pool has made (for tests: at most the tasks that
  // held one at once).
  std::size_t made() const {
    std::lock_guard lock(mutex_);
    return made_;
  }

 private:
  void give(std::unique_ptr<T> object) noexcept {
    std::lock_guard lock(mutex_);
    try {
      free_.push_back(std::move(object));
    } catch (...) {
      // No room to keep it: it is freed, and a later take() makes another.
    }
  }

  const std::function<std::unique_ptr<T>()> make_;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<T>> free_;
  std::size_t made_ = 0;
};

}  // namespace mapindex
