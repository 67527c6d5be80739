#include "stages/write/query_runner.h"

#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <memory>

#include "stages/write/index_db.h"

namespace mapindex::index {
namespace {

struct Connection {
  sqlite3* db = nullptr;
  ~Connection() { sqlite3_close_v2(db); }
};

struct Prepared {
  sqlite3_stmt* stmt = nullptr;
  ~Prepared() { sqlite3_finalize(stmt); }
};

Cell read_cell(sqlite3_stmt* stmt, int i) {
  Cell cell;
  switch (sqlite3_column_type(stmt, i)) {
    case SQLITE_NULL: break;
    case SQLITE_INTEGER:
      cell.type = Cell::Type::integer;
      cell.text = std::to_string(sqlite3_column_int64(stmt, i));
      break;
    case SQLITE_FLOAT:
      cell.type = Cell::Type::real;
      cell.finite = std::isfinite(sqlite3_column_double(stmt, i));
      cell.text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, i));
      break;
    case SQLITE_BLOB: {
      cell.type = Cell::Type::blob;
      const auto* bytes = static_cast<const unsigned char*>(sqlite3_column_blob(stmt, i));
      const int n = sqlite3_column_bytes(stmt, i);
      static constexpr char digits[] = "0123456789abcdef";
      for (int k = 0; k < n; ++k) {
        cell.text += digits[bytes[k] >> 4];
        cell.text += digits[bytes[k] & 15];
      }
      break;
    }
    default: {
      cell.type = Cell::Type::text;
      const auto* text = sqlite3_column_text(stmt, i);
      if (text)
        cell.text.assign(reinterpret_cast<const char*>(text),
                         static_cast<std::size_t>(sqlite3_column_bytes(stmt, i)));
    }
  }
  return cell;
}

// Damage, an I/O error or a lock held too long are the index's fault; any
// other failure (bad SQL, a write query_only refuses, an ATTACH of a missing
// file) is the query's.
Error sql_error(sqlite3* db) {
  const int primary = sqlite3_extended_errcode(db) & 0xff;
  const bool index_fault = primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB ||
                           primary == SQLITE_IOERR || primary == SQLITE_FULL ||
                           primary == SQLITE_NOMEM || primary == SQLITE_BUSY;
  return Error{index_fault ? index_error_code(primary) : "query.sql", sqlite3_errmsg(db)};
}

// The progress handler: a non-zero return interrupts the statement.
int poll_stop(void* stop) { return reinterpret_cast<bool (*)()>(stop)() ? 1 : 0; }

}  // namespace

Result<std::int64_t> run_query(const std::string& db_path, const std::string& sql,
                               QueryFormat format, std::ostream& out, bool (*stop)()) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(db_path, ec))
    return Error{"query.open", "index '" + db_path + "' does not exist (create it with "
                                                     "`mapindex index --db " + db_path + " ...`)"};
  auto handle = open_sqlite_read_only(db_path);
  if (!handle) return handle.error();
  Connection connection{*handle};
  sqlite3* db = connection.db;
  if (stop) sqlite3_progress_handler(db, 1000, poll_stop, reinterpret_cast<void*>(stop));
  const auto failed = [&](sqlite3* d) {
    if (stop && stop()) return Error{"query.interrupted", "interrupted"};
    return sql_error(d);
  };
  if (sqlite3_exec(db, "PRAGMA query_only = ON; PRAGMA cache_size = -32768", nullptr, nullptr,
                   nullptr) != SQLITE_OK)
    return Error{"query.open", "cannot open index '" + db_path + "': " + sqlite3_errmsg(db)};

  std::int64_t rows = 0;
  int result_sets = 0;
  bool any_statement = false;
  const char* next = sql.c_str();
  const char* const end = sql.c_str() + sql.size();
  while (next < end) {
    Prepared prepared;
    const char* tail = nullptr;
    if (sqlite3_prepare_v2(db, next, static_cast<int>(end - next), &prepared.stmt, &tail) !=
        SQLITE_OK)
      return failed(db);
    next = tail;
    if (!prepared.stmt) continue;  // whitespace or a comment
    any_statement = true;
    sqlite3_stmt* stmt = prepared.stmt;
    if (!sqlite3_stmt_readonly(stmt))
      return Error{"query.write", "`" + std::string(sqlite3_sql(stmt)) +
                                      "` would write: mapindex query only reads the index"};

    const int n = sqlite3_column_count(stmt);
    std::unique_ptr<ResultPrinter> printer;
    if (n > 0) {
      if (format == QueryFormat::table && result_sets > 0) out << '\n';
      ++result_sets;
      printer = make_printer(format, out);
      std::vector<std::string> names;
      for (int i = 0; i < n; ++i) names.emplace_back(sqlite3_column_name(stmt, i));
      printer->columns(names);
    }
    std::vector<Cell> cells(static_cast<std::size_t>(n));
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      if (!printer) continue;
      for (int i = 0; i < n; ++i) cells[static_cast<std::size_t>(i)] = read_cell(stmt, i);
      printer->row(cells);
      ++rows;
    }
    if (rc != SQLITE_DONE) {
      if (printer) printer->finish();
      return failed(db);
    }
    if (printer) printer->finish();
  }
  if (!any_statement) return Error{"query.empty", "no SQL statement given"};
  out.flush();
  return rows;
}

}  // namespace mapindex::index
