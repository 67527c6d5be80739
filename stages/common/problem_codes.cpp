#include "stages/common/problem_codes.h"

#include <array>

namespace mapindex {
namespace {

constexpr std::array kCodes = {
#define MAPINDEX_CODE_INFO(name, string, severity, group, ddnet, tw06, tw07, meaning) \
  CodeInfo{Code::name,      string,         Severity::severity, CodeGroup::group,     \
           GameLoad::ddnet, GameLoad::tw06, GameLoad::tw07,     meaning},
    MAPINDEX_CODES(MAPINDEX_CODE_INFO)
#undef MAPINDEX_CODE_INFO
};

constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < kCodes.size(); ++i)
    if (static_cast<std::size_t>(kCodes[i].code) != i) return false;
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
    case CodeGroup::tool: return "command";
  }
  return "";
}

std::span<const CodeInfo> code_table() { return kCodes; }

const CodeInfo& info(Code code) { return kCodes[static_cast<std::size_t>(code)]; }

}  // namespace mapindex
