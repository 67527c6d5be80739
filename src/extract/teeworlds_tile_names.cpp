#include "extract/teeworlds_tile_names.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "extract/tile_names_csv.h"

namespace mapindex::teeworlds {
namespace {

constexpr std::string_view kHeader = "layer_kind,tile,name,category";

// The physics kind named `s` in the CSV's layer_kind column (its to_string
// name).
std::optional<LayerKind> kind_of(std::string_view s) {
  for (std::size_t k = 0; k < kNumTilemapKinds; ++k)
    if (is_physics(static_cast<LayerKind>(k)) && to_string(static_cast<LayerKind>(k)) == s)
      return static_cast<LayerKind>(k);
  return std::nullopt;
}

bool by_key(const TileName& a, const TileName& b) {
  return std::tie(a.layer_kind, a.tile) < std::tie(b.layer_kind, b.tile);
}

// The fields of one line, or an error message.
Result<std::vector<std::string>> split_fields(std::string_view line) {
  std::vector<std::string> fields;
  std::size_t i = 0;
  while (true) {
    std::string field;
    if (i < line.size() && line[i] == '"') {
      ++i;
      while (true) {
        if (i >= line.size()) return Error{Code::tile_names_quote, "a quoted field is not closed"};
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += line[i++];
      }
      if (i < line.size() && line[i] != ',')
        return Error{Code::tile_names_quote, "text after the closing quote of a field"};
    } else {
      const std::size_t comma = std::min(line.find(',', i), line.size());
      field.assign(line.substr(i, comma - i));
      if (field.find('"') != std::string::npos)
        return Error{Code::tile_names_quote, "a quote inside an unquoted field"};
      i = comma;
    }
    fields.push_back(std::move(field));
    if (i >= line.size()) return fields;
    ++i;  // the comma
  }
}

std::vector<TileName> load_builtin() {
  auto parsed = parse_tile_names_csv(embedded_tile_names_csv());
  if (!parsed) throw std::runtime_error("schema/tile_names.csv: " + parsed.error().message);
  return std::move(parsed).value();
}

}  // namespace

Result<std::vector<TileName>> parse_tile_names_csv(std::string_view csv) {
  std::vector<TileName> names;
  std::size_t line_number = 0;
  bool header_seen = false;
  while (!csv.empty()) {
    const auto end = csv.find('\n');
    std::string_view line = csv.substr(0, end);
    csv = end == std::string_view::npos ? std::string_view{} : csv.substr(end + 1);
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const std::string where = "line " + std::to_string(line_number);
    if (!header_seen) {
      if (line != kHeader)
        return Error{Code::tile_names_header, where + ": header is '" + std::string(line) +
                                                  "', expected '" + std::string(kHeader) + "'"};
      header_seen = true;
      continue;
    }
    auto fields = split_fields(line);
    if (!fields) return Error{fields.error().code, where + ": " + fields.error().message};
    if (fields->size() != 4)
      return Error{Code::tile_names_fields,
                   where + ": " + std::to_string(fields->size()) + " fields, expected 4"};
    auto& f = *fields;
    TileName name{f[0], 0, f[2], f[3]};
    const auto [ptr, ec] = std::from_chars(f[1].data(), f[1].data() + f[1].size(), name.tile);
    if (ec != std::errc{} || ptr != f[1].data() + f[1].size() || name.tile < 0 || name.tile > 255)
      return Error{Code::tile_names_tile, where + ": tile '" + f[1] + "' is not a number 0..255"};
    if (!kind_of(name.layer_kind))
      return Error{Code::tile_names_kind,
                   where + ": layer kind '" + name.layer_kind +
                       "' is not game, front, tele, speedup, switch or tune"};
    if (name.name.empty()) return Error{Code::tile_names_empty, where + ": empty name"};
    if (name.category != "tile" && name.category != "entity")
      return Error{Code::tile_names_category,
                   where + ": category '" + name.category + "' is not 'tile' or 'entity'"};
    names.push_back(std::move(name));
  }
  if (!header_seen) return Error{Code::tile_names_header, "empty file, expected a header line"};
  std::sort(names.begin(), names.end(), by_key);
  for (std::size_t i = 1; i < names.size(); ++i) {
    if (!by_key(names[i - 1], names[i]))
      return Error{Code::tile_names_duplicate, "tile " + std::to_string(names[i].tile) +
                                                   " of layer '" + names[i].layer_kind +
                                                   "' appears twice"};
  }
  return names;
}

const std::vector<TileName>& builtin_tile_names() {
  static const std::vector<TileName> names = load_builtin();
  return names;
}

TileNameTables tile_name_tables(const std::vector<TileName>& rows) {
  TileNameTables tables{};
  for (const auto& row : rows) {
    const auto kind = kind_of(row.layer_kind);
    if (!kind || row.tile < 0 || row.tile > 255) continue;  // parse_tile_names_csv refuses these
    auto& table = tables[static_cast<std::size_t>(*kind)];
    const auto key = static_cast<std::size_t>(row.tile);
    table.category[key] = row.category == "entity" ? TileCategory::entity : TileCategory::tile;
    table.name[key] = row.name;
  }
  return tables;
}

const TileNameTable* tile_names(LayerKind kind) {
  static const TileNameTables tables = tile_name_tables(builtin_tile_names());
  if (!is_physics(kind)) return nullptr;
  return &tables[static_cast<std::size_t>(kind)];
}

}  // namespace mapindex::teeworlds
