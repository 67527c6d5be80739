// A problem found in a map: what DDNet would refuse (error), what loads but
// is wrong (warning), or hygiene that cannot break the map (info), with a
// stable code and where it is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/enum_text.h"
#include "common/problem_codes.h"

namespace mapindex {

// What a location names: the file itself, the info item, or an item of a type
// (N is its index within the type, which is how items reference each other).
enum class Place : unsigned char {
  file,             // ""
  info,             // "info"
  envelope_points,  // "envelope points"
  layer,            // "layer N"
  group,            // "group N"
  image,            // "image N"
  envelope,         // "envelope N"
  sound,            // "sound N"
  automapper,       // "automapper N"
  data_item,        // "data item N"
};

inline std::optional<Severity> parse_severity(std::string_view text) {
  return parse_enum(text, {Severity::error, Severity::warning, Severity::info});
}

// Where a problem is, as data; rendered to text (to_string) only at the edges.
struct Location {
  Place place = Place::file;
  std::int64_t index = 0;  // for the places with an N

  static Location at(Place place, std::int64_t index) { return Location{place, index}; }
  static Location file() { return {}; }
  static Location info() { return Location{Place::info, 0}; }
  static Location envelope_points() { return Location{Place::envelope_points, 0}; }
  static Location layer(std::int64_t i) { return Location{Place::layer, i}; }
  static Location group(std::int64_t i) { return Location{Place::group, i}; }
  static Location image(std::int64_t i) { return Location{Place::image, i}; }
  static Location envelope(std::int64_t i) { return Location{Place::envelope, i}; }
  static Location sound(std::int64_t i) { return Location{Place::sound, i}; }
  static Location automapper(std::int64_t i) { return Location{Place::automapper, i}; }
  static Location data_item(std::int64_t i) { return Location{Place::data_item, i}; }

  bool operator==(const Location&) const = default;
};

// "" for the file, "info", "envelope points", "layer 3", "group 1", ...
std::string to_string(const Location& location);

struct Problem {
  Code code{};
  std::string message;  // names the offending value and what was expected
  Location location;

  Severity severity() const { return severity_of(code); }
  bool operator==(const Problem&) const = default;
};

using Problems = std::vector<Problem>;

inline bool has_errors(const Problems& problems) {
  for (const auto& p : problems)
    if (p.severity() == Severity::error) return true;
  return false;
}

}  // namespace mapindex
