// The pieces every page of the static site is made of: the page frame (one
// style sheet for all pages) and the small HTML fragments the list, map and
// problems pages share. Every text from a map goes through h() or code().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/problem_codes.h"

namespace mapindex::site::detail {

// `text` escaped for an element or a quoted attribute (src/common/html.h).
std::string h(std::string_view text);
// `text` escaped, in <code>.
std::string code(std::string_view text);
// "TELE_GUN" -> "tele gun": a feature's short label.
std::string feature_label(std::string_view feature);
// The CSS class of a status: ok, bad (rejected) or warn.
std::string status_class(std::string_view status);
// "90 x 95", or "none" without a game layer.
std::string game_size(std::int64_t width, std::int64_t height);
// A code with its title from the one code table (src/common/problem_codes.h).
std::string titled(std::string_view code, std::optional<Severity> severity = std::nullopt);
// "error", "warning", "info" as a Severity; nullopt for anything else.
std::optional<Severity> severity_of(std::string_view severity);
// The name a page shows for a map: its name, or the start of its SHA-256
// when it has none.
std::string shown_name(const std::string& name, const std::string& sha256);
// A page's start, up to and with <body>: its title and the site's style sheet.
std::string head(const std::string& page_title);

}  // namespace mapindex::site::detail
