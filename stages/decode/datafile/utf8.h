// Strict UTF-8 validation (no overlong forms, no surrogates, at most U+10FFFF).
#pragma once

#include <string_view>

namespace mapindex::datafile {

bool is_valid_utf8(std::string_view text);

}  // namespace mapindex::datafile
