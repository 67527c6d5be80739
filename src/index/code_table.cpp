#include "index/code_table.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "common/problem_codes.h"
#include "sqlite/statement.h"

namespace mapindex::index {
namespace {

// code, severity, title, scope, release_check, meaning, ddnet, teeworlds_06,
// teeworlds_07, hint: the columns in table order; "" for a NULL verdict.
using Row = std::array<std::string, 10>;

std::string verdict(GameLoad g) { return std::string(to_string(g)); }

std::vector<Row> program_rows() {
  std::vector<Row> rows;
  for (const auto& c : code_table())
    rows.push_back({std::string(c.string), std::string(to_string(c.severity)), std::string(c.title),
                    std::string(to_string(c.group)), is_release_check(c.code) ? "1" : "0",
                    std::string(c.meaning), verdict(c.ddnet), verdict(c.teeworlds06),
                    verdict(c.teeworlds07), std::string(c.hint)});
  // As SQLite orders the primary key (BINARY: byte order, as std::string).
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace

void sync_problem_codes(sqlite3* db, const std::function<void()>& before_writing) {
  if (!sqlite::schema_has(db, "table", "problem_codes")) return;
  const std::vector<Row> rows = program_rows();
  std::vector<Row> stored;
  {
    sqlite::Statement select(
        db,
        "SELECT code, severity, title, scope, release_check, meaning, "
        "coalesce(ddnet, ''), coalesce(teeworlds_06, ''), coalesce(teeworlds_07, ''), "
        "hint FROM problem_codes ORDER BY code, severity");
    while (select.step()) {
      Row r;
      for (std::size_t i = 0; i < r.size(); ++i) r[i] = select.column_text(static_cast<int>(i));
      stored.push_back(std::move(r));
    }
  }
  if (stored == rows) return;

  if (before_writing) before_writing();
  sqlite::exec_sql(db, "BEGIN IMMEDIATE");
  try {
    sqlite::exec_sql(db, "DELETE FROM problem_codes");
    sqlite::Statement insert(
        db,
        "INSERT INTO problem_codes (code, severity, title, scope, release_check, "
        "meaning, ddnet, teeworlds_06, teeworlds_07, hint) "
        "VALUES (?, ?, ?, ?, ?, ?, nullif(?, ''), nullif(?, ''), nullif(?, ''), ?)");
    for (const auto& r : rows)
      insert.bind_all(r[0], r[1], r[2], r[3], std::stoi(r[4]), r[5], r[6], r[7], r[8], r[9]).run();
    sqlite::exec_sql(db, "COMMIT");
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

}  // namespace mapindex::index
