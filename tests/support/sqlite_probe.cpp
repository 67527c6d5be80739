#include "tests/support/sqlite_probe.h"

#include <sqlite3.h>
#include <sys/xattr.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <stdexcept>

#include "index/index_stamp.h"
#include "sqlite/statement.h"
#include "tests/support/archive_builder.h"

namespace mapindex::testing {

std::vector<Row> sql_rows(const std::filesystem::path& db, const std::string& sql) {
  sqlite::Connection connection;
  if (connection.open(db.string(), SQLITE_OPEN_READONLY) != SQLITE_OK)
    throw std::runtime_error("cannot open " + db.string() + ": " +
                             (connection ? sqlite3_errmsg(connection.get()) : "out of memory"));
  sqlite3_busy_timeout(connection.get(), 10000);
  sqlite::Statement statement(connection.get(), sql);  // throws sqlite::IndexError
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

namespace {

IndexTables read_tables(const std::filesystem::path& db, const std::filesystem::path& reference,
                        const std::set<std::string>& varying) {
  IndexTables out;
  for (const auto& t : sql_rows(reference,
                                "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') "
                                "AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
    std::string columns;
    for (const auto& c : sql_rows(reference, "SELECT name FROM pragma_table_info('" + t[0] + "')"))
      if (!varying.count(c[0])) columns += (columns.empty() ? "\"" : ", \"") + c[0] + "\"";
    auto rows = sql_rows(db, "SELECT " + columns + " FROM \"" + t[0] + "\"");
    std::sort(rows.begin(), rows.end());
    out[t[0]] = std::move(rows);
  }
  return out;
}

}  // namespace

IndexTables index_tables(const std::filesystem::path& db) {
  return read_tables(db, db, {"started_at", "finished_at", "command", "pid"});
}

IndexTables index_tables_as(const std::filesystem::path& db,
                            const std::filesystem::path& reference) {
  return read_tables(db, reference,
                     {"started_at", "finished_at", "command", "pid", "tool_version"});
}

std::string first_difference(const IndexTables& a, const IndexTables& b) {
  for (const auto& [name, rows] : a) {
    auto it = b.find(name);
    if (it == b.end()) return name + ": missing on the right";
    if (rows == it->second) continue;
    std::vector<Row> only;
    std::set_symmetric_difference(rows.begin(), rows.end(), it->second.begin(), it->second.end(),
                                  std::back_inserter(only));
    std::string row;
    for (const auto& v : only.front()) row += v + "|";
    return name + ": " + std::to_string(rows.size()) + " vs " + std::to_string(it->second.size()) +
           " rows, e.g. " + row;
  }
  if (a.size() != b.size()) return "the right has more tables";
  return "";
}

std::string index_stamp(const std::filesystem::path& db) {
  char value[128];
  const auto n = getxattr(db.c_str(), index::kStampAttribute, value, sizeof value);
  return n > 0 ? std::string(value, static_cast<std::size_t>(n)) : std::string();
}

bool keeps_user_xattrs(const std::filesystem::path& dir) {
  const auto probe = dir / "xattr-probe";
  write_file(probe, std::vector<std::uint8_t>{1});
  const bool kept = setxattr(probe.c_str(), "user.mapindex.probe", "1", 1, 0) == 0;
  std::filesystem::remove(probe);
  return kept;
}

}  // namespace mapindex::testing
