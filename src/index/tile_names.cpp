#include "index/tile_names.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "extract/teeworlds_features.h"
#include "sqlite/statement.h"

namespace mapindex::index {
namespace {

bool by_key(const TileName& a, const TileName& b) {
  return std::tie(a.layer_kind, a.tile) < std::tie(b.layer_kind, b.tile);
}

bool has_mapinfo_column(sqlite3* db) {
  sqlite::Statement q(db, "SELECT count(*) FROM pragma_table_info('tile_names') WHERE name = ?");
  q.bind_all("mapinfo_name");
  return q.step() && q.column_int(0) == 1;
}

}  // namespace

const std::vector<TileName>& builtin_tile_names() {
  try {
    return teeworlds::builtin_tile_names();
  } catch (const std::runtime_error& e) {
    throw sqlite::IndexError(e.what());
  }
}

void sync_tile_names(sqlite3* db, const std::vector<TileName>& names,
                     const std::function<void()>& before_writing) {
  std::vector<TileName> sorted = names;
  std::sort(sorted.begin(), sorted.end(), by_key);
  // tile_names.mapinfo_name (schema 10 on; a test's older schema has no
  // such column): the ddnet_mapinfo column each tile sets.
  const bool with_mapinfo = has_mapinfo_column(db);
  std::vector<std::string> mapinfo;
  for (const auto& n : sorted)
    mapinfo.emplace_back(with_mapinfo ? teeworlds::ddnet_feature_of(n.layer_kind, n.tile) : "");

  std::vector<TileName> stored;
  std::vector<std::string> stored_mapinfo;
  sqlite::Statement select(db, std::string("SELECT layer_kind, tile, name, category, ") +
                                   (with_mapinfo ? "coalesce(mapinfo_name, '')" : "''") +
                                   " FROM tile_names ORDER BY layer_kind, tile");
  while (select.step()) {
    stored.push_back({select.column_text(0), static_cast<std::int32_t>(select.column_int(1)),
                      select.column_text(2), select.column_text(3)});
    stored_mapinfo.push_back(select.column_text(4));
  }
  select.reset();
  if (stored == sorted && stored_mapinfo == mapinfo) return;

  if (before_writing) before_writing();
  sqlite::exec_sql(db, "BEGIN IMMEDIATE");
  try {
    sqlite::exec_sql(db, "DELETE FROM tile_names");
    if (with_mapinfo) {
      sqlite::Statement insert(
          db,
          "INSERT INTO tile_names (layer_kind, tile, name, category, mapinfo_name) "
          "VALUES (?, ?, ?, ?, nullif(?, ''))");
      for (std::size_t i = 0; i < sorted.size(); ++i) {
        const auto& n = sorted[i];
        insert.bind_all(n.layer_kind, n.tile, n.name, n.category, mapinfo[i]).run();
      }
    } else {
      sqlite::Statement insert(db,
                               "INSERT INTO tile_names (layer_kind, tile, name, category) "
                               "VALUES (?, ?, ?, ?)");
      for (const auto& n : sorted) insert.bind_all(n.layer_kind, n.tile, n.name, n.category).run();
    }
    sqlite::exec_sql(db, "COMMIT");
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

}  // namespace mapindex::index
