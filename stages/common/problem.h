// A problem found in a map: what DDNet would refuse (error) or what loads but
// is wrong (warning), with a stable code and where it is.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stages/common/enum_text.h"

namespace mapindex {

enum class Severity : unsigned char { error, warning };

inline std::string_view to_string(Severity s) {
  return s == Severity::error ? "error" : "warning";
}
inline std::optional<Severity> parse_severity(std::string_view text) {
  return parse_enum(text, {Severity::error, Severity::warning});
}

struct Problem {
  Severity severity = Severity::error;
  std::string code;      // stable, e.g. "M10", "H6", "envelope.missing"
  std::string message;   // names the offending value and what was expected
  std::string location;  // e.g. "layer 3", "group 1", "envelope 2", "image 0", "" for the file

  bool operator==(const Problem&) const = default;
};

using Problems = std::vector<Problem>;

inline bool has_errors(const Problems& problems) {
  for (const auto& p : problems)
    if (p.severity == Severity::error) return true;
  return false;
}

}  // namespace mapindex
