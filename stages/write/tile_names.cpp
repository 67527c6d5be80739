#include "stages/write/tile_names.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "stages/sqlite/statement.h"

namespace mapindex::index {
namespace {

bool by_key(const TileName& a, const TileName& b) {
  return std::tie(a.layer_kind, a.tile) < std::tie(b.layer_kind, b.tile);
}

}  // namespace

const std::vector<TileName>& builtin_tile_names() {
  try {
    return teeworlds::builtin_tile_names();
  } catch (const std::runtime_error& e) {
    throw IndexError(e.what());
  }
}

void sync_tile_names(sqlite3* db, const std::vector<TileName>& names,
                     const std::function<void()>& before_writing) {
  std::vector<TileName> sorted = names;
  std::sort(sorted.begin(), sorted.end(), by_key);

  std::vector<TileName> stored;
  Statement select(db,
                   "SELECT layer_kind, tile, name, category FROM tile_names "
                   "ORDER BY layer_kind, tile");
  while (select.step())
    stored.push_back({select.column_text(0), static_cast<std::int32_t>(select.column_int(1)),
                      select.column_text(2), select.column_text(3)});
  select.reset();
  if (stored == sorted) return;

  if (before_writing) before_writing();
  exec_sql(db, "BEGIN IMMEDIATE");
  try {
    exec_sql(db, "DELETE FROM tile_names");
    Statement insert(db,
                     "INSERT INTO tile_names (layer_kind, tile, name, category) "
                     "VALUES (?, ?, ?, ?)");
    for (const auto& n : sorted) insert.bind_all(n.layer_kind, n.tile, n.name, n.category).run();
    exec_sql(db, "COMMIT");
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

}  // namespace mapindex::index
