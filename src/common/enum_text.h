// The one way an enum is read back from its text (a TEXT column, a JSON
// value): the value among `values` whose to_string() is `text`. Each enum
// keeps a single to_string() and defines its parse_*() with this, so the two
// cannot disagree.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace mapindex {

template <class E, std::size_t N>
std::optional<E> parse_enum(std::string_view text, const E (&values)[N]) {
  for (const E value : values)
    if (to_string(value) == text) return value;
  return std::nullopt;
}

}  // namespace mapindex
