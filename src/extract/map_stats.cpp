#include "extract/map_stats.h"

namespace mapindex {

std::string_view to_string(MapFormat f) {
  return f == MapFormat::teeworlds ? "teeworlds" : "spritetile";
}

std::string_view to_string(MapStatus s) {
  switch (s) {
    case MapStatus::ok: return "ok";
    case MapStatus::warnings: return "warnings";
    case MapStatus::rejected: return "rejected";
  }
  return "rejected";
}

std::optional<MapStatus> parse_map_status(std::string_view text) {
  return parse_enum(text, {MapStatus::ok, MapStatus::warnings, MapStatus::rejected});
}

void finalize_status(MapStats& stats) {
  // Info findings (unused data, editor-only data) cannot break the map: they
  // leave its status ok.
  bool warning = false, error = false;
  for (const auto& p : stats.problems) {
    if (p.severity() == Severity::error) error = true;
    if (p.severity() == Severity::warning) warning = true;
  }
  stats.status = error ? MapStatus::rejected : warning ? MapStatus::warnings : MapStatus::ok;
  if (stats.format == MapFormat::teeworlds) stats.teeworlds = teeworlds_verdict(stats);
}

}  // namespace mapindex
