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

namespace {

// A string's or a vector's capacity (a short string's characters live inside
// the string, so they are counted twice: an upper bound).
std::uint64_t bytes_of(const std::string& s) { return s.capacity(); }
template <class T>
std::uint64_t bytes_of(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}
std::uint64_t bytes_of(const std::optional<std::string>& s) { return s ? s->capacity() : 0; }

}  // namespace

std::uint64_t held_bytes(const std::vector<NamedCount>& counts) {
  std::uint64_t bytes = bytes_of(counts);
  for (const auto& c : counts) bytes += bytes_of(c.name);
  return bytes;
}

std::uint64_t held_bytes(const std::vector<LayerFinding>& findings) {
  std::uint64_t bytes = bytes_of(findings);
  for (const auto& f : findings) bytes += bytes_of(f.message);
  return bytes;
}

std::uint64_t held_bytes(const MapStats& stats) {
  std::uint64_t bytes =
      sizeof(MapStats) + bytes_of(stats.uuid_types) + bytes_of(stats.settings) +
      bytes_of(stats.groups) + bytes_of(stats.layers) + bytes_of(stats.images) +
      bytes_of(stats.envelopes) + bytes_of(stats.sounds) + bytes_of(stats.ddnet_features) +
      bytes_of(stats.problems) + bytes_of(stats.thumbnail_png) + bytes_of(stats.author) +
      bytes_of(stats.map_version) + bytes_of(stats.credits) + bytes_of(stats.license);
  for (const auto& t : stats.uuid_types) bytes += bytes_of(t);
  for (const auto& t : stats.settings) bytes += bytes_of(t);
  for (const auto& t : stats.ddnet_features) bytes += bytes_of(t);
  for (const auto& g : stats.groups) bytes += bytes_of(g.name);
  for (const auto& l : stats.layers) {
    bytes += bytes_of(l.name) + bytes_of(l.tile_counts) + held_bytes(l.entities) +
             bytes_of(l.numbers) + held_bytes(l.data_findings);
    if (l.spritetile) bytes += bytes_of(l.spritetile->triggers);
  }
  for (const auto& i : stats.images) bytes += bytes_of(i.name) + bytes_of(i.used_by);
  for (const auto& e : stats.envelopes) bytes += bytes_of(e.name) + bytes_of(e.used_by);
  for (const auto& s : stats.sounds) bytes += bytes_of(s.name) + bytes_of(s.used_by);
  for (const auto& p : stats.problems) bytes += bytes_of(p.message);
  return bytes;
}

}  // namespace mapindex
