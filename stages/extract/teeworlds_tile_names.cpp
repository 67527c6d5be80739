#include "stages/extract/teeworlds_tile_names.h"

#include <charconv>
#include <string_view>
#include <vector>

#include "stages/extract/tile_names_csv.h"

namespace mapindex::teeworlds {
namespace {

struct Tables {
  std::array<TileNameTable, kNumTilemapKinds> by_kind{};
};

// The physics kind named `s` in the CSV's layer_kind column (its to_string
// name), or -1.
int kind_of(std::string_view s) {
  for (std::size_t k = 0; k < kNumTilemapKinds; ++k)
    if (is_physics(static_cast<LayerKind>(k)) && to_string(static_cast<LayerKind>(k)) == s)
      return static_cast<int>(k);
  return -1;
}

std::vector<std::string_view> split(std::string_view line, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = line.find(sep, start);
    out.push_back(line.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

Tables load() {
  Tables t;
  std::string_view csv = embedded_tile_names_csv();
  bool header = true;
  while (!csv.empty()) {
    const std::size_t nl = csv.find('\n');
    std::string_view line = csv.substr(0, nl);
    csv = nl == std::string_view::npos ? std::string_view{} : csv.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    const auto fields = split(line, ',');
    if (fields.size() < 4) continue;
    const int kind = kind_of(fields[0]);
    int key = -1;
    std::from_chars(fields[1].data(), fields[1].data() + fields[1].size(), key);
    if (kind < 0 || key < 0 || key > 255) continue;
    auto& table = t.by_kind[static_cast<std::size_t>(kind)];
    table.category[static_cast<std::size_t>(key)] =
        fields[3] == "entity" ? TileCategory::entity : TileCategory::tile;
    table.name[static_cast<std::size_t>(key)] = std::string(fields[2]);
  }
  // X_FIRST .. X_LAST ranges: fill the keys between.
  for (auto& table : t.by_kind) {
    for (std::size_t first = 0; first < 256; ++first) {
      const std::string& n = table.name[first];
      if (!ends_with(n, "_FIRST")) continue;
      const std::string prefix = n.substr(0, n.size() - 6);
      for (std::size_t last = first + 1; last < 256; ++last) {
        if (table.name[last] != prefix + "_LAST") continue;
        for (std::size_t k = first + 1; k < last; ++k) {
          if (table.category[k] != TileCategory::invalid) continue;
          table.category[k] = table.category[first];
          table.name[k] = prefix + "_" + std::to_string(k - first);
        }
        break;
      }
    }
  }
  return t;
}

}  // namespace

const TileNameTable* tile_names(LayerKind kind) {
  static const Tables tables = load();
  if (!is_physics(kind)) return nullptr;
  return &tables.by_kind[index_of(kind)];
}

}  // namespace mapindex::teeworlds
