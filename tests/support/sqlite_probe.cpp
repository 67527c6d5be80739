#include "tests/support/sqlite_probe.h"

#include <sqlite3.h>

#include <stdexcept>

namespace mapindex::testing {

std::vector<Row> sql_rows(const std::filesystem::path& db, const std::string& sql) {
  sqlite3* h = nullptr;
  if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    std::string msg = h ? sqlite3_errmsg(h) : "out of memory";
    sqlite3_close(h);
    throw std::runtime_error("cannot open " + db.string() + ": " + msg);
  }
  sqlite3_busy_timeout(h, 10000);
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    std::string msg = sqlite3_errmsg(h);
    sqlite3_close(h);
    throw std::runtime_error("bad SQL '" + sql + "': " + msg);
  }
  std::vector<Row> rows;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    Row row;
    for (int i = 0; i < sqlite3_column_count(st); ++i) {
      const auto* text = sqlite3_column_text(st, i);
      row.emplace_back(text ? reinterpret_cast<const char*>(text) : "NULL");
    }
    rows.push_back(std::move(row));
  }
  std::string msg = rc == SQLITE_DONE ? "" : sqlite3_errmsg(h);
  sqlite3_finalize(st);
  sqlite3_close(h);
  if (!msg.empty()) throw std::runtime_error("SQL '" + sql + "' failed: " + msg);
  return rows;
}

std::string sql_value(const std::filesystem::path& db, const std::string& sql) {
  auto rows = sql_rows(db, sql);
  if (rows.empty() || rows[0].empty()) throw std::runtime_error("no rows for '" + sql + "'");
  return rows[0][0];
}

std::int64_t sql_int(const std::filesystem::path& db, const std::string& sql) {
  return std::stoll(sql_value(db, sql));
}

}  // namespace mapindex::testing
