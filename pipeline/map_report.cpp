#include "pipeline/map_report.h"

#include <iomanip>

namespace mapindex {
namespace {

std::string opt(const std::optional<std::string>& s) { return s ? "\"" + *s + "\"" : "-"; }

}  // namespace

void print_map_report(std::ostream& out, const std::string& name, const read::FileDigest& digest,
                      const Measurement& m) {
  out << name << "\n";
  out << "  sha256 " << digest.sha256_hex() << "  crc32 " << digest.crc32_hex() << "  size "
      << digest.size << "\n";
  if (m.kind == ContentKind::not_a_map) {
    out << "  not a map: " << m.not_map_reason << "\n\n";
    return;
  }
  const MapStats& s = m.stats;
  out << "  format " << to_string(s.format) << " version " << s.format_version << "  status "
      << to_string(s.status) << "\n";
  if (s.format == MapFormat::teeworlds) {
    out << "  container: " << (s.reversed_magic ? "ATAD" : "DATA")
        << (s.crude_header ? ", crude v4 header" : "") << ", " << s.num_items << " items, "
        << s.num_data << " data items";
    for (const auto& u : s.uuid_types) out << ", uuid " << u;
    out << "\n";
    out << "  info: author " << opt(s.author) << ", version " << opt(s.map_version)
        << ", credits " << opt(s.credits) << ", license " << opt(s.license) << ", "
        << s.settings.size() << " settings\n";
    out << "  game layer " << s.game_width << "x" << s.game_height << ", " << s.groups.size()
        << " groups, " << s.layers.size() << " layers, " << s.images.size() << " images, "
        << s.envelopes.size() << " envelopes (" << s.num_envelope_points << " points), "
        << s.sounds.size() << " sounds\n";
  } else {
    out << "  " << s.layers.size() << " layers, " << s.tiles_per_set << " tiles per set\n";
  }
  for (const auto& l : s.layers) {
    out << "  layer " << std::setw(3) << l.layer_index << "  group " << std::setw(2)
        << l.group_index << "  " << std::left << std::setw(10) << to_string(l.kind) << std::right
        << " " << l.width << "x" << l.height << "  non-empty " << l.non_empty;
    if (!l.name.empty()) out << "  \"" << l.name << "\"";
    if (!l.entities.empty()) {
      out << "  entities:";
      for (const auto& e : l.entities) out << " " << e.name << "=" << e.count;
    }
    out << "\n";
  }
  if (!s.ddnet_features.empty()) {
    out << "  ddnet features:";
    for (const auto& f : s.ddnet_features) out << " " << f;
    out << "\n";
  }
  for (const auto& p : s.problems) {
    out << "  " << to_string(p.severity) << " " << p.code;
    if (!p.location.empty()) out << " (" << p.location << ")";
    out << ": " << p.message << "\n";
  }
  out << "\n";
}

}  // namespace mapindex
