#include "stages/write/tile_names.h"

#include <algorithm>
#include <charconv>
#include <tuple>

#include "stages/write/schema_files.h"
#include "stages/write/sqlite_statement.h"

namespace mapindex::index {
namespace {

constexpr std::string_view kHeader = "layer_kind,tile,name,category";

bool by_key(const TileName& a, const TileName& b) {
  return std::tie(a.layer_kind, a.tile) < std::tie(b.layer_kind, b.tile);
}

std::vector<TileName> load_builtin() {
  for (const auto& file : schema_files()) {
    if (file.name != "tile_names.csv") continue;
    auto parsed = parse_tile_names_csv(file.content);
    if (!parsed) throw IndexError("schema/tile_names.csv: " + parsed.error().message);
    return std::move(parsed).value();
  }
  throw IndexError("schema/tile_names.csv is not built into this binary");
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
    if (line.empty()) continue;
    const std::string where = "line " + std::to_string(line_number);
    if (!header_seen) {
      if (line != kHeader)
        return Error{Code::tile_names_header, where + ": header is '" + std::string(line) +
                                              "', expected '" + std::string(kHeader) + "'"};
      header_seen = true;
      continue;
    }
    if (line.find('"') != std::string_view::npos)
      return Error{Code::tile_names_quote, where + ": quoted fields are not supported"};
    std::vector<std::string_view> fields;
    std::size_t start = 0;
    while (true) {
      const auto comma = line.find(',', start);
      fields.push_back(line.substr(start, comma == std::string_view::npos ? comma : comma - start));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (fields.size() != 4)
      return Error{Code::tile_names_fields,
                   where + ": " + std::to_string(fields.size()) + " fields, expected 4"};
    TileName name{std::string(fields[0]), 0, std::string(fields[2]), std::string(fields[3])};
    const auto tile = fields[1];
    const auto [ptr, ec] = std::from_chars(tile.data(), tile.data() + tile.size(), name.tile);
    if (ec != std::errc{} || ptr != tile.data() + tile.size())
      return Error{Code::tile_names_tile, where + ": tile '" + std::string(tile) + "' is not a number"};
    if (name.layer_kind.empty() || name.name.empty())
      return Error{Code::tile_names_empty, where + ": empty layer kind or name"};
    names.push_back(std::move(name));
  }
  if (!header_seen) return Error{Code::tile_names_header, "empty file, expected a header line"};
  std::sort(names.begin(), names.end(), by_key);
  for (std::size_t i = 1; i < names.size(); ++i) {
    if (!by_key(names[i - 1], names[i]))
      return Error{Code::tile_names_duplicate, "tile " + std::to_string(names[i].tile) + " of layer '" +
                                               names[i].layer_kind + "' appears twice"};
  }
  return names;
}

const std::vector<TileName>& builtin_tile_names() {
  static const std::vector<TileName> names = load_builtin();
  return names;
}

void sync_tile_names(sqlite3* db, const std::vector<TileName>& names) {
  std::vector<TileName> sorted = names;
  std::sort(sorted.begin(), sorted.end(), by_key);

  std::vector<TileName> stored;
  Statement select(db, "SELECT layer_kind, tile, name, category FROM tile_names "
                       "ORDER BY layer_kind, tile");
  while (select.step())
    stored.push_back({select.column_text(0), static_cast<std::int32_t>(select.column_int(1)),
                      select.column_text(2), select.column_text(3)});
  select.reset();
  if (stored == sorted) return;

  exec_sql(db, "BEGIN IMMEDIATE");
  try {
    exec_sql(db, "DELETE FROM tile_names");
    Statement insert(db, "INSERT INTO tile_names (layer_kind, tile, name, category) "
                         "VALUES (?, ?, ?, ?)");
    for (const auto& n : sorted) insert.bind_all(n.layer_kind, n.tile, n.name, n.category).run();
    exec_sql(db, "COMMIT");
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

}  // namespace mapindex::index
