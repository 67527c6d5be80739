#include "stages/extract/game_verdict.h"

#include <charconv>

#include "stages/extract/map_stats.h"

namespace mapindex {
namespace {

struct CodeRules {
  std::string_view code;
  TeeworldsRules rules;
};

using enum GameRule;

// Per DDNet error rule: Teeworlds 0.6, then 0.7 (docs/formats/map-loaders.md).
constexpr CodeRules kRules[] = {
    {"H1", {fails, fails}},
    {"H2", {fails, fails}},
    {"H3", {fails, fails}},
    {"H4", {fails, fails}},
    {"H5", {loads, fails}},   // 0.6 reads a short data section without checking
    {"H6", {loads, fails}},   // 0.6 never reads `size`
    {"H7", {loads, fails}},   // 0.6 reads `swaplen` only on big-endian hosts
    {"H8", {fails, fails}},
    {"V1", {fails, fails}},
    {"V2", {fails, fails}},
    {"V3", {fails, fails}},
    {"V4", {loads, fails}},
    {"V5", {fails, fails}},
    {"V6", {fails, fails}},
    {"M1", {loads, fails}},   // 0.6 has no Version-item check
    {"M2", {fails, fails}},   // a bad layer range is dereferenced
    {"M3", {loads, loads}},
    {"M4", {loads, loads}},   // reads the neighbouring item's bytes
    {"M5", {loads, loads}},   // size, version and flags are not checked; the game flag wins
    {"M6", {loads, loads}},   // DDNet's extra data indices are never read
    {"M7", {fails_at_game_layer, fails_at_game_layer}},
    {"M8", {loads, loads}},   // the server ignores colours
    {"M10", {fails, fails}},  // the collision code dereferences the missing game layer
    {"M11", {fails_at_game_layer, fails_at_tile_layer}},  // 0.7's skip pass reads every tiles layer
    {"M13", {loads, loads}},  // DDNet-only layers are ignored
    {"M14", {fails_at_game_layer, fails_at_tile_layer}},
    {"M15", {loads, fails}},  // 0.6 ignores the zlib error; 0.7 gets no data and crashes
};

// "layer N" -> N.
std::optional<std::int32_t> layer_of(const Problem& p) {
  constexpr std::string_view prefix = "layer ";
  const std::string_view loc = p.location;
  if (loc.substr(0, prefix.size()) != prefix) return std::nullopt;
  std::int32_t n = 0;
  const auto* end = loc.data() + loc.size();
  auto [ptr, ec] = std::from_chars(loc.data() + prefix.size(), end, n);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return n;
}

std::optional<LayerKind> layer_kind(const MapStats& stats, std::int32_t index) {
  for (const auto& l : stats.layers)
    if (l.layer_index == index) return l.kind;
  return std::nullopt;
}

bool breaks(GameRule rule, const Problem& p, const MapStats& stats) {
  switch (rule) {
    case loads: return false;
    case fails: return true;
    case fails_at_game_layer:
    case fails_at_tile_layer: {
      const auto index = layer_of(p);
      if (!index) return true;  // at the file: the game layer is concerned
      const auto kind = layer_kind(stats, *index);
      if (!kind) return true;
      if (*kind == LayerKind::game) return true;
      return rule == fails_at_tile_layer && *kind == LayerKind::tiles;
    }
  }
  return true;
}

}  // namespace

std::string_view to_string(Game g) { return g == Game::teeworlds ? "teeworlds" : "ddnet"; }

std::optional<Game> parse_game(std::string_view name) {
  if (name == "ddnet") return Game::ddnet;
  if (name == "teeworlds") return Game::teeworlds;
  return std::nullopt;
}

TeeworldsRules teeworlds_rules(std::string_view code) {
  for (const auto& r : kRules)
    if (r.code == code) return r.rules;
  return {};
}

std::vector<std::string> teeworlds_rule_rows() {
  const auto word = [](GameRule r) -> std::string {
    switch (r) {
      case loads: return "loads";
      case fails: return "fails";
      case fails_at_game_layer: return "game layer";
      case fails_at_tile_layer: return "tile layers";
    }
    return "fails";
  };
  std::vector<std::string> rows;
  for (const auto& r : kRules)
    rows.push_back("| " + std::string(r.code) + " | " + word(r.rules.v06) + " | " +
                   word(r.rules.v07) + " |");
  return rows;
}

TeeworldsVerdict teeworlds_verdict(const MapStats& stats) {
  TeeworldsVerdict v;
  for (const auto& p : stats.problems) {
    if (p.severity != Severity::error) continue;
    const TeeworldsRules r = teeworlds_rules(p.code);
    if (breaks(r.v06, p, stats)) v.loads_06 = false;
    if (breaks(r.v07, p, stats)) v.loads_07 = false;
  }
  for (const auto& l : stats.layers)
    if (l.kind == LayerKind::game && l.skip_compressed) v.loads_06 = false;
  return v;
}

MapStatus status_for(const MapStats& stats, Game game) {
  if (game == Game::ddnet || !stats.teeworlds) return stats.status;
  if (!stats.teeworlds->loads_06 && !stats.teeworlds->loads_07) return MapStatus::rejected;
  return stats.status == MapStatus::ok ? MapStatus::ok : MapStatus::warnings;
}

}  // namespace mapindex
