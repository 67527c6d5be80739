// UTF-8 validation and repair: the one copy used by every stage. Strict
// UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace mapindex {

// Length (1..4) of the well-formed UTF-8 sequence starting at text[i], or 0
// when the bytes there do not start one. Precondition: i < text.size().
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);

bool is_valid_utf8(std::string_view text);

// `text` with each maximal subpart of an ill-formed sequence replaced by
// U+FFFD (the Unicode Standard's recommended practice, chapter 3 "U+FFFD
// Substitution of Maximal Subparts"): a lead byte and the continuation bytes
// that could still have completed it become one U+FFFD; any other invalid
// byte becomes one U+FFFD on its own. Valid text comes back unchanged.
std::string to_valid_utf8(std::string_view text);

// `text` on one line: newline, tab and carriage return written \n, \t, \r,
// other control characters (below 0x20, and 0x7f) \xNN in lowercase hex;
// every other byte as it is. For tables and reports a hostile value must not
// break.
std::string printable(std::string_view text);

}  // namespace mapindex
