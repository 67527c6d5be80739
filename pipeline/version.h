#pragma once

#include <string_view>

namespace mapindex {

// The mapindex release, as stored in runs.tool_version.
std::string_view tool_version();

}  // namespace mapindex
