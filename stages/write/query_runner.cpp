#include "stages/write/query_runner.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <optional>
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
  return Error{index_fault ? index_error_code(primary) : Code::query_sql, sqlite3_errmsg(db)};
}

// The progress handler: a non-zero return interrupts the statement.
int poll_stop(void* stop) { return reinterpret_cast<bool (*)()>(stop)() ? 1 : 0; }

// Binds every parameter of `stmt` from `parameters`, marking the ones used.
std::optional<Error> bind_parameters(sqlite3_stmt* stmt, const std::vector<QueryParameter>& parameters,
                                     std::vector<bool>& used) {
  const int count = sqlite3_bind_parameter_count(stmt);
  for (int i = 1; i <= count; ++i) {
    const char* full = sqlite3_bind_parameter_name(stmt, i);
    if (!full || full[0] == '?')
      return Error{Code::query_parameter, "`" + std::string(sqlite3_sql(stmt)) +
                                          "` has a nameless parameter (?): name it :name and "
                                          "give its value with -p name=VALUE"};
    const std::string name = full + 1;  // without :, @ or $
    const auto found = std::find_if(parameters.begin(), parameters.end(),
                                    [&](const QueryParameter& p) { return p.name == name; });
    if (found == parameters.end())
      return Error{Code::query_parameter, "no value for " + std::string(full) + " (give it with -p " +
                                          name + "=VALUE)"};
    used[static_cast<std::size_t>(found - parameters.begin())] = true;
    int rc = SQLITE_OK;
    if (const auto* n = std::get_if<std::int64_t>(&found->value)) rc = sqlite3_bind_int64(stmt, i, *n);
    else if (const auto* d = std::get_if<double>(&found->value)) rc = sqlite3_bind_double(stmt, i, *d);
    else {
      const auto& text = std::get<std::string>(found->value);
      rc = sqlite3_bind_text(stmt, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    }
    if (rc != SQLITE_OK) return sql_error(sqlite3_db_handle(stmt));
  }
  return std::nullopt;
}

}  // namespace

Result<std::int64_t> run_query(const std::string& db_path, const std::string& sql,
                               QueryFormat format, std::ostream& out, bool (*stop)()) {
  return run_query(db_path, sql, QueryOptions{.format = format}, out, stop);
}

Result<std::int64_t> run_query(const std::string& db_path, const std::string& sql,
                               const QueryOptions& options, std::ostream& out, bool (*stop)()) {
  const QueryFormat format = options.format;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(db_path, ec))
    return Error{Code::query_open, "index '" + db_path + "' does not exist (create it with "
                                                     "`mapindex index --db " + db_path + " ...`)"};
  auto handle = open_sqlite_read_only(db_path);
  if (!handle) return handle.error();
  Connection connection{*handle};
  sqlite3* db = connection.db;
  if (stop) sqlite3_progress_handler(db, 1000, poll_stop, reinterpret_cast<void*>(stop));
  const auto failed = [&](sqlite3* d) {
    if (stop && stop()) return Error{Code::query_interrupted, "interrupted"};
    return sql_error(d);
  };
  if (sqlite3_exec(db, "PRAGMA query_only = ON; PRAGMA cache_size = -32768", nullptr, nullptr,
                   nullptr) != SQLITE_OK)
    return Error{Code::query_open, "cannot open index '" + db_path + "': " + sqlite3_errmsg(db)};

  // Prepare and check every statement before the first one runs: nothing is
  // printed for a query that would be refused halfway.
  std::vector<std::unique_ptr<Prepared>> statements;
  std::vector<bool> used(options.parameters.size(), false);
  const char* next = sql.c_str();
  const char* const end = sql.c_str() + sql.size();
  while (next < end) {
    auto prepared = std::make_unique<Prepared>();
    const char* tail = nullptr;
    if (sqlite3_prepare_v2(db, next, static_cast<int>(end - next), &prepared->stmt, &tail) !=
        SQLITE_OK)
      return failed(db);
    next = tail;
    if (!prepared->stmt) continue;  // whitespace or a comment
    sqlite3_stmt* stmt = prepared->stmt;
    if (!sqlite3_stmt_readonly(stmt))
      return Error{Code::query_write, "`" + std::string(sqlite3_sql(stmt)) +
                                      "` would write: mapindex query only reads the index"};
    if (auto error = bind_parameters(stmt, options.parameters, used)) return *error;
    statements.push_back(std::move(prepared));
  }
  if (statements.empty()) return Error{Code::query_empty, "no SQL statement given"};
  for (std::size_t i = 0; i < used.size(); ++i)
    if (!used[i])
      return Error{Code::query_parameter, "-p " + options.parameters[i].name +
                                          " is given but the SQL has no :" +
                                          options.parameters[i].name};

  std::int64_t rows = 0;
  int result_sets = 0;
  for (const auto& prepared : statements) {
    sqlite3_stmt* stmt = prepared->stmt;
    const int n = sqlite3_column_count(stmt);
    std::unique_ptr<ResultPrinter> printer;
    if (n > 0) {
      if (format == QueryFormat::table && result_sets > 0) out << '\n';
      ++result_sets;
      printer = make_printer(format, out, options.max_cell_width);
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
  out.flush();
  return rows;
}

}  // namespace mapindex::index
