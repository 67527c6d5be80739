#include "stages/query/query_runner.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>

#include "stages/common/hex.h"
#include "stages/sqlite/statement.h"

namespace mapindex::index {
namespace {

Cell read_cell(const Statement& stmt, int i) {
  Cell cell;
  switch (stmt.column_type(i)) {
    case SQLITE_NULL: break;
    case SQLITE_INTEGER:
      cell.type = Cell::Type::integer;
      cell.text = std::to_string(stmt.column_int(i));
      break;
    case SQLITE_FLOAT:
      cell.type = Cell::Type::real;
      cell.finite = std::isfinite(stmt.column_double(i));
      cell.text = stmt.column_text(i);
      break;
    case SQLITE_BLOB: {
      cell.type = Cell::Type::blob;
      cell.text = to_hex(stmt.column_blob(i));
      break;
    }
    default: cell.type = Cell::Type::text; cell.text = stmt.column_text(i);
  }
  return cell;
}

// Damage, an I/O error or a lock held too long are the index's fault (named
// by its path); any other failure (bad SQL, a write query_only refuses, an
// ATTACH of a missing file) is the query's.
Error sql_error(sqlite3* db, const std::string& path) {
  const int primary = sqlite3_extended_errcode(db) & 0xff;
  const bool index_fault = primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB ||
                           primary == SQLITE_IOERR || primary == SQLITE_FULL ||
                           primary == SQLITE_NOMEM || primary == SQLITE_BUSY;
  if (index_fault)
    return Error{index_error_code(primary), "index '" + path + "': " + sqlite3_errmsg(db)};
  return Error{Code::query_sql, sqlite3_errmsg(db)};
}

// The progress handler: a non-zero return interrupts the statement.
int poll_stop(void* stop) { return reinterpret_cast<bool (*)()>(stop)() ? 1 : 0; }

// Binds every parameter of `stmt` from `parameters`, marking the ones used.
// Throws IndexError when SQLite refuses a value.
std::optional<Error> bind_parameters(Statement& stmt, const std::vector<QueryParameter>& parameters,
                                     std::vector<bool>& used) {
  const int count = stmt.parameter_count();
  for (int i = 1; i <= count; ++i) {
    const std::string full = stmt.parameter_name(i);
    if (full.empty() || full[0] == '?')
      return Error{Code::query_parameter, "`" + stmt.sql() +
                                              "` has a nameless parameter (?): name it :name and "
                                              "give its value with -p name=VALUE"};
    const std::string name = full.substr(1);  // without :, @ or $
    const auto found = std::find_if(parameters.begin(), parameters.end(),
                                    [&](const QueryParameter& p) { return p.name == name; });
    if (found == parameters.end())
      return Error{Code::query_parameter,
                   "no value for " + full + " (give it with -p " + name + "=VALUE)"};
    used[static_cast<std::size_t>(found - parameters.begin())] = true;
    std::visit([&](const auto& value) { stmt.bind(i, value); }, found->value);
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
    return Error{Code::query_open, "index '" + db_path +
                                       "' does not exist (create it with "
                                       "`mapindex index --db " +
                                       db_path + " ...`)"};
  auto connection = open_sqlite_read_only(db_path);
  if (!connection) return connection.error();
  sqlite3* db = connection->get();
  if (stop) sqlite3_progress_handler(db, 1000, poll_stop, reinterpret_cast<void*>(stop));
  const auto failed = [&] {
    if (stop && stop()) return Error{Code::query_interrupted, "interrupted"};
    return sql_error(db, db_path);
  };
  if (sqlite3_exec(db, "PRAGMA query_only = ON; PRAGMA cache_size = -32768", nullptr, nullptr,
                   nullptr) != SQLITE_OK)
    return Error{Code::query_open, "cannot open index '" + db_path + "': " + sqlite3_errmsg(db)};

  try {
    // Prepare and check every statement before the first one runs: nothing
    // is printed for a query that would be refused halfway.
    std::vector<Statement> statements;
    std::vector<bool> used(options.parameters.size(), false);
    std::string_view rest = sql;
    while (!rest.empty()) {
      const std::size_t left = rest.size();
      auto stmt = Statement::prepare_first(db, rest);
      if (!stmt && rest.size() == left)  // SQLite reads no further than a NUL byte
        return Error{Code::query_sql, "the SQL holds a NUL byte (byte " +
                                          std::to_string(sql.size() - left) + "): SQL is text"};
      if (!stmt) continue;  // whitespace or a comment
      if (!stmt.read_only())
        return Error{Code::query_write,
                     "`" + stmt.sql() + "` would write: mapindex query only reads the index"};
      if (auto error = bind_parameters(stmt, options.parameters, used)) return *error;
      statements.push_back(std::move(stmt));
    }
    if (statements.empty()) return Error{Code::query_empty, "no SQL statement given"};
    for (std::size_t i = 0; i < used.size(); ++i)
      if (!used[i])
        return Error{Code::query_parameter,
                     "-p " + options.parameters[i].name +
                         " is given but the SQL has no :" + options.parameters[i].name};

    std::int64_t rows = 0;
    int result_sets = 0;
    for (auto& stmt : statements) {
      const int n = stmt.column_count();
      std::unique_ptr<ResultPrinter> printer;
      if (n > 0) {
        if (format == QueryFormat::table && result_sets > 0) out << '\n';
        ++result_sets;
        printer = make_printer(format, out, options.max_cell_width);
        std::vector<std::string> names;
        for (int i = 0; i < n; ++i) names.push_back(stmt.column_name(i));
        printer->columns(names);
      }
      std::vector<Cell> cells(static_cast<std::size_t>(n));
      try {
        while (stmt.step()) {
          if (!printer) continue;
          for (int i = 0; i < n; ++i) cells[static_cast<std::size_t>(i)] = read_cell(stmt, i);
          printer->row(cells);
          ++rows;
        }
      } catch (const IndexError&) {
        if (printer) printer->finish();
        throw;
      }
      if (printer) printer->finish();
    }
    out.flush();
    return rows;
  } catch (const IndexError&) {
    return failed();
  }
}

}  // namespace mapindex::index
