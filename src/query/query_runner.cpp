#include "query/query_runner.h"

#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <optional>

#include "common/hex.h"
#include "query/dot_command.h"
#include "sqlite/statement.h"

namespace mapindex::query {
namespace {

Cell read_cell(const sqlite::Statement& stmt, int i) {
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
// by its path; SQLite does not say which file when others are attached);
// any other failure (bad SQL, a write query_only refuses) is the query's.
Error sql_error(sqlite3* db, const std::string& path, bool attached) {
  const int primary = sqlite3_extended_errcode(db) & 0xff;
  const bool index_fault = primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB ||
                           primary == SQLITE_IOERR || primary == SQLITE_FULL ||
                           primary == SQLITE_NOMEM || primary == SQLITE_BUSY;
  if (index_fault)
    return Error{sqlite::index_error_code(primary),
                 "index '" + path + "'" + (attached ? " or a database attached to it" : "") + ": " +
                     sqlite3_errmsg(db)};
  return Error{Code::query_sql, sqlite3_errmsg(db)};
}

// The progress handler: a non-zero return interrupts the statement.
int poll_stop(void* stop) { return reinterpret_cast<bool (*)()>(stop)() ? 1 : 0; }

// The statement's text as written, without the ';' that ends it.
std::string text_of(const sqlite::Statement& stmt) {
  std::string text = stmt.sql();
  while (!text.empty() &&
         (text.back() == ';' || std::isspace(static_cast<unsigned char>(text.back()))))
    text.pop_back();
  return text;
}

// Binds every parameter of `stmt` from `parameters`, marking the ones used.
// Throws IndexError when SQLite refuses a value.
std::optional<Error> bind_parameters(sqlite::Statement& stmt,
                                     const std::vector<QueryParameter>& parameters,
                                     std::vector<bool>& used) {
  const int count = stmt.parameter_count();
  for (int i = 1; i <= count; ++i) {
    const std::string full = stmt.parameter_name(i);
    if (full.empty() || full[0] == '?')
      return Error{Code::query_parameter, "`" + text_of(stmt) +
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

// A statement ready to run; `lines`: a dot-command's answer in the table
// format, printed as the sqlite3 shell prints it.
struct Prepared {
  sqlite::Statement stmt;
  bool lines = false;
};

// `sql` from its first character that is neither whitespace nor in a
// comment (-- to the end of the line, /* */).
std::string_view skip_space_and_comments(std::string_view sql) {
  while (!sql.empty()) {
    if (std::isspace(static_cast<unsigned char>(sql.front()))) {
      sql.remove_prefix(1);
    } else if (sql.starts_with("--")) {
      const auto end = sql.find('\n');
      sql.remove_prefix(end == std::string_view::npos ? sql.size() : end + 1);
    } else if (sql.starts_with("/*")) {
      const auto end = sql.find("*/", 2);
      sql.remove_prefix(end == std::string_view::npos ? sql.size() : end + 2);
    } else {
      break;
    }
  }
  return sql;
}

// Notes, while installed, whether a statement prepared is an ATTACH or a
// DETACH (the authorizer SQLite calls while it prepares one).
class AttachWatch {
 public:
  explicit AttachWatch(sqlite3* db) : db_(db) { sqlite3_set_authorizer(db_, note, &seen_); }
  ~AttachWatch() { sqlite3_set_authorizer(db_, nullptr, nullptr); }
  AttachWatch(const AttachWatch&) = delete;
  AttachWatch& operator=(const AttachWatch&) = delete;
  void clear() { seen_ = false; }
  bool seen() const { return seen_; }

 private:
  static int note(void* seen, int action, const char*, const char*, const char*, const char*) {
    if (action == SQLITE_ATTACH || action == SQLITE_DETACH) *static_cast<bool*>(seen) = true;
    return SQLITE_OK;
  }
  sqlite3* db_;
  bool seen_ = false;
};

// The connection's databases in PRAGMA database_list order (main, temp,
// then the attached ones).
std::vector<std::string> database_names(sqlite3* db) {
  std::vector<std::string> names;
  sqlite::Statement list(db, "SELECT name FROM pragma_database_list ORDER BY seq");
  while (list.step()) names.push_back(list.column_text(0));
  return names;
}

// Runs an ATTACH or DETACH while the statements are checked, keeping its
// bindings for when it runs again. Its failure (no such file, not a
// database, a name in use) is the query's, naming the statement.
std::optional<Error> run_now(sqlite::Statement& stmt, bool (*stop)()) {
  try {
    while (stmt.step()) {
    }
  } catch (const sqlite::IndexError&) {
    if (stop && stop()) return Error{Code::query_interrupted, "interrupted"};
    return Error{Code::query_sql,
                 "`" + text_of(stmt) + "`: " + sqlite3_errmsg(sqlite3_db_handle(stmt.get()))};
  }
  sqlite3_reset(stmt.get());
  return std::nullopt;
}

// Detaches every database attached while the statements were checked.
void detach_all(sqlite3* db) {
  std::vector<std::string> attached;
  sqlite::Statement list(db,
                         "SELECT name FROM pragma_database_list WHERE seq >= 2");  // 0 main, 1 temp
  while (list.step()) attached.push_back(list.column_text(0));
  for (const auto& name : attached)
    sqlite::Statement(db, "DETACH DATABASE " + quoted_identifier(name)).run();
}

}  // namespace

Result<std::int64_t> run_query(const std::string& db_path, const std::string& sql,
                               QueryFormat format, std::ostream& out, bool (*stop)()) {
  return run_query(db_path, sql, QueryOptions{.format = format}, out, stop);
}

namespace {

// Prepares and checks every statement before the first one runs: nothing
// is printed for a query that would be refused halfway. An ATTACH or
// DETACH runs as soon as it is prepared, so the statements after it are
// prepared against the databases they will see; once all are checked
// the connection is put back as it was and everything runs in order.
// Sets `attaches` when the SQL attaches databases.
Result<std::vector<Prepared>> prepare_statements(sqlite3* db, const std::string& sql,
                                                 const QueryOptions& options, bool (*stop)(),
                                                 bool& attaches) {
  const QueryFormat format = options.format;
  std::vector<Prepared> statements;
  std::vector<bool> used(options.parameters.size(), false);
  {
    AttachWatch watch(db);
    std::string_view rest = sql;
    while (!(rest = skip_space_and_comments(rest)).empty()) {
      const std::size_t left = rest.size();
      if (rest.front() == '.') {
        const std::size_t end = std::min(rest.find('\n'), rest.find(';'));
        const auto command = rest.substr(0, end);
        rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
        auto select = dot_command_sql(command, database_names(db), format == QueryFormat::table);
        if (!select) return select.error();
        statements.push_back({sqlite::Statement(db, *select), format == QueryFormat::table});
        continue;
      }
      watch.clear();
      auto stmt = sqlite::Statement::prepare_first(db, rest);
      if (!stmt && rest.size() == left)  // SQLite reads no further than a NUL byte
        return Error{Code::query_sql, "the SQL holds a NUL byte (byte " +
                                          std::to_string(sql.size() - left) + "): SQL is text"};
      if (!stmt) continue;  // a lone ';'
      if (!stmt.read_only())
        return Error{Code::query_write,
                     "`" + text_of(stmt) + "` would write: mapindex query only reads the index"};
      if (auto error = bind_parameters(stmt, options.parameters, used)) return *error;
      if (watch.seen()) {
        attaches = true;
        if (auto error = run_now(stmt, stop)) return *error;
      }
      statements.push_back({std::move(stmt), false});
    }
  }
  if (statements.empty()) return Error{Code::query_empty, "no SQL statement given"};
  for (std::size_t i = 0; i < used.size(); ++i)
    if (!used[i])
      return Error{Code::query_parameter,
                   "-p " + options.parameters[i].name +
                       " is given but the SQL has no :" + options.parameters[i].name};
  return statements;
}

// Runs the statements in order and prints each result set; returns the rows
// printed. A SQLite failure throws IndexError (the result set begun is
// finished first).
std::int64_t print_results(std::vector<Prepared>& statements, const QueryOptions& options,
                           std::ostream& out) {
  const QueryFormat format = options.format;
  std::int64_t rows = 0;
  int result_sets = 0;
  for (auto& [stmt, lines] : statements) {
    const int n = stmt.column_count();
    std::unique_ptr<ResultPrinter> printer;
    if (n > 0) {
      if (format == QueryFormat::table && result_sets > 0) out << '\n';
      ++result_sets;
      printer = lines ? make_lines_printer(out) : make_printer(format, out, options.max_cell_width);
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
    } catch (const sqlite::IndexError&) {
      if (printer) printer->finish();
      throw;
    }
    if (printer) printer->finish();
  }
  return rows;
}

}  // namespace

Result<std::int64_t> run_query(const std::string& db_path, const std::string& sql,
                               const QueryOptions& options, std::ostream& out, bool (*stop)()) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(db_path, ec))
    return Error{Code::query_open, "index '" + db_path +
                                       "' does not exist (create it with "
                                       "`mapindex index --db " +
                                       db_path + " ...`)"};
  auto connection = sqlite::open_sqlite_read_only(db_path);
  if (!connection) return connection.error();
  sqlite3* db = connection->get();
  if (stop) sqlite3_progress_handler(db, 1000, poll_stop, reinterpret_cast<void*>(stop));
  bool attaches = false;  // the SQL attaches databases: damage may be theirs
  const auto failed = [&] {
    if (stop && stop()) return Error{Code::query_interrupted, "interrupted"};
    return sql_error(db, db_path, attaches);
  };
  if (sqlite3_exec(db, "PRAGMA query_only = ON; PRAGMA cache_size = -32768", nullptr, nullptr,
                   nullptr) != SQLITE_OK ||
      register_dot_command_functions(db) != SQLITE_OK)
    return Error{Code::query_open, "cannot open index '" + db_path + "': " + sqlite3_errmsg(db)};

  try {
    auto statements = prepare_statements(db, sql, options, stop, attaches);
    if (!statements) return statements.error();
    if (attaches) detach_all(db);
    const std::int64_t rows = print_results(*statements, options, out);
    out.flush();
    return rows;
  } catch (const sqlite::IndexError&) {
    return failed();
  }
}

}  // namespace mapindex::query
