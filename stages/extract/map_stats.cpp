#include "stages/extract/map_stats.h"

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

void finalize_status(MapStats& stats) {
  bool warning = false, error = false;
  for (const auto& p : stats.problems) (p.severity == Severity::error ? error : warning) = true;
  stats.status = error ? MapStatus::rejected : warning ? MapStatus::warnings : MapStatus::ok;
  if (stats.format == MapFormat::teeworlds) stats.teeworlds = teeworlds_verdict(stats);
}

}  // namespace mapindex
