#include "common/problem_codes.h"

#include <algorithm>

namespace mapindex {
namespace {

constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < std::size(kCodeTable); ++i)
    if (static_cast<std::size_t>(kCodeTable[i].code) != i) return false;
  return true;
}
static_assert(in_enum_order());

}  // namespace

std::string_view to_string(GameLoad g) {
  switch (g) {
    case GameLoad::none: return "";
    case GameLoad::refuses: return "refuses";
    case GameLoad::loads: return "loads";
    case GameLoad::fails: return "fails";
    case GameLoad::game_layer: return "game layer";
    case GameLoad::tile_layers: return "tile layers";
  }
  return "";
}

std::string_view to_string(CodeGroup g) {
  switch (g) {
    case CodeGroup::container: return "container";
    case CodeGroup::data_item: return "data item";
    case CodeGroup::map_rule: return "map rule";
    case CodeGroup::check: return "check";
    case CodeGroup::spritetile: return "SpriteTile";
    case CodeGroup::entry: return "entry";
    case CodeGroup::release: return "release check";
    case CodeGroup::tool: return "command";
  }
  return "";
}

bool is_release_check(Code code) {
  return std::find(std::begin(kReleaseChecks), std::end(kReleaseChecks), code) !=
         std::end(kReleaseChecks);
}

const CodeInfo* find_code(std::string_view string, std::optional<Severity> severity) {
  for (const auto& c : kCodeTable)
    if (c.string == string && (!severity || c.severity == *severity)) return &c;
  return nullptr;
}

std::string_view code_title(std::string_view string, std::optional<Severity> severity) {
  const CodeInfo* c = find_code(string, severity);
  return c ? c->title : std::string_view();
}

std::string titled_code(std::string_view string, std::optional<Severity> severity) {
  std::string out(string);
  if (const auto title = code_title(string, severity); !title.empty()) {
    out += ' ';
    out += title;
  }
  return out;
}

}  // namespace mapindex
