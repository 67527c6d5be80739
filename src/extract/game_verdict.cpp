#include "extract/game_verdict.h"

#include "extract/map_stats.h"

namespace mapindex {
namespace {

std::optional<LayerKind> layer_kind(const MapStats& stats, std::int64_t index) {
  for (const auto& l : stats.layers)
    if (l.layer_index == index) return l.kind;
  return std::nullopt;
}

// Whether a version whose column for the problem's rule is `load` fails on it.
bool breaks(GameLoad load, const Problem& p, const MapStats& stats) {
  switch (load) {
    case GameLoad::loads: return false;
    case GameLoad::game_layer:
    case GameLoad::tile_layers: {
      if (p.location.place != Place::layer) return true;  // the file: the game layer is concerned
      const auto kind = layer_kind(stats, p.location.index);
      if (!kind || *kind == LayerKind::game) return true;
      return load == GameLoad::tile_layers && *kind == LayerKind::tiles;
    }
    case GameLoad::none:  // an error without its own rules: the safe reading
    case GameLoad::refuses:
    case GameLoad::fails: return true;
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

TeeworldsVerdict teeworlds_verdict(const MapStats& stats) {
  TeeworldsVerdict v;
  for (const auto& p : stats.problems) {
    if (p.severity() != Severity::error) continue;
    const CodeInfo& rule = info(p.code);
    if (breaks(rule.teeworlds06, p, stats)) v.loads_06 = false;
    if (breaks(rule.teeworlds07, p, stats)) v.loads_07 = false;
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
