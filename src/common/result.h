// Result<T>: a value or a typed Error, in the spirit of LevelDB's Status.
// Decoders return these; nothing here knows about TBB or SQLite.
#pragma once

#include <string>
#include <utility>
#include <variant>

#include "common/problem.h"

namespace mapindex {

// A failure with a stable code (e.g. Code::H5, Code::D4, Code::read_truncated),
// a message naming the offending value and what was expected, and where it is
// when that is part of a map (a SpriteTile layer).
struct Error {
  Code code{};
  std::string message;
  Location location;

  std::string to_string() const { return std::string(mapindex::to_string(code)) + ": " + message; }
  bool operator==(const Error&) const = default;
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : v_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &std::get<0>(v_); }
  const T* operator->() const { return &std::get<0>(v_); }
  T& operator*() & { return std::get<0>(v_); }
  const T& operator*() const& { return std::get<0>(v_); }

  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace mapindex
