// Every problem and error code, in one table: the enum name, the stable
// string (stored in the index, printed in text and JSON), the severity, where
// the code appears, what the Teeworlds-family games do with a map that breaks
// the rule, a title of at most about six words (printed beside the code:
// "H5 file cut short or too long"), a one-line meaning and a hint for the
// mapper. The index's problem_codes table, `mapindex explain` and
// docs/problem-codes.md are this table (tests/test_problem_codes.cpp checks
// them); every code that can reach the index has a fixture there that
// triggers it. The audit's release checks are in it too (group release).
//
// Codes are the enum everywhere between stages; the string is used only at the
// edges (SQL, JSON, text, messages). Two codes may share a string when the
// same string is stored with two severities (V6, read.empty).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "common/problem_codes_entry_tool.h"
#include "common/problem_codes_map.h"

namespace mapindex {

// error: the game refuses the map (or the entry cannot be read); warning: the
// map loads, but something is wrong that a player can meet; info: hygiene that
// cannot break the map in any game (unused data, editor-only data). A map's
// status counts errors and warnings only: a map with only info findings is ok.
enum class Severity : unsigned char { error, warning, info };

inline std::string_view to_string(Severity s) {
  return s == Severity::error ? "error" : s == Severity::warning ? "warning" : "info";
}

// Where a code comes from, and where it appears (the sections of
// docs/problem-codes.md; the scope column of the index's problem_codes).
enum class CodeGroup : unsigned char {
  container,   // the datafile container (src/decode/datafile); stored with the map
  data_item,   // reading a data item: only inside the message of another problem
  map_rule,    // DDNet's map-level rules (M*): the map is rejected
  check,       // further checks: the map loads, but something is wrong (warnings), or
               // hygiene that cannot break the map (info)
  spritetile,  // SpriteTile levels
  entry,       // reading inputs and writing entries; stored with the entry
  release,     // a release check of the audit (a finding per map); never stored
  tool,        // an error of a command (exit status); never stored
};

std::string_view to_string(CodeGroup g);

// What a game's server does with a map that breaks a rule that makes DDNet
// reject the map (docs/formats/map-loaders.md has the evidence per rule).
enum class GameLoad : unsigned char {
  none,         // not a rule that rejects a map (warnings, reading, SpriteTile, tools)
  refuses,      // DDNet's column: DDNet refuses the map
  loads,        // the game loads the map: it does not check this, or it is harmless there
  fails,        // the game refuses the map, or crashes or reads out of bounds on it
  game_layer,   // fails when the problem is at the game layer (or the whole file)
  tile_layers,  // fails when the problem is at the game layer or a plain tiles layer
};

// What the Teeworlds columns say, and why, rule by rule: docs/formats/map-loaders.md.
// Problems at DDNet-only layers (front, tele, speedup, switch, tune) never
// fail 0.6 or 0.7; for 0.7 the later reader (0.7.5) is assumed.
std::string_view to_string(GameLoad g);

// X(name, "string", severity, group, DDNet, Teeworlds 0.6, Teeworlds 0.7, "title", "meaning",
//   "hint"), in two parts, in table order: maps and levels (problem_codes_map.h),
// then entries, release checks and commands (problem_codes_entry_tool.h).
#define MAPINDEX_CODES(X) MAPINDEX_MAP_CODES(X) MAPINDEX_ENTRY_TOOL_CODES(X)

enum class Code : std::uint16_t {
#define MAPINDEX_CODE_ENUM(name, string, severity, group, ddnet, tw06, tw07, title, meaning, hint) \
  name,
  MAPINDEX_CODES(MAPINDEX_CODE_ENUM)
#undef MAPINDEX_CODE_ENUM
};

struct CodeInfo {
  Code code;
  std::string_view string;
  Severity severity;
  CodeGroup group;
  GameLoad ddnet, teeworlds06, teeworlds07;
  std::string_view title;  // at most about six words, lower case, no full stop
  std::string_view meaning;
  std::string_view hint;  // what the mapper (or the user of a command) can do: sentences
};

// The table, in enum order (kCodeTable[i].code == Code(i), checked in
// problem_codes.cpp). In the header so that a code's string and severity are
// constants (the audit's rule names are).
inline constexpr CodeInfo kCodeTable[] = {
#define MAPINDEX_CODE_INFO(name, string, severity, group, ddnet, tw06, tw07, title, meaning, hint) \
  CodeInfo{Code::name,                                                                             \
           string,                                                                                 \
           Severity::severity,                                                                     \
           CodeGroup::group,                                                                       \
           GameLoad::ddnet,                                                                        \
           GameLoad::tw06,                                                                         \
           GameLoad::tw07,                                                                         \
           title,                                                                                  \
           meaning,                                                                                \
           hint},
    MAPINDEX_CODES(MAPINDEX_CODE_INFO)
#undef MAPINDEX_CODE_INFO
};

constexpr std::span<const CodeInfo> code_table() { return kCodeTable; }
constexpr const CodeInfo& info(Code code) { return kCodeTable[static_cast<std::size_t>(code)]; }

constexpr std::string_view to_string(Code code) { return info(code).string; }
constexpr Severity severity_of(Code code) { return info(code).severity; }

// The audit's release checks (src/audit/audit_rules.cpp): the codes of
// group release, and the map checks it also reports as findings of its own
// (image.unused, image.external_nonstandard).
inline constexpr Code kReleaseChecks[] = {
    Code::map_rejected, Code::race_no_time_checkpoints, Code::image_duplicate,
    Code::image_unused, Code::image_embedded_standard,  Code::image_external_nonstandard,
    Code::name_similar,
};
bool is_release_check(Code code);

// Lookup by the stored string, for the edges that hold strings (rows of the
// index, the audit's findings): the code with that string and, when given,
// that severity (else the first in the table: V6 and read.empty give their
// error). nullptr for a string that is no code.
const CodeInfo* find_code(std::string_view string, std::optional<Severity> severity = std::nullopt);
// The title of the code with that string, or "" when it is no code.
std::string_view code_title(std::string_view string,
                            std::optional<Severity> severity = std::nullopt);
// The code with its title, as every output prints it: "H5 file cut short or
// too long"; the string alone when it is no code.
std::string titled_code(std::string_view string, std::optional<Severity> severity = std::nullopt);

}  // namespace mapindex
