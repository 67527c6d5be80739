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

std::string_view curve_type_name(std::size_t curve) {
  static constexpr std::string_view names[kNumCurveTypes] = {
      "step", "linear", "slow", "fast", "smooth", "bezier", "unknown"};
  return curve < kNumCurveTypes ? names[curve] : names[kNumCurveTypes - 1];
}

void finalize_status(MapStats& stats) {
  bool warning = false, error = false;
  for (const auto& p : stats.problems) (p.severity == Severity::error ? error : warning) = true;
  stats.status = error ? MapStatus::rejected : warning ? MapStatus::warnings : MapStatus::ok;
  if (stats.format == MapFormat::teeworlds) stats.teeworlds = teeworlds_verdict(stats);
}

}  // namespace mapindex
