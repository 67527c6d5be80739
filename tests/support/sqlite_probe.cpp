#include "tests/support/sqlite_probe.h"

#include <sqlite3.h>

#include <stdexcept>

#include "stages/sqlite/statement.h"

namespace mapindex::testing {

std::vector<Row> sql_rows(const std::filesystem::path& db, const std::string& sql) {
  index::Connection connection;
  if (connection.open(db.string(), SQLITE_OPEN_READONLY) != SQLITE_OK)
    throw std::runtime_error("cannot open " + db.string() + ": " +
                             (connection ? sqlite3_errmsg(connection.get()) : "out of memory"));
  sqlite3_busy_timeout(connection.get(), 10000);
  index::Statement statement(connection.get(), sql);  // throws index::IndexError
  std::vector<Row> rows;
  while (statement.step()) {
    Row row;
    for (int i = 0; i < statement.column_count(); ++i)
      row.push_back(statement.column_is_null(i) ? "NULL" : statement.column_text(i));
    rows.push_back(std::move(row));
  }
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
