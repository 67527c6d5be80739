// What datafile.cpp (open and its checks) and datafile_items.cpp (reading
// what it validated) share: the container's layout after the header
// (docs/formats/datafile.md) and the error of a broken rule.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

#include "common/problem.h"
#include "common/result.h"

namespace mapindex::datafile {

// An item type entry: type id (at 0), index of its first item, number of items.
inline constexpr std::size_t kTypeStartAt = 4, kTypeNumAt = 8;
inline constexpr std::size_t kItemTypeSize = 12;
// An item's header: its key (type id << 16 | id, at 0), then its payload size.
inline constexpr std::size_t kItemPayloadSizeAt = 4;
inline constexpr std::size_t kItemHeaderSize = 8;

inline Error fail(Code code, std::string message) { return Error{code, std::move(message)}; }

}  // namespace mapindex::datafile
