// Text for HTML pages: the one escaping used by the audit's HTML report and
// the static site, so a hostile map name or path renders as text.
#pragma once

#include <string>
#include <string_view>

namespace mapindex {

// `text` safe in an element or a quoted attribute: ill-formed UTF-8 replaced
// by U+FFFD (to_valid_utf8), control characters made visible (printable),
// then & < > " ' escaped.
std::string html_escape(std::string_view text);

}  // namespace mapindex
