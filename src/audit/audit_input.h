// What the audit reads from the index, as plain data: the entries one run saw
// in one source, and the facts about the maps they hold. The loader
// (src/audit/audit_loader.h) fills these from SQLite; the comparison and
// the rules are pure functions over them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "audit/audit_report.h"
#include "common/problem.h"
#include "extract/game_verdict.h"

namespace mapindex::audit {

// A problem as stored (no location: the audit compares codes).
struct ProblemRef {
  Severity severity = Severity::error;
  std::string code;
  std::string message;
};

// One entry one run saw. `state.status` is the map's status for maps.
struct SeenEntry {
  std::int64_t file_id = 0;
  std::int64_t version_id = 0;  // the content seen (file_versions)
  std::string name;             // file name without folder and extension
  EntryState state;
  // Problems of the entry itself (unreadable, oversize); a map's problems are
  // in its MapFacts.
  std::vector<ProblemRef> entry_problems;
  // An error that may have cut the run's reading of the source short, stored
  // as an unreadable entry: the source itself ("" path) could not be read, or
  // an entry's reading ended with read.truncated. When run_sources.reading
  // says the reading was cut short, it is not an entry of the source.
  bool reading_error = false;
};

struct ImageFacts {
  std::int32_t index = 0;
  std::string name;
  bool external = false;
  bool standard_name = false;  // one of the game's standard external images
  std::int64_t width = 0, height = 0;
  std::int64_t data_stored_size = -1;  // -1 when external
  bool used = false;                   // a layer uses it
};

struct MapFacts {
  Game game = Game::ddnet;  // whose verdict `status` is
  MapStatus status = MapStatus::ok;
  std::vector<ProblemRef> problems;
  std::vector<ImageFacts> images;  // by index
  // On the game or front layers: START (33), FINISH (34), any time
  // checkpoint (35..59).
  bool has_start = false;
  bool has_finish = false;
  bool has_time_checkpoint = false;
  // The game layer's size (0 x 0 without one).
  std::int64_t game_width = 0, game_height = 0;
  // The author named in the map's info ("" when it names none).
  std::string author;
  // The SHA-256 of each tile layer's stored data (layer_data.sha256), sorted
  // and distinct, of the layers with a tile (an empty layer of one size is
  // the same in every map): loaded only for the maps whose entry may have
  // been replaced by another map (source_comparison.h); nullopt when not.
  std::optional<std::vector<std::string>> layer_data;
};

using MapFactsById = std::unordered_map<std::int64_t, MapFacts>;

}  // namespace mapindex::audit
