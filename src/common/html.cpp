#include "common/html.h"

#include "common/utf8.h"

namespace mapindex {

std::string html_escape(std::string_view text) {
  std::string out;
  const std::string visible = printable(to_valid_utf8(text));
  out.reserve(visible.size());
  for (const char c : visible) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace mapindex
