// Writing a whole file atomically: the bytes go to a temporary file next to
// `path`, which then replaces `path` (rename), so a reader never sees half a
// report or half a PNG, and a failure leaves the old file as it was.
#pragma once

#include <string>
#include <string_view>

#include "common/problem.h"
#include "common/result.h"

namespace mapindex {

// Error `code` (the caller's: audit.output, render.png, ...) naming `path`
// and the reason (cannot create, cannot write, cannot rename).
Result<bool> write_file_atomically(const std::string& path, std::string_view bytes, Code code);

}  // namespace mapindex
